"""A command, declared once: its name, help, typed options, who may run it and its handler.

Every face is built from these declarations: the Discord command tree, the Telegram command
menu, the console (which reads the same text grammar) and /help. The core's own commands are
declared in `bot/core/assembly/core_commands.py`; a game declares its commands in its own
folder.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from bot.core.i18n.text import Text, _
from bot.core.i18n.words import placeholders
from bot.core.permissions import Rule

if TYPE_CHECKING:
    from bot.core.i18n import Tr


class Kind(StrEnum):
    """What an option takes, so each platform can offer the right input for it."""

    TEXT = "text"
    INT = "int"  # a whole number within low..high
    BOOL = "bool"  # yes or no
    CHOICE = "choice"  # one of `choices`
    PLAYER = "player"  # one seated player, by name or mention
    PLAYERS = "players"  # several seated players
    MEMBER = "member"  # a person on the platform, seated or not (/link)
    FILE = "file"  # a file sent with the command (/import)


@dataclass(frozen=True)
class Option:
    """One option. `key` is what the core reads; "" holds the words after the command name,
    which people may also give as `name:` (so Discord, which needs a name, and the text
    grammar agree)."""

    key: str
    kind: Kind = Kind.TEXT
    help: str = ""
    name: str = ""
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    # What the option is about ("money", "tiles": a word marked for the catalogues), for a
    # platform that must split a game's options (Discord: 25 a command) by what they are about
    topic: str = ""
    # CHOICE: what a word people type means when it is no choice as written (language:pt
    # and pt_br are pt-BR), or None
    reads: Callable[[str], str | None] | None = None
    # TEXT: a number for each player, typed `alice=10 bob=2` (Marriage's maal, a round's
    # points): a form shows a number box on every player's row (bot/core/pad.py); low and
    # high, if given, bound each number there
    each: bool = False

    def __post_init__(self) -> None:
        if not self.key and not self.name:
            raise ValueError("an option for the free words needs a name")
        if self.kind == Kind.INT and (self.low is None or self.high is None):
            raise ValueError(f"INT option {self.label} needs low and high")
        if self.kind == Kind.CHOICE and not self.choices:
            raise ValueError(f"CHOICE option {self.label} needs choices")

    @property
    def label(self) -> str:
        """The name people see and type."""
        return self.key or self.name

    def describe(self, tr: Tr, word: str = "hand") -> str:
        """One line for /help in the language of `tr`: the option, what it takes, and its
        help (`word`: the game's hand word, for {hand} in the core's help)."""
        takes: Text = ""
        if self.kind == Kind.INT:
            takes = _("{low} to {high}", low=tr.number(self.low or 0),
                      high=tr.number(self.high or 0))
        elif self.kind == Kind.BOOL:
            # TRANSLATORS: what a yes/no option takes; people type yes or no
            takes = _("yes or no")
        elif self.kind == Kind.CHOICE:
            takes = " | ".join(self.choices)
        elif self.kind in (Kind.PLAYER, Kind.MEMBER):
            takes = _("a name or @mention")
        elif self.kind == Kind.PLAYERS:
            takes = _("names or @mentions")
        head = f"{self.label}:" if self.key else tr("{option} (or just the words)",
                                                    option=self.label)
        parts = [tr.render(p) for p in (takes,) if p]
        if self.help:
            parts.append(tr.text(self.help, **placeholders(word)))
        line = f"{head} {' - '.join(parts)}"
        return tr("{option} (required)", option=line) if self.required else line


class GameWords(Protocol):
    """A game as a command's text reads it (bot/core/games/base.py's Game is one)."""

    hand_word: str  # what one scored entry is called: {hand} in the declared text


# The games and the core's handlers declare their commands with this vocabulary, so it stands
# below them and names their types in words rather than importing them:
Handler = Callable[[Any], Awaitable[Any]]  # a core command's: Call -> Outcome (handlers/call.py)
Play = Callable[[Any], Any]  # a game's own: PlayContext -> PlayOutcome (games/base.py)
Derive = Callable[[Any], tuple[Option, ...]]  # the chat's Game -> the options it adds


class Needs(StrEnum):
    GAME = "game"  # the chat's open game
    NOTHING = "nothing"  # works with no game open (help, settings, stats, newgame...)


@dataclass(frozen=True)
class CommandSpec:
    """A command as people use it. A core command has `run`; a game's command has `play`
    (the game's pure handler) and is run by the core's game-command handler. `derive` adds
    options that depend on the chat's game (/rules takes that game's rule keys)."""

    name: str
    summary: str
    usage: str
    details: str = ""
    options: tuple[Option, ...] = ()
    may: Rule = Rule.ANYONE
    needs: Needs = Needs.GAME
    run: Handler | None = None
    play: Play | None = None
    game: str | None = None  # the game that declares it; None: the core, for every game
    records: bool = False  # records a hand (round, result): /edit re-enters the game's one
    confirm: bool = False  # changes what can't be typed back: platforms with buttons ask first
    flow: bool = False  # with no options, platforms with buttons offer taps instead
    derive: Derive | None = None
    usage_for: Callable[[Any], str] | None = None  # a usage that depends on the chat's Game
    hidden: bool = False  # answered, but not in menus or the help list (/start)
    free_view: bool = False  # with no options it only shows: anyone may (/rules, /settings)
    read_only: bool = False  # never writes: its transaction waits for no writer
    # On a whole-hand form (the scorepad, Discord's form): None, the command that records
    # (records); True for a game's other result commands (Riichi's /tsumo, Call Break's /bid)
    pad: bool | None = None
    # A form with room for few controls (Discord's: five) shows these options first, where
    # the declared order would put the wrong ones first; the rest are typed in one field
    form_rows: tuple[str, ...] = ()

    @property
    def on_pad(self) -> bool:
        return self.records if self.pad is None else self.pad

    def option(self, label: str) -> Option | None:
        for option in self.options:
            if option.label == label or option.key == label:
                return option
        return None

    def for_game(self, game: GameWords) -> CommandSpec:
        """This command as it stands in a chat playing `game`: derived options filled in.
        Its text is shown with `spec_text`, which says "hand" in the game's own word."""
        spec = self
        if self.derive is not None:
            extra = self.derive(game)
            taken = {o.label for o in self.options}
            spec = replace(spec, options=self.options + tuple(o for o in extra
                                                              if o.label not in taken),
                           derive=None)
        if self.usage_for is not None:
            spec = replace(spec, usage=self.usage_for(game), usage_for=None)
        return spec

    def accepted(self) -> Text:
        """The options it takes, as people type them, for error messages."""
        labels = [f"{o.label}:" for o in self.options if o.key] + [
            f"{o.label}" for o in self.options if not o.key]
        # TRANSLATORS: what a command that takes no options takes
        return ", ".join(labels) or _("no options")


def spec_text(tr: Tr, text: str, game: GameWords | None = None) -> str:
    """A command's declared text (summary, usage, details, an option's help) as shown in a
    chat playing `game`, in the language of `tr`: the core's {hand} placeholders say the
    game's own word (a Tranca "round", a Riichi "result")."""
    if not text:
        return ""
    return tr.text(text, **placeholders(game.hand_word if game is not None else "hand"))


def describe_kind(option: Option) -> dict[str, Any]:
    """An option as plain data (tests and tools that print the table)."""
    return {"key": option.key, "label": option.label, "kind": str(option.kind),
            "required": option.required, "low": option.low, "high": option.high,
            "choices": list(option.choices), "each": option.each}
