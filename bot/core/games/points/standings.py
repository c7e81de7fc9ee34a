"""Where a game of points stands: who is out, whether it is over, who won and each
column's place. Pure functions over the totals and the rounds played, no I/O.

A game ends after a number of rounds, or when a total reaches the target: then the best
total wins (the highest, or the lowest), and a tie for the best plays another round. Or
reaching the target knocks a column out (Dhumbal, Yaniv, pool rummy), for good, and the
last one left wins; if every one left goes out in the same round, the best total of them
wins. A game with no end plays until /endgame, and the best total then is first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal


@dataclass(frozen=True)
class Race:
    """The rules that say where a game of points ends and who wins it."""

    lowest_wins: bool = False
    target: int = 0  # 0: no target
    rounds: int = 0  # 0: no limit
    eliminates: bool = False  # reaching the target knocks a column out
    passes: bool = False  # out (or over) only past the target, not at it

    @property
    def ends(self) -> bool:
        """Whether the game has an end of its own (else it plays until /endgame)."""
        return bool(self.target or self.rounds)

    def reached(self, total: int) -> bool:
        if not self.target:
            return False
        return total > self.target if self.passes else total >= self.target

    def better(self, total: int) -> int:
        """A key that sorts the better total first."""
        return total if self.lowest_wins else -total


def knocked_out(columns: Iterable[int], totals: Mapping[int, int], out: Mapping[int, int],
                round_no: int, race: Race) -> dict[int, int]:
    """Who is out after round `round_no` (column -> the round it went out in): those out
    before, and those still in whose total reached the target in it."""
    now = dict(out)
    if race.eliminates:
        for column in columns:
            if column not in now and race.reached(totals.get(column, 0)):
                now[column] = round_no
    return now


@dataclass(frozen=True)
class Outcome:
    over: bool
    winners: tuple[int, ...] = ()  # the columns that won a game that is over
    tied: tuple[int, ...] = ()  # past the target but level at the top: another round


def outcome(columns: Sequence[int], totals: Mapping[int, int], out: Mapping[int, int],
            played: int, race: Race) -> Outcome:
    """Whether the game is over after `played` rounds, and who won it."""
    def best(of: Iterable[int]) -> tuple[int, ...]:
        chosen = list(of)
        if not chosen:
            return ()
        top = min(race.better(totals.get(c, 0)) for c in chosen)
        return tuple(c for c in chosen if race.better(totals.get(c, 0)) == top)

    last_round = bool(race.rounds) and played >= race.rounds
    if race.eliminates:
        left = [c for c in columns if c not in out]
        if len(left) == 1:
            return Outcome(True, (left[0],))
        if not left and out:  # the last ones went out together: the best of them
            final = max(out.values())
            return Outcome(True, best(c for c in columns if out.get(c) == final))
        if last_round:
            return Outcome(True, best(left))
        return Outcome(False)
    if any(race.reached(totals.get(c, 0)) for c in columns):
        top = best(columns)
        if len(top) == 1 or last_round:
            return Outcome(True, top)
        return Outcome(False, tied=top)
    if last_round:
        return Outcome(True, best(columns))
    return Outcome(False)


def order_key(column: int, totals: Mapping[int, int], out: Mapping[int, int],
              race: Race) -> tuple[int, int, int]:
    """Smaller is better: still in, then out later, then the better total."""
    total = race.better(totals.get(column, 0))
    if column in out:
        return (1, -out[column], total)
    return (0, 0, total)


def places(columns: Sequence[int], totals: Mapping[int, int], out: Mapping[int, int],
           race: Race) -> dict[int, int]:
    """Each column's place, 1 the best; columns level share the better place."""
    keys = {c: order_key(c, totals, out, race) for c in columns}
    return {c: 1 + sum(keys[o] < keys[c] for o in columns) for c in columns}


def place_shares(placed: Mapping[int, int], amounts: Sequence[int]) -> dict[int, Decimal]:
    """What each column gets of `amounts` (first place's, second's ...; they add up to zero):
    columns sharing a place share the amounts of the places they cover, equally, to the
    cent (a remainder, as 1 split three ways, goes to the first of them), so the shares
    still add up to zero. A place beyond the amounts gets 0."""
    shares: dict[int, Decimal] = {}
    for place in sorted(set(placed.values())):
        group = sorted(c for c, p in placed.items() if p == place)
        covered = [amounts[i] if i < len(amounts) else 0
                   for i in range(place - 1, place - 1 + len(group))]
        whole = Decimal(sum(covered))
        each = (whole / len(group)).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
        for column in group:
            shares[column] = each
        shares[group[0]] += whole - each * len(group)
    return shares
