"""/import and restore check a file whole before it touches anything."""

from __future__ import annotations

import copy
import gzip
import json

import pytest

import bot.core.handlers.exchange as exchange
import bot.storage.chats.reading as reading
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from tests.conftest import Table

ADMIN = Actor("test:host", "host", is_admin=True, by_name=True)


async def exported(table: Table) -> dict:
    await table.ok("/newgame players:alice bob carol")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")
    await table.ok("/hand winner:bob seen:alice carol maal:alice=3 bob=1 carol=8")
    reply = await table.ok("/export")
    assert reply.file is not None
    return json.loads(reply.file.data)


async def import_into(service: Service, chat: str, data: bytes):
    parsed = parse_command_text("/import")
    return await service.handle(Command(chat, ADMIN, parsed.name, parsed.options,
                                        attachment=data))


def spoil(data: dict, how: str) -> dict:
    bad = copy.deepcopy(data)
    session = bad["sessions"][0]
    if how == "unknown game":
        session["game"] = "poker"
    elif how == "extra key in a player":
        session["players"][0]["admin"] = True
    elif how == "totals not the sum":
        session["totals"]["1"] += 5
    elif how == "a hand not zero-sum":
        session["hands"][0]["deltas"]["1"] += 1
    elif how == "two open games":
        bad["sessions"].append({**copy.deepcopy(session), "id": session["id"] + 1})
    elif how == "a gap in the hands":
        session["hands"][1]["no"] = 3
    elif how == "not a date":
        session["created_at"] = "yesterday"
    elif how == "a name nobody can type":
        session["players"][1]["name"] = "bob smith"
    return bad


@pytest.mark.parametrize("how", ["unknown game", "extra key in a player", "totals not the sum",
                                 "a hand not zero-sum", "two open games",
                                 "a gap in the hands", "not a date",
                                 "a name nobody can type"])
async def test_a_spoiled_export_is_refused_and_nothing_is_written(table: Table, how: str):
    data = await exported(table)
    reply = await import_into(table.service, "fresh", json.dumps(spoil(data, how)).encode())
    assert not reply.ok and reply.text.startswith("Not imported:"), reply.text
    assert "Something went wrong" not in reply.text
    board = await table.service.handle(Command("fresh", ADMIN, "stats"))
    assert "No hands recorded here" in board.text  # the chat is as empty as before
    good = await import_into(table.service, "fresh", json.dumps(data).encode())
    assert good.ok and good.text.startswith("Imported 1 session")  # and still importable


async def test_big_exports_travel_compressed(table: Table, monkeypatch):
    await exported(table)
    monkeypatch.setattr(exchange, "COMPRESS_OVER", 100)  # any real export is bigger
    reply = await table.ok("/export")
    assert reply.file is not None and reply.file.name.endswith(".json.gz")
    assert json.loads(gzip.decompress(reply.file.data))["sessions"][0]["hand_count"] == 2
    back = await import_into(table.service, "other", reply.file.data)
    assert back.ok and back.text.startswith("Imported 1 session")
    monkeypatch.setattr(reading, "MAX_UNPACKED", 2_000_000)
    bomb = gzip.compress(b" " * 2_000_001)  # a small file that unpacks to too much
    refused = await import_into(table.service, "third", bomb)
    assert refused.text == "Not imported: the file unpacks to over 2 MB", refused.text


async def test_a_file_that_is_not_json_gets_our_words(table: Table):
    reply = await import_into(table.service, "fresh", b"hello, not json")
    assert not reply.ok
    assert "Not imported: that file is not an /export (it isn't JSON)" in reply.text
    assert "Expecting value" not in reply.text  # the parser's own words never reach people


async def exported_ledger(table: Table) -> dict:
    """A chat with a ledger and seasons: alice +310 Rs, bob -90, carol -220; bob paid 90."""
    await table.ok("/season start name:Autumn")
    await table.ok("/newgame players:alice bob carol")
    await table.ok("/rules rate:10 currency:Rs")
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0")
    await table.ok("/endgame")
    await table.ok("/season end")
    await table.ok("/season start name:Winter")
    await table.ok("/paid bob 90 to:alice")
    reply = await table.ok("/export all")
    assert reply.file is not None
    return json.loads(reply.file.data)


LEDGER_FORGERIES = {
    # every /ledger after would crash ("balances must sum to zero"): past 28 digits
    "an amount of 1e30": (("payments", 0, "amount"), "1e30", "more than 1,000,000,000"),
    "an amount of 30 decimals": (("payments", 0, "amount"), "1." + "0" * 29 + "1",
                                 "30 decimals; at most 2"),
    # a payee whose seat went to another account since, or whose game closed with no
    # hand, may be in no game of the file; but a key the ledger never makes is refused
    "a payee who is no account and no guest": (("payments", 0, "payee"), " ",
                                               "no account and no guest name"),
    "a payer apart from the payee by a space": (("payments", 0, "payer"), "name:alice ",
                                                "no account and no guest name"),
    "a guest's key not as a seat has it": (("payments", 0, "payer"), "name:Alice",
                                           "no account and no guest name"),
    "a name with a space around it": (("payments", 0, "payer_name"), " bob", "plain form"),
    # a currency no game here named is taken (the game may have changed currency since the
    # payment, or closed with no hand); one /rules could never name is not
    "a currency /rules can't name": (("payments", 0, "currency"), "Rs\x00", "could name"),
    "a currency longer than /rules takes": (("payments", 0, "currency"), "RupeesRs€",
                                            "could name"),
    "an open season that is not the last": (("seasons", 0, "ended_at"), None,
                                            "open but not the last"),
    "two seasons of one name": (("seasons", 1, "name"), "AUTUMN", "share the name"),
    "a season ending before it starts": (("seasons", 0, "ended_at"),
                                         "2001-01-01T00:00:00+00:00", "ends before it starts"),
    "a season's name with a zero-width space": (("seasons", 1, "name"), "Win\u200bter",
                                                "invisible"),
    "a season's name not in its plain form": (("seasons", 1, "name"), "Ｗinter",
                                              "plain form"),
    "a player's name not in its plain form": (("sessions", 0, "players", 0, "name"),
                                              "alice ", "plain form"),
}


@pytest.mark.parametrize("how", list(LEDGER_FORGERIES))
async def test_a_forged_ledger_or_season_is_refused_whole(table: Table, how: str):
    data = await exported_ledger(table)
    path, value, why = LEDGER_FORGERIES[how]
    bad = copy.deepcopy(data)
    place = bad
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    reply = await import_into(table.service, "fresh", json.dumps(bad).encode())
    assert not reply.ok and reply.text.startswith("Not imported:"), reply.text
    assert why in reply.text, reply.text
    fresh = Table(table.service, chat="fresh")
    assert "No hands recorded here" in (await fresh.ok("/stats")).text
    assert "The ledger is empty" in (await fresh.ok("/ledger")).text
    assert "No season yet" in (await fresh.ok("/season")).text
    good = await import_into(table.service, "fresh", json.dumps(data).encode())
    assert good.ok, good.text
    assert (await fresh.ok("/ledger")).text == (await table.ok("/ledger")).text


async def test_an_export_is_read_a_page_at_a_time_and_written_whole(table: Table, monkeypatch):
    import csv
    import io

    import bot.storage.chats.backup as backup

    monkeypatch.setattr(backup, "PAGE", 3)  # 7 hands and an undone one: pages of 3, 3, 2
    await table.ok("/newgame players:alice bob carol")
    for maal in range(7):
        await table.ok(f"/hand winner:alice seen:bob maal:alice={maal} bob=1")
    await table.ok("/undo reason:test")
    await table.ok("/hand winner:bob seen:alice maal:alice=2 bob=4")
    reply = await table.ok("/export")
    assert reply.file is not None
    streamed = json.loads(reply.file.data)
    async with table.service.store.transaction("chat-1", write=False) as tx:
        whole = await tx.export([s.id for s in await tx.chat_sessions() if s.id])
    assert json.loads(json.dumps(whole, default=str)) == streamed  # the same, piece by piece
    assert [h["no"] for h in streamed["sessions"][0]["hands"]] == [1, 2, 3, 4, 5, 6, 7, 7]
    rows = list(csv.DictReader(io.StringIO(
        (await table.ok("/export format:csv")).file.data.decode())))  # type: ignore[union-attr]
    assert len(rows) == 8 * 3  # every hand, the undone one too, a row per player
    assert {r["status"] for r in rows} == {"live", "test"}


async def test_a_finished_game_can_be_exported_by_last_or_its_number(table: Table):
    await table.ok("/newgame players:alice bob")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")
    await table.ok("/endgame")
    just_ended = await table.ok("/export")  # the game just ended, until the next starts
    last = await table.ok("/export last")
    first = await table.ok("/export 1")
    assert last.file is not None and first.file is not None
    assert json.loads(last.file.data)["sessions"][0]["hand_count"] == 1
    assert json.loads(first.file.data) == json.loads(last.file.data)  # the same game
    assert just_ended.file is not None
    assert json.loads(just_ended.file.data) == json.loads(last.file.data)


def forge(data: dict, how: str) -> dict:
    """An export of exported() (hands 1 and 2 of alice, bob, carol) edited by hand."""
    bad = copy.deepcopy(data)
    session = bad["sessions"][0]
    hand = session["hands"][0]
    if how == "an edited money book":  # the ledger summed to +1,000,005 Rs with this
        session["rules"].update(rate="1", currency="Rs")
        session["money"] = {"Rs": {"1": "1000005", "2": "0", "3": "0"}}
    elif how in ("points of 10^30", "points of 10^400"):
        big = 10**30 if how == "points of 10^30" else 10**400
        hand["deltas"] = {"1": big, "2": -big, "3": 0}  # zero-sum, and the totals agree
        session["totals"] = {"1": big + session["hands"][1]["deltas"]["1"],
                             "2": -big + session["hands"][1]["deltas"]["2"],
                             "3": session["hands"][1]["deltas"]["3"]}
    elif how == "money as a list":
        session["money"] = [1, 2]
    elif how == "rules as a list":
        session["rules"] = ["rate", "10"]
    elif how == "a hand's rules as a list":
        hand["rules"] = ["rate", "10"]
    elif how == "a rate of 10^30":
        hand["rules"]["rate"] = "1" + "0" * 30
    elif how == "a currency of 9 characters":
        session["rules"]["currency"] = "RupeesRs9"
    elif how == "a maal table no /setmaal makes":  # 4 tiplu values: one holds at most 3
        session["rules"]["maal_table"] = {"tiplu": [3, 7, 9, 12]}
    elif how == "a maal table of an item there is not":
        hand["rules"]["maal_table"] = {"kings": [5]}
    elif how == "a junk game_state in an open game":
        session["game_state"] = {"fouls": "everyone"}
    elif how == "a game_state that is a list":
        session["game_state"] = [1, 2, 3]
    elif how == "a junk waiting hand":
        session["pending"] = {"by": "test:host", "entry": "maal"}
    elif how == "a summary of 20,001 characters":
        hand["summary"] = "x" * 20_001
    elif how == "a reason of 2,001 characters":
        hand["voided_at"], hand["void_reason"] = hand["created_at"], "y" * 2_001
    elif how == "a recorder's name of 101 characters":
        hand["recorded_by_name"] = "z" * 101
    elif how == "a hand count that is not the hands'":
        session["hand_count"] = 3
    elif how == "inputs nested 13 deep":
        nested: dict = {}
        for _ in range(13):
            nested = {"x": nested}
        hand["inputs"] = nested
    elif how == "a version beyond 32 bits":
        session["version"] = 2**40
    return bad


FORGED = {
    "an edited money book": "the money is not what the hands make",
    "points of 10^30": "more than a game can give",
    "points of 10^400": "more than a game can give",
    "money as a list": "must map currencies to amounts",
    "rules as a list": "must map rule names to values",
    "a hand's rules as a list": "must map rule names to values",
    "a rate of 10^30": "`rate` can't be",
    "a currency of 9 characters": "`currency` can't be",
    "a maal table no /setmaal makes": "`maal_table` can't be",
    "a maal table of an item there is not": "`maal_table` can't be",
    "a junk game_state in an open game": "not a state Nepali Marriage can carry on from",
    "a game_state that is a list": "game_state is not an object",
    "a junk waiting hand": "pending is not a waiting hand",
    "a summary of 20,001 characters": "`summary` is longer than 20,000 characters",
    "a reason of 2,001 characters": "`void_reason` is longer than 2,000 characters",
    "a recorder's name of 101 characters": "`recorded_by_name` is longer than 100",
    "a hand count that is not the hands'": "not numbered 1 to hand_count",
    "inputs nested 13 deep": "inputs holds more than a game writes",
    "a version beyond 32 bits": "`version` has the wrong type",
}


@pytest.mark.parametrize("how", list(FORGED))
async def test_a_forged_derived_field_number_or_text_is_refused_whole(table: Table, how: str):
    data = await exported(table)
    reply = await import_into(table.service, "fresh", json.dumps(forge(data, how)).encode())
    assert not reply.ok and reply.text.startswith("Not imported:"), reply.text
    assert FORGED[how] in reply.text, reply.text
    assert len(reply.text) < 400  # says what is wrong, never echoes the file back
    fresh = Table(table.service, chat="fresh")
    assert "No hands recorded here" in (await fresh.ok("/stats")).text  # nothing written
    assert (await import_into(table.service, "fresh", json.dumps(data).encode())).ok


async def test_a_file_nested_200000_deep_is_refused_with_what_is_wrong(table: Table):
    data = await exported(table)
    text = json.dumps(data)
    deep = text.replace('"inputs": {', '"inputs": {"x": ' + "[" * 200_000 + "]" * 200_000
                        + ", ", 1)
    for body in (deep.encode(), b"[" * 200_000 + b"]" * 200_000):
        reply = await import_into(table.service, "fresh", body)
        assert not reply.ok, reply.text
        assert "nests its values deeper than any export" in reply.text, reply.text
    assert "No hands recorded here" in (await Table(table.service, "fresh").ok("/stats")).text


async def test_a_money_book_is_written_as_the_hands_make_it(table: Table):
    """The file's money book (or its absence) is never what /ledger reads: the hands are.
    alice won hand 1 (+18 at rate 2 = 36 Rs) and bob hand 2."""
    await table.ok("/newgame players:alice bob carol")
    await table.ok("/rules rate:2 currency:Rs")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")
    await table.ok("/hand winner:bob seen:alice carol maal:alice=3 bob=1 carol=8")
    await table.ok("/endgame")
    data = json.loads((await table.ok("/export last")).file.data)  # type: ignore[union-attr]
    data["sessions"][0]["money"] = None  # as an export from before money was kept
    assert (await import_into(table.service, "fresh", json.dumps(data).encode())).ok
    fresh = Table(table.service, chat="fresh")
    assert (await fresh.ok("/ledger")).text == (await table.ok("/ledger")).text


async def test_a_payment_keeps_its_recorder_only_if_they_sat_at_the_games(table: Table):
    data = await exported_ledger(table)
    forged = copy.deepcopy(data)
    alice = forged["sessions"][0]["players"][0]
    assert alice["name"] == "alice"
    alice["user_id"] = "test:alice"  # alice's seat is her account
    payment = forged["payments"][0]
    payment["payer"] = payment["payee"] = None  # set below: alice's key is her account now
    payment.update(payer="name:bob", payee="test:alice", recorded_by="test:mallory",
                   recorded_by_name="mallory")
    again = {**payment, "amount": "1", "recorded_by": "test:alice",
             "recorded_by_name": "alice"}
    forged["payments"].append(again)
    reply = await import_into(table.service, "fresh", json.dumps(forged).encode())
    assert reply.ok, reply.text
    fresh = Table(table.service, chat="fresh")
    # mallory sat at no game of the file: the payment is nobody's, she can't undo it
    refused = await fresh.error("/undo payment:1", by="mallory", admin=False)
    assert "recorded it or a chat admin" in refused, refused
    # alice sat at them: the payment she recorded is still hers to undo
    done = await fresh.ok("/undo payment:2", by="alice", admin=False)
    assert "Undid payment 2" in done.text
    assert "Undid payment 1" in (await fresh.ok("/undo payment:1")).text  # an admin may


async def test_a_hand_and_a_game_keep_their_recorder_and_starter_only_if_seated(
        table: Table):
    """As a payment's recorder: a hand's recorder and a game's starter, named by the file,
    keep their say over what the import brings only if they sat at the file's games."""
    data = await exported(table)  # alice, bob and carol, seated by name; two hands
    forged = copy.deepcopy(data)
    session = forged["sessions"][0]
    session["players"][0]["user_id"] = "test:alice"  # alice's seat is her account
    session["created_by"] = "test:mallory"  # who never sat at a game of the file
    session["hands"][1].update(recorded_by="test:mallory", recorded_by_name="mallory")
    assert (await import_into(table.service, "fresh", json.dumps(forged).encode())).ok
    fresh = Table(table.service, chat="fresh")
    # mallory neither recorded the last hand nor started the game here: she may not undo it
    refused = await fresh.error("/undo", by="mallory", admin=False)
    assert "the person who recorded it, the person who started the game or a chat admin" \
        in refused, refused
    refused = await fresh.error("/endgame", by="mallory", admin=False)
    assert "the person who started the game or a chat admin" in refused, refused
    # alice sat at the game: the hand she recorded is hers to undo
    mine = copy.deepcopy(forged)
    mine["sessions"][0]["hands"][1].update(recorded_by="test:alice", recorded_by_name="alice")
    assert (await import_into(table.service, "other", json.dumps(mine).encode())).ok
    other = Table(table.service, chat="other")
    done = await other.ok("/undo", by="alice", admin=False)
    assert (await other.board())["hand_count"] == 1, done.text


async def test_a_waiting_hand_keeps_who_started_it_only_if_seated(table: Table):
    """Who started a hand still waiting for maal may drop it (/undo): kept from the file
    only for someone who sat at its games."""
    await table.ok("/newgame players:alice bob carol")
    await table.ok("/hand winner:alice seen:bob maal:alice=1")  # waits for bob's maal
    data = json.loads((await table.ok("/export")).file.data)  # type: ignore[union-attr]
    session = data["sessions"][0]
    assert session["pending"]["by"] == "test:host"
    session["players"][1]["user_id"] = "test:bob"  # bob's seat is his account
    session["created_by"] = "test:nobody"  # a starter who sat at no game: nobody's
    for chat, by in (("fresh", "mallory"), ("other", "bob")):
        session["pending"]["by"] = f"test:{by}"
        assert (await import_into(table.service, chat, json.dumps(data).encode())).ok
    refused = await Table(table.service, chat="fresh").error("/undo", by="mallory",
                                                             admin=False)
    assert "the person who recorded it, the person who started the game or a chat admin" \
        in refused, refused
    other = Table(table.service, chat="other")
    assert "waiting for maal from bob" in await other.error("/endgame")
    await other.ok("/undo", by="bob", admin=False)
    assert "No hand is waiting" in await other.error("/maal 7")


async def test_a_seat_named_by_a_long_username_and_a_waiting_claim_travel(table: Table):
    """An @username of 25 to 32 characters names its seat whole, and a claim waiting for
    the starter's tap is kept on its seat: both come back from an export as they were."""
    long = "a_very_long_telegram_username_32"
    await table.ok(f"/newgame players:@{long} bob carol")
    await table.ok(f"/hand winner:{long} seen:bob maal:{long}=3 bob=1")
    await table.ok("/join carol", by="dave")  # asks: hands are recorded
    reply = await table.ok("/export")
    assert reply.file is not None
    data = json.loads(reply.file.data)
    players = data["sessions"][0]["players"]
    assert players[0]["name"] == long and players[2]["claim"]["id"] == "test:dave"
    assert (await import_into(table.service, "chat-import", reply.file.data)).ok
    fresh = Table(table.service, chat="chat-import")
    snapshot = await table.service.snapshot("chat-import")
    assert snapshot is not None and snapshot.session.players[0].name == long
    assert snapshot.session.players[2].claim == {"id": "test:dave", "name": "dave",
                                                 "handle": ""}
    given = await fresh.ok("/seat carol person:@dave")  # (no mentions here: a username)
    assert given.text == "carol is @dave's seat now (seat 3)."


async def settings_of(table: Table, chat: str):
    async with table.service.store.transaction(chat, write=False) as tx:
        return await tx.settings()


async def test_a_chats_settings_travel_with_export_all_and_a_backup(table: Table, tmp_path):
    """/export all and a backup carry the chat's timezone, language, board and links
    (format version 5); an import brings them into a chat with none of its own, every link
    (an admin links any account to a guest, sat at a game or not: issue 38). A version 4
    file has none."""
    from bot.storage.chats.backup import backup_all
    from bot.storage.chats.reading import finished, outline
    from bot.storage.chats.restore import restore_file

    data = await exported(table)  # alice, bob and carol, seated by name
    await table.ok("/settings timezone:Asia/Kathmandu board:new language:hi")
    data = json.loads((await table.ok("/export all")).file.data)  # type: ignore[union-attr]
    assert data["version"] == 5
    assert data["settings"] == {"timezone": "Asia/Kathmandu", "language": "hi",
                                "board": "new", "links": {}}, data["settings"]
    forged = copy.deepcopy(data)
    forged["sessions"][0]["players"][0]["user_id"] = "test:alice"  # alice's own account
    forged["settings"]["links"] = {"bob": {"id": "test:alice", "name": "alice"},
                                   "carol": {"id": "test:mallory", "name": "mallory"}}
    assert (await import_into(table.service, "fresh", json.dumps(forged).encode())).ok
    fresh = await settings_of(table, "fresh")
    assert (fresh.timezone, fresh.language, fresh.board) == ("Asia/Kathmandu", "hi", "new")
    # mallory sat at no game of the file, and carol's games and money are hers all the
    # same: as they were where the file came from
    assert fresh.links == {"bob": {"id": "test:alice", "name": "alice"},
                           "carol": {"id": "test:mallory", "name": "mallory"}}, fresh.links
    # a chat that has settings of its own keeps them
    other = Table(table.service, chat="other")
    await other.ok("/settings timezone:Europe/London")
    assert (await import_into(table.service, "other", json.dumps(data).encode())).ok
    kept = await settings_of(table, "other")
    assert (kept.timezone, kept.language, kept.board) == ("Europe/London", "auto", "live")
    # a file from before version 5 has no settings, and imports as it did
    older = {k: v for k, v in data.items() if k != "settings"} | {"version": 4}
    assert (await import_into(table.service, "older", json.dumps(older).encode())).ok
    assert (await settings_of(table, "older")).timezone == "UTC"
    # settings /settings could not have saved are refused, with where
    wrong = copy.deepcopy(data)
    wrong["settings"]["language"] = "klingon"
    refused = await import_into(table.service, "wrong", json.dumps(wrong).encode())
    assert refused.text == "Not imported: the chat's settings: `language` has the wrong " \
        "type", refused.text
    # a backup of every chat, restored under another name: the settings come back
    written: list[str] = []
    await backup_all(table.service.store.engine, written.append)
    every = json.loads("".join(written))
    for chat in every["chats"]:
        chat["chat"] = chat["chat"].replace("chat-1", "restored")
    path = tmp_path / "every.json"
    path.write_text(json.dumps(every))
    assert await restore_file(table.service.store.engine, path,
                              finished(outline(path, every=True)), "restored") == (["restored"], 1)
    restored = await settings_of(table, "restored")
    assert (restored.timezone, restored.language, restored.board) == (
        "Asia/Kathmandu", "hi", "new")


async def test_a_payment_to_someone_who_never_played_here_says_so_in_the_ledger(
        table: Table):
    """A payee no game of the file seats can be real (their seat went to another account
    by /seat after the payment, or their game closed with no hand), so /import takes it;
    but /ledger never shows them as one of the table: 'never played here'. bob paid alice
    90 Rs (exported_ledger); the forged file has an account that never sat pay instead."""
    data = await exported_ledger(table)
    forged = copy.deepcopy(data)
    forged["payments"][0].update(payer="telegram:666", payer_name="Mallory")
    reply = await import_into(table.service, "fresh", json.dumps(forged).encode())
    assert reply.ok, reply.text
    shown = (await Table(table.service, chat="fresh").ok("/ledger")).text.splitlines()
    # alice won 310 Rs, bob lost 90 and carol 220; Mallory's 90 is set against alice's
    assert "  Mallory (never played here) +90 Rs" in shown, shown
    assert "  bob -90 Rs" in shown and "  alice +220 Rs" in shown
    assert not [line for line in shown if "(never played here)" in line
                and "Mallory" not in line]
