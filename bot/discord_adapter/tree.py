"""The Discord command tree, derived from the command table within Discord's limits.

A command name becomes one slash command whose options are those of every game that has it,
when they agree and fit (25 options, 8,000 characters for a command with its options and
choices: Discord's application-commands reference). Where they clash (`hand:` is a number in
Marriage's /edit and the tiles in Riichi's) or don't fit (/rules: every game's rule keys),
each game gets a subcommand of its own (/rules marriage, /edit riichi), split further if one
game alone has more than 25 options. Nothing here is written per command.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.commands.table import CommandTable

MAX_OPTIONS = 25
MAX_SUBCOMMANDS = 25
MAX_CHOICES = 25
MAX_CHARACTERS = 8000
MAX_DESCRIPTION = 100


@dataclass(frozen=True)
class SlashOption:
    name: str  # what Discord shows
    key: str  # the core option it fills ("" = the words after the command)
    kind: Kind
    description: str
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def autocomplete(self) -> bool:
        """Player names come from the table, so guests without an account can be picked."""
        return self.kind in (Kind.PLAYER, Kind.PLAYERS)

    def characters(self) -> int:
        return len(self.name) + len(self.description) + sum(2 * len(c) for c in self.choices)


@dataclass(frozen=True)
class SlashCommand:
    name: str
    description: str
    command: str  # the core command it runs
    options: tuple[SlashOption, ...] = ()
    subcommands: tuple[SlashCommand, ...] = ()
    game: str | None = None  # a subcommand for one game: refused in a chat playing another
    notes: tuple[str, ...] = field(default=(), compare=False)

    def characters(self) -> int:
        return (len(self.name) + len(self.description)
                + sum(o.characters() for o in self.options)
                + sum(s.characters() for s in self.subcommands))


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = text or "-"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _slash_option(option: Option, games: list[str] | None = None) -> SlashOption:
    help_text = option.help or option.label
    if games:
        help_text = f"{help_text} ({', '.join(games)})"
    choices = option.choices if len(option.choices) <= MAX_CHOICES else ()
    return SlashOption(option.label, option.key, option.kind, _clip(help_text),
                       option.required, option.low, option.high, choices)


def _same(a: Option, b: Option) -> bool:
    return (a.key, a.kind, a.low, a.high, a.choices) == (b.key, b.kind, b.low, b.high,
                                                         b.choices)


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
    return SlashCommand(name, _clip(first.summary), name, _ordered(options))


def _optional(option: Option) -> Option:
    """Required in one game only: optional on the shared command (the core still asks)."""
    from dataclasses import replace

    return replace(option, required=False)


def _ordered(options: tuple[SlashOption, ...]) -> tuple[SlashOption, ...]:
    """Discord wants required options first."""
    return tuple(sorted(options, key=lambda o: not o.required))


def _per_game(name: str, variants: dict[str, CommandSpec],
              titles: dict[str, str]) -> SlashCommand:
    subcommands: list[SlashCommand] = []
    for game, spec in variants.items():
        options = _ordered(tuple(_slash_option(o) for o in spec.options))
        chunks = [options[i:i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)] \
            or [()]
        for i, chunk in enumerate(chunks):
            suffix = f"_{i + 1}" if i else ""
            subcommands.append(SlashCommand(
                f"{game}{suffix}", _clip(f"{spec.summary} ({titles[game]})"), name, chunk,
                game=game))
    if len(subcommands) > MAX_SUBCOMMANDS:
        raise ValueError(f"/{name}: more than {MAX_SUBCOMMANDS} games' variants")
    first = next(iter(variants.values()))
    return SlashCommand(name, _clip(first.summary), name, subcommands=tuple(subcommands))


def _fits(command: SlashCommand) -> bool:
    return len(command.options) <= MAX_OPTIONS and command.characters() <= MAX_CHARACTERS


def slash_commands(table: CommandTable) -> list[SlashCommand]:
    titles = {key: game.title for key, game in table.games.items()}
    shaped = []
    for name in table.names():
        variants = table.variants(name)
        if all(spec.hidden for spec in variants.values()):
            continue
        merged = _merged(name, variants, titles)
        command = merged if merged is not None and _fits(merged) else _per_game(
            name, variants, titles)
        if command.characters() > MAX_CHARACTERS:
            raise ValueError(f"/{name} is over Discord's {MAX_CHARACTERS} characters")
        shaped.append(command)
    return shaped
