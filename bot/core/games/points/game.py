"""A game of points as a game plugin: any game scored by each player's points a round.

The table says what it plays with its rules (bot/core/games/points/rules.py): who wins on
the total (wins:high|low), where it ends (target:N with at_target:ends or eliminates,
rounds:N), its name (name:Uno), and how a round is scored (winner_takes, zero_sum, moon,
show_penalty). Presets set the keys of Hearts, Uno, Rummy 500 and Dhumbal from the rule
pages in docs/rules/. Everything around the rounds (undo, edit, the board, /chart, /stats,
seasons, money, export) is the core's, as for every game; the name and the money (per
point against the table's average, or per place at the end) follow the rules through
`as_played`. Dhumbal, a game of its own, is this game with Dhumbal's rule keys
(bot/core/games/dhumbal/).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import About, UserError
from bot.core.examples import example_names, for_each, personal
from bot.core.games.base import (
    Game,
    HandResult,
    Placing,
    PlayContext,
    PlayOutcome,
    Seat,
    seated,
)
from bot.core.games.points import entry
from bot.core.games.points.entry import LETTERS, Columns
from bot.core.games.points.rules import RULEBOOK, per_place
from bot.core.games.points.scoring import NO, Round, Scoring, score_round
from bot.core.games.points.standings import (
    Outcome,
    Race,
    knocked_out,
    outcome,
    place_shares,
    places,
)
from bot.core.grammar import split_list
from bot.core.i18n import Msg, Num, Text, _, join
from bot.core.permissions import Rule
from bot.core.players import Player, Roster
from bot.core.points import value as points_value

ROUND_USAGE = ("/round asha=12 bikash=-3 chetan=0   /round winner:asha bikash=12 chetan=7"
               "   /round 12 -3 0 (seat order)")
ROUND_DETAILS = (
    "Each player's points for the round, as name=number pairs or one number each in seat "
    "order (as /players lists them); with sides, a side by its letter (A=12) or one of its "
    "players. Every player playing gives points, unless /rules missing:zero counts a "
    "player left out as 0. With winner_takes, winner:NAME and the others' points: the "
    "winner takes them (yes) or scores them (sum). With shows (show_penalty), show:NAME "
    "and every hand: the show holds if every other hand is higher. After the last round, "
    "or when a total reaches the target, the game is over: /endgame, then /newgame."
)
POINTS = Option("", Kind.TEXT, "each player's points: asha=12 bikash=-3, or 12 -3 0 in seat "
                "order", name="points", each=True, low=-entry.MAX_POINTS,
                high=entry.MAX_POINTS)
WINNER = Option("winner", Kind.PLAYER, "who won the round, where the winner takes the "
                "others' points (winner_takes)")
SHOW = Option("show", Kind.PLAYER, "who showed (ended the round): it holds if every other "
              "hand is higher")
TEAMS = Option("teams", Kind.TEXT, "sides, each joined by +: asha+chetan bikash+dev")
GLOSSARY = (
    "Points words: round = one deal, each player's points typed after it; target = the "
    "total where the game ends (at_target:ends) or a player is out (at_target:eliminates); "
    "winner_takes = a round with winner:NAME, the others' points going to the winner; show "
    "= ending a round with a low hand (Dhumbal, Yaniv): it holds if every other hand is "
    "higher, else the hand scores a penalty on top; moon = all of a round's points to one "
    "player (Hearts)."
)
RULES_NOTE = (
    "A preset sets only the keys it names: hearts (hearts-online.org), uno (the published "
    "Uno scoring), rummy500 (pagat's 500 Rummy), dhumbal (Wikipedia's Jhyap). Played for "
    "money, each player gets their score less the table's average (the average less the "
    "score where the lowest wins) at each round's rate; per_place pays by place at the end "
    "instead."
)
SEATS_FIXED = ("The sides are set when the game starts: /endgame, then /newgame points "
               "teams:... with everyone on a side.")
NO_SITTING_OUT = ("A side scores as one, so nobody sits out: /endgame, then /newgame points "
                  "teams:... with the sides playing now.")
MAX_KEPT_VARIANTS = 256


@dataclass(frozen=True)
class Table:
    """What the rules make of a game of points: how a round scores, where it ends."""

    scoring: Scoring
    race: Race
    missing_zero: bool = False
    name: str = ""
    shares: tuple[int, ...] = ()  # money per place at the end (per_place)


@dataclass
class State:
    """Carried from round to round: the sides, the rounds played, who is out (column ->
    the round it went out in), and who wins, fixed by the first round."""

    sides: list[list[int]] = field(default_factory=list)
    played: int = 0
    out: dict[int, int] = field(default_factory=dict)
    wins: str = ""

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> State:
        data = data or {}
        return cls([list(s) for s in data.get("sides", [])], int(data.get("played", 0)),
                   {int(k): int(v) for k, v in (data.get("out") or {}).items()},
                   str(data.get("wins") or ""))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"played": self.played,
                                "out": {str(k): v for k, v in sorted(self.out.items())}}
        if self.sides:
            data["sides"] = self.sides
        if self.wins:
            data["wins"] = self.wins
        return data


@dataclass
class Entry:
    """A round as kept: the points typed per column, who won or showed, the columns in the
    round and the columns of the game then, and the seats that won it (for /stats)."""

    points: dict[int, int]
    winner: int | None
    show: int | None
    round: list[int]
    columns: list[int]
    gone: list[int] = field(default_factory=list)  # the columns out of the game by then
    won: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Entry:
        return cls({int(k): int(v) for k, v in data.get("points", {}).items()},
                   data.get("winner"), data.get("show"), list(data.get("round", [])),
                   list(data.get("columns", [])), list(data.get("gone", [])),
                   list(data.get("won", [])))

    def to_json(self) -> dict[str, Any]:
        return {"points": {str(k): v for k, v in self.points.items()},
                "winner": self.winner, "show": self.show, "round": self.round,
                "columns": self.columns, "gone": self.gone, "won": self.won}


class PointsGame(Game):
    key = "points"
    title = "Points"
    min_players = 2
    max_players = 10
    rulebook = RULEBOOK
    glossary = GLOSSARY
    rules_note = RULES_NOTE
    zero_sum = False  # a round adds up to anything: money is taken against the average
    money_against_average = True
    edit_key = "round"
    hand_word = "round"
    ranked_by = "wins"  # /stats: games won; points of different games are never added
    newgame_options = (TEAMS,)
    rules_example = "/rules preset:hearts   /rules wins:low target:100 name:Hearts"
    # what each example of /round's usage is, in order: one number each as pairs, the
    # winner's and the others', one number each in seat order (a show: show:NAME and pairs)
    round_forms: tuple[str, ...] = ("pairs", "winner", "seats")
    # the points ride on points: in /edit (free words after round:3 would be its value)
    edit_example = "/edit round:3 points:asha=12 bikash=-3"

    def __init__(self) -> None:
        super().__init__()
        self._variants: dict[tuple[Any, ...], PointsGame] = {}

    # --- what the rules make of the game ----------------------------------------------------

    def table_of(self, rules: Mapping[str, Any]) -> Table:
        """The rules as the engine reads them (Dhumbal maps its own keys onto the same)."""
        return Table(
            Scoring(winner_takes=rules["winner_takes"], zero_sum=rules["zero_sum"],
                    moon=rules["moon"], moon_to=rules["moon_to"],
                    show_penalty=rules["show_penalty"], show_max=rules["show_max"]),
            Race(lowest_wins=rules["wins"] == "low", target=rules["target"],
                 rounds=rules["rounds"], eliminates=rules["at_target"] == "eliminates"),
            missing_zero=rules["missing"] == "zero", name=str(rules.get("name") or ""),
            shares=tuple(per_place(dict(rules))))

    def as_played(self, rules: Mapping[str, Any],
                  state: Mapping[str, Any] | None) -> Game:
        """The game as this table plays it: its name, its sides, who wins, and its money
        (per point against the table's average, the lowest-wins way round where the lowest
        wins; or per place at the end)."""
        table = self.table_of(rules)
        sides = bool(State.of(state).sides)
        key = (table.name, sides, bool(table.shares), table.race.lowest_wins)
        played = self._variants.get(key)
        if played is None:
            if len(self._variants) >= MAX_KEPT_VARIANTS:
                self._variants.clear()
            played = copy.copy(self)
            played.title = table.name or type(self).title
            played.variant = table.name.casefold()
            played.player_columns = not sides
            played.seats_fixed = SEATS_FIXED if sides else ""
            played.no_sitting_out = NO_SITTING_OUT if sides else ""
            played.money_at_end = played.money_by_place = bool(table.shares)
            played.money_against_average = not table.shares
            played.lowest_wins = table.race.lowest_wins
            self._variants[key] = played
        return played

    def fit_usage(self, command: str, usage: str, rules: Mapping[str, Any], roster: Roster,
                  state: Mapping[str, Any] | None) -> str:
        """/round's examples as this table types them: the winner's where the winner takes
        the others' points, else the others (a show only where shows are played), with a
        number for every player, or every side by its letter; /edit's with the sides'
        letters."""
        sides = State.of(state).sides
        ways = usage.split("   ")
        if command not in ("round", "edit") or len(roster) < 2:
            return usage
        if sides:  # a side is named by its letter: winner:A B=12
            letters = list(LETTERS[:len(sides)])
            ways, names = [personal(way, letters) for way in ways], letters
        else:
            names = example_names(usage, len(roster))
        if command == "edit" or len(ways) != len(self.round_forms):
            return "   ".join(ways)
        scoring = self.table_of(rules).scoring
        if scoring.winner_takes != NO:
            wanted = {"winner"}
        else:
            wanted = {"pairs", "seats"} | ({"show"} if scoring.show_penalty else set())
        return "   ".join(for_each(way, names[1:] if form == "winner" else names)
                           for form, way in zip(self.round_forms, ways, strict=True)
                           if form in wanted)

    def unused(self, command: str, rules: Mapping[str, Any]) -> frozenset[str]:
        """winner: where the winner takes nothing, show: where no show is played."""
        if command != "round":
            return frozenset()
        scoring = self.table_of(rules).scoring
        return frozenset((["winner"] if scoring.winner_takes == NO else [])
                         + ([] if scoring.show_penalty else ["show"]))

    def check_rules(self, rules: Mapping[str, Any], players: int,
                    state: Mapping[str, Any] | None = None) -> None:
        table = self.table_of(rules)
        race, scoring = table.race, table.scoring
        if race.lowest_wins and (scoring.zero_sum or scoring.winner_takes == "yes"):
            raise UserError(_("A round that adds up to zero (zero_sum:yes, winner_takes:yes) "
                              "is won by the higher total: it can't go with wins:low."))
        if race.eliminates and not race.lowest_wins:
            raise UserError(_("at_target:eliminates puts out whoever reaches the target, so "
                              "the lowest total wins: it needs wins:low."))
        held = State.of(state)
        if held.wins and held.wins != rules.get("wins"):
            raise UserError(_("Who wins was set with the first round (wins:{wins}); it can't "
                              "change in the middle of a game: /endgame, then /newgame.",
                              wins=held.wins))
        count = len(held.sides) if held.sides else players
        if table.shares and count and len(table.shares) != count:
            raise UserError(_("per_place has {given} amounts and this game has {count} "
                              "places: give one for each place (or per_place:none).",
                              given=len(table.shares), count=count))

    # --- commands -----------------------------------------------------------------------

    def declare(self) -> tuple[CommandSpec, ...]:
        return (CommandSpec("round", "enter a round: each player's points", ROUND_USAGE,
                            ROUND_DETAILS, (POINTS, WINNER, SHOW), may=Rule.PLAYER,
                            play=self._round, records=True),)

    def setup(self, options: Mapping[str, str], players: list[Player], named: bool,
              seat: Seat | None = None) -> tuple[list[Player], dict[str, Any] | None]:
        if "teams" not in options:
            if not named and seat is not None:  # nobody named: the starter sits down
                players = seat([])
            players, _ = super().setup(options, players, named)
            return players, State().to_json()
        if "players" in options:
            raise UserError(_("Give teams: or players:, not both."))
        sides = [[n for n in t.split("+") if n] for t in split_list(options["teams"])]
        if len(sides) < 2 or not all(sides) or len(sides) > len(LETTERS):
            raise UserError(_("Sides are two or more, each player joined by +: "
                              "teams:asha+chetan bikash+dev."))
        order = [name for side in sides for name in side]
        if len(order) > self.max_players:
            raise UserError(_("{game} takes {n} players at most; the sides have {count}.",
                              game=Msg(self.title), n=self.max_players, count=len(order)))
        players = seated(order, seat)
        seats, i = [], 0
        for side in sides:
            seats.append([p.seat for p in players[i:i + len(side)]])
            i += len(side)
        return players, State(sides=seats).to_json()

    # --- columns ------------------------------------------------------------------------

    def columns(self, roster: Roster,
                state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        sides = State.of(state).sides
        if not sides:
            return super().columns(roster, state)
        return [(i, LETTERS[i - 1]) for i in range(1, len(sides) + 1)]

    def chart_columns(self, roster: Roster,
                      state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        sides = State.of(state).sides
        if not sides:
            return self.columns(roster, state)
        return [(i, f"{LETTERS[i - 1]}: " + "+".join(roster.by_seat(s).name for s in side))
                for i, side in enumerate(sides, 1)]

    def column_players(self, roster: Roster,
                       state: Mapping[str, Any] | None) -> dict[int, list[int]]:
        sides = State.of(state).sides
        if not sides:
            return super().column_players(roster, state)
        return {i: list(side) for i, side in enumerate(sides, 1)}

    def _columns(self, ctx: PlayContext, state: State, playing: list[int]) -> Columns:
        return Columns(ctx.roster, state.sides, playing, state.out, ctx.totals)

    # --- a round ------------------------------------------------------------------------

    def _round(self, ctx: PlayContext) -> PlayOutcome:
        table = self.table_of(ctx.rules)
        state = State.of(ctx.state)
        options = dict(ctx.options)
        if ctx.editing is not None:
            kept: Entry | None = Entry.of(ctx.editing)
            if not any(options.get(k, "").strip() for k in ("", "winner", "show")):
                raise UserError(_("Say what to change, e.g. /edit round:2 points:asha=12 "
                                  "bikash=-3"))
            playing = kept.round
        else:
            kept = None
            self._refuse_after_the_end(ctx, table, state)
            if state.sides:
                playing = [c for c in range(1, len(state.sides) + 1) if c not in state.out]
            else:
                playing = [p.seat for p in ctx.hand_players if p.seat not in state.out]
            if len(playing) < 2:
                raise UserError(_("A round needs two or more playing; playing now: {names}. "
                                  "Others sit down with /join or come back with /back.",
                                  names=", ".join(ctx.roster.by_seat(s).name
                                                  for s in playing) or "-"))
        columns = self._columns(ctx, state, playing)
        text = options.get("", "")
        winner = show = None
        if options.get("winner", "").strip() and options.get("show", "").strip():
            raise UserError(_("Give winner: or show:, not both: a round is won one way."))
        for key in ("winner", "show"):
            if options.get(key, "").strip():
                who, rest = entry.split_named(options[key])
                found = entry.column(columns, who, ctx.mentions)
                winner, show = (found, None) if key == "winner" else (None, found)
                text = f"{text} {rest}".strip()
        if kept is not None and not options.get("winner") and not options.get("show"):
            winner, show = kept.winner, kept.show
        if winner is not None and table.scoring.winner_takes == NO:
            raise UserError(_("winner: scores a round where the winner takes the others' "
                              "points (/rules winner_takes:yes or sum); here each player's "
                              "points are as given."), About(("winner",)))
        if show is not None:
            if state.sides:
                raise UserError(_("A show is one player's hand: a game of sides has none."))
            if not table.scoring.show_penalty:
                raise UserError(_("Shows are not played here: /rules show_penalty:25 plays "
                                  "them."))
        if winner is None and show is None and table.scoring.winner_takes != NO:
            raise UserError(_("Say who won the round: winner:NAME, then the others' points. "
                              "{example}", example=self.usage_example(ctx)),
                            About(("winner",), said=_("Tick who won.")))
        typed = entry.read_points(text, columns, ctx.mentions,
                                  skip=lambda c: c == winner)
        if winner is not None and typed.get(winner):
            raise UserError(_("{name} won: the winner's points are the others', so leave "
                              "{name}= out.", name=columns.label(winner)),
                            About(("",), (columns.label(winner),),
                                  _("The winner's points are the others': leave it empty.")))
        points = {**(kept.points if kept is not None else {}), **typed}
        if winner is not None:
            points.pop(winner, None)
        if not typed and kept is None and not table.missing_zero:
            raise UserError(_("Give each player's points: {example}",
                              example=self.usage_example(ctx)),
                            About(("",), said=_("A number for each: 0 for none.")))
        missing = [c for c in playing if c not in points and c != winner]
        if missing and not table.missing_zero:
            labels = tuple(columns.label(c) for c in missing)
            raise UserError(self._missing(", ".join(labels)),
                            About(("",), labels, _("A number for each: 0 for none.")))
        for column in missing:
            points[column] = 0
        every = kept.columns if kept is not None else [
            k for k, _ in self.columns(ctx.roster, ctx.state)]
        round_entry = Entry({c: points[c] for c in playing if c in points}, winner, show,
                            playing, every, kept.gone if kept is not None else
                            sorted(state.out))
        return self._scored(ctx, table, state, round_entry)

    def _missing(self, names: str) -> Msg:
        """What a round that leaves players out is told."""
        return _("No points for {names}: give every player's (0 for none), or /rules "
                 "missing:zero counts a player left out as 0.", names=names)

    def rescore(self, ctx: PlayContext) -> PlayOutcome:
        """A later round after /edit of an earlier one: its points stand, but who was out
        and whether the game was over by then follow the change."""
        assert ctx.editing is not None
        table = self.table_of(ctx.rules)
        state = State.of(ctx.state)
        kept = Entry.of(ctx.editing)
        columns = self._columns(ctx, state, kept.round)
        gone = [c for c in kept.round if c in state.out]
        if gone:
            raise UserError(_("{names} would be out by then.",
                              names=", ".join(columns.label(c) for c in gone)))
        back = [c for c in kept.gone if c not in state.out]
        if back:  # left out of it as out, they would have played it
            raise UserError(_("{names} would still be in the game and left out of it.",
                              names=", ".join(columns.label(c) for c in back)))
        over = self._outcome(ctx.roster, ctx.totals, table, state)
        if over.over:
            raise UserError(_("the game would be over by then."))
        return self._scored(ctx, table, state, kept)

    def _scored(self, ctx: PlayContext, table: Table, state: State,
                kept: Entry) -> PlayOutcome:
        columns = self._columns(ctx, state, kept.round)
        scored = score_round(kept.points, table.scoring, kept.winner, kept.show)
        deltas = {c: scored.deltas.get(c, 0) for c in kept.columns}
        kept.won = [s for c in self._round_winners(kept, scored, table)
                    for s in columns.seats(c)]
        totals = {c: ctx.totals.get(c, 0) + deltas.get(c, 0) for c in kept.columns}
        after = State(state.sides, state.played + 1,
                      knocked_out(kept.round, totals, state.out, state.played + 1,
                                  table.race),
                      state.wins or str(ctx.rules.get("wins", "")))
        seats = [s for c in kept.round for s in columns.seats(c)]
        return PlayOutcome("", state=after.to_json(), result=HandResult(
            players=sorted(seats), inputs=kept.to_json(), deltas=deltas,
            summary=self._said(kept, scored, table, columns)))

    def summary_of(self, ctx: PlayContext) -> Text | None:
        assert ctx.editing is not None
        kept = Entry.of(ctx.editing)
        table = self.table_of(ctx.rules)
        state = State.of(ctx.state)
        scored = score_round(kept.points, table.scoring, kept.winner, kept.show)
        return self._said(kept, scored, table, self._columns(ctx, state, kept.round))

    def _round_winners(self, kept: Entry, scored: Round, table: Table) -> list[int]:
        """Who won the round, for /stats: the winner named, the moon's shooter, the lowest
        hand where a show was made, else the best score."""
        if kept.winner is not None:
            return [kept.winner]
        if scored.moon is not None:
            return [scored.moon]
        if kept.show is not None:  # the lowest hand: the shower's if the show held
            low = min(kept.points.values())
            return [c for c, v in kept.points.items() if v == low]
        best = min(table.race.better(v) for v in scored.deltas.values())
        return [c for c, v in scored.deltas.items() if table.race.better(v) == best]

    def _said(self, kept: Entry, scored: Round, table: Table, columns: Columns) -> Text:
        """"asha 12, bikash -3", "asha won; bikash 12, chandra 7", "asha showed with 3 and
        it held; ...": a round as its summary says it (from what it keeps)."""
        def listed(of: Mapping[int, int], but: int | None = None) -> str:
            return ", ".join(f"{columns.label(c)} {v}" for c, v in of.items() if c != but)

        if kept.show is not None:
            name, hand = columns.label(kept.show), kept.points[kept.show]
            others = listed(kept.points, kept.show)
            if scored.show_held:
                return _("{name} showed with {hand}, and it held; {others}", name=name,
                         hand=hand, others=others)
            return _("{name} showed with {hand} and was caught (+{penalty}); {others}",
                     name=name, hand=hand, penalty=table.scoring.show_penalty, others=others)
        if kept.winner is not None:
            return _("{name} won; {others}", name=columns.label(kept.winner),
                     others=listed(kept.points) or "-")
        if scored.moon is not None:
            return _("{name} shot the moon", name=columns.label(scored.moon))
        return listed(kept.points)

    # --- where the game stands ------------------------------------------------------------

    def _outcome(self, roster: Roster, totals: Mapping[int, int], table: Table,
                 state: State) -> Outcome:
        columns = [k for k, _ in self.columns(roster, state.to_json())]
        return outcome(columns, totals, state.out, state.played, table.race)

    def _refuse_after_the_end(self, ctx: PlayContext, table: Table, state: State) -> None:
        over = self._outcome(ctx.roster, ctx.totals, table, state)
        if not over.over:
            return
        labels = dict(self.columns(ctx.roster, ctx.state))
        raise UserError(_("The game is over: {names} won. /endgame archives it and "
                          "/newgame {game} starts the next (/undo or /edit corrects a "
                          "round).", names=_both([labels[c] for c in over.winners]),
                          game=self.key))

    def placings(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                 state: Mapping[str, Any] | None, roster: Roster) -> dict[int, Placing]:
        """Places by the game's own order (still in, out later, the better total); the
        winner only of a game that reached its end (or of one with no end); per_place's
        share as the result where money is paid by place."""
        table = self.table_of(rules)
        held = State.of(state)
        columns = [k for k, _ in self.columns(roster, state)]
        placed = places(columns, totals, held.out, table.race)
        over = outcome(columns, totals, held.out, held.played, table.race)
        shares = place_shares(placed, table.shares) if table.shares else {}

        def won(column: int) -> bool | None:
            if over.over:
                return column in over.winners
            return False if table.race.ends else None

        return {c: Placing(placed[c], shares[c] if shares else
                           points_value(totals.get(c, 0), self.point_places), won(c))
                for c in columns}

    def winners(self, hand: Any) -> list[int]:
        return list(hand.inputs.get("won", []))

    def goal(self, rules: Mapping[str, Any],
             state: Mapping[str, Any] | None) -> tuple[float, Text] | None:
        target = self.table_of(rules).race.target
        if not target:
            return None
        return float(target), _("target {target}", target=Num(target))

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        return ""  # a round is entered whole: nothing waits

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster, ended: bool = False) -> Text:
        table = self.table_of(rules)
        race = table.race
        held = State.of(state)
        labels = dict(self.columns(roster, state))
        lines: list[Text] = []
        if held.sides:
            lines.append(" · ".join(f"{LETTERS[i]}: " + "+".join(
                roster.by_seat(s).name for s in side) for i, side in enumerate(held.sides))
                + ".")
        lines.append(self._race_line(race, held))
        if not held.played or not labels:
            return join(lines, " ")
        over = outcome(list(labels), totals, held.out, held.played, race)
        if ended and not race.ends:  # played until /endgame: the best total then won
            best = min(race.better(totals.get(c, 0)) for c in labels)
            over = Outcome(True, tuple(c for c in labels
                                       if race.better(totals.get(c, 0)) == best))

        def score(column: int) -> Num:
            return Num(totals.get(column, 0), signed=True)

        if over.over:
            names = [labels[c] for c in over.winners]
            lines.append(_("{names} won with {total}!", names=_both(names),
                           total=score(over.winners[0])))
            if not ended:
                lines.append(_("/endgame to archive it (no round follows; /undo or /edit "
                               "corrects one)."))
        elif over.tied:
            lines.append(_("{names} are level at {total}: another round decides.",
                           names=_both([labels[c] for c in over.tied]),
                           total=score(over.tied[0])))
        elif race.eliminates:
            left = [c for c in labels if c not in held.out]
            gone = [c for c in labels if c in held.out]
            lines.append(_("In: {players}.", players=", ".join(
                f"{labels[c]} {totals.get(c, 0)}" for c in left)))
            if gone:
                lines.append(_("Out: {players}.", players=", ".join(
                    f"{labels[c]} {totals.get(c, 0)}" for c in gone)))
        else:
            best = min(race.better(totals.get(c, 0)) for c in labels)
            top = [c for c in labels if race.better(totals.get(c, 0)) == best]
            if ended and race.ends:
                lines.append(_("Ended before its end; {names} ahead with {total}.",
                               names=_both([labels[c] for c in top]), total=score(top[0])))
            elif len(top) == 1:
                lines.append(_("{name} leads with {total}.", name=labels[top[0]],
                               total=score(top[0])))
            else:
                lines.append(_("{names} share the lead with {total}.",
                               names=_both([labels[c] for c in top]), total=score(top[0])))
        return join(lines, " ")

    def _race_line(self, race: Race, held: State) -> Text:
        """"Lowest total wins; ends at 100." and the like: what the game is played to."""
        parts: list[Text] = [_("Lowest total wins.") if race.lowest_wins
                             else _("Highest total wins.")]
        if race.target and race.eliminates:
            parts.append(_("Out past {target}.", target=Num(race.target)) if race.passes
                         else _("Out at {target}.", target=Num(race.target)))
        elif race.target:
            parts.append(_("Ends at {target}.", target=Num(race.target)))
        if race.rounds:
            parts.append(_("Round {played} of {rounds}.", played=held.played,
                           rounds=race.rounds))
        return join(parts, " ")


def _both(names: list[str]) -> Text:
    """"ana and ben", "ana, ben and cleo"."""
    if len(names) < 2:
        return "".join(names)
    return _("{items} and {last}", items=", ".join(names[:-1]), last=names[-1])
