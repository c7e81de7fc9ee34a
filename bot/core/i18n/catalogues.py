"""The message catalogues: gettext `.po` files, read through Babel.

English is the source: the messages in the code are the English text. Each language has a
`.po` file per domain: `bot/locale/<locale>/LC_MESSAGES/maalbot.po` for the core and the
platforms, and `bot/core/games/<game>/locale/<locale>/LC_MESSAGES/<game>.po` beside each
game's code. They are compiled in memory when first used (no `.mo` files to keep in step).
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]  # the bot package
CORE_DOMAIN = "maalbot"
CORE_LOCALE = ROOT / "locale"
GAMES = ROOT / "core" / "games"


def domains() -> dict[str, Path]:
    """Each domain and the folder holding its `locale/`: the core, then each game folder."""
    found = {CORE_DOMAIN: CORE_LOCALE}
    for folder in sorted(GAMES.iterdir()):
        if (folder / "__init__.py").exists():
            found[folder.name] = folder / "locale"
    return found


def po_path(domain: str, locale: str) -> Path:
    return domains()[domain] / locale / "LC_MESSAGES" / f"{domain}.po"


def pot_path(domain: str) -> Path:
    return domains()[domain] / f"{domain}.pot"


@cache
def compiled(domain: str, locale: str) -> gettext.NullTranslations:
    """One domain's translations in one locale (nothing when the file is missing)."""
    path = po_path(domain, locale)
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=locale, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries are left out, as gettext does
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@cache
def chain(locale: str, first: str | None = None) -> Messages:
    """Every domain's translations in `locale` as one lookup, the game `first` looked up
    first (a game may say a word its own way) and English, the message itself, last."""
    names = list(domains())
    if first in names:
        names.remove(first)
        names.insert(0, first)
    return Messages([compiled(name, locale) for name in names])


class Messages:
    """The domains' compiled catalogues merged into one dict, once per language (a reply
    looks up dozens of messages; walking a chain of six catalogues for each cost more than
    the command's SQL)."""

    def __init__(self, catalogues: list[gettext.NullTranslations]) -> None:
        self._messages: dict[object, str] = {}
        self._plural = None
        for translations in reversed(catalogues):  # the first wins
            if isinstance(translations, gettext.GNUTranslations):
                # GNUTranslations keeps msgid -> str and (msgid, form) -> str in _catalog
                self._messages.update(translations._catalog)  # type: ignore[attr-defined]
                self._plural = translations.plural  # type: ignore[attr-defined]
        self._messages.pop("", None)  # the header

    def gettext(self, message: str) -> str:
        return self._messages.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if self._plural is not None:
            found = self._messages.get((singular, self._plural(n)))
            if found is not None:
                return found
        return singular if n == 1 else plural
