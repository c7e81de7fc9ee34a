"""The bot's languages: which there are, and a translator for each, passed explicitly.

A command is answered in one language, chosen once (`choose`) and carried with it as a `Tr`:
handlers render with `call.tr`, games return `Msg` text that the core renders with it, and
each Reply says its language so a platform renders its own buttons in it too. Nothing reads
a language from ambient state.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime

from bot.core.i18n.catalogues import chain
from bot.core.i18n.text import (
    N_,
    Example,
    Joined,
    Msg,
    Num,
    Text,
    _,
    _n,
    decode,
    encode,
    join,
    render,
)

__all__ = ["LANGUAGES", "N_", "Example", "Joined", "Msg", "Num", "Text", "Tr", "_", "_n",
           "choose", "decode", "encode", "join", "render", "translator"]

# The setting's value -> the language's own name. English is the source of every message.
LANGUAGES = {"en": "English", "ne": "नेपाली", "hi": "हिन्दी", "pt-BR": "Português (Brasil)"}
DEFAULT = "en"
AUTO = "auto"  # a chat with no language set answers each person in theirs, where known


def babel_locale(language: str) -> str:
    return language.replace("-", "_")


def supported(locale: str | None) -> str | None:
    """The language we speak for a platform's locale ("pt-br", "pt", "hi", "ne-NP"), if any."""
    if not locale:
        return None
    code = locale.replace("_", "-").lower()
    for known in LANGUAGES:
        if code == known.lower():
            return known
    base = code.split("-")[0]
    for known in LANGUAGES:
        if known.lower().split("-")[0] == base:
            return known
    return None


def choose(setting: str | None, person: str | None) -> str:
    """A chat's setting wins; without one, the person's own language when we have it."""
    if setting and setting != AUTO and setting in LANGUAGES:
        return setting
    return supported(person) or DEFAULT


class Tr:
    """Translates into one language and formats numbers and dates as it does.

    `tr("text {x}", x=1)` translates and fills in; `tr.plural(...)` picks a plural form;
    `tr.render(text)` shows lazy text (Msg, Joined) made elsewhere."""

    def __init__(self, language: str, game: str | None = None) -> None:
        self.language = language
        self.game = game
        self._translations = chain(babel_locale(language), game)
        self.locale = Locale.parse(babel_locale(language))
        self._digits = Digits(self.locale)
        # whole numbers are written as Python writes them (1,234): the board's fast path
        self.plain_digits = self._digits.thousands and self._digits.swap is None

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)

    def __call__(self, message: str, **values: Any) -> str:
        return render(Msg(message, values), self)

    def plural(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """The form for `n` ({n} filled in with n as a number of this language)."""
        return render(Msg(singular, {"n": self.number(n), **values}, plural, n), self)

    def text(self, message: str, **values: Any) -> str:
        """A constant marked with N_ (a command's help, a game's title), translated."""
        return render(Msg(message, values), self)

    def render(self, text: Text | None) -> str:
        return "" if text is None else render(text, self)

    def number(self, value: int | float | Decimal, places: int | None = None) -> str:
        """A number as this language writes it (1,234.5; 1.234,5; 12,34,567); with `places`,
        exactly that many decimals, grouped by the locale's own pattern (Indian grouping
        for hi and ne, which a fixed #,##0 would lose). The locale's symbols and grouping
        come from Babel once; the formatting itself is plain string work, as a board
        writes dozens of numbers for every hand (tests hold it to Babel's own output)."""
        return self._digits.write(value, places)

    def date(self, value: date) -> str:
        return format_date(value, "medium", locale=self.locale)

    def datetime(self, value: datetime) -> str:
        return format_datetime(value, "medium", tzinfo=value.tzinfo, locale=self.locale)


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
def translator(language: str = DEFAULT, game: str | None = None) -> Tr:
    """The translator for `language` (a key of LANGUAGES), the chat's game's words first."""
    return Tr(language if language in LANGUAGES else DEFAULT, game)


ENGLISH = translator(DEFAULT)
