"""Keep the catalogues in step with the code: `python -m bot.core.i18n.extract`.

For each domain (the core, each game folder) it collects the messages, writes the template
(`<domain>.pot`) and updates every language's `.po` (new messages come in untranslated, so
the catalogue test names them; changed ones come in fuzzy, which is not used until checked).
Messages are found two ways: calls in the code (`tr("...")`, `tr.plural(...)`, `_("...")`,
`_n(...)`, `N_("...")`), and the text the command table and the games declare as data
(command help, option help, rule help, presets, a game's title and glossary), read from the
objects themselves so they need no markers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.core.i18n.catalogues import CORE_DOMAIN, GAMES, ROOT, domains, po_path, pot_path

KEYWORDS = {"_": None, "N_": None, "tr": None, "_n": (1, 2), "plural": (1, 2)}
LANGUAGE_LOCALES = ("ne", "hi", "pt_BR")  # every language but English, the source
# message (or singular, plural), file, line, and notes for translators
Found = tuple[str | tuple[str, str], str, int, tuple[str, ...]]
NAME_NOTE = ("A Discord command or option name in this language: lowercase, 1 to 32 letters, "
             "digits, - or _, no spaces; keep the / or : as in the English.")


def _domain_of_file(path: Path) -> str:
    relative = path.relative_to(GAMES) if path.is_relative_to(GAMES) else None
    if relative is not None and len(relative.parts) > 1:
        return relative.parts[0]
    return CORE_DOMAIN


def _from_code() -> Iterator[tuple[str, Found]]:
    for path in sorted(ROOT.rglob("*.py")):
        if "i18n" in path.parts and path.name != "words.py":
            continue  # the machinery itself (its docstrings name the markers)
        for line, message, comments, _context in extract_from_file(
                "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            if isinstance(message, tuple):
                message = (message[0], message[1])
            yield _domain_of_file(path), (message, str(path.relative_to(ROOT.parent)), line,
                                          tuple(comments))


def _game_domain(game: object) -> str:
    parts = type(game).__module__.split(".")
    return parts[3] if len(parts) > 3 else CORE_DOMAIN


def _from_data() -> Iterator[tuple[str, Found]]:
    """The text declared as data: what /help, menus and /rules show."""
    from bot.core.assembly.built import TABLE

    where = "(declared)"
    for spec in TABLE.core.values():
        for text in _spec_texts(spec):
            yield CORE_DOMAIN, (text, "bot/core/assembly/core_commands.py", 0, ())
    for game in TABLE.games.values():
        domain = _game_domain(game)
        where = f"bot/core/games/{domain}"
        for text in (game.title, game.glossary, game.rules_note, game.hand_word,
                     game.seats_fixed, game.seats_set_by_play, game.no_sitting_out,
                     game.edit_example, game.rules_example, game.waiting_input):
            if text:
                yield domain, (text, where, 0, ())
        for spec in game.commands:
            for text in _spec_texts(spec):
                yield domain, (text, where, 0, ())
        for option in (*game.newgame_options, *game.edit_options()):
            if option.help:  # /edit's own (Riichi: declared:, from:none)
                yield domain, (option.help, where, 0, ())
        for rule in game.rulebook.specs:
            yield domain, (rule.help, where, 0, ())
        for preset in game.rulebook.presets:
            yield domain, (preset.description, where, 0, ())


def _discord_names() -> Iterator[tuple[str, Found]]:
    """The Discord command and option names ("/hand", "winner:"), which Discord shows
    localised for the locales it has (the text grammar keeps the English ones)."""
    from bot.core.assembly.built import TABLE
    from bot.discord_adapter.locales import msgids
    from bot.discord_adapter.tree import slash_commands

    for msgid in msgids(slash_commands(TABLE)):
        yield CORE_DOMAIN, (msgid, "bot/discord_adapter/locales.py", 0, (NAME_NOTE,))


def _spec_texts(spec: object) -> Iterator[str]:
    for name in ("summary", "usage", "details"):
        text = getattr(spec, name)
        if text:
            yield text
    for option in getattr(spec, "options", ()):
        if option.help:
            yield option.help


def collect() -> dict[str, Catalog]:
    """Every domain's messages, as a template catalogue."""
    catalogs = {name: Catalog(domain=name, project="maalbot", fuzzy=False,
                              msgid_bugs_address="", copyright_holder="")
                for name in domains()}
    for source in (_from_code(), _from_data(), _discord_names()):
        for domain, (message, filename, line, notes) in source:
            catalog = catalogs[domain]
            key = message[0] if isinstance(message, tuple) else message
            if not key:
                continue
            existing = catalog.get(key)
            if existing is not None:
                existing.locations.append((filename, line))
                existing.auto_comments.extend(n for n in notes
                                              if n not in existing.auto_comments)
            else:
                catalog.add(message, locations=[(filename, line)], auto_comments=list(notes))
    return catalogs


def update(check: bool = False, only: list[str] | None = None) -> list[str]:
    """Write the templates and update each language's file; with `check`, only say which
    would change; with `only`, just those domains."""
    stale = []
    for domain, template in collect().items():
        if only and domain not in only:
            continue
        pot = pot_path(domain)
        if _write(pot, template, check, omit_locations=False):
            stale.append(str(pot))
        for locale in LANGUAGE_LOCALES:
            path = po_path(domain, locale)
            if path.exists():
                with path.open("rb") as handle:
                    catalog = read_po(handle, locale=locale, domain=domain)
            else:
                catalog = Catalog(locale=locale, domain=domain, project="maalbot",
                                  fuzzy=False)
            catalog.update(template, update_header_comment=False, no_fuzzy_matching=False)
            if _write(path, catalog, check, omit_locations=True):
                stale.append(str(path))
    return stale


def _write(path: Path, catalog: Catalog, check: bool, omit_locations: bool) -> bool:
    written = _as_po(catalog, omit_locations)
    if not _differs(path, written):
        return False
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(written)
    return True


def is_stale(path: Path, catalog: Catalog, omit_locations: bool) -> bool:
    """Would writing `catalog` change the messages of the file at `path`?"""
    return _differs(path, _as_po(catalog, omit_locations))


def _as_po(catalog: Catalog, omit_locations: bool) -> bytes:
    import io

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False,
             no_location=omit_locations, ignore_obsolete=True)
    return buffer.getvalue()


def _differs(path: Path, written: bytes) -> bool:
    old = _messages_only(path.read_bytes()) if path.exists() else b""
    return _messages_only(written) != old


def _messages_only(data: bytes) -> bytes:
    """What makes a catalogue stale: its messages. The header's dates change on every run,
    its Generated-By with the Babel that wrote it, and the source lines (#:) with every edit
    above a message; none of them counts."""
    return b"\n".join(line for line in data.split(b"\n")
                      if not line.startswith(_NOT_MESSAGES))


# Header lines a tool writes of itself or of the moment (issue 38: Babel 2.19 on a fresh
# machine made every catalogue "stale" by its version alone).
_NOT_MESSAGES = (b'"POT-Creation-Date', b'"PO-Revision-Date', b'"Generated-By', b"#: ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a catalogue is out of step")
    parser.add_argument("--domain", action="append", choices=sorted(domains()),
                        help="only this domain (the core is maalbot; a game by its folder)")
    args = parser.parse_args(argv)
    stale = update(check=args.check, only=args.domain)
    for path in stale:
        print(("out of step: " if args.check else "updated: ") + path)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
