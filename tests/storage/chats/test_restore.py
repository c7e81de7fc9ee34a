"""`python -m bot restore` reads a backup a chunk at a time and writes it a batch at a time,
in one transaction: every hand comes back, and a bad hand late in the file leaves nothing
(both backends). `backup --chat` writes the chat a piece at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

import bot.storage.chats.backup as backup
import bot.storage.chats.reading as reading
import bot.storage.chats.restore as restore
from bot.core.service import Service
from bot.storage.chats.reading import finished, outline
from bot.storage.chats.validate import RestoreError
from bot.storage.engine.tables import hands, sessions
from tests.conftest import Table
from tests.storage.chats.test_import_batches import grown
from tests.storage.chats.test_validate import exported, import_into


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks, values and batches far smaller than the file: read whole, or written in one
    go, it would not restore."""
    monkeypatch.setattr(reading, "CHUNK", 256)  # characters read at a time
    monkeypatch.setattr(reading, "MAX_VALUE", 3_000)  # the longest value read whole
    monkeypatch.setattr(restore, "BATCH", 2)  # hands an executemany


async def every_chat_file(table: Table, tmp_path: Path) -> dict:
    """A backup of every chat: chat-1 (two hands, as /export wrote them) and big (those
    two hands repeated to 9), each renamed `<chat>-copy` to be restored beside them."""
    service = table.service
    data = await exported(table)
    assert (await import_into(service, "big", json.dumps(grown(data, 9)).encode())).ok
    written: list[str] = []
    assert await backup.backup_all(service.store.engine, written.append) == (2, 2)
    every = json.loads("".join(written))
    for chat in every["chats"]:
        chat["chat"] += "-copy"
    assert [c["chat"] for c in every["chats"]] == ["big-copy", "chat-1-copy"]
    return every


async def count(table: Table, chat: str) -> tuple[int, int]:
    """(sessions, hands) the chat has in the database."""
    async with table.service.store.engine.connect() as conn:
        found = (await conn.execute(select(func.count()).select_from(sessions)
                                    .where(sessions.c.chat == chat))).scalar_one()
        rows = (await conn.execute(select(func.count()).select_from(hands).join(
            sessions, hands.c.session_id == sessions.c.id).where(sessions.c.chat == chat))
        ).scalar_one()
    return found, rows


async def restored(table: Table, path: Path, only: str | None = None) -> tuple[list[str], int]:
    shape = finished(outline(path, every=True))
    return await restore.restore_file(table.service.store.engine, path, shape, only)


async def test_a_file_far_past_a_chunk_restores_every_hand(table: Table, tmp_path: Path,
                                                           small: None):
    every = await every_chat_file(table, tmp_path)
    path = tmp_path / "every.json"
    path.write_text(json.dumps(every))
    assert path.stat().st_size > 4 * reading.MAX_VALUE
    assert await restored(table, path) == (["big-copy", "chat-1-copy"], 2)
    assert await count(table, "big-copy") == (1, 9)
    assert await count(table, "chat-1-copy") == (1, 2)
    board = await Table(table.service, chat="big-copy").board()
    assert board["hand_count"] == 9
    # a one-chat file, into another chat
    one = tmp_path / "big.json"
    one.write_text(json.dumps(every["chats"][0]))
    assert await restored(table, one, "again") == (["again"], 1)
    assert await count(table, "again") == (1, 9)
    assert await Table(table.service, chat="again").board() == board
    # one chat of a file of every chat: the others' hands passed over
    other = tmp_path / "other.json"
    for chat in every["chats"]:
        chat["chat"] = chat["chat"].replace("-copy", "-third")
    other.write_text(json.dumps(every))
    assert await restored(table, other, "chat-1-third") == (["chat-1-third"], 1)
    assert await count(table, "chat-1-third") == (1, 2)
    assert await count(table, "big-third") == (0, 0)


async def test_the_totals_restored_are_the_hands_sums(table: Table, tmp_path: Path,
                                                      small: None):
    """Two hands, by the rules of Marriage as /hand scored them: the board after a
    restore is the board before it."""
    data = await exported(table)
    before = await table.board()
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data))
    assert await restored(table, path, "copy") == (["copy"], 1)
    assert await Table(table.service, chat="copy").board() == before


async def test_a_bad_hand_late_in_the_file_writes_nothing(table: Table, tmp_path: Path,
                                                          small: None):
    every = await every_chat_file(table, tmp_path)
    # the file's last hand: big-copy's nine hands are written (in batches of 2) before it
    every["chats"][1]["sessions"][0]["hands"][-1]["deltas"]["1"] += 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(every))
    with pytest.raises(RestoreError) as refused:
        await restored(table, path)
    assert str(refused.value).startswith("chat chat-1-copy: session 1"), refused.value
    assert await count(table, "big-copy") == (0, 0)
    assert await count(table, "chat-1-copy") == (0, 0)
    # a one-chat file: its ninth hand bad, eight written before it
    one = json.loads(json.dumps(every["chats"][0]))
    one["sessions"][0]["hands"][-1]["deltas"]["1"] += 1
    path.write_text(json.dumps(one))
    with pytest.raises(RestoreError):
        await restored(table, path)
    assert await count(table, "big-copy") == (0, 0)
    # into a chat that has a game: refused before any hand is read again
    path.write_text(json.dumps(every["chats"][0]))
    with pytest.raises(RestoreError) as taken:
        await restored(table, path, "big")
    assert "already has 1 session" in str(taken.value)
    # a chat of a file of every chat that names no chat is not restored under "None"
    every["chats"][1]["sessions"][0]["hands"][-1]["deltas"]["1"] -= 1  # sound again
    every["chats"][1]["chat"] = None
    path.write_text(json.dumps(every))
    with pytest.raises(RestoreError) as unnamed:
        await restored(table, path)
    assert str(unnamed.value) == "chat None: the backup names no chat; give one"
    assert await count(table, "None") == (0, 0)
    assert await count(table, "big-copy") == (0, 0)


async def test_a_backup_of_one_chat_is_written_a_piece_at_a_time(service: Service,
                                                                 monkeypatch):
    monkeypatch.setattr(backup, "PAGE", 2)  # hands read at a time
    table = Table(service)
    data = grown(await exported(table), 9)
    assert (await import_into(service, "big", json.dumps(data).encode())).ok
    written: list[str] = []
    assert await backup.backup_chat(service.store.engine, "big", written.append) == 1
    assert len(written) > 9  # every hand a piece of its own
    async with service.store.engine.connect() as conn:
        whole = await backup.export_sessions(conn, "big")
    assert json.loads("".join(written)) == whole
    assert len(whole["sessions"][0]["hands"]) == 9
    nothing: list[str] = []
    assert await backup.backup_chat(service.store.engine, "nobody", nothing.append) == 0
    assert nothing == []


async def test_a_game_closed_with_no_hand_is_in_no_backup(table: Table, tmp_path: Path):
    engine = table.service.store.engine
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")
    await table.ok("/endgame")
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok("/endgame")  # no hand: closed, not kept
    empty = Table(table.service, chat="empty")  # a chat whose one game had no hand
    await empty.ok("/newgame marriage players:dev eli")
    await empty.ok("/endgame")
    written: list[str] = []
    assert await backup.backup_all(engine, written.append) == (1, 1)
    every = json.loads("".join(written))
    assert [(c["chat"], len(c["sessions"])) for c in every["chats"]] == [("chat-1", 1)]
    nothing: list[str] = []
    assert await backup.backup_chat(engine, "empty", nothing.append) == 0 and not nothing
    # that chat has no game to keep: a backup restores into it
    path = tmp_path / "one.json"
    path.write_text(json.dumps(every["chats"][0]))
    assert await restored(table, path, "empty") == (["empty"], 1)
    assert (await empty.board())["hand_count"] == 1
