"""Marriage rummy keeps tenths of a point from migration 7 on: sessions stored before with
whole points keep their meaning, in the database and in a version 1 backup (both
backends)."""

from __future__ import annotations

import pytest

from bot.core.players import Player
from bot.core.service import Service
from bot.core.session import HandRecord, SessionState
from bot.storage.chats.backup import import_sessions
from bot.storage.store.sql_store import SqlStore
from bot.storage.transaction import migrations
from tests.conftest import Table, store_at_version
from tests.storage.old_rows import add_old_hand, old_export


async def _old_session(store: SqlStore, chat: str, game: str) -> None:
    """A session as version 6 stored it: whole points."""
    players = [Player(1, "asha"), Player(2, "bikash"), Player(3, "chetan")]
    async with store.transaction(chat) as tx:
        state = await tx.save_session(SessionState(
            chat=chat, game=game, players=players, rules={}, created_by="test:host",
            totals={1: 142, 2: -50, 3: -92}, hand_count=1))
        assert state.id is not None
    async with store.engine.begin() as conn:  # as the bot wrote a hand then
        await add_old_hand(conn, state.id, HandRecord(
            no=1, players=[1, 2, 3], inputs={"players": [1, 2, 3], "winner": 1},
            rules={}, deltas={1: 142, 2: -50, 3: -92}, summary="asha showed",
            recorded_by="test:host", recorded_by_name="host"))


async def test_migration_7_scales_whole_rummy_points_to_tenths(
        database_url: str, monkeypatch: pytest.MonkeyPatch):
    store = await store_at_version(database_url, 6, monkeypatch)
    await _old_session(store, "chat-rummy", "marriage_rummy")
    await _old_session(store, "chat-marriage", "marriage")
    assert (await migrations.upgrade(store.engine))[0] == 7  # and whatever came after
    try:
        table = Table(Service(store), chat="chat-rummy")
        board = await table.board()
        # 142 whole points are 1,420 tenths now, and still read as 142
        assert board["totals"] == {"asha": 142, "bikash": -50, "chetan": -92}
        assert board["hands"][0]["points"] == {"asha": 142, "bikash": -50, "chetan": -92}
        # a new hand adds exact halves to them: bikash 25 with no turn -> 12.5 -> -25
        reply = await table.ok("/hand winner:asha points:bikash=25 chetan=7 no_turn:bikash")
        assert reply.board.totals == {"asha": 181, "bikash": -75, "chetan": -106}
        # Nepali Marriage keeps whole points: untouched
        other = await Table(Service(store), chat="chat-marriage").board()
        assert other["totals"] == {"asha": 142, "bikash": -50, "chetan": -92}
    finally:
        await store.close()


async def test_a_version_1_backup_keeps_its_rummy_points(database_url: str,
                                                         monkeypatch: pytest.MonkeyPatch):
    store = await store_at_version(database_url, 6, monkeypatch)
    try:
        await _old_session(store, "chat-old", "marriage_rummy")
        async with store.engine.connect() as conn:  # as the bot wrote it before migration 7
            data = await old_export(conn, "chat-old", 1)
        await migrations.upgrade(store.engine)
        async with store.engine.begin() as conn:
            assert await import_sessions(conn, data, "chat-new") == 1
        board = await Table(Service(store), chat="chat-new").board()
        assert board["totals"] == {"asha": 142, "bikash": -50, "chetan": -92}
    finally:
        await store.close()
