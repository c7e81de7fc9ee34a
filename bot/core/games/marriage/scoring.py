"""Settlement of one Marriage hand: pure functions, no I/O.

Facts: shared/rules/marriage.md. With n players in the maal exchange, s_i their maal
and P the sum, player i gets n*s_i - P; each loser also pays the winner game points.
Every hand is zero-sum.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

MURDER, KIDNAP, COUNTED = "murder", "kidnap", "counted"


@dataclass(frozen=True)
class MarriageScoring:
    """The rule values that change a hand's arithmetic."""

    seen: int = 3  # game points a seen loser pays the winner
    unseen: int = 10  # game points an unseen loser pays the winner
    dublee: int = 5  # extra each loser pays when the winner finishes with dublees
    unseen_maal: str = MURDER  # murder: voided; kidnap: goes to the winner; counted: counts
    foul: int = 15  # penalty a foul player pays
    foul_pays: str = "each"  # each: to every other player; winner: to the winner only
    dublee_mode: str = "extra"  # extra: every loser pays it on top; replace: a seen loser
    # pays it in place of the seen points, an unseen loser the unseen points only
    dublee_route_pays: bool = True  # a seen loser who went the dublee route pays game points

    @classmethod
    def from_rules(cls, rules: Mapping[str, object]) -> MarriageScoring:
        return cls(**{k: rules[k] for k in cls.__dataclass_fields__ if k in rules})  # type: ignore[arg-type]


@dataclass(frozen=True)
class MarriageHand:
    players: tuple[int, ...]  # seats taking part in this hand, in seat order
    winner: int | None  # None only for a hand that is nothing but fouls (a misdeal)
    seen: frozenset[int]  # seen players; always includes the winner
    maal: Mapping[int, int] = field(default_factory=dict)  # missing means 0
    dublee: bool = False  # the winner finished with dublees
    fouls: frozenset[int] = frozenset()  # fouled in this hand: out of the maal exchange
    dublee_route: frozenset[int] = frozenset()  # seen losers who went the dublee route
    # Whose foul penalties are charged in this hand (a seat once per penalty). None: this
    # hand's fouls. With fouls charged in the next hand, the game passes last hand's here.
    charged_fouls: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Settlement:
    deltas: dict[int, int]  # seat -> points won (+) or lost (-) in this hand
    maal_counted: dict[int, int]  # seat -> maal after murder/kidnap, for players in the exchange
    maal_exchange: dict[int, int]  # seat -> n*s - P
    game_points: dict[int, int]  # seat -> game points received (+) or paid (-)
    fouls: dict[int, int]  # seat -> foul penalties received (+) or paid (-)


def game_points(seen: bool, dublee_route: bool, dublee_finish: bool,
                rules: MarriageScoring) -> int:
    """What one loser pays the winner."""
    if seen and dublee_route and not rules.dublee_route_pays:
        return 0
    owed = rules.seen if seen else rules.unseen
    if dublee_finish:
        if rules.dublee_mode == "replace":
            # the dublee points take the place of the usual rule (every loser paying them
            # extra): a seen loser pays them in place of the seen points, an unseen loser
            # pays the unseen points alone
            return rules.dublee if seen else owed
        owed += rules.dublee
    return owed


def settle(hand: MarriageHand, rules: MarriageScoring) -> Settlement:
    in_exchange = [p for p in hand.players if p not in hand.fouls] if hand.winner else []
    counted = {p: hand.maal.get(p, 0) for p in in_exchange}
    unseen = [p for p in in_exchange if p not in hand.seen and p != hand.winner]
    if rules.unseen_maal in (MURDER, KIDNAP):
        taken = sum(counted[p] for p in unseen)
        for p in unseen:
            counted[p] = 0
        if rules.unseen_maal == KIDNAP and hand.winner is not None:
            counted[hand.winner] += taken

    n, pot = len(in_exchange), sum(counted.values())
    exchange = {p: n * counted[p] - pot for p in in_exchange}

    game = dict.fromkeys(in_exchange, 0)
    if hand.winner is not None:
        for loser in in_exchange:
            if loser == hand.winner:
                continue
            owed = game_points(loser in hand.seen, loser in hand.dublee_route, hand.dublee,
                               rules)
            game[loser] -= owed
            game[hand.winner] += owed

    charged = sorted(hand.fouls) if hand.charged_fouls is None else list(hand.charged_fouls)
    fouls = dict.fromkeys(hand.players, 0)
    for fouler in charged:
        fouls.setdefault(fouler, 0)  # charged even if sitting out this hand
        if rules.foul_pays == "winner" and hand.winner is not None and hand.winner != fouler:
            receivers = [hand.winner]
        else:
            receivers = [p for p in hand.players if p != fouler and p not in hand.fouls]
        for receiver in receivers:
            fouls[fouler] -= rules.foul
            fouls[receiver] += rules.foul

    deltas = {p: exchange.get(p, 0) + game.get(p, 0) + fouls[p] for p in fouls}
    return Settlement(deltas, counted, exchange, game, {p: v for p, v in fouls.items() if v})
