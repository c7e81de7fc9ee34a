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
def chain(locale: str, first: str | None = None) -> gettext.NullTranslations:
    """Every domain's translations in `locale`, the game `first` looked up first (a game
    may say a word its own way) and English, the message itself, last."""
    names = list(domains())
    if first in names:
        names.remove(first)
        names.insert(0, first)
    head = gettext.NullTranslations()
    for name in names:
        head.add_fallback(_copy(compiled(name, locale)))
    return head


def _copy(translations: gettext.NullTranslations) -> gettext.NullTranslations:
    """add_fallback links translations into a chain; a cached domain may be in several."""
    if not isinstance(translations, gettext.GNUTranslations):
        return gettext.NullTranslations()
    clone = gettext.GNUTranslations.__new__(gettext.GNUTranslations)
    clone.__dict__.update(translations.__dict__)
    clone._fallback = None  # type: ignore[attr-defined]
    return clone
