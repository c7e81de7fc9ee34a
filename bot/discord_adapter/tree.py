"""The Discord command tree, derived from the command table within Discord's limits.

A command name becomes one slash command whose options are those of every game that has it,
when they agree and fit (25 options, 8,000 characters for a command with its options and
choices: Discord's application-commands reference). Where they clash (`hand:` is a number in
Marriage's /edit and the tiles in Riichi's) or don't fit (/rules: every game's rule keys),
each game gets a subcommand of its own (/rules marriage, /edit riichi), split further by
what the options are about if one game alone has more than 25 (/rules riichi_money for the
rate and currency, /edit riichi_tiles for what is read with the tiles: each option declares
its topic). A command that records a result (on a form: bot/core/pad.py) takes every option
as optional, since sent bare it opens the whole hand on a form. Nothing here is written per
command.

Descriptions are kept as lazy text (`Text`) beside their English form, so the Discord
adapter can give Discord each one in every language we have (bot/discord_adapter/locales.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.core.command_table import CommandTable
from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.i18n import Joined, Msg, Text, _, join, render
from bot.core.i18n.words import placeholders

MAX_OPTIONS = 25
MAX_SUBCOMMANDS = 25
MAX_CHOICES = 25
MAX_CHARACTERS = 8000
MAX_DESCRIPTION = 100
# What a command may take of Discord's 8,000 characters in English: its translations run
# longer, and games and presets keep coming. A command over it has its options' help cut
# shorter (between words) until it fits: /rules, with every game's rule keys.
BUDGET = 6500
SHORTEST_DESCRIPTION = 40


@dataclass(frozen=True)
class SlashOption:
    name: str  # what Discord shows
    key: str  # the core option it fills ("" = the words after the command)
    kind: Kind
    description: str  # in English, the default
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    text: Text = field(default="", compare=False)  # the description, to translate
    limit: int = MAX_DESCRIPTION  # how long its description may be, in any language

    @property
    def autocomplete(self) -> bool:
        """Player names come from the table, so guests without an account can be picked."""
        return self.kind in (Kind.PLAYER, Kind.PLAYERS)

    def characters(self) -> int:
        return len(self.name) + len(self.description) + sum(2 * len(c) for c in self.choices)


@dataclass(frozen=True)
class SlashCommand:
    name: str
    description: str  # in English, the default
    command: str  # the core command it runs
    options: tuple[SlashOption, ...] = ()
    subcommands: tuple[SlashCommand, ...] = ()
    game: str | None = None  # a subcommand for one game: refused in a chat playing another
    topic: str = ""  # a subcommand for one topic of a game's options: named game_topic
    notes: tuple[str, ...] = field(default=(), compare=False)
    text: Text = field(default="", compare=False)  # the description, to translate

    def characters(self) -> int:
        return (len(self.name) + len(self.description)
                + sum(o.characters() for o in self.options)
                + sum(s.characters() for s in self.subcommands))


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """At most `limit` characters, cut between words where it is cut."""
    text = text or "-"
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", limit // 2, limit)
    kept = text[: cut if cut > 0 else limit - 1]
    if kept.count("(") > kept.count(")") and kept.rfind("(") > limit // 2:
        kept = kept[: kept.rfind("(")]  # not half a remark in brackets
    return kept.rstrip(" ,;:(") + "…"


def describe(text: Text, tr: object = None, limit: int = MAX_DESCRIPTION) -> str:
    """A description as Discord takes it (1 to 100 characters, or `limit`) in the language
    of `tr` (None: English)."""
    return _clip(render(text, tr), limit)  # type: ignore[arg-type]


def within_budget(command: SlashCommand) -> SlashCommand:
    """`command`, its options' help cut shorter where it is over BUDGET."""
    limit = MAX_DESCRIPTION
    while command.characters() > BUDGET and limit > SHORTEST_DESCRIPTION:
        limit -= 10
        command = _described(command, limit)
    return command


def _described(command: SlashCommand, limit: int) -> SlashCommand:
    options = tuple(replace(o, description=describe(o.text or o.name, None, limit),
                            limit=limit) for o in command.options)
    return replace(command, options=options,
                   subcommands=tuple(_described(s, limit) for s in command.subcommands))


def _data(text: str, word: str = "hand") -> Text:
    """Text declared as data (a command's summary, an option's help), to translate where
    it is shown; the core's {hand} placeholders in the words of the game."""
    return Msg(text, placeholders(word)) if text else ""


def _titles(games: list[str]) -> Joined:
    return join([Msg(title) for title in games], ", ")


def _slash_option(option: Option, games: list[str] | None = None) -> SlashOption:
    text: Text = _data(option.help) if option.help else option.label
    if games:
        # TRANSLATORS: an option's help on Discord, and the games that have the option
        text = _("{help} ({games})", help=text, games=_titles(games))
    choices = option.choices if len(option.choices) <= MAX_CHOICES else ()
    # Discord bounds a whole number; a number each typed as text (maal:) is bounded on a
    # form's boxes alone (bot/core/pad.py), never on Discord's option
    low, high = _bounds(option)
    return SlashOption(option.label, option.key, option.kind, describe(text),
                       option.required, low, high, choices, text=text)


def _same(a: Option, b: Option) -> bool:
    """Whether two games' options are one on Discord (a text's bounds are a form's alone)."""
    return (a.key, a.kind, *_bounds(a), a.choices) == (b.key, b.kind, *_bounds(b), b.choices)


def _bounds(option: Option) -> tuple[int | None, int | None]:
    """What Discord bounds: a whole number's low and high."""
    return (option.low, option.high) if option.kind == Kind.INT else (None, None)


def _merged(name: str, variants: dict[str, CommandSpec],
            titles: dict[str, str]) -> SlashCommand | None:
    """One command for every game, or None where the games' options clash."""
    by_label: dict[str, Option] = {}
    owners: dict[str, list[str]] = {}
    for game, spec in variants.items():
        for option in spec.options:
            earlier = by_label.get(option.label)
            if earlier is not None and not _same(earlier, option):
                return None
            by_label.setdefault(option.label, option)
            owners.setdefault(option.label, []).append(game)
    everyone = len(variants)
    options = tuple(
        _slash_option(o if len(owners[label]) == everyone else _optional(o),
                      None if len(owners[label]) == everyone
                      else [titles[g] for g in owners[label]])
        for label, o in by_label.items())
    first = next(iter(variants.values()))
    text = _data(first.summary)
    return SlashCommand(name, describe(text), name, _ordered(options), text=text)


def _optional(option: Option) -> Option:
    """Required in one game only, or on a command a form can send: optional on Discord
    (the core still asks)."""
    return replace(option, required=False)


def _ordered(options: tuple[SlashOption, ...]) -> tuple[SlashOption, ...]:
    """Discord wants required options first."""
    return tuple(sorted(options, key=lambda o: not o.required))


def _by_topic(options: tuple[Option, ...]) -> list[tuple[str, str, tuple[Option, ...]]]:
    """A game's options as its subcommands take them, as (name suffix, topic, options): all
    in one where they fit; else one subcommand per topic (the options with none first),
    each with the required ones (which result /edit changes); a topic still over the limit
    is cut in numbered parts (riichi_2)."""
    if len(options) <= MAX_OPTIONS:
        return [("", "", options)]
    required = tuple(o for o in options if o.required)
    topics: dict[str, list[Option]] = {"": []}
    for option in options:
        if not option.required:
            topics.setdefault(option.topic, []).append(option)
    room = MAX_OPTIONS - len(required)
    groups = []
    for topic, own in topics.items():
        for i in range(0, len(own), room):
            part = i // room + 1
            suffix = topic if part == 1 else f"{topic}_{part}" if topic else str(part)
            groups.append((suffix, topic if part == 1 else "", required + tuple(own[i:i + room])))
    return groups


def _per_game(name: str, variants: dict[str, CommandSpec],
              titles: dict[str, str], words: dict[str, str]) -> SlashCommand:
    subcommands: list[SlashCommand] = []
    for game, spec in variants.items():
        summary = _data(spec.summary, words[game])
        for suffix, topic, options in _by_topic(spec.options):
            if topic:
                # TRANSLATORS: a command's help on Discord, for one game (its title) and one
                # topic of its options (money, tiles)
                text: Text = _("{summary} ({game}: {topic})", summary=summary,
                               game=Msg(titles[game]), topic=Msg(topic))
            else:
                # TRANSLATORS: a command's help on Discord, for one game (its title)
                text = _("{summary} ({game})", summary=summary, game=Msg(titles[game]))
            subcommands.append(SlashCommand(
                f"{game}_{suffix}" if suffix else game, describe(text), name,
                _ordered(tuple(_slash_option(o) for o in options)), game=game, topic=topic,
                text=text))
    if len(subcommands) > MAX_SUBCOMMANDS:
        raise ValueError(f"/{name}: more than {MAX_SUBCOMMANDS} games' variants")
    first = next(iter(variants.values()))
    text = _data(first.summary)
    return SlashCommand(name, describe(text), name, subcommands=tuple(subcommands), text=text)


def _fits(command: SlashCommand) -> bool:
    return len(command.options) <= MAX_OPTIONS and command.characters() <= MAX_CHARACTERS


def slash_commands(table: CommandTable) -> list[SlashCommand]:
    titles = {key: game.title for key, game in table.games.items()}
    words = {key: game.hand_word for key, game in table.games.items()}
    shaped = []
    for name in table.names():
        variants = table.variants(name)
        if all(spec.hidden for spec in variants.values()):
            continue
        if any(spec.on_pad for spec in variants.values()):
            # sent with nothing typed, it opens the whole hand on a form: Discord must let
            # it be sent bare (the core still asks for what the command needs)
            variants = {game: replace(spec, options=tuple(map(_optional, spec.options)))
                        for game, spec in variants.items()}
        merged = _merged(name, variants, titles)
        command = merged if merged is not None and _fits(merged) else _per_game(
            name, variants, titles, words)
        command = within_budget(command)
        if command.characters() > MAX_CHARACTERS:
            raise ValueError(f"/{name} is over Discord's {MAX_CHARACTERS} characters")
        shaped.append(command)
    return shaped
