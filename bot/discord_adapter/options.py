"""Typed slash-command options for every core command, and how they map to core options.

This table is all the Discord adapter knows about commands: a new command or game adds
rows here (option mapping only); the tree and the callbacks are built from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.games import GAMES
from bot.core.games.marriage.maal_table import ITEMS, PRESETS
from bot.core.help import CORE_HELP
from bot.core.rules import RuleSpec

MEMBER, TEXT, INT, BOOL, CHOICE, FILE = "member", "text", "int", "bool", "choice", "file"


@dataclass(frozen=True)
class Option:
    name: str
    kind: str
    description: str
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    autocomplete: bool = False  # offer the session's player names
    key: str | None = None  # the core option it fills, when not `name` ("" = free text)

    @property
    def core_key(self) -> str:
        return self.name if self.key is None else self.key


@dataclass(frozen=True)
class SlashCommand:
    name: str
    description: str
    options: tuple[Option, ...] = field(default_factory=tuple)
    # A command with subcommands (/rules show, /rules marriage ...): Discord allows 25
    # options a command, fewer than all games' rule keys together.
    subcommands: tuple[SlashCommand, ...] = ()
    game: str | None = None  # a subcommand for one game's rules


def _rule_option(spec: RuleSpec) -> Option:
    description = spec.help[:100]
    if spec.kind == INT:
        return Option(spec.key, INT, description, low=spec.low, high=spec.high)
    if spec.kind == CHOICE:
        return Option(spec.key, CHOICE, description, choices=spec.choices)
    if spec.kind == BOOL:
        return Option(spec.key, BOOL, description)
    return Option(spec.key, TEXT, description)


def _all_presets() -> tuple[str, ...]:
    return tuple(dict.fromkeys(p.name for g in GAMES.values() for p in g.rulebook.presets))


def _rules_subcommands() -> tuple[SlashCommand, ...]:
    """/rules show, and /rules GAME with that game's keys as typed options."""
    per_game = tuple(
        SlashCommand(game.key, f"change the rules of {game.title}"[:100], (
            Option("preset", CHOICE, "a named set of rules",
                   choices=tuple(p.name for p in game.rulebook.presets)),
            *(_rule_option(spec) for spec in game.rulebook.specs),
        ), game=game.key)
        for game in GAMES.values()
    )
    return (SlashCommand("show", "show the rules in force"), *per_game)


HAND_OPTIONS = (
    Option("winner", MEMBER, "who finished the hand"),
    Option("winner_name", TEXT, "the winner, if a guest without Discord", autocomplete=True,
           key="winner"),
    Option("seen", TEXT, "players who have seen: @mentions or names"),
    Option("maal", TEXT, "maal: name=number pairs, e.g. alice=10 bob=5 (a number alone: yours)"),
    Option("dublee", BOOL, "the winner finished with dublees"),
    Option("foul", TEXT, "players who fouled"),
    Option("dublee_route", TEXT, "seen losers who went the dublee route"),
    Option("tiplu", TEXT, "the tiplu card, e.g. 8H, to count maal from cards"),
    Option("cards", TEXT, "cards per player: bob=8H 9H 7H carol=..."),
    Option("tunnella", TEXT, "tunnellas shown at the deal: bob=7S"),
    # marriage rummy
    Option("honours", TEXT, "marriage rummy: honour cards per player, asha=3 bikash=1"),
    Option("marriages", TEXT, "marriage rummy: marriage combinations per player"),
    Option("points", TEXT, "marriage rummy: points in hand, bikash=25 chetan=40"),
    Option("surrender", TEXT, "marriage rummy: surrendered on the first move"),
    Option("surrender_late", TEXT, "marriage rummy: surrendered later"),
    Option("no_turn", TEXT, "marriage rummy: did not get to play (half points)"),
)


def _help(name: str) -> str:
    info = CORE_HELP.get(name) or next(g.commands[name] for g in GAMES.values()
                                       if name in g.commands)
    return info.summary[:100]


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("newgame", _help("newgame"), (
        Option("game", CHOICE, "which game", choices=tuple(GAMES)),
        Option("players", TEXT, "@mentions or names, e.g. @ram sita hari"),
        Option("teams", TEXT, "Tranca teams: alice+carol bob+dave"),
        Option("preset", CHOICE, "a rule preset", choices=_all_presets()),
    )),
    SlashCommand("join", _help("join"), (Option("name", TEXT, "the name to play under"),)),
    SlashCommand("players", _help("players")),
    SlashCommand("sitout", _help("sitout"), (
        Option("player", TEXT, "who sits out (you if empty)", autocomplete=True, key=""),)),
    SlashCommand("back", _help("back"), (
        Option("player", TEXT, "who is back (you if empty)", autocomplete=True, key=""),)),
    SlashCommand("board", _help("board")),
    SlashCommand("hand", _help("hand"), HAND_OPTIONS),
    SlashCommand("maal", _help("maal"), (
        Option("value", TEXT, "your maal (7) or name=number pairs (bob=5 carol=8)", key=""),
        Option("tiplu", TEXT, "the tiplu, to count maal from cards"),
        Option("cards", TEXT, "the cards: yours, or bob=8H 9H ..."),
        Option("tunnella", TEXT, "tunnellas shown at the deal"),
    )),
    SlashCommand("check", _help("check"), (
        Option("tiplu", TEXT, "the tiplu card, e.g. 8H", required=True),
        Option("cards", TEXT, "21 or 22 cards", required=True),
    )),
    SlashCommand("round", _help("round"), (
        Option("side", TEXT, "A, B or C, or a player of the side", required=True),
        Option("table", INT, "card points laid down (red 3s included)", low=0, high=100000),
        Option("hand", TEXT, "card points left in hand, or the cards"),
        Option("melds", TEXT, "the melds, each in [brackets], instead of table:"),
        Option("clean", INT, "clean canastras", low=0, high=50),
        Option("dirty", INT, "dirty canastras", low=0, high=50),
        Option("twos", INT, "canastras of 2s", low=0, high=50),
        Option("red3", INT, "red 3s laid down", low=0, high=12),
        Option("black3", INT, "black 3s left in hand", low=0, high=12),
        Option("morto", BOOL, "the morto was taken and used (default yes)"),
        Option("out", BOOL, "this side made the final move"),
    )),
    *(SlashCommand(name, _help(name), (
        Option("winner", MEMBER, "who won"),
        Option("winner_name", TEXT, "the winner(s) by name; two for a double ron",
               autocomplete=True, key="winner"),
        *((Option("from_player", TEXT, "who dealt in", autocomplete=True, key="from"),)
          if name == "ron" else ()),
        Option("han", TEXT, "han (with two winners: alice=3 carol=2)"),
        Option("fu", TEXT, "fu (with two winners: alice=30 carol=40)"),
        Option("yakuman", INT, "a limit hand: 1, or 2 for a double", low=1, high=6),
        Option("hand", TEXT, "or the tiles: 234m067p23456788s"),
        Option("win", TEXT, "the winning tile, e.g. 2s"),
        Option("dora", TEXT, "dora indicators"),
        Option("ura", TEXT, "ura dora indicators"),
        Option("melds", TEXT, "called melds: pon555z chi456p kan1111m ankan2222p"),
        Option("riichi", BOOL, "the winner declared riichi"),
    )) for name in ("ron", "tsumo")),
    SlashCommand("riichi", _help("riichi"), (
        Option("player", TEXT, "who declares riichi (you if empty)", autocomplete=True,
               key=""),)),
    SlashCommand("draw", _help("draw"), (
        Option("tenpai", TEXT, "the players who are tenpai (none if nobody)"),)),
    SlashCommand("chombo", _help("chombo"), (
        Option("player", TEXT, "who pays the penalty", required=True, autocomplete=True,
               key=""),)),
    SlashCommand("undo", _help("undo"), (Option("reason", TEXT, "why, for the record"),)),
    SlashCommand("edit", _help("edit"), (
        Option("hand", INT, "which hand (Marriage)", low=1, high=1_000_000),
        Option("round", INT, "which round (Tranca)", low=1, high=1_000_000),
        Option("result", INT, "which result (Riichi)", low=1, high=1_000_000),
        Option("han", TEXT, "Riichi: han"),
        Option("fu", TEXT, "Riichi: fu"),
        *(o for o in HAND_OPTIONS if o.name not in ("tiplu",)),
        Option("side", TEXT, "Tranca: the side to re-enter"),
        Option("table", INT, "Tranca: card points laid down", low=0, high=100000),
        Option("red3", INT, "Tranca: red 3s laid down", low=0, high=12),
        Option("reason", TEXT, "why, for the record"),
    )),
    SlashCommand("rules", _help("rules"), subcommands=_rules_subcommands()),
    SlashCommand("setmaal", _help("setmaal"), (
        Option("preset", CHOICE, "a maal table", choices=tuple(PRESETS)),
        *(Option(item.key, TEXT, f"{item.label[:80]}: values for 1, 2, 3 held")
          for item in ITEMS),
    )),
    SlashCommand("endgame", _help("endgame")),
    SlashCommand("chart", _help("chart")),
    SlashCommand("history", _help("history"), (
        Option("hand", INT, "one hand (or round, or result) in full", low=1, high=1_000_000),)),
    SlashCommand("stats", _help("stats"), (
        Option("player", TEXT, "one player's record (the leaderboard if empty)",
               autocomplete=True, key=""),
        Option("period", CHOICE, "this month, this year or all time",
               choices=("month", "year", "all")),
    )),
    SlashCommand("link", _help("link"), (
        Option("name", TEXT, "the guest's name", required=True),
        Option("user", MEMBER, "the person (you if empty)", key=""),
    )),
    SlashCommand("export", _help("export"), (
        Option("format", CHOICE, "json (for /import) or csv", choices=("json", "csv")),
        Option("all", BOOL, "every session of this channel, not only the open one", key=""),
    )),
    SlashCommand("import", _help("import"), (
        Option("file", FILE, "the JSON file from /export", required=True),)),
    SlashCommand("settings", _help("settings"), (
        Option("timezone", TEXT, "e.g. Asia/Kathmandu"),
        Option("language", CHOICE, "en (English) or ne (Nepali)", choices=("en", "ne")),)),
    SlashCommand("help", _help("help"), (
        Option("topic", TEXT, "a command, or rules", key=""),
    )),
)
BY_NAME = {c.name: c for c in COMMANDS}
