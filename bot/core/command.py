"""What adapters hand to the core (Command) and what they get back (Reply)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


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


@dataclass(frozen=True)
class Command:
    """One command: `options` maps option names to raw text; "" holds text before any key."""

    chat: str
    actor: Actor
    name: str
    options: Mapping[str, str] = field(default_factory=dict)
    origin_id: str | None = None
    # Platform mentions in the options ("<@123>", "@ram") mapped to the person they name,
    # so a player can be bound to a real account when a game starts.
    mentions: Mapping[str, Actor] = field(default_factory=dict)
    attachment: bytes | None = None  # a file sent with the command (/import)


@dataclass(frozen=True)
class Attachment:
    """A file to send with a reply: a chart (image) or an export (document)."""

    name: str
    data: bytes
    kind: str = "document"  # or "image"


@dataclass
class Reply:
    """What to show. `table` is a preformatted monospace block; `board` is structured data."""

    text: str
    ok: bool = True
    table: str | None = None
    board: dict[str, Any] | None = None
    duplicate: bool = False  # the command was already handled; this is the earlier answer
    file: Attachment | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "error": self.text}
        out: dict[str, Any] = {"ok": True, "text": self.text}
        if self.table is not None:
            out["table"] = self.table
        if self.board is not None:
            out["board"] = self.board
        if self.duplicate:
            out["duplicate"] = True
        return out

    @classmethod
    def error(cls, message: str) -> Reply:
        return cls(text=message, ok=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reply:
        if not data.get("ok"):
            return cls.error(str(data.get("error", "")))
        return cls(
            text=str(data.get("text", "")),
            table=data.get("table"),
            board=data.get("board"),
        )
