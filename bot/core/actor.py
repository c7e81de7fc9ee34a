"""Who sent a command (Actor). A file of its own, below the seats, permissions and games that
speak of people, so none of them needs the command and reply around it (bot/core/command.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """A person sending a command.

    `id` is platform-qualified and stable ("telegram:123", "discord:456", "console:alice");
    `name` is how the platform shows them and may contain anything.
    """

    id: str
    name: str
    is_admin: bool = False
    handles: tuple[str, ...] = ()  # other names they go by, e.g. a Telegram @username
    # The console knows people only by the name they type ("bob: /maal 5"): there, a seat
    # of that name is theirs. On the chat platforms a seat is someone's only by account.
    by_name: bool = False
