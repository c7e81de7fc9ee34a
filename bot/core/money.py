"""Points to money, and who pays whom at the end in as few transfers as possible."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from bot.core.i18n.text import N_
from bot.core.rules import RuleSpec, decimal_rule, text_rule

if TYPE_CHECKING:
    from bot.core.i18n import Tr


MONEY = N_("money")  # the topic of the money rules (Discord: /rules riichi_money)


def money_rules() -> list[RuleSpec]:
    """Rule keys every game shares: the stake, not a rule of the game's scoring, so a
    whole-table preset keeps it."""
    return [replace(spec, topic=MONEY, scoring=False) for spec in (
        decimal_rule("rate", "1", "0", "1000000", "money per point, e.g. 0.25"),
        text_rule("currency", "", 8, "shown after money amounts, e.g. Rs or $ (none: no "
                  "currency)"),
    )]


def to_money(points: int, rate: str, places: int = 0) -> Decimal:
    """Money for `points` (kept in units of 10^-places) at `rate` per point."""
    return Decimal(points).scaleb(-places) * Decimal(rate)


def money_shown(rules: Mapping[str, object]) -> bool:
    return Decimal(str(rules.get("rate", "1"))) != 1 or bool(rules.get("currency"))


# Money kept hand by hand: {currency: {column: "12.50"}} (JSON-ready). A hand counts at the
# rate and in the currency of its own rules, so a rate changed mid-game changes only what
# follows, and currencies are never added together.
MoneyBook = dict[str, dict[str, str]]


def hand_money(deltas: Mapping[int, int], rules: Mapping[str, object],
               places: int = 0) -> tuple[str, dict[int, Decimal]] | None:
    """(currency, money per column) of one hand, or None for a hand not played for money."""
    if not money_shown(rules):
        return None
    rate = str(rules.get("rate", "1"))
    return str(rules.get("currency") or ""), {
        column: to_money(points, rate, places) for column, points in deltas.items()}


def book_add(book: MoneyBook, deltas: Mapping[int, int], rules: Mapping[str, object],
             places: int, sign: int = 1) -> None:
    money = hand_money(deltas, rules, places)
    if money is None:
        return
    currency, amounts = money
    row = book.setdefault(currency, {})
    for column, amount in amounts.items():
        total = Decimal(row.get(str(column), "0")) + sign * amount
        # written out as people read it: 170, never 1.7E+2 (what normalize() alone gives)
        row[str(column)] = f"{total.normalize():f}" if total else "0"
    if not any(Decimal(v) for v in row.values()):
        # nothing in that currency: no row, whichever way it came to nothing (the last hand
        # in it undone, hands that cancel out, a hand of no points), so the book is what the
        # live hands make whatever was undone on the way (an import derives it from them)
        del book[currency]


def book_totals(book: MoneyBook) -> dict[str, dict[int, Decimal]]:
    return {currency: {int(k): Decimal(v) for k, v in row.items()}
            for currency, row in book.items()}


def against_average(amounts: Mapping[int, Decimal], columns: Iterable[int],
                    sign: int = 1) -> dict[int, Decimal]:
    """Each column's money less the average of `columns` (those missing count 0): money
    for a game whose scores don't sum to zero (Call Break), which then does; `sign` -1:
    the average less each column's, for a game the lowest total wins (Hearts). Exact: an
    average of amounts with k decimals over n columns has a finite decimal expansion only
    when n's factors are 2 and 5 (4 players: k + 2 decimals at most); other counts (3
    players) are rounded to k + 2 decimals, at least the cent, and the rest goes to the
    first column so the sum stays exactly zero."""
    keys = list(columns)
    if not keys:
        return {}
    values = [amounts.get(k, Decimal(0)) for k in keys]
    finest = max((-v.normalize().as_tuple().exponent for v in values  # type: ignore[operator]
                  if v), default=0)
    quantum = Decimal(1).scaleb(-(max(finest, 0) + 2))
    average = sum(values, Decimal(0)) / len(keys)
    if average != average.quantize(quantum):
        average = average.quantize(quantum)
    out = {k: sign * (amounts.get(k, Decimal(0)) - average) for k in keys}
    out[keys[0]] -= sum(out.values(), Decimal(0))
    return out


def money_of_book(book: MoneyBook, against: Iterable[int] | None = None, sign: int = 1
                  ) -> dict[str, dict[int, Decimal]]:
    """The money a book holds, per currency and column; `against`: the columns whose
    average each amount is taken against (a game with money_against_average; `sign` -1
    where the lowest total wins), else None."""
    totals = book_totals(book)
    if against is None:
        return totals
    keys = list(against)
    return {currency: against_average(amounts, keys, sign)
            for currency, amounts in totals.items()}


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    amount: Decimal


def settle_money(balances: Mapping[int, Decimal]) -> list[Payment]:
    """The fewest payments that clear balances of money (which sum to zero)."""
    exponent = max((-b.normalize().as_tuple().exponent for b in balances.values()
                    if b), default=0)
    scale = max(0, exponent)  # type: ignore[operator]
    whole = {k: int(v.scaleb(scale)) for k, v in balances.items()}
    return [Payment(t.payer, t.payee, Decimal(t.points).scaleb(-scale))
            for t in settle_up(whole)]


def money_places(amounts: Iterable[Decimal]) -> int:
    """Decimals that show every amount of a table exactly, and the same for all: none when
    all are whole, else cents at least (0.5 beside 6.75 reads 0.50)."""
    finest = max((-a.normalize().as_tuple().exponent for a in amounts  # type: ignore[operator]
                  if a != a.to_integral()), default=0)
    return 0 if finest <= 0 else max(2, finest)


def format_money(amount: Decimal, currency: str = "", places: int | None = None, *,
                 signed: bool = False, tr: Tr | None = None) -> str:
    """1,200, -3.50, 0.125 with the currency after: whole amounts bare, cents to two places,
    finer rates exactly; `places` gives every amount of one table the same decimals.
    `signed`: a balance (+3.50, as points are shown), not an amount paid. `tr`: written as
    its language writes numbers (pt-BR 1.234,50; hi and ne 12,34,567); English without."""
    if places is None:
        places = money_places([amount])
    if tr is None or tr.language == "en":
        text = f"{amount:{'+' if signed and amount else ''},.{places}f}"
    else:
        text = tr.number(amount, places)
        if signed and amount > 0:
            text = "+" + text
    return f"{text} {currency}".strip()


def json_number(amount: Decimal) -> int | float:
    return int(amount) if amount == amount.to_integral() else float(amount)


K = TypeVar("K")  # who: a seat, or a person's key
N = TypeVar("N", int, Decimal)  # how much: points, or money


@dataclass(frozen=True)
class Transfer:
    payer: int
    payee: int
    points: int


def settle_up(balances: Mapping[int, int]) -> list[Transfer]:
    """Transfers that clear zero-sum balances in the fewest payments.

    Groups of players whose balances sum to zero can settle among themselves with one payment
    fewer than their size, so the fewest payments = players - the most such disjoint groups.
    Found exactly over subsets (at most 10 players, so 1,024 subsets), then paid greedily
    inside each group.
    """
    people = sorted(p for p, v in balances.items() if v)
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    values = [balances[p] for p in people]
    full = (1 << len(people)) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]

    @cache
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        # (number of zero-sum groups, the groups) for the players in `mask`
        if mask == 0:
            return 0, ()
        first = mask & -mask
        rest = mask ^ first
        result = (0, (mask,))
        sub = rest
        while True:
            group = sub | first
            if sums[group] == 0 and group != mask:
                count, groups = best(mask ^ group)
                if count + 1 > result[0]:
                    result = (count + 1, (group, *groups))
            if sub == 0:
                break
            sub = (sub - 1) & rest
        return result if result[0] else (1, (mask,))

    transfers: list[Transfer] = []
    for group in best(full)[1]:
        members = {people[i]: values[i] for i in range(len(people)) if group >> i & 1}
        transfers += [Transfer(*move) for move in pay_greedily(members)]
    return transfers


def pay_greedily(balances: Mapping[K, N]) -> list[tuple[K, K, N]]:
    """(payer, payee, amount) that clear balances summing to zero, the largest debt paid to
    the largest claim first: the fewest transfers within a group that has no smaller
    zero-sum group inside it, and few enough for any group."""
    debtors = sorted(([k, -v] for k, v in balances.items() if v < 0), key=lambda x: -x[1])
    creditors = sorted(([k, v] for k, v in balances.items() if v > 0), key=lambda x: -x[1])
    moves: list[tuple[K, K, N]] = []
    d = c = 0
    while d < len(debtors) and c < len(creditors):
        amount = min(debtors[d][1], creditors[c][1])
        moves.append((debtors[d][0], creditors[c][0], amount))
        debtors[d][1] -= amount
        creditors[c][1] -= amount
        d += debtors[d][1] == 0
        c += creditors[c][1] == 0
    return moves
