"""The command tree in Discord's languages, through discord.py's own mechanism: every name
and description is a `locale_str` whose extras say what it is, and `SlashTranslator` (set
with `CommandTree.set_translator`) gives Discord each one in the Discord locales we have
catalogues for, at sync.

Descriptions are the commands' help (data text, translated as /help shows it). A name is
translated through a message of the form people type it in: `/hand` for a command,
`winner:` for an option (a translator writes `/हाथ`, `विजेता:`). A name is localised only
when its translation obeys Discord's rules (lowercase, 1 to 32 letters, digits, - or _,
unique among its siblings); otherwise Discord shows the English one, which always works.
Subcommands are named by game keys, which people also type (/newgame marriage): they stay;
a subcommand for one topic of a game's options (/rules riichi_money) keeps the game key and
says its topic in the language shown (riichi_dinheiro), through the topic's own message.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextTypes, locale_str

from bot.core.i18n import Text, Tr, translator
from bot.discord_adapter.tree import MAX_CHARACTERS, MAX_DESCRIPTION, SlashCommand, describe

log = logging.getLogger(__name__)

# Discord's locales we have a catalogue for -> our language. Nepali is not a Discord
# locale: Discord shows Nepali speakers the English names.
LOCALES: dict[discord.Locale, str] = {
    discord.Locale.hindi: "hi",
    discord.Locale.brazil_portuguese: "pt-BR",
}
MAX_NAME = 32


def command_msgid(name: str) -> str:
    return f"/{name}"


def option_msgid(name: str) -> str:
    return f"{name}:"


def msgids(commands: Iterable[SlashCommand]) -> Iterator[str]:
    """The messages that name the tree's commands and options (for the catalogues)."""
    seen: set[str] = set()
    for command in commands:
        for msgid in (command_msgid(command.name),
                      *(option_msgid(o.name) for o in command.options),
                      *(option_msgid(o.name) for s in command.subcommands
                        for o in s.options)):
            if msgid not in seen:
                seen.add(msgid)
                yield msgid


def valid_name(name: str) -> bool:
    """Discord's rule for a command or option name: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]
    {1,32}$, in lowercase where a letter has a lowercase form."""
    if not 1 <= len(name) <= MAX_NAME or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" or _deva_or_thai(ch)
               for ch in name)


def _deva_or_thai(ch: str) -> bool:
    """In the Devanagari or Thai script (their vowel signs and viramas are marks, not
    letters, yet Discord allows them)."""
    code = ord(ch)
    return (0x0900 <= code <= 0x097F or 0xA8E0 <= code <= 0xA8FF
            or 0x11B00 <= code <= 0x11B5F or 0x0E01 <= code <= 0x0E5B)


def _translated_name(msgid: str, english: str, tr: Tr) -> str | None:
    said = tr.gettext(msgid)
    if said == msgid:
        return None  # not translated
    name = said.strip().removeprefix("/").removesuffix(":").strip().lower()
    if name == english:
        return None
    if not valid_name(name):
        log.warning("discord: %r in %s is not a valid command name; English is used",
                    said, tr.language)
        return None
    return name


def _topic_name(topic: str, english: str, tr: Tr) -> str | None:
    """A topic's subcommand (riichi_money) in the language of `tr`: the game key as it is
    and the topic's word translated (riichi_dinheiro), where that makes a valid name."""
    said = tr.gettext(topic) if topic else topic
    if said == topic:
        return None  # a game's own subcommand (no topic), or the topic not translated
    word = "_".join(said.strip().lower().split())
    name = english.removesuffix(topic) + word
    if not valid_name(name):
        log.warning("discord: %r in %s makes no valid subcommand name; English is used",
                    said, tr.language)
        return None
    return name


def _siblings(found: dict[tuple[str, ...], str], items: list[tuple[tuple[str, ...], str,
                                                                    str]], tr: Tr,
              name_of: Callable[[str, str, Tr], str | None] | None = None) -> None:
    """Names of one level (the commands, a group's subcommands, a command's options): each
    translated where it can be, and unique among them, as Discord wants. Where two would
    show the same name, an English one (which can't give way) or the first translated one
    keeps it; the others are shown in English. `name_of` translates one (msgid, English
    name); by default a command's or an option's message."""
    name_of = name_of or _translated_name
    wanted = {path: name_of(msgid, english, tr) for path, english, msgid in items}
    english = {path: name for path, name, _ in items}
    while True:
        holders: dict[str, list[tuple[str, ...]]] = {}
        for path, _name, _msgid in items:
            holders.setdefault(wanted[path] or english[path], []).append(path)
        dropped = []
        for paths in holders.values():
            if len(paths) < 2:
                continue
            translated = [p for p in paths if wanted[p] is not None]
            keep = translated[0] if len(translated) == len(paths) else None
            dropped += [p for p in translated if p != keep]
        if not dropped:
            break
        for path in dropped:
            log.warning("discord: %r in %s is another command's name too; English is used",
                        wanted[path], tr.language)
            wanted[path] = None
    found.update({path: name for path, name in wanted.items() if name is not None})


def localised_names(commands: Iterable[SlashCommand], tr: Tr) -> dict[tuple[str, ...], str]:
    """path -> the name in the language of `tr`, where it has a valid one. Paths: (command,),
    (command, subcommand), (command, "option:"), (command, subcommand, "option:")."""
    found: dict[tuple[str, ...], str] = {}
    commands = list(commands)
    _siblings(found, [((c.name,), c.name, command_msgid(c.name)) for c in commands], tr)
    for command in commands:
        _siblings(found, [((command.name, option_msgid(o.name)), o.name, option_msgid(o.name))
                          for o in command.options], tr)
        _siblings(found, [((command.name, sub.name), sub.name, sub.topic)
                          for sub in command.subcommands], tr, _topic_name)
        for sub in command.subcommands:
            _siblings(found, [((command.name, sub.name, option_msgid(o.name)), o.name,
                               option_msgid(o.name)) for o in sub.options], tr)
    return found


def name_str(path: tuple[str, ...], name: str) -> locale_str:
    return locale_str(name, path=path)


def description_str(english: str, text: Text, root: str,
                    limit: int = MAX_DESCRIPTION) -> locale_str:
    """A description; `root` is the top-level command it belongs to, `limit` how long it
    may be (an option's of a command over its budget: bot/discord_adapter/tree.py)."""
    return locale_str(english, text=text, root=root, limit=limit)


class SlashTranslator(app_commands.Translator):
    """Gives discord.py the tree's names and descriptions in Hindi and Portuguese."""

    def __init__(self, commands: Iterable[SlashCommand]) -> None:
        self.commands = list(commands)
        self._names: dict[str, dict[tuple[str, ...], str]] = {}
        self._english_help: set[str] | None = None

    def names(self, language: str) -> dict[tuple[str, ...], str]:
        if language not in self._names:
            self._names[language] = localised_names(self.commands, translator(language))
        return self._names[language]

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: TranslationContextTypes) -> str | None:
        language = LOCALES.get(locale)
        if language is None:
            return None
        extras: dict[str, Any] = string.extras
        if "path" in extras:
            return self.names(language).get(extras["path"])
        if extras.get("text") and extras.get("root") not in self.english_help():
            said = _description(extras["text"], language, extras.get("limit", MAX_DESCRIPTION))
            return said if said != string.message else None
        return None

    def english_help(self) -> set[str]:
        """Commands whose help stays English everywhere: with the longest of each text in
        any language they would be over Discord's 8,000 characters a command."""
        if self._english_help is None:
            self._english_help = {c.name for c in self.commands
                                  if self.characters(c) > MAX_CHARACTERS}
            for name in sorted(self._english_help):
                log.warning("discord: /%s's help is too long translated; English is used", name)
        return self._english_help

    def characters(self, command: SlashCommand) -> int:
        """What Discord counts of a command, taking each text at its longest in any
        language."""
        languages = list(LOCALES.values())

        def name(path: tuple[str, ...], english: str) -> int:
            return max([len(english), *(len(self.names(lang).get(path, english))
                                        for lang in languages)])

        def description(english: str, text: Text, limit: int = MAX_DESCRIPTION) -> int:
            return max([len(english), *(len(_description(text, lang, limit))
                                        for lang in languages if text)])

        def options(path: tuple[str, ...], owner: SlashCommand) -> int:
            return sum(name((*path, option_msgid(o.name)), o.name)
                       + description(o.description, o.text, o.limit)
                       + sum(2 * len(choice) for choice in o.choices) for o in owner.options)

        root = (command.name,)
        return (name(root, command.name) + description(command.description, command.text)
                + options(root, command)
                + sum(name((command.name, sub.name), sub.name)
                      + description(sub.description, sub.text)
                      + options((command.name, sub.name), sub) for sub in command.subcommands))


def _description(text: Text, language: str, limit: int = MAX_DESCRIPTION) -> str:
    said = describe(text, translator(language), limit)
    assert 1 <= len(said) <= limit
    return said
