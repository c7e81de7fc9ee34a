"""Everything a club shows, from its tables' finished games in the order they ended
(`ClubFigures`): the league table of each game (every game, and each club season), the
ratings, the records, head-to-head, and the money each member was left owed. Built game
by game (`add`), so a game's end costs one game's work; `preview` says what a game would
move without keeping it. Pure: the same games in the same order give the same figures."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from bot.core.club import ratings
from bot.core.club.ratings import Move, Rated
from bot.core.club.seating import heat_add
from bot.core.club.summary import GameSummary, SeatResult

BEST_KEPT = 10  # the biggest hands a game's records keep


def member_of(key: str, chat: str, persons: Mapping[str, str]) -> str:
    """Who a seat is in the club: an account's person (their linked accounts are one), or
    a guest of that one table (a name counts only where it was typed)."""
    if key.startswith("name:"):
        return f"{chat}/{key}"
    return persons.get(key, key)


def is_guest(member: str) -> bool:
    return "/name:" in member


@dataclass(frozen=True, slots=True)
class ClubSeason:
    """One of the club's own seasons: a game is in it if it ended while it was open."""

    id: int
    name: str
    started_at: datetime
    ended_at: datetime | None = None

    def holds(self, moment: datetime) -> bool:
        return self.started_at <= moment and (self.ended_at is None or moment < self.ended_at)


@dataclass(slots=True)
class Standing:
    """A member in a game's league table."""

    member: str
    games: int = 0
    wins: int = 0  # games won
    place_sum: int = 0
    points: Decimal = Decimal(0)
    results: Decimal = Decimal(0)  # final results (Riichi: with uma and oka)
    hands: int = 0
    hand_wins: int = 0
    money: dict[str, Decimal] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)  # place -> games ended in it

    @property
    def average_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0


@dataclass(slots=True)  # not frozen: made by the thousand when a club is built
class Best:
    """A big hand, for the records."""

    size: Decimal
    member: str
    label: str  # stored text ("" names it by its points)
    chat: str
    ended_at: datetime


@dataclass(slots=True)
class Pair:
    """Two members who played a game together: `first` placed higher `above` times, the
    other `below` times, `level` times they tied; `points` is first's points less the
    other's, summed."""

    games: int = 0
    above: int = 0
    below: int = 0
    level: int = 0
    points: Decimal = Decimal(0)
    # when they met, for seating (bot/core/club/seating.py's heat: recent meetings weigh more)
    heat: float = -math.inf


@dataclass(slots=True)
class GameFigures:
    """One game's figures in the club (the game as /stats keeps it: a points game by its
    name)."""

    key: str
    title: str
    ranked_by: str
    lowest_wins: bool
    point_places: int
    games: int = 0
    counts: dict[int | None, int] = field(default_factory=dict)  # games per season (None: all)
    standings: dict[int | None, dict[str, Standing]] = field(default_factory=dict)
    ratings: dict[str, Rated] = field(default_factory=dict)
    best: list[Best] = field(default_factory=list)
    bests: dict[str, Best] = field(default_factory=dict)  # member -> their biggest hand
    runs: dict[str, list[int]] = field(default_factory=dict)  # member -> [now, longest]
    pairs: dict[tuple[str, str], Pair] = field(default_factory=dict)

    def table(self, season: int | None = None) -> dict[str, Standing]:
        return self.standings.get(season, {})

    # --- the records (/records, the club's page) ------------------------------------------

    def biggest(self) -> Best | None:
        """The biggest hand won (the earlier of two as big)."""
        return self.best[0] if self.best else None

    def longest_run(self) -> tuple[int, str]:
        """(games, member): the longest run of wins of a member (not a guest); (0, "")
        where nobody won two in a row."""
        run = max(((r[1], m) for m, r in self.runs.items() if not is_guest(m)),
                  default=(0, ""))
        return run if run[0] > 1 else (0, "")

    def most_games(self) -> tuple[int, str]:
        """(games, member): the member (not a guest) who played the most of it."""
        return max(((r.games, m) for m, r in self.table(None).items() if not is_guest(m)),
                   default=(0, ""))


class ClubFigures:
    """A club's figures as of the games added so far (`cursor`: the last one's row)."""

    def __init__(self, club_id: int, epoch: int, persons: Mapping[str, str],
                 seasons: Iterable[ClubSeason]) -> None:
        self.club_id, self.epoch = club_id, epoch
        self.persons = dict(persons)  # account -> the person it is linked to
        self.seasons = list(seasons)
        self.cursor = 0  # the highest row of the games added
        self.last: tuple[datetime, int] | None = None  # (ended_at, session) of that game
        self.count = 0  # games added: a game's number in the club's order
        self.ended: list[datetime] = []  # when each game ended, by its number - 1
        self.names: dict[str, str] = {}  # member -> the name of their latest seat
        self.aliases: dict[str, set[str]] = {}  # member -> every name they sat down as
        self.games: dict[str, GameFigures] = {}
        self.money: dict[str, dict[str, Decimal]] = {}  # currency -> member -> owed (+)

    # --- adding games ---------------------------------------------------------------------

    def in_order(self, summary: GameSummary) -> bool:
        """Whether `summary` comes after every game added (else: built again from the
        start, so the order stays the end order)."""
        return self.last is None or (summary.ended_at, summary.session_id) > self.last

    def teams(self, summary: GameSummary) -> tuple[list[list[str | None]], list[int]]:
        """A game's sides as rated: each side's members (None for a guest) and its place."""
        sides: dict[int, list[str | None]] = {}
        place: dict[int, int] = {}
        for seat in summary.seats:
            member = member_of(seat.key, summary.chat, self.persons)
            sides.setdefault(seat.side, []).append(None if is_guest(member) else member)
            place[seat.side] = seat.place
        order = sorted(sides)
        return [sides[s] for s in order], [place[s] for s in order]

    def preview(self, summary: GameSummary) -> list[Move]:
        """How `summary` would move its members' ratings, kept nowhere."""
        figures = self.games.get(summary.game)
        teams, ranks = self.teams(summary)
        return ratings.rate(figures.ratings if figures else {}, teams, ranks)

    def add(self, row: int, summary: GameSummary) -> list[Move]:
        """The game counted in, and its rating moves."""
        assert self.in_order(summary), "games are added in the order they ended"
        # the highest row counted in: a game summarised late (an import's) has a higher row
        # than games that ended after it, and is counted in before them
        self.cursor, self.last = max(self.cursor, row), (summary.ended_at, summary.session_id)
        self.count += 1
        self.ended.append(summary.ended_at)
        figures = self.games.get(summary.game)
        if figures is None:
            figures = self.games[summary.game] = GameFigures(
                summary.game, summary.title, summary.ranked_by, summary.lowest_wins,
                summary.point_places)
        figures.games += 1
        figures.title = summary.title  # as the table played it last
        ended = summary.ended_at
        seasons = [None, *(s.id for s in self.seasons if s.holds(ended))] \
            if self.seasons else [None]
        tables = [figures.standings.setdefault(season, {}) for season in seasons]
        for season in seasons:
            figures.counts[season] = figures.counts.get(season, 0) + 1
        members: list[tuple[str, SeatResult]] = []
        sides: dict[int, list[str | None]] = {}
        places: dict[int, int] = {}
        for seat in summary.seats:
            member = member_of(seat.key, summary.chat, self.persons)
            guest = is_guest(member)
            members.append((member, seat))
            sides.setdefault(seat.side, []).append(None if guest else member)
            places[seat.side] = seat.place
            self.names[member] = seat.name
            known = self.aliases.get(member)
            if known is None:
                known = self.aliases[member] = set()
            known.add(seat.name.casefold())
            for table in tables:
                row_ = table.get(member)
                if row_ is None:
                    row_ = table[member] = Standing(member)
                row_.games += 1
                row_.wins += seat.won
                row_.place_sum += seat.place
                row_.points += seat.points
                row_.results += seat.result
                row_.hands += seat.hands
                row_.hand_wins += seat.hand_wins
                row_.places[seat.place] = row_.places.get(seat.place, 0) + 1
                for currency, amount in seat.money.items():
                    row_.money[currency] = row_.money.get(currency, Decimal(0)) + amount
            for currency, amount in seat.money.items():
                owed = self.money.setdefault(currency, {})
                owed[member] = owed.get(member, Decimal(0)) + amount
            run = figures.runs.get(member)
            if run is None:
                run = figures.runs[member] = [0, 0]
            run[0] = run[0] + 1 if seat.won else 0
            if run[0] > run[1]:
                run[1] = run[0]
            size = seat.best
            if size is not None and size > 0:
                theirs = figures.bests.get(member)
                best = figures.best
                if theirs is None or size > theirs.size or len(best) < BEST_KEPT \
                        or size > best[-1].size:  # (made only where it may be kept)
                    hand = Best(size, member, seat.best_label, summary.chat, ended)
                    _keep_best(best, hand)
                    if theirs is None or size > theirs.size:
                        figures.bests[member] = hand
        _meet(figures.pairs, [(m, s) for m, s in members if not is_guest(m)],
              days(ended))
        order = sorted(sides)
        moves = ratings.rate(figures.ratings, [sides[s] for s in order],
                             [places[s] for s in order])
        ratings.apply(figures.ratings, moves, self.count)
        return moves

    # --- reading them ---------------------------------------------------------------------

    def name(self, member: str) -> str:
        return self.names.get(member) or member.rpartition(":")[2]

    def season(self, name: str) -> ClubSeason | None:
        folded = name.strip().casefold()
        return next((s for s in reversed(self.seasons) if s.name.casefold() == folded), None)

    def open_season(self) -> ClubSeason | None:
        last = self.seasons[-1] if self.seasons else None
        return last if last is not None and last.ended_at is None else None


def _keep_best(best: list[Best], hand: Best) -> None:
    if len(best) >= BEST_KEPT and hand.size <= best[-1].size:
        return
    at = len(best)
    while at and best[at - 1].size < hand.size:  # after any as big: the earlier stays first
        at -= 1
    best.insert(at, hand)
    del best[BEST_KEPT:]


def days(moment: datetime) -> float:
    """A moment as days since 1970 (how seating measures how recent a meeting was)."""
    return moment.timestamp() / 86400.0


def _meet(pairs: dict[tuple[str, str], Pair], seated: list[tuple[str, SeatResult]],
          day: float) -> None:
    """Every two members of a game met: who placed higher, their points between, and when
    (`day`: the game's end, in days)."""
    for i, (a, seat_a) in enumerate(seated):
        for b, seat_b in seated[i + 1:]:
            if a == b:
                continue
            first, second = (seat_a, seat_b) if a < b else (seat_b, seat_a)
            pair = pairs.setdefault((min(a, b), max(a, b)), Pair())
            pair.games += 1
            place_1, place_2 = first.place, second.place
            pair.above += place_1 < place_2
            pair.below += place_1 > place_2
            pair.level += place_1 == place_2
            pair.points += first.points - second.points
            pair.heat = heat_add(pair.heat, day)
