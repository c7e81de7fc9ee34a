"""The interface every game plugin implements.

A game declares its own commands (with their options and who may run them) in its folder,
reads and checks the input of those commands, scores a complete hand into per-column deltas
and says what its board columns are. The core around it owns sessions, storage, undo, edit,
rules, the board and the command table, so a new game is its folder plus one registry line.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from bot.core.actor import Actor
from bot.core.commands.spec import CommandSpec, Option
from bot.core.errors import UserError
from bot.core.i18n.text import Example, Msg, Text, _
from bot.core.players import Player, Roster, check_name, look_alike
from bot.core.points import value as points_value
from bot.core.rules import RuleBook


@dataclass
class HandResult:
    """A complete, scored hand."""

    players: list[int]  # seats that took part
    inputs: dict[str, Any]  # what was entered, JSON-ready; /edit starts from it
    deltas: dict[int, int]  # board column -> points in this hand (units of 10^-point_places)
    summary: Text  # one line on who did what (a message: kept, shown in any language)


Seat = Callable[[list[str]], list[Player]]  # names as typed -> seated players, in order


def seated(order: list[str], seat: Seat | None) -> list[Player]:
    """The players of a game that seats them from an option of its own (sides): as
    players: seats them where the core gives `seat` (@bob is bob's account), else by name,
    every name reading differently."""
    if seat is not None:
        return seat(order)
    names = [check_name(n) for n in order]
    if any(look_alike(a, b) for i, a in enumerate(names) for b in names[:i]):
        raise UserError(_("Every player needs a name that reads differently."))
    return [Player(seat=i, name=n) for i, n in enumerate(names, 1)]
KEEP: Any = object()  # PlayOutcome.pending default: leave the waiting hand as it is


@dataclass
class PlayContext:
    command: str
    options: Mapping[str, str]
    roster: Roster  # everybody seated
    hand_players: list[Player]  # who takes part in the hand being entered
    rules: dict[str, Any]
    pending: dict[str, Any] | None  # the game's entry of a waiting hand
    actor: Actor
    actor_player: Player | None  # the sender's own seat (linked to their account)
    mentions: Mapping[str, Actor] = field(default_factory=dict)
    editing: dict[str, Any] | None = None  # inputs of the hand being re-entered by /edit
    state: dict[str, Any] | None = None  # what the game carried over from earlier hands
    totals: Mapping[int, int] = field(default_factory=dict)  # the board's totals so far

    def example(self, text: str, fit: Callable[[str], str] | None = None) -> Example:
        """A usage example (a command's declared usage, so a catalogue message) with the
        table's own players' names (not alice and bob), in the language shown; `fit`, where
        given, first makes the translated usage run at this table (a game's `fit_usage`)."""
        return Example(text, tuple(p.name for p in self.roster), fit)


@dataclass
class PlayOutcome:
    text: Text  # lazy text (bot.core.i18n): the core renders it in the reply's language
    pending: Any = KEEP  # new waiting-hand entry, None to clear, KEEP to leave as is
    result: HandResult | None = None
    rules: dict[str, Any] | None = None  # replaced rules (e.g. /setmaal)
    state: Any = KEEP  # the game state to carry to the next hand, or KEEP


@dataclass(frozen=True)
class Placing:
    """Where a column finished a game: its place (1 is first), its final result as /stats
    adds it up, whether it won the game, and whether it went below zero (Riichi's bust)."""

    place: int
    result: Decimal
    won: bool | None = None  # None: won is first place
    bust: bool = False

    @property
    def winner(self) -> bool:
        return self.place == 1 if self.won is None else self.won


class Game(ABC):
    key: str
    title: str
    min_players: int
    max_players: int
    rulebook: RuleBook
    glossary: str  # the game's words, explained once in /help
    rules_note: str = ""  # anything /help rules should add about this game's rules
    zero_sum: bool = True  # every hand sums to zero, so the end settles up with transfers
    edit_key: str = "hand"  # /edit hand:3 (Tranca: /edit round:3)
    edit_example: str = ""  # /help edit's usage; "" derives it from the result command's
    rules_example: str = ""  # /help rules's usage with the game's own rules; "" the core's
    hand_word: str = "hand"  # what one scored entry is called on the board
    newgame_options: tuple[Option, ...] = ()  # extra /newgame options (Tranca: teams)
    seats_fixed: str = ""  # why nobody can /join once the game is set up (Tranca: sides)
    # why nobody new can /join once an entry is recorded (Riichi: the scores add up to the
    # players times the start, and a seat that joined late would start from nothing)
    seats_set_by_play: str = ""
    # why nobody can /sitout: the game scores every seat in every hand (Riichi) or its sides
    # (Tranca), so a seat sitting out would still be scored
    no_sitting_out: str = ""
    player_columns: bool = True  # the board's columns are players (not Tranca's sides)
    point_places: int = 0  # decimals of a score: deltas are kept in units of 10^-places
    # /stats ranks a game's players by "points" (the sum of hands), "results" (the final
    # results of finished games: Riichi's uma and oka) or "wins" (games won: Tranca's race)
    ranked_by: str = "points"
    # Money from the final results at the end (Riichi: a result point is 1,000 table
    # points, uma and oka included), not hand by hand: the board shows none meanwhile.
    money_at_end: bool = False
    # ... paid by place rather than by point (a game of points with per_place: first place
    # gets its share at the rate, and so on): /endgame says the shares, not "a point"
    money_by_place: bool = False
    # Money from each score less the table's average (Call Break: scores don't sum to zero,
    # as each player scores alone), so money sums to zero and the end settles up. Every
    # hand has every column (a player sitting out scores 0), so the average of the totals
    # at one rate is the sum of each hand's average: the book keeps points x rate and the
    # average is taken where money is read (money.against_average).
    money_against_average: bool = False
    # The lowest total wins (Hearts, Dhumbal): money against the average is the average
    # less each score, and the places read the totals from low to high.
    lowest_wins: bool = False
    # The name a table gave the game it plays (the points game's name:Uno), as `as_played`
    # sets it: /stats and seasons keep each name apart, never adding Uno's points to Hearts'.
    variant: str = ""
    # Platforms with buttons may offer taps for a hand: the winner, who has seen, then the
    # input still missing (Marriage's shape; other games are typed).
    seen_flow: bool = False
    waiting_input: str = ""  # what a waiting hand asks each player for ("maal"), if anything
    waiting_command: str = ""  # the command that gives it (/maal): a typed answer becomes one

    def __init__(self) -> None:
        self.commands: tuple[CommandSpec, ...] = tuple(
            spec if spec.game == self.key else _owned(spec, self.key)
            for spec in self.declare())
        recording = [s for s in self.commands if s.records]
        if len(recording) != 1:
            raise TypeError(f"{self.key}: exactly one command records a hand (records=True)")
        self.result_spec = recording[0]

    @abstractmethod
    def declare(self) -> tuple[CommandSpec, ...]:
        """The game's own commands: specs whose `play` is one of this game's methods."""

    @property
    def result_command(self) -> str:
        return self.result_spec.name

    def edit_options(self) -> tuple[Option, ...]:
        """What /edit may change in a recorded hand: by default, the result command's."""
        return self.result_spec.options

    def reenter(self, ctx: PlayContext) -> PlayOutcome:
        """Re-enter a recorded hand for /edit (ctx.editing holds its inputs)."""
        assert self.result_spec.play is not None
        return self.result_spec.play(ctx)

    def rescore(self, ctx: PlayContext) -> PlayOutcome | None:
        """Score a recorded hand again, unchanged, from its inputs (ctx.editing), with the
        state and totals carried into it (ctx.state, ctx.totals): after /edit of an earlier
        hand, every later hand is re-derived this way. None: the hand depends on nothing
        before it and stays as recorded (the default). Raise UserError when the hand can no
        longer stand after the change (the edit is then refused)."""
        return None

    def fit_usage(self, command: str, usage: str, rules: Mapping[str, Any], roster: Roster,
                  state: Mapping[str, Any] | None) -> str:
        """A command's usage as shown (translated; its examples three spaces apart) made to
        run as written at a table of `roster` playing these rules, still in the example
        names (examples.personal swaps in the table's after): a game whose rules change what
        a command takes (winner: in a game of points where the winner takes the others')
        drops the examples its rules refuse, and one that takes a number from everybody
        gives one for each. As declared by default."""
        return usage

    def usage_example(self, ctx: PlayContext, spec: CommandSpec | None = None) -> Example:
        """A command's usage (the recording one's by default) as an example that runs as
        written at the table of `ctx`, in the language shown (for a refusal)."""
        shown = spec or self.result_spec
        return ctx.example(shown.usage, lambda usage: self.fit_usage(
            shown.name, usage, ctx.rules, ctx.roster, ctx.state))

    def unused(self, command: str, rules: Mapping[str, Any]) -> frozenset[str]:
        """The options of `command` that these rules leave nothing to do (a game of points'
        winner: where the winner takes nothing): a form leaves them out. None by default."""
        return frozenset()

    def unfinished(self, rules: Mapping[str, Any], state: Mapping[str, Any] | None,
                   roster: Roster) -> Text | None:
        """Where a game that ends by its own rules stands, while it has more to play (a
        Riichi hanchan before its last hand): /endgame then asks first, everywhere. None:
        over, or a game that ends when the table says (the default)."""
        return None

    def brief_rules(self, rules: Mapping[str, Any], players: int) -> list[tuple[str, Text]]:
        """The rules a short summary shows (/newgame, a change) for a table of this many
        players: by default the rulebook's headline and whatever differs from the
        defaults."""
        return self.rulebook.brief(rules)

    def check_rules(self, rules: Mapping[str, Any], players: int,
                    state: Mapping[str, Any] | None = None) -> None:
        """Refuse rules that each parse alone but can't be played at a table of this many
        players (Riichi: a noten payment three players can't share in 100-point sticks), or
        in the game as it stands (`state`: the points game's sides, who wins once a round
        is in). By default every rule set the rulebook accepts can be played."""
        return None

    @property
    def money_sign(self) -> int:
        """1: a higher score is worth more money; -1: a lower one (the lowest total wins)."""
        return -1 if self.lowest_wins else 1

    def as_played(self, rules: Mapping[str, Any],
                  state: Mapping[str, Any] | None) -> Game:
        """This game as one table plays it, where its rules or set-up change what the core
        reads of it (the points game: its name, its sides, who wins, how money is paid):
        a Game whose attributes say so. Itself by default."""
        return self

    def for_session(self, rules: Mapping[str, Any],
                    state: Mapping[str, Any] | None) -> Game:
        """`as_played` with a session's stored rules (completed with the defaults)."""
        return self.as_played(self.rulebook.complete(rules), state)

    @property
    def stats_key(self) -> str:
        """What /stats keeps a game's numbers under: the game, and the name a table gave
        it (`variant`)."""
        return f"{self.key}:{self.variant}" if self.variant else self.key

    def waiting_before(self, hand: Any) -> dict[str, Any] | None:
        """What was waiting when a recorded hand was entered and went into it (Riichi: the
        declared riichi), so undoing the hand puts it back. None: nothing (the default)."""
        return None

    def summary_of(self, ctx: PlayContext) -> Text | None:
        """A recorded hand's summary from what it keeps (ctx.editing: its inputs; ctx.state,
        ctx.rules), for a game whose hands neither `rescore` nor `reenter` with nothing
        changed can give it: a summary is derived when shown (bot/core/summaries.py).
        None (the default): from `rescore`, else `reenter`."""
        return None

    def closing(self, ctx: PlayContext) -> HandResult | None:
        """What the game still owes when it ends (/endgame), as one last hand to record:
        Marriage's foul waiting to be charged with the next hand. ctx.state is the game
        state, ctx.hand_players who is playing. None: nothing is owed."""
        return None

    def winners(self, hand: Any) -> list[int]:
        """Seats that won a recorded hand, for /stats."""
        winner = hand.inputs.get("winner")
        return [winner] if isinstance(winner, int) else []

    def hand_records(self, hand: Any, roster: Roster,
                     said: Callable[[], str]) -> list[tuple[int, Decimal, Text]]:
        """How big a recorded hand was for each seat that won it, as a club's records
        measure hands: (seat, size, how the hand is named; "" names it by its points).
        `said`: the hand's summary in English, for a game that reads it. By default the
        points the winner made in it (Marriage: the biggest hand won)."""
        if not self.player_columns:
            return []  # a side's hand is no one person's
        return [(seat, points_value(hand.deltas.get(seat, 0), self.point_places), "")
                for seat in self.winners(hand) if hand.deltas.get(seat, 0) > 0]

    def fouled(self, hand: Any) -> list[int]:
        """Seats that fouled in a recorded hand (Marriage's fouls; a misdeal is fouls and
        no winner): the scoreboard marks them. None by default."""
        fouls = hand.inputs.get("fouls")
        return [s for s in fouls if isinstance(s, int)] if isinstance(fouls, list) else []

    def column_players(self, roster: Roster,
                       state: Mapping[str, Any] | None) -> dict[int, list[int]]:
        """The seats each board column scores for (Tranca: a side's players), so /stats
        can follow a person through a column."""
        return {p.seat: [p.seat] for p in roster}

    def placings(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                 state: Mapping[str, Any] | None, roster: Roster) -> dict[int, Placing]:
        """Each column's place and final result in a finished game, for /stats: by total
        points, tied totals sharing the better place; a game with a final score of its own
        (Riichi's uma and oka) says so here."""
        columns = [key for key, _ in self.columns(roster, state)]
        return {key: Placing(1 + sum(totals.get(other, 0) > totals.get(key, 0)
                                     for other in columns),
                             points_value(totals.get(key, 0), self.point_places))
                for key in columns}

    def end_points(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                   state: Mapping[str, Any] | None, roster: Roster) -> dict[int, int] | None:
        """Each column's points as a tournament scores them at the game's end, where they
        are not the game's totals (Riichi: the score, its start included, leftover sticks
        to the first); None: the totals."""
        return None

    def setup(self, options: Mapping[str, str], players: list[Player], named: bool,
              seat: Seat | None = None) -> tuple[list[Player], dict[str, Any] | None]:
        """Seat the players for a new game from its extra options, and the initial game
        state. `named`: whether players: was given; `seat`: seats names as players: does
        (a mention is that account, @name a username's seat, look-alikes refused), for a
        game that seats from an option of its own. By default nothing changes."""
        extra = [o.key for o in self.newgame_options if o.key in options]
        if extra:
            raise UserError(_("{game} has no /newgame option {key}:", game=Msg(self.title),
                              key=extra[0]))
        return players, None

    def deal_problem(self, players: int, rules: Mapping[str, Any]) -> Text:
        """Why a deal to `players` can't be made with these rules (the packs can't hold it),
        naming the rule that fits; "" when it can. Said at /newgame and /join, refused on
        a hand."""
        return ""

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster, ended: bool = False) -> Text:
        """A line for the board about the game as a whole (Tranca: who passed the target);
        `ended`: the game is over, so the line tells nobody what to do next."""
        return ""

    @abstractmethod
    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        """One line for the board about a hand that is waiting for input."""

    def waiting_for(self, pending: Mapping[str, Any], rules: Mapping[str, Any]) -> list[int]:
        """Seats whose input (`waiting_input`) a waiting hand still needs."""
        return []

    def final_lines(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                    state: Mapping[str, Any] | None, roster: Roster) -> list[Text]:
        """Extra lines for /endgame (Riichi: the final scores with uma and oka)."""
        return []

    def columns(self, roster: Roster,
                state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        """Board columns: (key, label). Players by default."""
        return [(p.seat, p.name) for p in roster]

    def chart_columns(self, roster: Roster,
                      state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        """The columns as a chart's legend names them (Tranca: a side with its players)."""
        return self.columns(roster, state)

    def goal(self, rules: Mapping[str, Any],
             state: Mapping[str, Any] | None) -> tuple[float, Text] | None:
        """A total to reach, drawn on the chart (Tranca's target), if the game has one."""
        return None


def _owned(spec: CommandSpec, game: str) -> CommandSpec:
    return replace(spec, game=game)
