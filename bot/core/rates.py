"""Which hands were played at which rate, and why points and money can rank differently:
each hand is paid at the rate (and in the currency) of its own time, so after `/rules
rate:2` mid-game a player whose points came at the lower rate has less money than their
points say. /endgame, /history and /stats say so in these words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from bot.core import points as pts
from bot.core.i18n import Tr
from bot.core.i18n.words import placeholders
from bot.core.money import format_money, money_shown
from bot.core.session import HandRecord

Rate = tuple[str, str]  # (rate, currency) as a hand's rules keep them; ("1", "") no money


def rate_of(rules: Mapping[str, object]) -> Rate | None:
    """A hand's rate and currency, or None for a hand not played for money."""
    if not money_shown(rules):
        return None
    rate = Decimal(str(rules.get("rate", "1"))).normalize()
    return f"{rate:f}", str(rules.get("currency") or "")


@dataclass(frozen=True)
class Run:
    """Hands first..last (numbers) played at one rate (None: not for money)."""

    first: int
    last: int
    rate: Rate | None


def runs(hands: Iterable[HandRecord]) -> list[Run]:
    out: list[Run] = []
    for hand in hands:
        rate = rate_of(hand.rules)
        if out and out[-1].rate == rate and out[-1].last == hand.no - 1:
            out[-1] = Run(out[-1].first, hand.no, rate)
        else:
            out.append(Run(hand.no, hand.no, rate))
    return out


def show_rate(rate: Rate, tr: Tr) -> str:
    """"10 Rs", "0.25" (money per point)."""
    return format_money(Decimal(rate[0]), rate[1], tr=tr)


def rates_line(hands: Sequence[HandRecord], word: str, tr: Tr) -> str | None:
    """"Rates: hands 1-3 at 10 Rs a point; hand 4 at 2 Rs a point." where the game was
    played at more than one rate (or partly not for money); None where at one."""
    found = runs(hands)
    if len({run.rate for run in found}) < 2:
        return None
    words = placeholders(word)
    parts = []
    for run in found:
        which = (tr("{hand} {no}", hand=words["hand"], no=run.first) if run.first == run.last
                 else tr("{hands} {first}-{last}", hands=words["hands"], first=run.first,
                         last=run.last))
        parts.append(tr("{which} at {rate} a point", which=which,
                        rate=show_rate(run.rate, tr)) if run.rate is not None else
                     tr("{which} not for money", which=which))
    return tr("Rates: {runs}.", runs="; ".join(parts))


def points_by_rate(hands: Iterable[HandRecord], columns: Iterable[int]
                   ) -> dict[int, dict[Rate, int]]:
    """Each column's points per rate it was played at (hands for money only)."""
    keys = list(columns)
    out: dict[int, dict[Rate, int]] = {k: {} for k in keys}
    for hand in hands:
        rate = rate_of(hand.rules)
        if rate is None:
            continue
        for key in keys:
            if key in hand.deltas:
                out[key][rate] = out[key].get(rate, 0) + hand.deltas[key]
    return out


def out_of_order(points: Mapping[str, Decimal], money: Mapping[str, Decimal]) -> list[str]:
    """Who has more points than someone with more money (or fewer points and less
    money...): everyone in a pair that points and money rank the other way round."""
    names = list(points)
    involved: list[str] = []
    for a in names:
        for b in names:
            if points[a] > points[b] and money.get(a, Decimal(0)) < money.get(b, Decimal(0)):
                involved += [n for n in (a, b) if n not in involved]
    return [n for n in names if n in involved]


def notes(hands: Sequence[HandRecord], names: Mapping[int, str], totals: Mapping[int, int],
          money: Mapping[str, Mapping[int, Decimal]], word: str, places: int,
          tr: Tr) -> list[str]:
    """The rates line and, with one currency, why money ranks differently: what /endgame
    and /history add when a game's rate changed."""
    line = rates_line(hands, word, tr)
    if line is None:
        return []
    found = [line]
    if len(money) == 1:
        note = rank_note(names, totals, next(iter(money.values())),
                         points_by_rate(hands, names), places, tr)
        if note:
            found.append(note)
    return found


def rank_note(names: Mapping[int, str], totals: Mapping[int, int],
              money: Mapping[int, Decimal], by_rate: Mapping[int, Mapping[Rate, int]],
              places: int, tr: Tr) -> str | None:
    """Why money ranks some players differently from their points (a rate changed), with
    the points each of them made at each rate; None when both rank alike."""
    return ranked_differently(
        [(names[k], Decimal(totals.get(k, 0)), money.get(k, Decimal(0)),
          {rate: pts.show(value, places, tr=tr) for rate, value in by_rate.get(k, {}).items()})
         for k in names], tr)


def ranked_differently(people: Sequence[tuple[str, Decimal, Decimal, Mapping[Rate, str]]],
                       tr: Tr) -> str | None:
    """`people`: (name, points, money, {rate: the points made at it, shown}). The note on
    those whom points and money rank the other way round, or None."""
    points = {name: value for name, value, _money, _made in people}
    amounts = {name: money for name, _value, money, _made in people}
    involved = out_of_order(points, amounts)
    if not involved:
        return None
    made = {name: by_rate for name, _value, _money, by_rate in people}
    parts = []
    for name in involved:
        shown = ", ".join(tr("{points} at {rate}", points=value, rate=show_rate(rate, tr))
                          for rate, value in made[name].items())
        parts.append(f"{name} {shown}" if shown else name)
    return tr("Money ranks differently from points: each hand is paid at the rate it was "
              "played at ({players}).", players="; ".join(parts))
