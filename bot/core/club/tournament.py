"""A tournament of a club (pure): its players, rounds seated at the club's tables, each
table's result, penalties, and the standings by the tournament's own scoring.

Riichi is scored as the WRC and the EMA publish it, a table's session score being
(points - 30,000) / 1,000 + uma 15/5/-5/-15, tied places splitting their uma, or as the
M-League does (uma 30/10/-10/-30, and the oka, (30,000 - 25,000) x 4 / 1,000 = 20, to the
first; tied places split both); penalties go on the tournament score, not the table's.
Every other game by its own measure (its points, the fewest first where the lowest wins)
and places. Ties in the standings: the better sum of places, then more firsts, then the
name.

A substitute plays a seat for an absent player: the seat's result counts for that seat's
player in the tournament (the table's sum stays whole), and the club's own figures count
the game for the substitute, who sat at it, never for the absent player."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

from bot.core.club import seating
from bot.core.club.seating import pair, sizes_of, split
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.i18n import Tr, _

OPEN, RUNNING, ENDED = "open", "running", "ended"
SWISS, SHUFFLED, INTERVAL = "swiss", "shuffled", "interval"
SEATINGS = (SWISS, SHUFFLED, INTERVAL)
PREVIOUS_ROUND = 10.0  # shuffled bands: a pair who met in the round before weighs 1 + 10


@dataclass(frozen=True)
class Scoring:
    """Riichi's tournament scoring: (points - back) / 1,000 + uma by place (+ oka to
    first); `preset` the table rules its games start with (bot/core/games/riichi/rules.py)."""

    title: str
    back: int
    uma: tuple[int, ...]
    oka: int
    preset: str


SCORINGS = {
    "wrc": Scoring("WRC", 30000, (15, 5, -5, -15), 0, "ema"),
    "ema": Scoring("EMA", 30000, (15, 5, -5, -15), 0, "ema"),
    "mleague": Scoring("M-League", 30000, (30, 10, -10, -30), 20, "mleague"),
}


def session_scores(points: Sequence[int | Decimal], scoring: Scoring) -> list[Fraction]:
    """Each seat's session score from the points they ended on (leftover sticks included)."""
    n = len(points)
    values = [Fraction(p) for p in points]
    order = sorted(range(n), key=lambda i: -values[i])
    out = [(v - scoring.back) / 1000 for v in values]
    place = 0
    while place < n:
        tied = [i for i in order if values[i] == values[order[place]]]
        share = Fraction(sum(scoring.uma[place:place + len(tied)]))
        if place == 0:
            share += scoring.oka
        for i in tied:
            out[i] += share / len(tied)
        place += len(tied)
    return out


def places_of(points: Sequence[Fraction | Decimal | int], lowest_wins: bool = False
              ) -> list[int]:
    """1 for the best; equal points share the better place."""
    sign = 1 if lowest_wins else -1
    return [1 + sum(sign * q < sign * p for q in points) for p in points]


# --- the records ----------------------------------------------------------------------------

@dataclass
class Entry:
    """A player of the tournament: a member of the club."""

    member: str
    name: str
    withdrawn: int | None = None  # withdrew after this many rounds (None: playing)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"member": self.member, "name": self.name}
        if self.withdrawn is not None:
            data["withdrawn"] = self.withdrawn
        return data

    @staticmethod
    def read(data: Mapping[str, Any]) -> Entry:
        gone = data.get("withdrawn")
        return Entry(str(data["member"]), str(data["name"]),
                     int(gone) if gone is not None else None)


@dataclass
class Seat:
    """A seat of a round's table: the player it scores for, and who sits in it (a
    substitute, where `sub`)."""

    member: str
    name: str
    player: str = ""  # who sits: the member, or their substitute
    player_name: str = ""
    sub: bool = False

    def __post_init__(self) -> None:
        self.player = self.player or self.member
        self.player_name = self.player_name or self.name

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"member": self.member, "name": self.name}
        if self.sub:
            data.update(player=self.player, player_name=self.player_name, sub=True)
        return data

    @staticmethod
    def read(data: Mapping[str, Any]) -> Seat:
        return Seat(str(data["member"]), str(data["name"]), str(data.get("player") or ""),
                    str(data.get("player_name") or ""), bool(data.get("sub")))


@dataclass
class Table:
    number: int
    chat: str
    seats: list[Seat]
    session: int | None = None  # the game that counted, once it ended
    points: list[Decimal] | None = None  # each seat's points at its end, in seat order

    @property
    def done(self) -> bool:
        return self.points is not None

    def players(self) -> set[str]:
        return {s.player for s in self.seats}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"number": self.number, "chat": self.chat,
                                "seats": [s.to_json() for s in self.seats]}
        if self.points is not None:
            data.update(session=self.session, points=[str(p) for p in self.points])
        return data

    @staticmethod
    def read(data: Mapping[str, Any]) -> Table:
        points = data.get("points")
        return Table(int(data["number"]), str(data["chat"]),
                     [Seat.read(s) for s in data["seats"]],
                     int(data["session"]) if data.get("session") is not None else None,
                     [Decimal(p) for p in points] if points is not None else None)


@dataclass
class Round:
    number: int
    seed: int
    tables: list[Table]
    started: bool = False  # its games begun: no longer re-seated

    @property
    def closed(self) -> bool:
        return all(t.done for t in self.tables)

    def table_at(self, chat: str) -> Table | None:
        return next((t for t in self.tables if t.chat == chat), None)

    def seat_of(self, member: str) -> tuple[Table, Seat] | None:
        for table in self.tables:
            for seat in table.seats:
                if seat.member == member or seat.player == member:
                    return table, seat
        return None

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seed": self.seed, "started": self.started,
                "tables": [t.to_json() for t in self.tables]}

    @staticmethod
    def read(data: Mapping[str, Any]) -> Round:
        return Round(int(data["number"]), int(data["seed"]),
                     [Table.read(t) for t in data["tables"]], bool(data.get("started")))


@dataclass
class Penalty:
    member: str
    amount: Decimal
    reason: str
    round: int  # the rounds played when it was given
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"member": self.member, "amount": str(self.amount), "reason": self.reason,
                "round": self.round, "by": self.by}

    @staticmethod
    def read(data: Mapping[str, Any]) -> Penalty:
        return Penalty(str(data["member"]), Decimal(data["amount"]), str(data["reason"]),
                       int(data["round"]), str(data["by"]))


@dataclass
class Tournament:
    id: int
    club_id: int
    name: str
    game: str  # a game's key (riichi, marriage, ...)
    title: str  # the game's title, a msgid
    rounds: int  # planned
    rules: str = ""  # Riichi: wrc, ema or mleague
    seating: str = SWISS
    lowest_wins: bool = False
    tables: int | None = None  # tables wanted (a game of a range of sizes), else as even
    seed: int = 0
    status: str = OPEN
    by: str = ""  # the club admin who made it
    created_at: datetime | None = None
    entries: list[Entry] = field(default_factory=list)
    played: list[Round] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)
    timer: dict[str, Any] | None = None  # {"ends": iso time, "said": [minutes left said]}

    @property
    def scoring(self) -> Scoring | None:
        return SCORINGS.get(self.rules) if self.game == "riichi" else None

    @property
    def places(self) -> int:
        """Decimal places its scores are written with: Riichi's tenths, else the game's."""
        return 1 if self.scoring is not None else get_game(self.game).point_places

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "title": self.title, "rounds": self.rounds,
            "rules": self.rules, "seating": self.seating, "lowest_wins": self.lowest_wins,
            "seed": self.seed, "by": self.by,
            "entries": [e.to_json() for e in self.entries],
            "played": [r.to_json() for r in self.played],
            "penalties": [p.to_json() for p in self.penalties]}
        if self.tables is not None:
            out["tables"] = self.tables
        if self.timer is not None:
            out["timer"] = self.timer
        return out

    @staticmethod
    def read(id: int, club_id: int, name: str, status: str, created_at: datetime | None,
             data: Mapping[str, Any]) -> Tournament:
        return Tournament(
            id, club_id, name, str(data["game"]), str(data["title"]), int(data["rounds"]),
            str(data.get("rules") or ""), str(data.get("seating") or SWISS),
            bool(data.get("lowest_wins")),
            int(data["tables"]) if data.get("tables") is not None else None,
            int(data.get("seed") or 0), status, str(data.get("by") or ""), created_at,
            [Entry.read(e) for e in data.get("entries") or ()],
            [Round.read(r) for r in data.get("played") or ()],
            [Penalty.read(p) for p in data.get("penalties") or ()],
            dict(data["timer"]) if data.get("timer") else None)

    # --- who plays -------------------------------------------------------------------------

    def entry(self, member: str) -> Entry | None:
        return next((e for e in self.entries if e.member == member), None)

    def playing(self) -> list[Entry]:
        return [e for e in self.entries if e.withdrawn is None]

    @property
    def current(self) -> Round | None:
        """The round being played or seated (the last, until it closes)."""
        last = self.played[-1] if self.played else None
        return last if last is not None and not last.closed else None

    def closed_rounds(self) -> int:
        return sum(1 for r in self.played if r.closed)

    def begun(self) -> list[Round]:
        """The rounds begun (a round seated, not begun, has no column yet)."""
        return [r for r in self.played if r.started]


# --- the standings --------------------------------------------------------------------------

@dataclass
class Row:
    member: str
    name: str
    total: Fraction = Fraction(0)
    rounds: list[Fraction | None] = field(default_factory=list)
    places: list[int | None] = field(default_factory=list)
    penalty: Fraction = Fraction(0)
    withdrawn: bool = False

    @property
    def place_sum(self) -> int:
        return sum(p for p in self.places if p is not None)

    @property
    def firsts(self) -> int:
        return sum(1 for p in self.places if p == 1)


def table_scores(t: Tournament, table: Table) -> tuple[list[Fraction], list[int]]:
    """A finished table's score for each seat and its place, by the tournament's scoring."""
    assert table.points is not None
    scoring = t.scoring
    if scoring is not None:
        scores = session_scores(table.points, scoring)
        return scores, places_of(table.points)
    values = [Fraction(p) for p in table.points]
    return values, places_of(values, t.lowest_wins)


def standings(t: Tournament) -> list[Row]:
    begun = t.begun()
    rows = {e.member: Row(e.member, e.name, withdrawn=e.withdrawn is not None,
                          rounds=[None] * len(begun), places=[None] * len(begun))
            for e in t.entries}
    for at, round_ in enumerate(begun):
        for table in round_.tables:
            if not table.done:
                continue
            scores, places = table_scores(t, table)
            for seat, score, place in zip(table.seats, scores, places, strict=True):
                row = rows.get(seat.member)
                if row is not None:
                    row.rounds[at] = score
                    row.places[at] = place
                    row.total += score
    for penalty in t.penalties:
        row = rows.get(penalty.member)
        if row is not None:
            row.penalty += Fraction(penalty.amount)
            row.total += Fraction(penalty.amount)
    sign = 1 if t.lowest_wins else -1
    return sorted(rows.values(), key=lambda r: (sign * r.total, r.place_sum, -r.firsts,
                                                r.name.casefold(), r.member))


def shown(value: Fraction, places: int = 1) -> Decimal:
    """A score as the standings write it (tenths)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def signed(value: Fraction, tr: Tr | None = None, places: int = 1) -> str:
    number = shown(value, places)
    text = tr.number(number, places) if tr is not None else f"{number}"
    return f"+{text}" if number > 0 else text


def csv_text(t: Tournament) -> str:
    """The standings as tournaments exchange them: a row a player, its place, name, total
    and the score of each round (a penalty column where any was given)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    rows = standings(t)
    penalised = any(r.penalty for r in rows)
    writer.writerow(["place", "name", "total", *(f"round {r.number}" for r in t.begun()),
                     *(["penalties"] if penalised else [])])
    digits = t.places
    for place, row in zip(ranks(rows, t.lowest_wins), rows, strict=True):
        writer.writerow([place, row.name, shown(row.total, digits),
                         *("" if s is None else shown(s, digits) for s in row.rounds),
                         *([shown(row.penalty, digits)] if penalised else [])])
    return out.getvalue()


def ranks(rows: Sequence[Row], lowest_wins: bool = False) -> list[int]:
    """Places in the standings: rows equal on every tie-break share one."""
    out: list[int] = []
    for i, row in enumerate(rows):
        if i and _key(rows[i - 1]) == _key(row):
            out.append(out[-1])
        else:
            out.append(i + 1)
    return out


def _key(row: Row) -> tuple[Fraction, int, int]:
    return (row.total, row.place_sum, row.firsts)


# --- seating a round ------------------------------------------------------------------------

def met(t: Tournament) -> dict[tuple[str, str], int]:
    """How often two players met at a table of the tournament (rounds begun)."""
    out: dict[tuple[str, str], int] = {}
    for round_ in t.played:
        if not round_.started:
            continue
        for table in round_.tables:
            members = [s.member for s in table.seats]
            for i, a in enumerate(members):
                for b in members[i + 1:]:
                    out[pair(a, b)] = out.get(pair(a, b), 0) + 1
    return out


def winds_had(t: Tournament) -> dict[str, list[int]]:
    """How often each player sat in each seat (Riichi: East, South, West, North)."""
    out: dict[str, list[int]] = {}
    for round_ in t.played:
        if not round_.started:
            continue
        for table in round_.tables:
            for at, seat in enumerate(table.seats):
                out.setdefault(seat.member, [0, 0, 0, 0])[at % 4] += 1
    return out


def sizes_for(t: Tournament, people: int, title: str) -> list[int]:
    return split(people, sizes_of(t.game), t.tables, title, sanma=False)


def seat_round(t: Tournament, chats: Sequence[str], seed: int, title: str,
               names: Mapping[str, str] | None = None) -> Round:
    """The next round (or the seated round again, not begun: re-seated) at the club's
    tables `chats`, in order: round 1 at random, a later one by the tournament's seating
    over the standings; Riichi's winds balanced over the rounds."""
    current = t.current
    if current is not None and current.started:
        raise UserError(_("Round {n} is being played: {done} of {tables} tables have "
                          "finished.", n=current.number, done=sum(
                              1 for x in current.tables if x.done),
                          tables=len(current.tables)))
    earlier = [r for r in t.played if r.started]
    number = len(earlier) + 1
    if number > t.rounds:
        raise UserError(_("{name} had its {n} rounds: the standings are final.",
                          name=t.name, n=t.rounds))
    playing = [e.member for e in t.playing()]
    sizes = sizes_for(t, len(playing), title)
    if len(sizes) > len(chats):
        raise UserError(_("Round {n} needs {tables} tables; the club has {chats}. Another "
                          "chat joins with /club code.", n=number, tables=len(sizes),
                          chats=len(chats)))
    kept = t.played
    t.played = earlier  # (a seated round not begun is seated again from the same standing)
    try:
        tables = _seat(t, playing, sizes, seed, number)
    finally:
        t.played = kept
    rng = random.Random(seed)
    if t.game == "riichi":
        tables = seating.winds(tables, winds_had(t), rng)
    elif number > 1:
        for table in tables:
            rng.shuffle(table)
    names = names or {}
    entries = {e.member: e for e in t.entries}
    made = Round(number, seed, [
        Table(i + 1, chats[i], [Seat(m, names.get(m) or entries[m].name) for m in table])
        for i, table in enumerate(tables)])
    t.played = [*earlier, made]
    t.status = RUNNING
    return made


def _seat(t: Tournament, playing: list[str], sizes: list[int], seed: int,
          number: int) -> list[list[str]]:
    if number == 1:
        return seating.seat(playing, sizes, {}, seed)
    ranked = [r.member for r in standings(t) if r.member in set(playing)]
    meetings = met(t)
    if t.seating == INTERVAL:
        return seating.interval(ranked, sizes)
    if t.seating == SHUFFLED:
        history = {k: float(v) for k, v in meetings.items()}
        last = t.played[-1]
        for table in last.tables:
            members = [s.member for s in table.seats]
            for i, a in enumerate(members):
                for b in members[i + 1:]:
                    history[pair(a, b)] = history.get(pair(a, b), 0.0) + PREVIOUS_ROUND
        return seating.bands(ranked, sizes, history, seed)
    return seating.swiss(ranked, sizes, meetings)


# --- a game's end at a table ------------------------------------------------------------------

@dataclass(frozen=True)
class Counted:
    """What a finished game was to the tournament: counted for `table` of `round`, or not
    (`why`: said under /endgame); `closed`: it was the round's last table."""

    round: Round | None = None
    table: Table | None = None
    why: Any = ""
    closed: bool = False


def count_game(t: Tournament, chat: str, session: int,
               points: Mapping[str, Decimal], chat_names: Mapping[str, str]) -> Counted:
    """A game ended at `chat`, `points` its players (members) and their points at its end:
    the result of this chat's table in the round being played, if its players are that
    table's; else why not (None: nothing to do with the tournament)."""
    players = set(points)
    current = t.current if t.current is not None and t.current.started else None
    if current is None:
        last = next((r for r in reversed(t.played) if r.closed), None)
        if last is not None and any(x.players() == players for x in last.tables):
            return Counted(why=_("Round {n} of {name} is closed: this game does not count "
                                 "in it.", n=last.number, name=t.name))
        return Counted()
    table = current.table_at(chat)
    if table is not None and table.players() == players:
        if table.done:
            return Counted(why=_("Table {table}'s result for round {n} of {name} is in "
                                 "already: this game does not count in it.",
                                 table=table.number, n=current.number, name=t.name))
        table.session = session
        table.points = [points[s.player] for s in table.seats]
        closed = current.closed
        if closed and current.number >= t.rounds:
            t.status = ENDED
        return Counted(current, table, closed=closed)
    elsewhere = next((x for x in current.tables if x.players() == players), None)
    if elsewhere is not None:
        return Counted(why=_("These are table {table}'s players in round {n} of {name}: "
                             "their game is entered at {chat}, not here. This one does not "
                             "count in it.", table=elsewhere.number, n=current.number,
                             name=t.name, chat=chat_names.get(elsewhere.chat,
                                                              elsewhere.chat)))
    if table is not None and players & table.players():
        return Counted(why=_("Table {table} of round {n} of {name} is {players}: a game of "
                             "others does not count in it.", table=table.number,
                             n=current.number, name=t.name, players=", ".join(
                                 s.player_name for s in table.seats)))
    return Counted()
