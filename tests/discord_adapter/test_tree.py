"""The derived Discord tree with every registered game (Call Break the latest): what Discord
is sent stays within its limits (application commands reference: names 1-32 lowercase
characters, descriptions 1-100, 25 options and 25 choices, required options first, 8,000
characters for a command with its options and choices, 100 global chat-input commands), each
game's own commands are on it, and each says where it may be used (`contexts`,
`integration_types`; not the deprecated `dm_permission`)."""

from __future__ import annotations

import re

from bot.core.commands.built import TABLE
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
