"""Every language's catalogue is complete: each message of the code (and of the command
table's and games' declared text) has a checked translation with the same placeholders, and
the templates are in step with the code."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.core.i18n import LANGUAGES, babel_locale, translator
from bot.core.i18n.catalogues import po_path, pot_path
from bot.core.i18n.extract import LANGUAGE_LOCALES, collect, is_stale, update

FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
TEMPLATES = collect()


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def test_every_language_but_english_has_catalogues():
    assert sorted(LANGUAGE_LOCALES) == sorted(babel_locale(k) for k in LANGUAGES if k != "en")


@pytest.mark.parametrize("locale", LANGUAGE_LOCALES)
@pytest.mark.parametrize("domain", sorted(TEMPLATES))
def test_every_message_is_translated_with_the_same_placeholders(domain: str, locale: str):
    with po_path(domain, locale).open("rb") as handle:
        catalog = read_po(handle, locale=locale, domain=domain)
    problems = []
    for message in TEMPLATES[domain]:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        found = catalog.get(key)
        if found is None or found.fuzzy:
            problems.append(f"untranslated{' (fuzzy)' if found else ''}: {key!r}")
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if not all(strings):
            problems.append(f"empty: {key!r}")
            continue
        wanted = set().union(*(fields(s) for s in sources))
        for string in strings:
            # a plural form may leave {n} out ("एउटा हात"), never add or rename one
            if fields(string) - wanted or (wanted - {"n"}) - fields(string):
                problems.append(f"placeholders differ: {key!r} -> {string!r}")
    assert not problems, f"{domain} {locale}: {len(problems)} problems\n" + "\n".join(
        problems[:40])


def test_the_catalogues_are_in_step_with_the_code():
    stale = update(check=True)
    assert not stale, ("run `python -m bot.core.i18n.extract`, then translate what it adds: "
                       + ", ".join(stale))


@pytest.mark.parametrize("domain", sorted(TEMPLATES))
def test_a_catalogue_written_by_another_babel_is_not_stale(domain, tmp_path):
    # issue 38: a fresh machine's newer Babel writes "Generated-By: Babel 2.19.0" where the
    # kept files say 2.18.0; that header line says nothing about the messages
    kept = tmp_path / "kept.pot"
    kept.write_bytes(re.sub(rb"Generated-By: Babel [0-9.]+", b"Generated-By: Babel 0.1",
                            pot_path(domain).read_bytes()))
    assert b"Babel 0.1" in kept.read_bytes()
    assert not is_stale(kept, TEMPLATES[domain], omit_locations=False)


def test_a_changed_message_is_stale(tmp_path):
    kept = tmp_path / "kept.pot"
    kept.write_bytes(pot_path("maalbot").read_bytes().replace(b'msgid "', b'msgid "x', 1))
    assert is_stale(kept, TEMPLATES["maalbot"], omit_locations=False)


def test_plural_forms_follow_each_language():
    # CLDR: Portuguese (Brazil) says "0 mão" like "1 mão" (one: i = 0,1); English "0 hands"
    assert translator("en").plural("{n} hand", "{n} hands", 0) == "0 hands"
    pt = translator("pt-BR")
    assert pt.plural("{n} hand", "{n} hands", 0) == pt.plural("{n} hand", "{n} hands", 1)\
        .replace("1", "0")
    assert pt.plural("{n} hand", "{n} hands", 2) != pt.plural("{n} hand", "{n} hands", 1)\
        .replace("1", "2")
