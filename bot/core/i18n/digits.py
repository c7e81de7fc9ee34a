"""How a locale writes numbers, from Babel's locale data once, then plain string work: a
board writes dozens of numbers for every hand, and Babel's formatting on each call cost more
than the command's SQL. tests/core/i18n/test_numbers.py holds it to Babel's own output."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache

from babel import Locale


class Digits:
    """How one locale writes numbers in Latin digits: its group and decimal symbols and its
    grouping (3 then 3, or 3 then 2 in India), at most 3 decimals unless told."""

    def __init__(self, locale: Locale) -> None:
        symbols = locale.number_symbols
        symbols = symbols.get("latn", symbols)
        self.group, self.decimal = symbols["group"], symbols["decimal"]
        self.minus = symbols["minusSign"]
        pattern = locale.decimal_formats[None]
        self.primary, self.secondary = pattern.grouping
        # grouped by thousands: Python's own "," formatting, with the locale's symbols
        self.thousands = (self.primary, self.secondary) == (3, 3) and self.minus == "-"
        self.swap = None if (self.group, self.decimal) == (",", ".") else \
            str.maketrans({",": self.group, ".": self.decimal})

    def write(self, value: int | float | Decimal, places: int | None) -> str:
        if isinstance(value, int) and places in (None, 0):
            if self.thousands:
                return f"{value:,}" if self.swap is None else f"{value:,}".translate(self.swap)
            whole, fraction, negative = str(abs(value)), "", value < 0
        else:
            number = value if isinstance(value, Decimal) else Decimal(str(value))
            step = Decimal(1).scaleb(-(3 if places is None else places))
            rounded = number.quantize(step, ROUND_HALF_EVEN)
            whole, _, fraction = format(abs(rounded), "f").partition(".")
            if places is None:
                fraction = fraction.rstrip("0")
            negative = rounded.is_signed()
        text = self._grouped(whole) + (self.decimal + fraction if fraction else "")
        return self.minus + text if negative else text

    def _grouped(self, digits: str) -> str:
        if len(digits) <= self.primary:
            return digits
        head, tail = digits[:-self.primary], digits[-self.primary:]
        groups = [tail]
        while len(head) > self.secondary:
            groups.append(head[-self.secondary:])
            head = head[:-self.secondary]
        groups.append(head)
        return self.group.join(reversed(groups))


@cache
def english() -> Digits:
    """English, the catalogues' source: text shown with no translator (logs, tests)."""
    return Digits(Locale.parse("en"))
