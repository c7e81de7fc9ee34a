"""Riichi payments: pure functions. Facts: shared/rules/riichi.md."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.errors import UserError
from bot.core.i18n import Num, _

VALID_FU = (20, 25, *range(30, 120, 10))
STICK = 100  # the smallest stick: every payment at the table is a multiple of it
STICK_SPLIT = 3 * STICK  # a honba: a third of it from each tsumo payer, in whole sticks


def round_up(points: float) -> int:
    """Every payment is rounded up to the next 100."""
    return int(-(-points // 100) * 100)


def basic_points(han: int, fu: int, yakuman: int = 0, kiriage: bool = False,
                 kazoe: str = "yakuman") -> int:
    """Basic points of a hand. `kazoe` is what a counted hand of 13 han or more is:
    "yakuman" (8,000), "sanbaiman" (6,000: EMA, M-League) or "none" (no cap: 13 han a
    yakuman, 26 a double, and so on)."""
    if yakuman:
        return 8000 * yakuman
    if han < 1:
        raise UserError(_("A winning hand has at least 1 han."))
    if fu not in VALID_FU:
        raise UserError(_("fu is 20, 25 or 30 to 110 in tens, not {fu}.", fu=fu))
    if han >= 13:
        if kazoe == "sanbaiman":
            return 6000
        if kazoe == "none":
            return 8000 * (han // 13)
        return 8000  # counted yakuman
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    if han >= 5:
        return 2000
    if kiriage and (han, fu) in ((4, 30), (3, 60)):
        return 2000
    return min(2000, fu * 2 ** (2 + han))


def check_han_fu(han: int, fu: int, tsumo: bool) -> None:
    """Refuse a han and fu that no hand has (the standard table's empty cells): 20 fu is
    only pinfu won by tsumo, so never a ron and never below 2 han (pinfu + menzen tsumo);
    25 fu is only chiitoitsu, 2 han by itself, and 3 by tsumo (+ menzen tsumo)."""
    if fu == 20 and not tsumo:
        raise UserError(_("No hand is 20 fu by ron: 20 fu is pinfu won by tsumo; pinfu by "
                          "ron is 30 fu."))
    if fu == 20 and han < 2:
        raise UserError(_("No hand is {han} han 20 fu: 20 fu is pinfu by tsumo, at least 2 "
                          "han (pinfu and menzen tsumo).", han=han))
    if fu == 25 and han < 2:
        raise UserError(_("No hand is {han} han 25 fu: 25 fu is chiitoitsu, 2 han by itself.",
                          han=han))
    if fu == 25 and tsumo and han < 3:
        raise UserError(_("No hand is {han} han 25 fu by tsumo: chiitoitsu by tsumo has "
                          "menzen tsumo too, at least 3 han.", han=han))


@dataclass(frozen=True)
class Win:
    winner: int
    basic: int
    dealer: bool


def ron(win: Win, loser: int, honba: int, honba_value: int = 300) -> dict[int, int]:
    pay = ron_value(win) + honba * honba_value
    return {win.winner: pay, loser: -pay}


def tsumo(win: Win, seats: Sequence[int], dealer_seat: int, honba: int,
          honba_value: int = 300) -> dict[int, int]:
    """Each other player pays; the dealer pays double when a non-dealer wins. A honba is
    worth `honba_value` on a ron and a third of it from each payer on a tsumo, with three
    players as with four ("+300 on ron, +100 from each payer on tsumo"): with three, two
    payers pay 100 each, not 300 split over two."""
    extra = honba * honba_tsumo(honba_value)
    deltas = dict.fromkeys(seats, 0)
    for seat in seats:
        if seat == win.winner:
            continue
        double = win.dealer or seat == dealer_seat
        pay = round_up(win.basic * (2 if double else 1)) + extra
        deltas[seat] -= pay
        deltas[win.winner] += pay
    return deltas


def honba_tsumo(honba_value: int) -> int:
    """What each payer adds a honba on a tsumo: a third of a ron's. The rule refuses a value
    that can't be split so (rules.py); one stored before that is refused here, never
    rounded away."""
    if honba_value % STICK_SPLIT:
        raise UserError(_("Rule honba is {value}: a tsumo takes a third of it from each "
                          "payer, in 100-point sticks, so it is a multiple of 300 (/rules "
                          "honba:{lower} or honba:{higher}).", value=Num(honba_value),
                          lower=Num(honba_value // STICK_SPLIT * STICK_SPLIT),
                          higher=Num(-(-honba_value // STICK_SPLIT) * STICK_SPLIT)))
    return honba_value // 3


def ron_value(win: Win) -> int:
    """What a ron of this hand pays, before honba."""
    return round_up(win.basic * (6 if win.dealer else 4))


def pao_ron(win: Win, loser: int, liable: int, honba: int, honba_value: int,
            honba_by_liable: bool) -> dict[int, int]:
    """Sekinin barai on a ron from another player: the discarder and the liable player pay
    half the hand each; the honba are paid by one of them (EMA: the discarder; Tenhou:
    the liable player). A yakuman's ron is a multiple of 200, so the halves are whole."""
    value = ron_value(win)
    extra = honba * honba_value
    deltas = {win.winner: value + extra, loser: -(value // 2), liable: -(value // 2)}
    deltas[liable if honba_by_liable else loser] -= extra
    return deltas


def pao_tsumo(win: Win, liable: int, honba: int, honba_value: int) -> dict[int, int]:
    """Sekinin barai on a tsumo: the liable player alone pays the full value of the hand
    (what a ron would pay) and the honba."""
    pay = ron_value(win) + honba * honba_value
    return {win.winner: pay, liable: -pay}


def noten_payments(seats: Sequence[int], tenpai: Sequence[int], total: int = 3000
                   ) -> dict[int, int]:
    """An exhaustive draw: the noten players pay `total` between them to the tenpai ones."""
    deltas = dict.fromkeys(seats, 0)
    noten = [s for s in seats if s not in tenpai]
    if not tenpai or not noten:
        return deltas
    if any(total % (count * STICK) for count in (len(noten), len(tenpai))):
        check_noten(total, len(seats))  # refused with the values that split, never rounded
    for seat in noten:
        deltas[seat] -= total // len(noten)
    for seat in tenpai:
        deltas[seat] += total // len(tenpai)
    return deltas


def noten_multiple(players: int) -> int:
    """What the noten total is a multiple of so that any 1 to players - 1 of the players can
    share it in 100-point sticks: 600 with four, 200 with three."""
    return math.lcm(*range(1, max(players, 2))) * STICK


def check_noten(total: int, players: int) -> None:
    """Refuse a noten total that some split at a table of this many players can't pay in
    100-point sticks (with four, three noten players can't share 1,000)."""
    step = noten_multiple(players)
    if total % step:
        raise UserError(_("Rule noten is paid in 100-point sticks, shared by 1 to {n} "
                          "players: with {players} players it is a multiple of {step} "
                          "(noten:{lower} or noten:{higher}), not {value}.", n=players - 1,
                          players=players, step=Num(step), lower=Num(total // step * step),
                          higher=Num(-(-total // step) * step), value=Num(total)))


def chombo(offender: int, seats: Sequence[int], dealer_seat: int) -> dict[int, int]:
    """Reverse mangan: the offender pays as if everyone else had won a mangan by tsumo."""
    deltas = dict.fromkeys(seats, 0)
    for seat in seats:
        if seat == offender:
            continue
        pay = 4000 if offender == dealer_seat or seat == dealer_seat else 2000
        deltas[seat] += pay
        deltas[offender] -= pay
    return deltas


def final_scores(scores: dict[int, int], seat_order: Sequence[int], start: int, back: int,
                 uma: Sequence[int], tie: str) -> dict[int, float]:
    """(score - return) / 1000 + uma; first place also gets the oka. Ties: by seat order from
    the first dealer, or the tied places' uma shared."""
    oka = (back - start) * len(scores) / 1000
    ranked = sorted(scores, key=lambda s: (-scores[s], seat_order.index(s)))
    final = {s: (scores[s] - back) / 1000 for s in scores}
    place = 0
    while place < len(ranked):
        tied = [s for s in ranked if scores[s] == scores[ranked[place]]]
        share = uma[place: place + len(tied)]
        for i, seat in enumerate(tied):
            final[seat] += sum(share) / len(tied) if tie == "split" else share[i]
        if place == 0:
            for seat in tied:
                final[seat] += oka / len(tied) if tie == "split" else (oka if seat == tied[0]
                                                                       else 0)
        place += len(tied)
    rounded = {s: round(v, 1) for s, v in final.items()}
    # a three-way split leaves thirds: the tenth lost in rounding goes to the top seat
    rounded[ranked[0]] = round(rounded[ranked[0]] + sum(final.values())
                               - sum(rounded.values()), 1)
    return rounded
