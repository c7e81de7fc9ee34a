"""The Discord adapter end to end: the real discord.py against a fake Discord on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import re

import bot.discord_adapter.adapter as adapter_module
from bot.core.command import Actor, Command
from bot.core.handlers.flow_answers import NOT_YOURS
from bot.core.service import Service
from bot.discord_adapter import DiscordAdapter
from bot.discord_adapter.adapter import chat_key
from bot.storage import SqlStore
from tests.discord_helpers import (
    ALICE,
    MANAGE_GUILD,
    STRANGER,
    DiscordHarness,
    component,
    custom_ids,
    modal_submit,
    slash,
)
from tests.fakes.discord_api import CHANNEL_ID

EPHEMERAL = 64


def shown(content: str) -> str:
    """A message as Discord displays it: Markdown escapes resolved."""
    return re.sub(r"\\(.)", r"\1", content)


def select_id(message: dict) -> str:
    """The custom_id of the message's select menu."""
    return next(item["custom_id"] for row in message.get("components", [])
                for item in row.get("components", []) if item["type"] == 3)


async def board(dc: DiscordHarness) -> dict:
    reply = await dc.adapter.service.handle(Command(chat_key(CHANNEL_ID),
                                                    Actor("test:r", "r"), "board"))
    assert reply.board is not None, reply.text
    return reply.board.to_json()


async def new_game(dc: DiscordHarness) -> None:
    callback = await dc.reply_to(slash("newgame", ALICE, players="alice bob carol"))
    assert callback["type"] == 4 and "Players: alice, bob, carol" in callback["data"]["content"]


async def test_every_command_is_synced_with_typed_options(dc: DiscordHarness):
    synced = {c["name"]: c for c in dc.fake.commands["global"]}
    assert set(synced) >= {"newgame", "join", "players", "board", "hand", "maal", "undo",
                           "edit", "rules", "setmaal", "endgame", "help"}
    options = {o["name"]: o for o in synced["hand"]["options"]}
    # a player is picked from the table's names (guests too), not from the whole server
    assert options["winner"]["type"] == 3 and options["winner"]["autocomplete"] is True
    assert options["dublee"]["type"] == 5
    assert options["maal"]["type"] == 3
    # /edit's hand: is a number in Marriage and the tiles in Riichi: a subcommand per game
    edits = {o["name"]: {x["name"]: x for x in o["options"]}
             for o in synced["edit"]["options"]}
    assert edits["marriage"]["hand"]["type"] == 4 and edits["marriage"]["hand"]["min_value"] == 1
    assert edits["marriage"]["hand"]["required"] is True
    # Riichi's /edit takes every option a result is entered with: more than 25, split by
    # what they are about (riichi_tiles: what is read with the tiles), result: in each
    assert edits["riichi_tiles"]["hand"]["type"] == 3
    assert edits["riichi"]["result"]["type"] == edits["riichi_tiles"]["result"]["type"] == 4
    assert {"morto", "out", "melds"} <= set(edits["tranca"])
    assert {"yakuman", "winner", "from", "tenpai", "declared"} <= set(edits["riichi"])
    groups = {o["name"]: o for o in synced["rules"]["options"]}
    # Riichi's rule keys and preset are more than Discord's 25 options: split in two by
    # what they are about, its scoring rules and the money (rate and currency)
    assert set(groups) == {"marriage", "marriage_rummy", "tranca", "riichi", "riichi_money",
                           "callbreak", "points", "dhumbal"}
    assert {"uma3", "sudden_death", "double_wind", "pao", "honba"} <= {
        o["name"] for o in groups["riichi"]["options"]}
    assert [o["name"] for o in groups["riichi_money"]["options"]] == ["rate", "currency"]
    rules = {o["name"]: o for o in groups["marriage"]["options"]}
    assert (rules["seen"]["type"], rules["seen"]["min_value"], rules["seen"]["max_value"]) \
        == (4, 0, 1000)
    assert [c["value"] for c in rules["unseen_maal"]["choices"]] == ["murder", "kidnap",
                                                                   "counted"]
    assert rules["tunnel_pachaunu"]["type"] == 5
    assert [c["value"] for c in synced["newgame"]["options"][0]["choices"]] == [
        "marriage", "marriage_rummy", "tranca", "riichi", "callbreak", "points", "dhumbal"]
    def check(command: dict) -> None:  # Discord's limits, for commands and subcommands
        assert 1 <= len(command["description"]) <= 100
        assert len(command.get("options", [])) <= 25
        for option in command.get("options", []):
            assert 1 <= len(option["description"]) <= 100
            if option["type"] == 1:
                check(option)

    for command in synced.values():
        check(command)


async def test_a_full_hand_by_one_slash_command(dc: DiscordHarness):
    await new_game(dc)
    callback = await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob",
                                       maal="alice=10 bob=2", dublee=True))
    assert callback["type"] == 4
    data = callback["data"]
    assert data["allowed_mentions"] == {"parse": []}
    # the reply is the hand in one line; the board is a message of its own, kept up to date
    assert "Hand 1: alice won with dublees" in shown(data["content"])
    assert not data.get("embeds")
    live = await dc.live_board(containing="+41")
    assert "```" in live["embeds"][0]["description"]
    assert set(custom_ids(live)) == {"Next hand", "Undo"}
    assert (await board(dc))["totals"] == {"alice": 41, "bob": -14, "carol": -27}
    await dc.reply_to(slash("hand", ALICE, winner="bob", seen="alice",
                            maal="alice=1 bob=1"))
    again = await dc.live_board(containing="Nepali Marriage: 2 hands")
    assert again["id"] == live["id"]  # the same message, edited


async def test_the_same_hand_by_select_and_modal(dc: DiscordHarness):
    await new_game(dc)
    start = slash("hand", ALICE, winner="alice")
    callback = await dc.reply_to(start)
    assert "alice won. Who else has seen?" in callback["data"]["content"]
    message = dc.message_of(start)
    pick = component(message, select_id(message), ALICE, values=["t2"])  # bob's seat
    assert (await dc.reply_to(pick))["type"] == 7
    message = dc.message_of(pick)
    done = component(message, custom_ids(message)["Done"], ALICE)
    callback = await dc.reply_to(done)
    assert callback["type"] == 7
    assert callback["data"]["content"] == ("Hand 1 waits for the maal of alice, bob: "
                                           "/maal alice=… bob=…")
    live = await dc.live_board(containing="waiting for maal from alice, bob")
    assert "Enter maal" in custom_ids(live)  # on the board too, for whoever comes later
    message = dc.message_of(done)
    enter = component(message, custom_ids(message)["Enter maal"], ALICE)
    callback = await dc.reply_to(enter)
    assert callback["type"] == 9  # a modal
    modal = callback["data"]
    fields = [row["components"][0] for row in modal["components"]]
    assert [f["label"] for f in fields] == ["alice", "bob"]
    submit = modal_submit(message, modal["custom_id"], ALICE,
                          {fields[0]["custom_id"]: "10", fields[1]["custom_id"]: "2"})
    callback = await dc.reply_to(submit)
    assert "Hand 1: alice won" in shown(callback["data"]["content"])
    assert (await board(dc))["totals"] == {"alice": 18 + 13, "bob": -6 - 3, "carol": -12 - 10}


async def test_a_strangers_button_press_is_refused(dc: DiscordHarness):
    await new_game(dc)
    start = slash("hand", ALICE, winner="alice")
    await dc.reply_to(start)
    message = dc.message_of(start)
    press = component(message, select_id(message), STRANGER, values=["t2"])
    callback = await dc.reply_to(press)
    assert callback["type"] == 4
    assert NOT_YOURS in callback["data"]["content"]
    assert callback["data"]["flags"] & EPHEMERAL
    # someone who can manage the server may
    admin = component(message, select_id(message), STRANGER, values=["t2"],
                      permissions=MANAGE_GUILD)
    assert (await dc.reply_to(admin))["type"] == 7


async def test_everyone_as_a_guest_name_pings_nobody_and_errors_are_ephemeral(
        dc: DiscordHarness):
    callback = await dc.reply_to(slash("newgame", ALICE, players="alice @everyone"))
    data = callback["data"]
    assert "@everyone" in data["content"] and "reserved" in data["content"]
    assert data["flags"] & EPHEMERAL
    assert data["allowed_mentions"] == {"parse": []}
    callback = await dc.reply_to(slash("board", ALICE))
    assert callback["data"]["flags"] & EPHEMERAL and "No game is open" in \
        callback["data"]["content"]


async def test_the_same_interaction_delivered_twice_records_once(dc: DiscordHarness):
    await new_game(dc)
    payload = slash("hand", ALICE, winner="alice", seen="bob", maal="alice=1 bob=2")
    await dc.reply_to(payload)
    dc.deliver(payload)
    await dc.reply_to(slash("players", ALICE))
    assert (await board(dc))["hand_count"] == 1
    assert len(dc.fake.calls("POST", f"interactions/{payload['id']}/")) == 1


async def test_undo_asks_and_the_confirmation_only_works_once(dc: DiscordHarness):
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=1 bob=2"))
    await dc.reply_to(slash("hand", ALICE, winner="bob", seen="alice", maal="alice=1 bob=2"))
    ask = slash("undo", ALICE)
    callback = await dc.reply_to(ask)
    assert callback["data"]["content"].startswith("Undo hand 2 (bob won")
    message = dc.message_of(ask)
    yes = component(message, custom_ids(message)["Yes, undo"], ALICE)
    callback = await dc.reply_to(yes)
    assert "Undid hand 2" in shown(callback["data"]["content"])
    again = component(message, custom_ids(message)["Yes, undo"], ALICE)
    await dc.reply_to(again)
    assert (await board(dc))["hand_count"] == 1


async def test_autocomplete_offers_the_players(dc: DiscordHarness):
    await new_game(dc)
    payload = slash("hand", ALICE, winner="ca")
    payload["type"] = 4
    payload["data"]["options"][0]["focused"] = True
    callback = await dc.reply_to(payload)
    assert callback["type"] == 8
    assert callback["data"]["choices"] == [{"name": "carol", "value": "carol"}]


async def test_sharded_client_is_built_from_the_settings(store: SqlStore):
    adapter = DiscordAdapter(Service(store), "t", shard_count=4, shard_ids=[2, 3])
    assert adapter.client.shard_count == 4 and adapter.client.shard_ids == [2, 3]
    await adapter.client.http.close()  # never connected: only its HTTP session to close


async def test_slow_work_is_deferred_then_followed_up(dc: DiscordHarness, monkeypatch):
    await new_game(dc)
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.05)
    real = dc.adapter.service.handle
    release = asyncio.Event()

    async def slow(command, admin=None):  # the database is having a bad moment
        await release.wait()  # ... until the test has seen the interaction deferred
        return await real(command, admin)

    monkeypatch.setattr(dc.adapter.service, "handle", slow)
    payload = slash("board", ALICE)
    callback = await dc.reply_to(payload)
    release.set()
    assert callback["type"] == 5  # "thinking..."
    await dc.fake.wait(lambda: any("embeds" in (f or {}) for f in dc.fake.followups()))
    assert dc.fake.followups()[-1]["embeds"][0]["title"] == "Board"


def held_back(monkeypatch, service, name: str) -> asyncio.Event:
    """The core's `name` waits (the database is having a bad moment) until the event is
    set, and the interaction is deferred at once."""
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.05)
    real = getattr(service, name)
    release = asyncio.Event()

    async def slow(*args, **kwargs):
        await release.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(service, name, slow)
    return release


async def test_an_error_after_thinking_is_seen_by_the_person_alone(dc: DiscordHarness,
                                                                   monkeypatch):
    release = held_back(monkeypatch, dc.adapter.service, "handle")
    payload = slash("board", ALICE)  # no game is open: an error, as an ephemeral answer
    callback = await dc.reply_to(payload)
    release.set()
    assert callback["type"] == 5  # "thinking...", which the whole channel sees
    thinking = dc.fake.callback_messages[payload["id"]]["id"]
    await dc.fake.wait(lambda: any("No game is open" in (f or {}).get("content", "")
                                   for f in dc.fake.followups()))
    assert dc.fake.followups()[-1]["flags"] & EPHEMERAL
    # what Discord shows: the error as a message of its own, ephemeral (the first followup
    # after "thinking..." would have been that public message), and no "thinking..." left
    shown_ = [m for m in dc.fake.messages.values() if "No game is open" in m["content"]]
    assert len(shown_) == 1 and shown_[0]["flags"] & EPHEMERAL
    assert thinking not in dc.fake.messages


async def test_an_error_after_a_deferred_tap_leaves_the_buttons(dc: DiscordHarness,
                                                                 monkeypatch):
    await new_game(dc)
    start = slash("hand", ALICE, winner="alice")
    await dc.reply_to(start)
    message = dc.message_of(start)
    release = held_back(monkeypatch, dc.adapter.service, "answer")
    press = component(message, select_id(message), STRANGER, values=["t2"])
    callback = await dc.reply_to(press)
    release.set()
    assert callback["type"] == 6  # a tap is deferred without "thinking..."
    await dc.fake.wait(lambda: any(NOT_YOURS in (f or {}).get("content", "")
                                   for f in dc.fake.followups()))
    assert dc.fake.followups()[-1]["flags"] & EPHEMERAL
    assert message["id"] in dc.fake.messages  # the message with the buttons stays
    assert not dc.fake.calls("DELETE", "webhooks/")


async def test_rules_by_subcommand_for_the_game_being_played(dc: DiscordHarness):
    await new_game(dc)
    payload = slash("rules", ALICE)
    payload["data"]["options"] = [{"name": "marriage", "type": 1, "options": [
        {"name": "unseen_maal", "type": 3, "value": "kidnap"},
        {"name": "seen", "type": 4, "value": 4}]}]
    callback = await dc.reply_to(payload)
    assert "unseen_maal kidnap" in shown(callback["data"]["content"])
    wrong = slash("rules", ALICE)
    wrong["data"]["options"] = [{"name": "tranca", "type": 1, "options": [
        {"name": "target", "type": 4, "value": 2000}]}]
    callback = await dc.reply_to(wrong)
    assert "playing Nepali Marriage: use /rules marriage" in callback["data"]["content"]
    show = slash("rules", ALICE)
    show["data"]["options"] = [{"name": "marriage", "type": 1, "options": []}]
    assert "seen: 4" in (await dc.reply_to(show))["data"]["content"]


async def test_export_then_import_by_attachment(dc: DiscordHarness):
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=1 bob=2"))
    await dc.reply_to(slash("export", ALICE))
    sent = dc.fake.callbacks()[-1]
    assert sent["data"]["attachments"][0]["filename"].endswith(".json")
    exported = json.dumps(await board_export(dc)).encode()  # what that file holds
    dc.fake.attachments["export.json"] = exported
    payload = slash("import", ALICE, channel_id=CHANNEL_ID + 1, permissions=MANAGE_GUILD)
    payload["data"]["options"] = [{"name": "file", "type": 11, "value": "555"}]
    payload["data"]["resolved"] = {"attachments": {"555": {
        "id": "555", "filename": "export.json", "size": len(exported),
        "url": f"{dc.fake.base}/attachments/export.json",
        "proxy_url": f"{dc.fake.base}/attachments/export.json"}}}
    callback = await dc.reply_to(payload)
    assert callback["data"]["content"].startswith("Imported 1 session")


async def board_export(dc: DiscordHarness) -> dict:
    async with dc.adapter.service.store.transaction(chat_key(CHANNEL_ID)) as tx:
        session = await tx.open_session()
        return await tx.export([session.id])


async def test_the_chart_comes_as_an_embed_image(dc: DiscordHarness):
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=1 bob=2"))
    data = await dc.answer_to(slash("chart", ALICE))  # matplotlib may take a while: deferred
    name = data["attachments"][0]["filename"]
    assert name.endswith(".png")
    assert data["embeds"][0]["image"]["url"] == f"attachment://{name}"


async def test_a_tranca_board_has_no_next_hand_button(dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, game="tranca", teams="a+b c+d"))
    await dc.reply_to(slash("round", ALICE, side="A", table=100))
    await dc.reply_to(slash("round", ALICE, side="B", table=50))
    live = await dc.live_board(containing="1 round")
    assert set(custom_ids(live)) == {"Undo"}


async def test_a_call_break_round_by_bid_then_tricks(dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, game="callbreak", players="alice bob carol dave"))
    callback = await dc.reply_to(slash("bid", ALICE, bids="3 4 2 3"))
    assert "Bids: alice 3, bob 4, carol 2, dave 3" in shown(callback["data"]["content"])
    assert "waits for tricks" in (await dc.live_board(containing="waits for tricks"))[
        "embeds"][0]["description"]
    callback = await dc.reply_to(slash("tricks", ALICE, tricks="5 2 3 3"))
    # 3 with 2 over: 3.2; 4 bid, 2 taken: -4; 2 with 1 over: 2.1; 3 exactly: 3.0
    assert "alice +3.2  bob -4.0  carol +2.1  dave +3.0" in shown(callback["data"]["content"])
    assert (await board(dc))["totals"] == {"alice": 3.2, "bob": -4, "carol": 2.1, "dave": 3}


async def test_buttons_keep_working_after_a_restart(dc: DiscordHarness):
    await new_game(dc)
    start = slash("hand", ALICE, winner="alice")
    await dc.reply_to(start)
    message = dc.message_of(start)
    # a new process: a new client, the same database and the same Discord
    fresh = DiscordAdapter(dc.adapter.service, dc.fake.token, api_url=dc.fake.base,
                           gateway_url=dc.fake.gateway_url)
    await fresh.login()
    try:
        again = DiscordHarness(dc.fake, fresh)
        pick = component(message, select_id(message), ALICE, values=["t2"])
        assert (await again.reply_to(pick))["type"] == 7
        message = again.message_of(pick)
        done = component(message, custom_ids(message)["Done"], ALICE)
        callback = await again.reply_to(done)
        assert callback["data"]["content"] == ("Hand 1 waits for the maal of alice, bob: "
                                               "/maal alice=… bob=…")
    finally:
        await fresh.client.close()


async def test_names_are_shown_as_typed_never_as_markdown(dc: DiscordHarness):
    await new_game(dc)
    name = "[click](https://evil.example) **me**"
    tricky = {**ALICE, "global_name": name}  # alice's account, a display name with Markdown
    await dc.reply_to(slash("hand", tricky, winner="alice", seen="bob", maal="alice=1 bob=2"))
    content = (await dc.reply_to(slash("history", ALICE)))["data"]["content"]
    # "recorded by <display name>": escaped, so Discord shows the characters, no link, no bold
    assert "\\[click\\](https://evil.example) \\*\\*me\\*\\*" in content
    assert f"recorded by {name}" in shown(content)


async def test_a_deleted_live_board_is_posted_again(dc: DiscordHarness):
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=1 bob=2"))
    first = await dc.live_board(containing="1 hand")
    del dc.fake.messages[first["id"]]  # someone deleted it
    await dc.reply_to(slash("hand", ALICE, winner="bob", seen="alice", maal="alice=1 bob=2"))
    second = await dc.live_board(containing="2 hands")
    assert second["id"] != first["id"]


async def test_a_command_full_of_mentions_is_refused_before_anyone_is_looked_up(
        dc: DiscordHarness):
    """Each <@id> typed in a text option is a person to look up, a round trip to Discord
    for anyone not cached. A line typed full of them (a 6,000-character option holds over a
    thousand) spent that many lookups of the bot's rate limit, seconds of them, before
    anything was checked: more people than any table seats are refused, nobody looked up."""
    await new_game(dc)
    many = " ".join(f"<@{100000000000000000 + i}>" for i in range(26))
    answer = await dc.answer_to(slash("hand", ALICE, winner="alice", seen=many,
                                      maal="alice=1"))
    assert "names more than 25 people" in answer["content"], answer
    assert [c for c in dc.fake.captured if c.path.startswith("users/1")] == []
    assert (await board(dc))["hand_count"] == 0


async def test_a_reason_is_a_line_not_a_page(dc: DiscordHarness):
    """As on Telegram: a reason over 200 characters is refused, nothing undone or changed
    (Discord lets a text option hold 6,000)."""
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=1 bob=2"))
    played = (await board(dc))["totals"]
    answer = await dc.answer_to(slash("undo", ALICE, reason="r" * 201))
    assert "at most 200 characters" in answer["content"], answer
    edit = slash("edit", ALICE)  # a subcommand per game: /edit marriage hand:1 ...
    edit["data"]["options"] = [{"name": "marriage", "type": 1, "options": slash(
        "edit", ALICE, hand=1, maal="alice=4", reason="r" * 5000)["data"]["options"]}]
    answer = await dc.answer_to(edit)
    assert "at most 200 characters" in answer["content"], answer
    now = await board(dc)
    assert now["hand_count"] == 1 and now["totals"] == played  # the hand as played
