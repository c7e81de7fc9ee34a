"""Every cell of the permission table on Discord, through discord.py's real command tree:
members, players, the game's starter and people who can manage the server
(tests/permission_cases.py)."""

from __future__ import annotations

import itertools
from typing import Any

import bot.discord_adapter.adapter as adapter_module
from tests.discord_helpers import MANAGE_GUILD, DiscordHarness, component, custom_ids, slash
from tests.fakes.discord_api import user
from tests.permission_cases import (
    ADMIN,
    END,
    MEMBER,
    MONEY,
    PAYMENT,
    PLAYER,
    STARTER,
    Case,
    cells,
    judged,
    refused,
)

PEOPLE = {STARTER: user(501, "hana"), PLAYER: user(502, "pia"), MEMBER: user(503, "mo"),
          ADMIN: user(504, "ada")}
_channels = itertools.count(930500000000000001)


def payload(case_or_line: Case | str, who: dict[str, Any], channel: int) -> dict[str, Any]:
    perms = MANAGE_GUILD if who is PEOPLE[ADMIN] else "0"
    if isinstance(case_or_line, str):  # a setup line, in the words of its slash command
        name, _, rest = case_or_line[1:].partition(" ")
        options = dict(part.split(":", 1) for part in _options(rest))
        return slash(name, who, permissions=perms, channel_id=channel, **options)
    name, sub, options = case_or_line.discord
    if sub is None:
        return slash(name, who, permissions=perms, channel_id=channel, **options)
    data = slash(name, who, permissions=perms, channel_id=channel)
    inner = slash(name, who, **options)["data"]["options"]
    data["data"]["options"] = [{"name": sub, "type": 1, "options": inner}]
    return data


def _options(text: str) -> list[str]:
    """`winner:zed seen:hana pia` -> ["winner:zed", "seen:hana pia"]."""
    parts: list[str] = []
    for word in text.split():
        if ":" in word:
            parts.append(word)
        else:
            parts[-1] += " " + word
    return parts


# setup lines in the words of their slash command: (command, subcommand or None, options)
SETUP = {"/sitout pia": ("sitout", None, {"player": "pia"}),
         MONEY: ("rules", "marriage", {"currency": "Rs"}),
         PAYMENT: ("paid", None, {"payment": "zed 5", "to": "hana"})}


async def test_who_may_change_what_on_discord(dc: DiscordHarness, monkeypatch):
    # every answer in the callback itself: a busy machine must not defer it (deferral has
    # tests of its own; the fake has no 3 s limit)
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 60.0)
    for person in (PEOPLE[STARTER], PEOPLE[PLAYER], PEOPLE[MEMBER]):
        dc.fake.users[person["id"]] = person
    wrong = []
    for case, role in cells():  # every cell in a channel of its own
        channel = next(_channels)
        new = slash("newgame", PEOPLE[STARTER], channel_id=channel,
                    players="<@501> <@502> zed")
        started = await dc.answer_to(new)  # (a deferred answer on a loaded machine too)
        assert "Players: hana, pia, zed" in started["content"], started
        for line in case.setup:
            if line in SETUP:
                setup = payload(Case(line, line, frozenset(), discord=SETUP[line]),
                                PEOPLE[STARTER], channel)
            else:
                setup = payload(line, PEOPLE[STARTER], channel)
            answer = await dc.answer_to(setup)
            assert not answer.get("flags", 0) & 64, (line, answer)
            if line == END:  # asked first: the starter clicks yes
                # (the fake keeps the message in its default channel: this case's is ours)
                message = {**dc.message_of(setup), "channel_id": str(channel)}
                answer = await dc.answer_to(component(
                    message, custom_ids(message)["Yes, end it"], PEOPLE[STARTER]))
                assert "Game over" in str(answer), answer
        if case.tap:  # a button on /newgame's answer, or on the answer to the asker's line
            asking = payload(case, PEOPLE[case.asker], channel) if case.action else new
            if case.action:
                await dc.reply_to(asking)
            # (the fake keeps the message in its default channel: this case's is ours)
            message = {**dc.message_of(asking), "channel_id": str(channel)}
            perms = MANAGE_GUILD if role == ADMIN else "0"
            answer = await dc.answer_to(component(message, custom_ids(message)[case.tap],
                                                  PEOPLE[role], permissions=perms))
        else:
            answer = await dc.answer_to(payload(case, PEOPLE[role], channel))
        text = answer.get("content") or answer["embeds"][0]["description"]
        # refusals are ephemeral
        if not judged(case, role, text, bool(answer.get("flags", 0) & 64)):
            wrong.append(f"{role} / {case.what}: {text}")
    assert not wrong, "\n".join(wrong)


def in_dm(data: dict[str, Any]) -> dict[str, Any]:
    """A command sent in a DM with the bot, as Discord sends it: no server, no member (so no
    permissions), the person as `user`, a DM channel."""
    who = data.pop("member")["user"]
    data.pop("guild_id")
    data["channel"] = {"id": data["channel_id"], "type": 1, "recipients": [who]}
    data["user"], data["context"] = who, 1
    return data


async def test_the_one_person_in_a_dm_is_its_admin(dc: DiscordHarness, monkeypatch):
    """As in a private chat on Telegram: nobody else is there to ask."""
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 60.0)
    channel = next(_channels)
    settings = await dc.answer_to(in_dm(slash("settings", PEOPLE[MEMBER], channel_id=channel,
                                              timezone="Asia/Kathmandu")))
    assert not refused(settings["content"]) and "Asia/Kathmandu" in settings["content"], \
        settings
    imported = await dc.answer_to(in_dm(slash("import", PEOPLE[MEMBER], channel_id=channel)))
    assert not refused(imported["content"]), imported  # (no file: said what to send)
    # in a server's channel the same person, who can't manage it, is refused
    refusal = await dc.answer_to(slash("settings", PEOPLE[MEMBER],
                                       channel_id=next(_channels), timezone="UTC"))
    assert refused(refusal["content"]), refusal


async def test_a_group_dm_is_no_dm_with_the_bot(dc: DiscordHarness, monkeypatch):
    """Discord's private_channel context (a group DM, were the bot ever used there): several
    people, none with permissions: nobody is its admin."""
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 60.0)
    group = in_dm(slash("settings", PEOPLE[MEMBER], channel_id=next(_channels),
                        timezone="UTC"))
    group["channel"]["type"], group["context"] = 3, 2
    refusal = await dc.answer_to(group)
    assert refused(refusal["content"]), refusal
