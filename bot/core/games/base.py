"""The interface every game plugin implements.

A game parses and validates the input of its own commands (Marriage: /hand, /maal), scores a
complete hand into per-column deltas, and says what its board columns are. The service around
it owns sessions, storage, undo, edit, rules and the board, so a new game touches only
`bot/core/games/` and the registry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.players import Player, Roster
from bot.core.rules import RuleBook


@dataclass(frozen=True)
class CommandInfo:
    """What /help shows for a command, and the option keys it accepts ("" = free text)."""

    name: str
    summary: str
    usage: str
    details: str = ""
    keys: frozenset[str] = frozenset()


@dataclass
class HandResult:
    """A complete, scored hand."""

    players: list[int]  # seats that took part
    inputs: dict[str, Any]  # what was entered, JSON-ready; /edit starts from it
    deltas: dict[int, int]  # board column -> points in this hand
    summary: str  # one line on who did what, for replies and history


KEEP: Any = object()  # PlayOutcome.pending default: leave the pending hand as it is


@dataclass
class PlayContext:
    command: str
    options: Mapping[str, str]
    roster: Roster  # everybody seated
    hand_players: list[Player]  # who takes part in the hand being entered
    rules: dict[str, Any]
    pending: dict[str, Any] | None
    actor: Actor
    actor_player: Player | None
    mentions: Mapping[str, Actor] = field(default_factory=dict)
    editing: dict[str, Any] | None = None  # inputs of the hand being re-entered by /edit
    state: dict[str, Any] | None = None  # what the game carried over from earlier hands
    totals: Mapping[int, int] = field(default_factory=dict)  # the board's totals so far


@dataclass
class PlayOutcome:
    text: str
    pending: Any = KEEP  # new pending-hand state, None to clear, KEEP to leave as is
    result: HandResult | None = None
    rules: dict[str, Any] | None = None  # replaced rules (e.g. /setmaal)
    state: Any = KEEP  # the game state to carry to the next hand, or KEEP


class Game(ABC):
    key: str
    title: str
    min_players: int
    max_players: int
    rulebook: RuleBook
    commands: Mapping[str, CommandInfo]  # the game's own commands
    result_command: str  # the command /edit re-enters
    glossary: str  # the game's words, explained once in /help
    rules_note: str = ""  # anything /help rules should add about this game's rules
    zero_sum: bool = True  # every hand sums to zero, so the end settles up with transfers
    edit_key: str = "hand"  # /edit hand:3 (Tranca: /edit round:3)
    hand_word: str = "hand"  # what one scored entry is called on the board
    newgame_keys: frozenset[str] = frozenset()  # extra /newgame options (Tranca: teams)
    player_columns: bool = True  # the board's columns are players (not Tranca's sides)
    # Adapters may offer buttons for a hand: the winner, who has seen, then the maal
    # (Marriage's shape; other games are typed).
    seen_flow: bool = False

    def winners(self, hand: Any) -> list[int]:
        """Seats that won a recorded hand, for /stats."""
        winner = hand.inputs.get("winner")
        return [winner] if isinstance(winner, int) else []

    def setup(self, options: Mapping[str, str], players: list[Player],
              named: bool) -> tuple[list[Player], dict[str, Any] | None]:
        """Seat the players for a new game from its extra options, and the initial game
        state. `named`: whether players: was given. By default nothing changes."""
        extra = [k for k in self.newgame_keys if k in options]
        if extra:
            raise UserError(f"{self.title} has no /newgame option {extra[0]}:")
        return players, None

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster) -> str:
        """A line for the board about the game as a whole (Tranca: who passed the target)."""
        return ""

    @abstractmethod
    def play(self, ctx: PlayContext) -> PlayOutcome:
        """Handle one of `commands` (or, with ctx.editing, re-enter a hand). Raises UserError."""

    @abstractmethod
    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> str:
        """One line for the board about a hand that is waiting for input."""

    @abstractmethod
    def waiting_for(self, pending: Mapping[str, Any], rules: Mapping[str, Any]) -> list[int]:
        """Seats whose input a waiting hand still needs."""

    def final_lines(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                    state: Mapping[str, Any] | None, roster: Roster) -> list[str]:
        """Extra lines for /endgame (Riichi: the final scores with uma and oka)."""
        return []

    def columns(self, roster: Roster,
                state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        """Board columns: (key, label). Players by default."""
        return [(p.seat, p.name) for p in roster]
