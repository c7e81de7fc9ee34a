"""The derived Discord tree with every registered game (Call Break the latest): what Discord
is sent stays within its limits (application commands reference: names 1-32 lowercase
characters, descriptions 1-100, 25 options and 25 choices, required options first, 8,000
characters for a command with its options and choices, 100 global chat-input commands), and
each game's own commands are on it."""

from __future__ import annotations

import re

from bot.core.commands.built import TABLE
from bot.core.commands.spec import Kind
from bot.discord_adapter.tree import slash_commands
from tests.discord_helpers import DiscordHarness

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
