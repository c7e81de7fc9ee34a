"""Discord: discord.py slash commands, components and modals, mapped onto the core."""

from bot.discord_adapter.adapter import DiscordAdapter

__all__ = ["DiscordAdapter"]
