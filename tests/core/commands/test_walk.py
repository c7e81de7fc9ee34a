"""Walk the command table: for every game, every command it answers and every option that
command takes, the option reaches the core from Discord, Telegram text and the console, the
core accepts it in a chat playing that game, and /help names it. Drift between the faces
then fails here instead of reaching people."""

from __future__ import annotations

import uuid

import pytest

from bot.console import line_to_command
from bot.core.assembly.built import TABLE
from bot.core.command import Actor, Command
from bot.core.commands.options import normalise
from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.grammar import parse_command_text
from bot.core.handlers.help import command_help
from bot.core.service import Service
from bot.discord_adapter.adapter import DiscordAdapter
from bot.discord_adapter.tree import slash_commands
from bot.storage import open_store

SEATS = {  # a table for each game, and a player's name to use in options
    "marriage": ("players:alice bob carol", "alice"),
    "marriage_rummy": ("players:asha bikash chetan", "asha"),
    "tranca": ("teams:ana+bia caio+davi", "ana"),
    "riichi": ("players:alice bob carol dave", "alice"),
    "callbreak": ("players:alice bob carol dave", "alice"),
    "points": ("players:asha bikash chetan", "asha"),
    "dhumbal": ("players:asha bikash chetan", "asha"),
}
UNKNOWN = ("has no option", "takes key:value")


def sample(option: Option, player: str) -> str:
    if option.kind == Kind.INT:
        return str(option.low)
    if option.kind == Kind.BOOL:
        return "yes"
    if option.kind == Kind.CHOICE or option.choices:
        return option.choices[0]
    if option.kind in (Kind.PLAYER, Kind.PLAYERS):
        return player
    if option.kind == Kind.MEMBER:
        return "@someone"
    return "x1"


def required(spec: CommandSpec, player: str, but: Option) -> str:
    """The command's other required options, typed (free words first)."""
    others = [o for o in spec.options if o.required and o is not but]
    return " ".join([sample(o, player) for o in others if not o.key]
                    + [f"{o.label}:{sample(o, player)}" for o in others if o.key])


def keys(spec: CommandSpec, options: dict[str, str], player: str,
         option: Option) -> dict[str, str]:
    """What the core makes of `options`, the command's other required ones filled in."""
    filled = parse_command_text(f"/{spec.name} {required(spec, player, option)}").options
    return normalise(spec, {**filled, **options})


def walk() -> list[tuple[str, CommandSpec, Option]]:
    return [(game, spec, option) for game in TABLE.games for spec in
            TABLE.for_game(TABLE.games[game]) for option in spec.options
            if option.kind != Kind.FILE]


def test_every_game_is_walked():
    assert set(SEATS) == set(TABLE.games), "add the new game's table to SEATS"


@pytest.mark.parametrize(("game", "spec", "option"), walk(),
                         ids=lambda v: v if isinstance(v, str) else getattr(v, "label", None)
                         or getattr(v, "name", None))
def test_an_option_reaches_the_core_from_every_face(game: str, spec: CommandSpec,
                                                    option: Option):
    player = SEATS[game][1]
    value = sample(option, player)
    # Discord: the derived tree has the option, on the command or the game's subcommand,
    # and an interaction's value for it arrives under the core's key
    if not spec.hidden:  # /start is Telegram's first word to a bot, not a Discord command
        command = next(c for c in slash_commands(TABLE) if c.name == spec.name)
        subcommands = [s for s in command.subcommands if s.game == game] or [command]
        found = [o for s in subcommands for o in s.options if o.name == option.label]
        assert found, f"/{spec.name} {option.label}: not on Discord for {game}"
        assert found[0].key == option.key and found[0].kind == option.kind
        mapped, _ = _run(DiscordAdapter._core_options(None, None,  # type: ignore[arg-type]
                                                      {found[0]: _typed(option, value)}))
        assert keys(spec, mapped, player, option).get(option.key) is not None
    # Telegram and the console: the same text grammar, as `key:value` (and free words)
    line = f"/{spec.name} {option.label}:{value}"
    assert option.key in keys(spec, parse_command_text(line).options, player, option)
    assert option.key in keys(spec, dict(line_to_command(line, "host").options), player,
                              option)
    if not option.key:
        free = parse_command_text(f"/{spec.name} {value}").options
        assert "" in keys(spec, free, player, option)
    # the menu has the command, and its help names the option
    if not spec.hidden:
        assert spec.name in {n for n, _ in TABLE.menu(TABLE.games[game])}
    assert option.label in command_help(spec)


class _Member:  # what discord.py hands over for a user option
    id, display_name, name = 4242, "Someone", "someone"


def _typed(option: Option, value: str) -> object:
    if option.kind == Kind.MEMBER:
        return _Member()
    if option.kind == Kind.INT:
        return int(value)
    if option.kind == Kind.BOOL:
        return True
    return value


def _run(coroutine):  # type: ignore[no-untyped-def]
    import asyncio

    return asyncio.new_event_loop().run_until_complete(coroutine)


async def test_the_core_accepts_every_option_in_a_chat_playing_the_game(tmp_path):
    """Each option, sent to the real service in a fresh chat playing its game: whatever
    else the answer says, it never says the option is unknown."""
    store = await open_store(f"sqlite:///{tmp_path / 'walk.db'}")
    service = Service(store)
    host = Actor("test:host", "host", is_admin=True, by_name=True)
    try:
        for game, spec, option in walk():
            chat = f"walk-{uuid.uuid4().hex[:8]}"
            seats, player = SEATS[game]
            started = await service.handle(Command(
                chat, host, "newgame", parse_command_text(f"/newgame {game} {seats}").options))
            assert started.ok, started.text
            others = required(spec, player, option)
            value = sample(option, player)
            line = (f"/{spec.name} {others} {option.label}:{value}" if option.key
                    else f"/{spec.name} {value} {others}")
            parsed = parse_command_text(line)
            reply = await service.handle(Command(chat, host, parsed.name, parsed.options))
            assert not any(u in reply.text for u in UNKNOWN), f"{game}: {line}: {reply.text}"
            assert "Something went wrong" not in reply.text, f"{game}: {line}"
    finally:
        await store.close()
