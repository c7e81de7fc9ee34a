"""Call Break's round score: pure functions, no I/O.

Scores are kept in tenths (the game's point_places is 1): a bid of 3 made with 5 tricks is
3.2 points, kept as 32, so sums over a night stay exact. The rules behind each branch are in
the game's docstring (bot/core/games/callbreak/game.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.errors import UserError
from bot.core.i18n import _

TRICKS = 13  # 52 cards, 4 players: 13 tricks a round
TENTHS = 10  # one point in the board's units
BIG_BID = 8  # with eight_is_13, a made bid of this or more scores 13


@dataclass(frozen=True)
class Scoring:
    """The rules that change a round's score (the rest only limit what may be entered)."""

    overtricks: bool = True  # each trick over the bid adds 0.1
    miss: str = "bid"  # a bid not made: "bid" costs the bid, "short" the tricks short
    eight_is_13: bool = False  # a made bid of 8 or more is worth 13


def player_score(bid: int, took: int, scoring: Scoring) -> int:
    """One player's round, in tenths."""
    if took >= bid:
        worth = TRICKS if scoring.eight_is_13 and bid >= BIG_BID else bid
        extra = took - bid if scoring.overtricks else 0
        return worth * TENTHS + extra  # each extra trick is one tenth
    short = bid - took
    return -(short if scoring.miss == "short" else bid) * TENTHS


def check_round(bids: Mapping[int, int], tricks: Mapping[int, int], low: int,
                high: int) -> None:
    """A complete round as the table tells it: every player has a bid within low..high and
    a count of tricks, and the tricks add up to 13 (every trick is somebody's)."""
    if bids.keys() != tricks.keys():
        raise UserError(_("Every player needs a bid and a count of tricks."))
    for bid in bids.values():
        if not low <= bid <= high:
            raise UserError(_("A bid is {low} to {high}, not {bid}.", low=low, high=high,
                              bid=bid))
    if any(not 0 <= took <= TRICKS for took in tricks.values()):
        raise UserError(_("A player takes 0 to {tricks} tricks.", tricks=TRICKS))
    total = sum(tricks.values())
    if total != TRICKS:
        raise UserError(_("The tricks add up to {total}; a round has {tricks}. Count them "
                          "again.", total=total, tricks=TRICKS))


def round_scores(bids: Mapping[int, int], tricks: Mapping[int, int], scoring: Scoring,
                 low: int = 1, high: int = TRICKS) -> dict[int, int]:
    """Each player's round score in tenths, after checking the round."""
    check_round(bids, tricks, low, high)
    return {seat: player_score(bids[seat], tricks[seat], scoring) for seat in bids}
