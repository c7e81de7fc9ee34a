"""Tranca's round score and meld checks: pure functions. Facts: shared/rules/tranca.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.core.cards import Card, describe
from bot.core.errors import UserError
from bot.core.i18n import Joined, Msg, Num, _, _n, join

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
        raise UserError(_("[{meld}] is not a meld: a meld has 3 or more cards.", meld=shown))
    if any(c.rank == 3 for c in cards):
        raise UserError(_("[{meld}] is not a meld: 3s never go in melds (red 3s are laid "
                          "apart, give them as red3:; black 3s are trancas).", meld=shown))
    if any(c.is_printed_joker for c in cards):
        raise UserError(_("[{meld}] is not a meld: Tranca is played without jokers.",
                          meld=shown))
    size = rules["canastra_size"]
    if all(c.rank == 2 for c in cards):
        if rules["twos_canastra"] and len(cards) >= size:
            return Meld(tuple(cards), "twos")
        if rules["twos_canastra"]:
            raise UserError(_("[{meld}] is not a meld: 2s are wild, one to a meld (a canastra "
                              "of 2s needs {size}).", meld=shown, size=size))
        raise UserError(_("[{meld}] is not a meld: 2s are wild, one to a meld.", meld=shown))
    wild = [c for c in cards if c.rank == 2]
    natural = [c for c in cards if c.rank != 2]
    if len(wild) > 1:
        raise UserError(_("[{meld}] is not a meld: at most one 2 as a wild in a meld.",
                          meld=shown))
    if len({c.rank for c in natural}) == 1:
        kind = "meld"
    elif len({c.suit for c in natural}) == 1:
        positions = sorted(ORDER[c.rank] for c in natural)
        if len(set(positions)) != len(positions):
            raise UserError(_("[{meld}] is not a meld: a card appears twice in a sequence.",
                              meld=shown))
        gaps = positions[-1] - positions[0] + 1 - len(positions)
        if gaps > len(wild) and wild:
            raise UserError(_n("[{meld}] is not a meld: the sequence has a gap and one 2 "
                               "fills only one.",
                               "[{meld}] is not a meld: the sequence has {n} gaps and one 2 "
                               "fills only one.", gaps, meld=shown))
        if gaps > len(wild):
            raise UserError(_n("[{meld}] is not a meld: the sequence has a gap.",
                               "[{meld}] is not a meld: the sequence has {n} gaps.", gaps,
                               meld=shown))
        kind = "meld"
    else:
        raise UserError(_("[{meld}] is not a meld: cards of one suit in a row, or of one "
                          "rank.", meld=shown))
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
    return sum(points for _label, points in parts), parts


# Each part of a side's score as a summary shows it (the labels above are kept in the
# round's inputs as they are: they are the keys, these the words).
PART_TEXT = {
    "table": _("table {points}"),
    "in hand": _("in hand {points}"),
    "clean canastras": _("clean canastras {points}"),
    "dirty canastras": _("dirty canastras {points}"),
    "canastra of 2s": _("canastra of 2s {points}"),
    "red 3s": _("red 3s {points}"),
    "black 3s in hand": _("black 3s in hand {points}"),
    "morto not taken": _("morto not taken {points}"),
    "final move": _("final move {points}"),
}


def signed(points: int) -> Num | Joined:
    """A score with its sign, "+1,200", "-40", "+0", written as the language shown writes
    numbers ("+1.200" in Portuguese). Num signs only a gain: a side's nothing is "+0", as
    it always was."""
    if points == 0:
        return join(["+", Num(0)], "")
    return Num(points, signed=True)


def part_text(label: str, points: int) -> Msg | str:
    """One part of a side's score, "in hand -40", in the language shown."""
    template = PART_TEXT.get(label)
    if template is None:  # a label of an older version, kept in a round's inputs
        return f"{label} {points:+,}"
    return replace(template, values={"points": signed(points)})
