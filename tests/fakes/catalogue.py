"""A small message catalogue of the test's own, in place of the bot's .po files: proves a
platform shows what the catalogue says, whatever the real translations are (or aren't yet)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import bot.core.i18n as i18n
from bot.core.i18n import catalogues

DOMAIN = catalogues.CORE_DOMAIN


def clear() -> None:
    catalogues.compiled.cache_clear()
    catalogues.chain.cache_clear()
    i18n.translator.cache_clear()


def write_catalogue(folder: Path, locale: str, messages: Mapping[Any, Any]) -> None:
    """A real .po file of the core's domain in `folder`: {msgid: msgstr}, a plural message
    as {(singular, plural): (form0, form1)}."""
    catalog = Catalog(locale=locale, domain=DOMAIN, project="maalbot", fuzzy=False)
    for msgid, msgstr in messages.items():
        catalog.add(msgid, msgstr)
    path = folder / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog)


@contextmanager
def temporary_catalogue(folder: Path,
                        translations: Mapping[str, Mapping[str, str]]) -> Iterator[None]:
    """The only catalogue for a while: locale ("hi", "pt_BR") -> {msgid: msgstr}, written as
    real .po files and read the way the bot reads its own."""
    for locale, messages in translations.items():
        write_catalogue(folder, locale, messages)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(catalogues, "domains", lambda: {DOMAIN: folder})
        clear()
        try:
            yield
        finally:
            clear()  # (the caches hold what was read from it)
    clear()
