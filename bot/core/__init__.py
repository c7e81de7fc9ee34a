"""The platform-free core: commands in, replies out."""

from bot.core.command import Actor, Command, Reply
from bot.core.errors import UserError

__all__ = ["Actor", "Command", "Reply", "UserError"]
