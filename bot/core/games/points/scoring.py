"""A round of a game of points, scored: pure functions, no I/O.

A round is the points each column (a player, or a side) is given. The rules may then score
it another way (bot/core/games/points/rules.py names the rule pages):

- a show (Dhumbal, Jhyap, Yaniv): the player who showed scores 0 if every other hand is
  higher, else their hand plus a penalty; the others score their hands;
- shooting the moon (Hearts): one player with all the moon's points and the others none
  gives each other player those points (or takes them off the shooter);
- the winner takes (Kitti, Dhumbal tables settling up): the others lose their points and
  the winner gains them all; or the winner scores them all and the others nothing (Uno);
- zero-sum: a round that does not add up to zero is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.errors import UserError
from bot.core.i18n import _

NO, YES, SUM = "no", "yes", "sum"  # winner_takes
OTHERS, SELF = "others", "self"  # moon_to


@dataclass(frozen=True)
class Scoring:
    """The rules that turn the points typed into a round's score."""

    winner_takes: str = NO  # no: as typed; yes: the others pay the winner; sum: Uno's
    zero_sum: bool = False  # a round must add up to zero
    moon: int = 0  # a round with all these points to one player is a moon (0: no moons)
    moon_to: str = OTHERS  # a moon gives the points to each other player, or takes them off
    show_penalty: int = 0  # what a show that another hand equals or beats adds (0: no shows)
    show_max: int = 0  # the most a hand may hold to show (0: any hand)
    caught_zero: bool = False  # a show beaten: the lowest other hand scores 0
    counts: bool = False  # every round's points are hands' counts: 0 or more (Dhumbal)


@dataclass(frozen=True)
class Round:
    """A round as scored: each column's points, and what the rules made of it."""

    deltas: dict[int, int]
    moon: int | None = None  # the column that shot the moon
    show_held: bool | None = None  # None: nobody showed


def score_round(points: Mapping[int, int], scoring: Scoring, winner: int | None = None,
                show: int | None = None) -> Round:
    """The round's score from the points typed for each column in it. `winner`: who won
    it, where the winner takes; `show`: who showed. Raises UserError (a message naming
    columns by key, which the game words with names) where the rules refuse it."""
    if scoring.counts and any(v < 0 for v in points.values()):
        raise UserError(_("A hand's points are 0 or more."))
    if show is not None:
        return _shown(points, scoring, show)
    if scoring.winner_takes != NO:
        return _taken(points, scoring, winner)
    if winner is not None:
        raise ValueError("a winner only where the winner takes")
    moon = _moon(points, scoring.moon)
    if moon is not None:
        if scoring.moon_to == SELF:
            deltas = {c: (-scoring.moon if c == moon else 0) for c in points}
        else:
            deltas = {c: (0 if c == moon else scoring.moon) for c in points}
        return Round(deltas, moon=moon)
    deltas = dict(points)
    if scoring.zero_sum and sum(deltas.values()):
        raise UserError(_("The points add up to {total}; a round here adds up to zero "
                          "(zero_sum:yes). Count them again.", total=sum(deltas.values())))
    return Round(deltas)


def _moon(points: Mapping[int, int], moon: int) -> int | None:
    """The column with all of the moon's points, the others none: it shot the moon."""
    if not moon or len(points) < 2:
        return None
    full = [c for c, v in points.items() if v == moon]
    if len(full) == 1 and all(v == 0 for c, v in points.items() if c != full[0]):
        return full[0]
    return None


def _taken(points: Mapping[int, int], scoring: Scoring, winner: int | None) -> Round:
    if winner is None:
        raise UserError(_("Say who won the round: winner:NAME, then the others' points."))
    if points.get(winner, 0):
        raise ValueError("the winner's own points are the others' (the game says so)")
    others = {c: v for c, v in points.items() if c != winner}
    if any(v < 0 for v in others.values()):
        raise UserError(_("The points a winner takes are 0 or more."))
    taken = sum(others.values())
    if scoring.winner_takes == YES:  # the others pay the winner: zero-sum
        deltas = {c: -v for c, v in others.items()}
    else:  # SUM: the winner scores them, the others nothing (Uno)
        deltas = dict.fromkeys(others, 0)
    deltas[winner] = taken
    return Round(dict(sorted(deltas.items())))


def _shown(points: Mapping[int, int], scoring: Scoring, show: int) -> Round:
    """A show: held if every other hand is higher than the shower's."""
    if not scoring.show_penalty:
        raise ValueError("a show only where shows are played")
    hand = points[show]
    if hand < 0 or any(v < 0 for v in points.values()):
        raise UserError(_("A hand's points are 0 or more."))
    if scoring.show_max and hand > scoring.show_max:
        raise UserError(_("A show needs {most} or less in hand (show_max), and that hand "
                          "holds {hand}.", most=scoring.show_max, hand=hand))
    others = {c: v for c, v in points.items() if c != show}
    held = all(v > hand for v in others.values())
    deltas = dict(points)
    if held:
        deltas[show] = 0
    else:
        deltas[show] = hand + scoring.show_penalty
        if scoring.caught_zero and others:
            lowest = min(others.values())
            for column, value in others.items():
                if value == lowest:
                    deltas[column] = 0
    return Round(deltas, show_held=held)
