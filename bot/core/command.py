"""What adapters hand to the core (Command) and what they get back (Reply)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.core.actor import Actor

if TYPE_CHECKING:
    from bot.core.board import BoardView
    from bot.core.flows import Question


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
    # a file sent with the command (/import): its bytes, or the console's file (an export
    # of a million hands is read from it, never held whole)
    attachment: bytes | Path | None = None
    # The person whose message this command answers (a Telegram reply): /seat bob sent in
    # reply to Bob's message gives him the seat, @username or not.
    replied: Actor | None = None
    # The platform can show buttons: a destructive command asks first, /hand offers taps.
    buttons: bool = False
    # Sent whole from a form (Discord's whole-hand form): what is left empty was left empty
    # on purpose, so /hand offers no taps for it (a winner alone is a hand nobody else saw)
    form: bool = False
    # What a confirmation tap was about ({"session": id, "hand": no, "version": the
    # session's version when asked}; a payment's: {"session": 0, "hand": its id}): refused
    # if the table has changed since it was asked.
    expect: Mapping[str, int] | None = None
    # The game the sender addressed (a Discord subcommand per game): refused in another's chat.
    game: str | None = None
    # The sender's language as the platform reports it (Telegram's language_code, a Discord
    # interaction's locale): the reply's language when the chat has not set one.
    locale: str | None = None
    # Where long work (an /import of many hands) says how far it has got: a platform that
    # can show a line meanwhile gives one (the console prints it); None: the reply only.
    progress: Callable[[str], Awaitable[None]] | None = field(default=None, compare=False)
    # The chat's name as the platform shows it (a Telegram group's title, a Discord
    # channel's and server's name; the console's --chat): a club names its tables so.
    chat_name: str | None = None
    # The platform can show this reply to its sender alone (a Discord interaction's
    # ephemeral answer, a private chat, the console): a code for one person goes only so.
    private: bool = False


@dataclass(frozen=True)
class Attachment:
    """A file to send with a reply: a chart (image) or an export (document)."""

    name: str
    data: bytes
    kind: str = "document"  # or "image"


@dataclass
class Reply:
    """What to show. `table` is a preformatted monospace block; `board` the board as data;
    `question` something to answer by tapping or typing, which each platform renders."""

    text: str
    ok: bool = True
    table: str | None = None
    board: BoardView | None = None
    duplicate: bool = False  # the command was already handled; this is the earlier answer
    file: Attachment | None = None
    question: Question | None = None
    in_place: bool = False  # an answer to a tap: it replaces the message that asked
    # The chat's game changed (to this key; "" for none): a platform may refresh its menu.
    menu: str | None = None
    # The board changed: the short line for the chat when the board lives in a message of
    # its own, and the session whose live board the platform should bring up to date.
    brief: str | None = None
    publish: int | None = None
    language: str = "en"  # what the text is in: a platform renders its own buttons in it
    # The table's scorepad (its link's token, bot/core/pages.py): a face that opens it shows
    # a button for it (Telegram: its Mini App; the console: the page's address)
    pad: str | None = None
    # For the sender's eyes only (a one-time code): Discord answers it ephemerally; a
    # platform sends it only where no one else reads (Command.private).
    private: bool = False
    # A private chat with the bot to open, with what it should say there first (Telegram: a
    # t.me/<bot>?start=<this> button): where a group can't be shown what is one person's
    start_private: str | None = None
    # What to show in other chats (a club's tables: a tournament's standings, a game begun
    # there): the service posts each through that chat's platform, never the adapter that
    # answers this reply
    posts: list[tuple[str, Reply]] = field(default_factory=list)
    # A refusal's About (bot/core/errors.py), in the reply's language: {"options": [...],
    # "players": [...], "said": its words on a form}, for a face that shows it beside them
    about: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "error": self.text, "language": self.language}
        out: dict[str, Any] = {"ok": True, "text": self.text, "language": self.language}
        if self.table is not None:
            out["table"] = self.table
        if self.board is not None:
            out["board"] = self.board.to_json()
        if self.duplicate:
            out["duplicate"] = True
        return out

    @classmethod
    def error(cls, message: str, language: str = "en",
              about: dict[str, Any] | None = None) -> Reply:
        return cls(text=message, ok=False, language=language, about=about)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reply:
        language = str(data.get("language") or "en")
        if not data.get("ok"):
            return cls.error(str(data.get("error", "")), language)
        from bot.core.board import BoardView

        board = data.get("board")
        return cls(
            text=str(data.get("text", "")),
            table=data.get("table"),
            board=BoardView.from_json(board) if isinstance(board, Mapping) else None,
            language=language,
        )
