"""Maal from the cards a player holds: pure functions.

Each card counts towards one item only (a marriage is 10, not 3+2+2) and the breakdown that
scores most is chosen. Facts: shared/rules/marriage.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from bot.core.cards import Card, next_rank, previous_rank
from bot.core.errors import UserError
from bot.core.i18n import Msg, Text, _, _n, join

ALTER_OFF, ALTER_SAME, ALTER_OPPOSITE = "off", "same", "opposite"


@dataclass(frozen=True)
class MaalRoles:
    """Which cards are maal once the tiplu is known."""

    tiplu: Card
    alter: str = ALTER_SAME

    @property
    def poplu(self) -> Card:
        return Card(next_rank(self.tiplu.rank), self.tiplu.suit)

    @property
    def jhiplu(self) -> Card:
        return Card(previous_rank(self.tiplu.rank), self.tiplu.suit)

    def is_alter(self, card: Card) -> bool:
        if self.alter == ALTER_OFF or card.rank != self.tiplu.rank or card == self.tiplu:
            return False
        same_colour = card.red == self.tiplu.red
        return same_colour if self.alter == ALTER_SAME else not same_colour

    def is_ordinary_joker(self, card: Card) -> bool:
        return card.rank == self.tiplu.rank and card.suit != self.tiplu.suit

    def is_wild(self, card: Card) -> bool:
        """Cards that may stand in for any card in a set (seen players only)."""
        return (card.is_printed_joker or card.rank == self.tiplu.rank
                or card in (self.poplu, self.jhiplu))


def value_for(values: Sequence[int], count: int) -> int:
    """Points for holding `count` of an item: the table's value for that many; beyond the
    table, whole table-sized groups and the rest add up (tunnella 5 each: 3 are 15)."""
    if count <= 0 or not values:
        return 0
    whole, rest = divmod(count, len(values))
    return whole * values[-1] + (values[rest - 1] if rest else 0)


def item_points(kind: str, count: int, points: int) -> Msg:
    """"marriage 10", "2 tiplu 7", "2 joker tunnellas 20": one item of a maal breakdown."""
    if kind == "marriage":
        return _n("marriage {points}", "{n} marriages {points}", count, points=points)
    if kind == "tunnella":
        return _n("tunnella {points}", "{n} tunnellas {points}", count, points=points)
    if kind == "joker_tunnella":
        return _n("joker tunnella {points}", "{n} joker tunnellas {points}", count,
                  points=points)
    if kind == "maal_tunnella":
        return _n("maal tunnella {points}", "{n} maal tunnellas {points}", count,
                  points=points)
    if kind == "poplu":
        return _n("poplu {points}", "{n} poplu {points}", count, points=points)
    if kind == "jhiplu":
        return _n("jhiplu {points}", "{n} jhiplu {points}", count, points=points)
    if kind == "alter":
        return _n("alter {points}", "{n} alter {points}", count, points=points)
    if kind == "man":
        return _n("man {points}", "{n} man {points}", count, points=points)
    return _n("tiplu {points}", "{n} tiplu {points}", count, points=points)


@dataclass(frozen=True)
class Maal:
    points: int
    parts: tuple[tuple[str, int, int], ...]  # (kind, how many, points): ("marriage", 1, 10)

    def breakdown(self) -> Text:
        """"marriage 10 + tiplu 3 = 13", as lazy text (it is kept in a hand's summary)."""
        if not self.parts:
            return _("no maal = 0")
        items = join([item_points(kind, count, points) for kind, count, points in self.parts],
                     " + ")
        return _("{items} = {total}", items=items, total=self.points)


def count_maal(cards: Iterable[Card], roles: MaalRoles, table: Mapping[str, Sequence[int]],
               tunnellas: Sequence[Card] = ()) -> Maal:
    """The most the cards are worth. `tunnellas` are the tunnellas shown at the deal (each
    one card, held three times); each may be counted as a tunnella or as loose cards."""
    held = Counter(cards)
    for shown in tunnellas:
        if held[shown] < 3:
            raise UserError(_("A tunnella of {card} needs three {card} among the cards.",
                              card=str(shown)))
    best: Maal | None = None
    most_marriages = min(held[roles.tiplu], held[roles.poplu], held[roles.jhiplu])
    for marriages, counted in product(range(most_marriages + 1),
                                      product((False, True), repeat=len(tunnellas))):
        left = held.copy()
        parts: list[tuple[str, int, int]] = []
        left[roles.tiplu] -= marriages
        left[roles.poplu] -= marriages
        left[roles.jhiplu] -= marriages
        if marriages:
            parts.append(("marriage", marriages,
                          value_for(table.get("marriage", ()), marriages)))
        kinds: Counter[str] = Counter()
        for shown, used in zip(tunnellas, counted, strict=True):
            if not used:
                continue
            if left[shown] < 3:
                break  # its cards already went to a marriage
            left[shown] -= 3
            kinds[_tunnella_kind(shown, roles)] += 1
        else:
            for kind, number in kinds.items():
                parts.append((kind, number, value_for(table.get(kind, ()), number)))
            for name, count in (("tiplu", left[roles.tiplu]), ("poplu", left[roles.poplu]),
                                ("jhiplu", left[roles.jhiplu]),
                                ("alter", sum(n for c, n in left.items()
                                              if roles.is_alter(c))),
                                ("man", sum(n for c, n in left.items()
                                            if c.is_printed_joker))):
                if count > 0:
                    parts.append((name, count, value_for(table.get(name, ()), count)))
            parts = [part for part in parts if part[2]]
            total = sum(part[2] for part in parts)
            if best is None or total > best.points:
                best = Maal(total, tuple(parts))
    assert best is not None
    return best


def _tunnella_kind(card: Card, roles: MaalRoles) -> str:
    if card == roles.tiplu:
        raise UserError(_("A tunnella of tiplu can't be held: one copy is the tiplu turned up."))
    if card in (roles.poplu, roles.jhiplu):
        return "maal_tunnella"
    if roles.is_ordinary_joker(card):
        return "joker_tunnella"
    return "tunnella"
