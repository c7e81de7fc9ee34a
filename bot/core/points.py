"""Points as the board keeps them: whole numbers in units of 10^-places.

Most games score whole points (places 0). A game whose scores have decimals (Call Break's
8.2) keeps tenths (places 1), so sums stay exact; every number a person sees or a file holds
goes through here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.i18n import Tr


class Trimmed(int):
    """A game's point_places whose whole scores are written bare: marriage rummy keeps
    tenths for its exact halves, and writes +69 and -12.5, never +69.0."""


def value(points: int, places: int = 0) -> Decimal:
    return Decimal(points).scaleb(-places) if places else Decimal(points)


def as_json(points: int, places: int = 0) -> int | float:
    """A JSON number: an int when whole."""
    if not places and type(points) is int:
        return points  # whole points: as they are (the board calls this for every cell)
    amount = value(points, places)
    return int(amount) if amount == amount.to_integral() else float(amount)


def show(points: int, places: int = 0, *, signed: bool = True, tr: Tr | None = None) -> str:
    """"+41", "-3.5", "0", with thousands separators: "+1,200"; with `tr`, written as its
    language writes numbers ("+1.200" in Portuguese)."""
    if not places and type(points) is int:  # whole points, without a Decimal
        if points == 0:
            return "0"
        if tr is None or tr.plain_digits:  # the board calls this for every cell
            return f"{points:+,}" if signed else f"{points:,}"
        return ("-" if points < 0 else "+" if signed else "") + tr.number(abs(points))
    return show_value(value(points, places), places, signed=signed, tr=tr)


def show_value(amount: Decimal, places: int = 0, *, signed: bool = True,
               tr: Tr | None = None) -> str:
    """As show(), for an amount already in points (a sum of several hands)."""
    if amount == 0:
        return "0"
    if isinstance(places, Trimmed) and amount == amount.to_integral_value():
        places = 0
    text = tr.number(abs(amount), places) if tr is not None else f"{abs(amount):,.{places}f}"
    sign = "-" if amount < 0 else ("+" if signed else "")
    return sign + text
