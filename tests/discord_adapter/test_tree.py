"""The derived Discord tree with every registered game (Call Break the latest): what Discord
is sent stays within its limits (application commands reference: names 1-32 lowercase
characters, descriptions 1-100, 25 options and 25 choices, required options first, 8,000
characters for a command with its options and choices, 100 global chat-input commands), each
game's own commands are on it, and each says where it may be used (`contexts`,
`integration_types`; not the deprecated `dm_permission`)."""

from __future__ import annotations

import re

from bot.core.assembly.built import TABLE
from bot.core.commands.spec import Kind
from bot.core.service import Service
from bot.discord_adapter import DiscordAdapter
from bot.discord_adapter.tree import slash_commands
from bot.storage import SqlStore
from tests.discord_helpers import ALICE, DiscordHarness, slash
from tests.fakes.discord_api import GUILD_ID, FakeDiscord

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
SUBCOMMAND, GROUP = 1, 2


def _characters(command: dict) -> int:
    """Discord counts names, descriptions and choice names and values, all the way down."""
    return (len(command["name"]) + len(command.get("description", ""))
            + sum(len(c["name"]) + len(str(c["value"])) for c in command.get("choices", []))
            + sum(_characters(o) for o in command.get("options", [])))


def _within_limits(command: dict) -> None:
    assert NAME.match(command["name"]), command["name"]
    assert 1 <= len(command["description"]) <= 100, command["name"]
    options = command.get("options", [])
    assert len(options) <= 25, command["name"]
    assert len(command.get("choices", [])) <= 25, command["name"]
    required = [o.get("required", False) for o in options
                if o["type"] not in (SUBCOMMAND, GROUP)]
    assert required == sorted(required, reverse=True), f"{command['name']}: required first"
    for option in options:
        _within_limits(option)


async def test_what_discord_is_sent_is_within_its_limits(dc: DiscordHarness):
    synced = dc.fake.commands["global"]
    assert len(synced) <= 100
    for command in synced:
        _within_limits(command)
        assert _characters(command) <= 8000, command["name"]
    names = {c["name"] for c in synced}
    assert {"round", "bid", "tricks"} <= names  # Call Break's commands reached Discord


def test_call_break_is_on_the_tree():
    tree = {c.name: c for c in slash_commands(TABLE)}
    bid, tricks = tree["bid"], tree["tricks"]
    # the free words of /bid and /tricks are one typed text option each
    assert [(o.name, o.key, o.kind) for o in bid.options] == [("bids", "", Kind.TEXT)]
    assert [(o.name, o.key, o.kind) for o in tricks.options] == [("tricks", "", Kind.TEXT)]
    # /round is Tranca's and Call Break's: one command, each game's options marked as its own
    round_options = {o.name: o for o in tree["round"].options}
    assert {"bids", "tricks", "side"} <= set(round_options)
    assert "(Call Break)" in round_options["bids"].description
    assert not round_options["side"].required  # required in Tranca only: the core asks
    # /edit and /rules: a subcommand for Call Break with its own options
    edit = {s.game: s for s in tree["edit"].subcommands}["callbreak"]
    assert [o.name for o in edit.options] == ["round", "bids", "tricks", "reason"]
    rules = {s.game: s for s in tree["rules"].subcommands}["callbreak"]
    by_name = {o.name: o for o in rules.options}
    assert (by_name["max_bid"].kind, by_name["max_bid"].low, by_name["max_bid"].high) == \
        (Kind.INT, 1, 13)
    assert by_name["miss"].choices == ("bid", "short")
    assert set(by_name["preset"].choices) == {"standard", "thirteen", "min2", "a23", "whole"}


def test_a_game_over_25_options_is_split_by_what_they_are_about():
    tree = {c.name: c for c in slash_commands(TABLE)}
    # Riichi's /rules: its 24 scoring rules and preset, and the money (a topic of the
    # core's money rules), not riichi and riichi_2
    rules = {s.name: s for s in tree["rules"].subcommands if s.game == "riichi"}
    assert set(rules) == {"riichi", "riichi_money"}
    assert [o.name for o in rules["riichi_money"].options] == ["rate", "currency"]
    assert rules["riichi_money"].description == \
        "show or change the rules (Riichi mahjong: money)"
    # Riichi's /edit takes every option a result is entered with: what is read with the
    # tiles apart, and which result (required) in both
    edits = {s.name: s for s in tree["edit"].subcommands if s.game == "riichi"}
    assert set(edits) == {"riichi", "riichi_tiles"}
    for sub in edits.values():
        assert sub.options[0].name == "result" and sub.options[0].required
        assert len(sub.options) <= 25
    tiles = [o.name for o in edits["riichi_tiles"].options]
    assert {"hand", "win", "dora", "ura", "melds", "ippatsu", "riichi"} <= set(tiles)
    rest = [o.name for o in edits["riichi"].options]
    assert {"winner", "from", "han", "fu", "tenpai", "abort", "declared"} <= set(rest)
    # every option once, but result:
    every = [o.key for o in TABLE.lookup("edit", TABLE.games["riichi"]).options]
    assert sorted(tiles[1:] + rest[1:]) == sorted(every[1:])


async def test_topic_subcommands_are_named_in_hindi_and_portuguese(dc: DiscordHarness):
    # the game key stays (people type it); the topic is said in the language shown, from
    # the catalogues' "money" and "tiles"
    synced = {c["name"]: c for c in dc.fake.commands["global"]}
    rules = {o["name"]: o for o in synced["rules"]["options"]}
    assert rules["riichi_money"]["name_localizations"] == {"hi": "riichi_पैसे",
                                                           "pt-BR": "riichi_dinheiro"}
    assert not rules["riichi"].get("name_localizations")  # a game key: as typed
    edits = {o["name"]: o for o in synced["edit"]["options"]}
    assert edits["riichi_tiles"]["name_localizations"] == {"hi": "riichi_टाइल",
                                                           "pt-BR": "riichi_peças"}


async def test_riichi_by_its_topic_subcommands(dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, game="riichi", players="alice bob carol dave"))
    money = slash("rules", ALICE)
    money["data"]["options"] = [{"name": "riichi_money", "type": 1, "options": [
        {"name": "rate", "type": 3, "value": "10"},
        {"name": "currency", "type": 3, "value": "Rs"}]}]
    callback = await dc.reply_to(money)
    assert "rate 10, currency Rs" in callback["data"]["content"]
    # East 1: bob rons carol's 2s: pinfu, tanyao, dora 1, aka 1 = 4 han 30 fu: 4 x 1,920 =
    # 7,680 -> 7,700; bob was in riichi after all: 5 han, a mangan: 8,000
    await dc.reply_to(slash("ron", ALICE, winner="bob", **{"from": "carol"},
                            hand="234m067p23456788s", win="2s", dora="1m"))
    edit = slash("edit", ALICE)
    edit["data"]["options"] = [{"name": "riichi_tiles", "type": 1, "options": [
        {"name": "result", "type": 4, "value": 1},
        {"name": "riichi", "type": 5, "value": True}]}]
    callback = await dc.reply_to(edit)
    assert "Result 1 changed" in callback["data"]["content"]
    assert "bob +8,000  carol -8,000" in callback["data"]["content"]


async def test_commands_say_where_they_may_be_used(dc: DiscordHarness):
    for command in dc.fake.commands["global"]:
        # a server's channels and a DM with the bot; installed to a server
        assert command["contexts"] == [0, 1] and command["integration_types"] == [0]
        assert "dm_permission" not in command  # deprecated (the fake refuses it)


async def test_a_test_server_has_the_only_copy_of_the_commands(store: SqlStore):
    fake = FakeDiscord()
    base = await fake.start()
    adapter = DiscordAdapter(Service(store), fake.token, api_url=base,
                             gateway_url=fake.gateway_url, test_guild=GUILD_ID)
    await adapter.login()
    try:
        assert fake.commands["global"] == []  # cleared: no command shows twice
        assert "hand" in {c["name"] for c in fake.commands[str(GUILD_ID)]}
        answer = await DiscordHarness(fake, adapter).reply_to(slash("board", ALICE))
        assert "No game is open" in answer["data"]["content"]
    finally:
        await adapter.stop()
        await fake.stop()


def test_a_command_on_a_form_can_be_sent_bare():
    """With nothing typed, a result command opens the whole hand on one form: Discord lets
    it be sent so only if none of its options is required (the core still asks)."""
    tree = {c.name: c for c in slash_commands(TABLE)}
    assert [(o.name, o.required) for o in tree["chombo"].options] == [("player", False)]
    for name in ("hand", "round", "ron", "tsumo", "riichi", "draw", "bid", "tricks"):
        assert not any(o.required for o in tree[name].options), name
    # elsewhere a required option stays required
    assert [o.name for o in tree["paid"].options if o.required]
