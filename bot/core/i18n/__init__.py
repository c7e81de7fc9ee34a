"""The bot's languages: which there are, and a translator for each, passed explicitly.

A command is answered in one language, chosen once (`choose`) and carried with it as a `Tr`:
handlers render with `call.tr`, games return `Msg` text that the core renders with it, and
each Reply says its language so a platform renders its own buttons in it too. Nothing reads
a language from ambient state.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from functools import cache
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime

from bot.core.i18n.catalogues import chain
from bot.core.i18n.digits import Digits
from bot.core.i18n.text import (
    N_,
    Example,
    Joined,
    Kept,
    Msg,
    Num,
    Text,
    _,
    _n,
    decode,
    encode,
    join,
    kept,
    render,
)

__all__ = ["LANGUAGES", "N_", "Example", "Joined", "Kept", "Msg", "Num", "Text", "Tr", "_",
           "_n", "choose", "decode", "encode", "join", "kept", "render", "translator"]

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


@cache
def translator(language: str = DEFAULT, game: str | None = None) -> Tr:
    """The translator for `language` (a key of LANGUAGES), the chat's game's words first."""
    return Tr(language if language in LANGUAGES else DEFAULT, game)


ENGLISH = translator(DEFAULT)
