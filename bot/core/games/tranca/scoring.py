"""Tranca's round score and meld checks: pure functions. Facts: shared/rules/tranca.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.core.cards import Card, describe
from bot.core.errors import UserError

ORDER = {r: i for i, r in enumerate([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1])}  # 4 .. K, A high


def card_value(card: Card, rules: Mapping[str, int]) -> int:
    if card.rank == 1:
        return rules["value_ace"]
    if card.rank == 2:
        return rules["value_two"]
    if card.rank == 3:
        return rules["value_red3"] if card.red else 0  # a black 3 is the tranca penalty
    if card.rank <= 7:
        return rules["value_4_7"]
    if card.rank <= 10:
        return rules["value_8_10"]
    return rules["value_jqk"]


@dataclass(frozen=True)
class Meld:
    cards: tuple[Card, ...]
    kind: str  # "meld", "clean", "dirty", "twos"


def check_meld(cards: Sequence[Card], rules: Mapping[str, int]) -> Meld:
    """A meld: 3+ cards of one suit in a row or of one rank; one 2 as wild at most, unless
    every card is a 2 (the canastra of 2s); no 3s."""
    shown = describe(cards)
    if len(cards) < 3:
        raise UserError(f"[{shown}] is not a meld: a meld has 3 or more cards.")
    if any(c.rank == 3 for c in cards):
        raise UserError(f"[{shown}] is not a meld: 3s never go in melds (red 3s are laid "
                        "apart, give them as red3:; black 3s are trancas).")
    if any(c.is_printed_joker for c in cards):
        raise UserError(f"[{shown}] is not a meld: Tranca is played without jokers.")
    size = rules["canastra_size"]
    if all(c.rank == 2 for c in cards):
        if rules["twos_canastra"] and len(cards) >= size:
            return Meld(tuple(cards), "twos")
        raise UserError(f"[{shown}] is not a meld: 2s are wild, one to a meld"
                        + (f" (a canastra of 2s needs {size})" if rules["twos_canastra"]
                           else "") + ".")
    wild = [c for c in cards if c.rank == 2]
    natural = [c for c in cards if c.rank != 2]
    if len(wild) > 1:
        raise UserError(f"[{shown}] is not a meld: at most one 2 as a wild in a meld.")
    if len({c.rank for c in natural}) == 1:
        kind = "meld"
    elif len({c.suit for c in natural}) == 1:
        positions = sorted(ORDER[c.rank] for c in natural)
        if len(set(positions)) != len(positions):
            raise UserError(f"[{shown}] is not a meld: a card appears twice in a sequence.")
        gaps = positions[-1] - positions[0] + 1 - len(positions)
        if gaps > len(wild):
            raise UserError(f"[{shown}] is not a meld: the sequence has "
                            f"{'a gap' if gaps == 1 else f'{gaps} gaps'}"
                            + (" and one 2 fills only one" if wild else "") + ".")
        kind = "meld"
    else:
        raise UserError(f"[{shown}] is not a meld: cards of one suit in a row, or of one "
                        "rank.")
    if len(cards) >= size:
        kind = "dirty" if wild else "clean"
    return Meld(tuple(cards), kind)


@dataclass(frozen=True)
class SideRound:
    """One side's round as the table tells it."""

    table: int  # card points laid on the table (melds and red 3s)
    hand: int  # card points left in hand (black 3s apart)
    clean: int = 0
    dirty: int = 0
    twos: int = 0
    red3: int = 0
    black3: int = 0  # black 3s left in hand
    morto: bool = True  # the morto was taken and used
    out: bool = False  # the final move (batida)


def round_score(side: SideRound, rules: Mapping[str, int]) -> tuple[int, list[tuple[str, int]]]:
    canastras = side.clean + side.dirty + side.twos
    parts = [
        ("table", side.table),
        ("in hand", -side.hand),
        ("clean canastras", side.clean * rules["clean"]),
        ("dirty canastras", side.dirty * rules["dirty"]),
        ("canastra of 2s", side.twos * rules["twos_canastra"]),
        ("red 3s", side.red3 * rules["red3"] * (1 if canastras else -1)),
        ("black 3s in hand", -side.black3 * rules["black3"]),
        ("morto not taken", 0 if side.morto else -rules["morto"]),
        ("final move", rules["final_move"] if side.out else 0),
    ]
    parts = [(label, points) for label, points in parts if points]
    return sum(points for _, points in parts), parts
