"""A big /import is read, checked and written a step at a time: it completes past the
command's time limit while it makes progress, says how far it has got, shows no chat half
an import, and other chats' commands run between its steps (both backends)."""

from __future__ import annotations

import copy
import gzip
import json

import bot.core.handlers.exchange as exchange
import bot.storage.chats.importer as importer
from bot.core.command import Actor, Command
from bot.core.service import Service
from bot.storage import SqlStore
from tests.conftest import Table
from tests.storage.chats.test_validate import exported

ADMIN = Actor("test:host", "host", is_admin=True, by_name=True)


def grown(data: dict, count: int) -> dict:
    """The export with its two hands repeated to `count` hands, numbered on, the totals
    their sum: a session as long as a season of game nights."""
    big = copy.deepcopy(data)
    session = big["sessions"][0]
    first, second = session["hands"]
    session["hands"] = []
    totals: dict[str, int] = {}
    for no in range(1, count + 1):
        hand = copy.deepcopy(first if no % 2 else second)
        hand.update(id=no, no=no)
        session["hands"].append(hand)
        for seat, points in hand["deltas"].items():
            totals[seat] = totals.get(seat, 0) + points
    session.update(totals=totals, hand_count=count, money={})
    return big


async def test_a_25000_hand_export_comes_back_past_the_command_limit(store: SqlStore):
    """The 25,000-hand export stopped at the 20 s limit every time; here the limit is
    2 s and the import, which takes longer, completes: each step gives it more time."""
    maker = Table(Service(store))
    data = grown(await exported(maker), 25_000)
    body = gzip.compress(json.dumps(data).encode())
    service = Service(store, command_seconds=2.0)
    said: list[str] = []

    async def progress(line: str) -> None:
        said.append(line)

    exchange.PROGRESS_EVERY = 0.0
    try:
        reply = await service.handle(Command("big", ADMIN, "import", attachment=body,
                                             origin_id="big-import", progress=progress))
    finally:
        exchange.PROGRESS_EVERY = 3.0
    assert reply.ok, reply.text
    assert reply.text == "Imported 1 session. /board shows the open one, /stats all of them."
    assert any(line.startswith("Reading and checking the file:") for line in said), said
    assert "Importing: 25,000 of 25,000 hands written…" in said, said[-3:]
    board = await Table(service, chat="big").board()
    assert board["hand_count"] == 25_000
    # the same message again (a redelivered update) is answered as it was, not imported twice
    again = await service.handle(Command("big", ADMIN, "import", attachment=body,
                                         origin_id="big-import"))
    assert again.duplicate and again.text == reply.text


async def test_other_chats_go_on_between_batches_and_a_refused_file_leaves_nothing(
        store: SqlStore, monkeypatch):
    monkeypatch.setattr(exchange, "IN_ONE_GO", 100)
    monkeypatch.setattr(exchange, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(importer, "BATCH", 2)
    service = Service(store)
    data = grown(await exported(Table(service)), 9)
    other = Table(service, chat="other")
    ran: list[int] = []

    async def progress(line: str) -> None:
        if "written" in line:  # between two batches: a command of another chat, a writer
            reply = await other(f"/newgame players:a{len(ran)}b c d" if not ran else
                                "/hand winner:c seen:d maal:c=1 d=1")
            assert reply.ok, reply.text
            ran.append(1)
            seen = await Table(service, chat="into").error("/board")
            assert "No game is open here" in seen  # half an import shows nowhere

    reply = await service.handle(Command("into", ADMIN, "import",
                                         attachment=json.dumps(data).encode(),
                                         progress=progress))
    assert reply.ok, reply.text
    assert len(ran) == 5  # 9 hands in batches of 2: five batches, a command after each
    assert (await Table(service, chat="into").board())["hand_count"] == 9
    # a file refused once read: nothing is left, under the chat or anywhere else
    spoiled = copy.deepcopy(data)
    spoiled["sessions"][0]["hands"][7]["deltas"]["1"] += 1  # not zero-sum
    refused = await service.handle(Command("again", ADMIN, "import",
                                           attachment=json.dumps(spoiled).encode()))
    assert not refused.ok and "hand entry 8: the points don't add up to zero" in refused.text
    async with store.transaction("x", write=False) as tx:
        from sqlalchemy import func, select

        from bot.storage.engine.tables import sessions

        chats = {r[0] for r in await tx.conn.execute(select(func.distinct(sessions.c.chat)))}
    assert chats == {"chat-1", "other", "into"}, chats


async def chats_kept(store: SqlStore) -> tuple[set[str], int]:
    """The chats any session is kept under, and how many hands are kept in all."""
    from sqlalchemy import func, select

    from bot.storage.engine.tables import hands, sessions

    async with store.transaction("x", write=False) as tx:
        chats = {r[0] for r in await tx.conn.execute(select(func.distinct(sessions.c.chat)))}
        count = (await tx.conn.execute(select(func.count()).select_from(hands))).scalar_one()
    return chats, count


def fields_last(data: dict) -> str:
    """The export as JSON with each session's hands before its own fields: a file may give
    them in any order, and a streamed import reads it in the order given."""
    sessions = []
    for session in data["sessions"]:
        rest = {k: v for k, v in session.items() if k != "hands"}
        sessions.append('{"hands": ' + json.dumps(session["hands"]) + ", "
                        + json.dumps(rest)[1:])
    head = {k: v for k, v in data.items() if k != "sessions"}
    return json.dumps(head)[:-1] + ', "sessions": [' + ", ".join(sessions) + "]}"


async def test_the_console_file_of_a_big_export_is_streamed_in_any_key_order(
        store: SqlStore, monkeypatch, tmp_path):
    """/import PATH hands the file itself over, gzipped or not: read a chunk at a time
    (chunks far smaller than a hand here), the session's fields after its hands."""
    import bot.storage.chats.reading as reading

    monkeypatch.setattr(exchange, "IN_ONE_GO", 100)
    monkeypatch.setattr(importer, "BATCH", 4)
    monkeypatch.setattr(reading, "CHUNK", 64)
    service = Service(store)
    data = grown(await exported(Table(service)), 30)
    data["settings"] = {"timezone": "Asia/Kathmandu", "language": "en", "board": "new",
                        "links": {}}  # the chat's, as /export all writes them
    plain = tmp_path / "export.json"
    plain.write_text(fields_last(data))
    packed = tmp_path / "export.json.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for chat, path in (("plain", plain), ("packed", packed)):
        reply = await service.handle(Command(chat, ADMIN, "import", attachment=path))
        assert reply.text == "Imported 1 session. /board shows the open one, /stats all of " \
            "them.", reply.text
        board = await Table(service, chat=chat).board()
        # exported's two hands, 15 times each (seen pays 3, unseen 10; each loser gets
        # maal x 3 players - all the maal - that): alice wins with 4 maal in all, bob
        # 1x3-4-3 = -4, carol unseen -4-10 = -14, alice +18; then bob wins with 12 maal,
        # alice 3x3-12-3 = -6, carol 8x3-12-3 = +9, bob -3
        assert board["hand_count"] == 30
        assert board["totals"] == {"alice": 15 * (18 - 6), "bob": 15 * (-4 - 3),
                                   "carol": 15 * (-14 + 9)}, board["totals"]
        async with store.transaction(chat, write=False) as tx:
            settings = await tx.settings()
        assert (settings.timezone, settings.board) == ("Asia/Kathmandu", "new")


async def test_a_big_file_past_a_limit_is_refused_before_a_hand_is_written(
        store: SqlStore, monkeypatch, tmp_path):
    import bot.storage.chats.reading as reading
    import bot.storage.chats.validate as validate

    monkeypatch.setattr(exchange, "IN_ONE_GO", 100)
    service = Service(store)
    data = grown(await exported(Table(service)), 29)
    undone = {**data["sessions"][0]["hands"][0], "id": 30,
              "voided_at": "2026-01-01T00:00:00+00:00", "voided_by": "test:host"}
    data["sessions"][0]["hands"].append(undone)  # 29 live hands, 30 in all
    monkeypatch.setattr(validate, "MAX_HANDS", 29)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    reply = await service.handle(Command("into", ADMIN, "import", attachment=path))
    assert reply.text == "Not imported: more than 29 hands in all", reply.text
    monkeypatch.setattr(validate, "MAX_HANDS", 1_000_000)
    monkeypatch.setattr(reading, "MAX_UNPACKED", 2_000_000)
    path.write_bytes(b" " * 2_000_001 + json.dumps(data).encode())
    reply = await service.handle(Command("into", ADMIN, "import", attachment=path))
    assert reply.text == "Not imported: the file unpacks to over 2 MB", reply.text
    assert await chats_kept(store) == ({"chat-1"}, 2)  # the exported chat's two hands


async def test_a_file_changed_while_it_is_imported_is_refused_and_leaves_nothing(
        store: SqlStore, monkeypatch, tmp_path):
    """The console's file is read twice: rewritten between the reads, it is not the
    file that was checked, and what was written of it goes."""
    import bot.storage.chats.reading as reading

    monkeypatch.setattr(exchange, "IN_ONE_GO", 100)
    monkeypatch.setattr(exchange, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(importer, "BATCH", 4)
    monkeypatch.setattr(reading, "CHUNK", 64)  # the rest of the file is still to be read
    service = Service(store)
    small = await exported(Table(service))
    path = tmp_path / "export.json"
    path.write_text(json.dumps(grown(small, 20)))

    async def progress(line: str) -> None:
        if line == "Importing: 8 of 20 hands written…":  # two batches in: now 12 hands
            path.write_text(json.dumps(grown(small, 12)))

    reply = await service.handle(Command("into", ADMIN, "import", attachment=path,
                                         progress=progress))
    assert reply.text == "Not imported: the file changed while it was being imported", \
        reply.text
    assert await chats_kept(store) == ({"chat-1"}, 2)
