"""Migration 16 and after (issue 27): a hand's rules kept once per game and change, its
summary derived when shown. Hands a bot stored before show the same text after the
migration (/history, /undo, /edit, /export, the board), a backup of the old format
restores, and a new hand keeps no rules and no summary of its own (both backends)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, insert, select, text

from bot.core.i18n import translator
from bot.core.i18n.text import kept
from bot.core.service import Service
from bot.storage import open_store
from bot.storage.chats.backup import export_sessions, import_sessions
from bot.storage.engine.tables import rule_sets, session_events, sessions
from bot.storage.store.sql_store import SqlStore
from bot.storage.transaction import migrations
from bot.storage.transaction.retention import derive_summaries
from tests.conftest import Table, _make_schema, store_at_version
from tests.storage.old_rows import OLD_HANDS, old_export

CHAT = "chat-27"
LATER = datetime.now(UTC) + timedelta(days=1)  # every hand settled for the summaries' pass
# Marriage with four: each hand's summary is what its words say (seen, unseen, maal, fouls)
GAME = [
    "/newgame marriage players:alice bob carol dave",
    "/hand winner:alice seen:bob carol maal:alice=3 bob=2 carol=5",
    "/rules rate:10 currency:Rs",
    "/hand winner:bob seen:alice maal:alice=4 bob=1 foul:dave",
    "/hand winner:carol seen:alice bob dave maal:alice=0 bob=7 carol=2 dave=1 dublee:yes",
    "/undo reason:wrong winner",
    "/hand winner:dave seen:alice bob maal:alice=1 bob=1 dave=6",
    "/rules foul_when:next",
    "/hand winner:alice seen:bob maal:alice=2 bob=2 foul:carol",
    "/hand winner:bob seen:alice carol maal:alice=1 bob=3 carol=0",
    "/edit hand:2 maal:alice=5 bob=1",
]


@pytest.fixture
async def other_url(database_url: str, tmp_path) -> AsyncIterator[str]:
    """A second empty database beside database_url, on the same backend."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'other.db'}"
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    await _make_schema(False, schema)
    try:
        yield database_url.split("?")[0] + f"?search_path={schema}"
    finally:
        await _make_schema(True, schema)


async def _played(url: str) -> tuple[SqlStore, Table]:
    store = await open_store(url)
    table = Table(Service(store), chat=CHAT)
    for line in GAME:
        await table.ok(line)
    return store, table


async def _write_old(store: SqlStore, data: dict) -> None:
    """The export's game as a bot at migration 13 stored it: each hand whole."""
    from datetime import datetime

    def when(value):
        return datetime.fromisoformat(value) if isinstance(value, str) else value

    async with store.engine.begin() as conn:
        for session in data["sessions"]:
            values = {k: when(v) if k in ("created_at", "ended_at") else v
                      for k, v in session.items() if k not in ("id", "hands", "events")}
            new = (await conn.execute(insert(sessions).values(chat=CHAT, **{
                k: v for k, v in values.items() if k != "chat"}).returning(
                sessions.c.id))).scalar_one()
            for hand in session["hands"]:
                row = {k: v for k, v in hand.items() if k not in ("id", "session_id")}
                row.update(session_id=new, created_at=when(row["created_at"]),
                           voided_at=when(row.get("voided_at")), state_before=None
                           if row.get("state_before") is None
                           else __import__("json").dumps(row["state_before"]))
                await conn.execute(insert(OLD_HANDS).values(**row))
            for event in session.get("events") or []:
                await conn.execute(insert(session_events).values(
                    session_id=new, **{k: when(v) if k == "created_at" else v
                                       for k, v in event.items() if k != "id"}))


async def _history(table: Table) -> str:
    return (await table.ok("/history")).text


async def test_hands_stored_before_show_the_same_text_after_migration_16(
        database_url: str, other_url: str, monkeypatch: pytest.MonkeyPatch):
    today, reference = await _played(other_url)
    old = await store_at_version(database_url, 11, monkeypatch)  # 11 migrations: up to 13
    try:
        async with today.engine.connect() as conn:
            data = await export_sessions(conn, CHAT)
        await _write_old(old, data)
        # before: every summary as the old rows keep it, in English
        tr = translator("en")
        async with old.engine.connect() as conn:
            before = [tr.render(kept(s)).splitlines()[0] for s in (await conn.execute(
                select(OLD_HANDS.c.summary).order_by(OLD_HANDS.c.id))).scalars()]
            old_file = await old_export(conn, CHAT, 4)
        # six hands, one undone, and hand 2 replaced by its edit
        assert len(before) == 7 and all(before)
        assert 16 in await migrations.upgrade(old.engine)
        async with old.engine.connect() as conn:
            derived = (await conn.execute(text(
                "SELECT count(*) FROM hands WHERE summary = ''"))).scalar()
            sets = (await conn.execute(select(func.count()).select_from(rule_sets))).scalar()
        # Marriage's hands are scored again to the same words; the rules are three sets
        # (as /newgame, after rate:10, after foul_when:next), not seven copies
        assert derived == 7 and sets == 3
        table = Table(Service(old), chat=CHAT)
        shown = await _history(table)
        lines = [line for line in shown.splitlines() if "recorded by" in line]
        assert [line.split(": ", 1)[1] for line in lines] == before
        assert shown == await _history(reference)
        assert (await table.ok("/board")).text == (await reference.ok("/board")).text
        # a file says every hand as the old rows did: rules and summary whole
        async with old.engine.connect() as conn:
            again = await export_sessions(conn, CHAT)
        for was, now in zip(old_file["sessions"][0]["hands"], again["sessions"][0]["hands"],
                            strict=True):
            assert (now["summary"], now["rules"]) == (was["summary"], was["rules"])
        # /edit and /undo say the same of the same hands
        for line in ("/edit hand:4 maal:alice=2 bob=2", "/undo"):
            assert (await table.ok(line)).text == (await reference.ok(line)).text
    finally:
        await old.close()
        await today.close()


async def test_a_backup_of_the_old_format_restores_with_the_same_text(
        database_url: str, other_url: str, monkeypatch: pytest.MonkeyPatch):
    today, reference = await _played(other_url)
    old = await store_at_version(database_url, 11, monkeypatch)
    try:
        async with today.engine.connect() as conn:
            await _write_old(old, await export_sessions(conn, CHAT))
        async with old.engine.connect() as conn:
            file = await old_export(conn, CHAT, 4)  # as /export wrote it before
        await migrations.upgrade(old.engine)
        async with old.engine.begin() as conn:
            assert await import_sessions(conn, file, "restored") == 1
        async with old.engine.connect() as conn:  # the file's words, derived when shown
            assert (await conn.execute(text(
                "SELECT count(*) FROM hands WHERE summary = ''"))).scalar() == 2 * 7
        restored = Table(Service(old), chat="restored")
        assert await _history(restored) == (await _history(reference)).replace(CHAT, "restored")
        assert (await restored.ok("/undo")).text == (await reference.ok("/undo")).text
    finally:
        await old.close()
        await today.close()


async def _summaries(store: SqlStore) -> list[str]:
    async with store.engine.connect() as conn:
        return list((await conn.execute(text("SELECT summary FROM hands ORDER BY id")))
                    .scalars())


async def test_a_new_hand_keeps_neither_its_rules_nor_its_summary(store: SqlStore):
    table = Table(Service(store), chat=CHAT)
    for line in GAME[:5]:
        await table.ok(line)
    # its summary is kept at /hand (not scored twice there), left out by the pass
    assert all(await _summaries(store))
    assert await derive_summaries(store.engine, now=LATER) == 3
    async with store.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT summary, rules_key FROM hands"))).all()
        sets = (await conn.execute(select(rule_sets.c.rules))).scalars().all()
    assert [r.summary for r in rows] == ["", "", ""]
    assert len({r.rules_key for r in rows}) == 2 and len(sets) == 2
    assert '"rate":"10"' in max(sets, key=len)


# A hand of each game whose summary derives, and its summary as the game's words say it
# (written out from what was entered, not read from the bot)
DERIVED_HANDS = [
    ("/newgame callbreak players:alice bob carol dave", "/round bids:2 2 3 4 tricks:3 2 4 4",
     "alice bid 2 took 3, bob bid 2 took 2, carol bid 3 took 4, dave bid 4 took 4"),
    ("/newgame marriage_rummy players:asha bikash chetan dev",
     "/hand winner:bikash points:asha=10 chetan=7 dev=9 no_turn:dev",
     "bikash showed; in hand asha 10, chetan 7, dev 4.5"),
]


@pytest.mark.parametrize(("new", "hand", "said"), DERIVED_HANDS)
async def test_each_games_summary_is_derived_when_shown(store: SqlStore, new: str, hand: str,
                                                        said: str):
    table = Table(Service(store), chat=CHAT)
    await table.ok(new)
    await table.ok(hand)
    assert await derive_summaries(store.engine, now=LATER) == 1
    async with store.engine.connect() as conn:
        assert (await conn.execute(text("SELECT summary FROM hands"))).scalar() == ""
    assert (await table.ok("/history")).text.splitlines()[-1].endswith(f"host: {said}")
    assert said in (await table.ok("/undo")).text


async def test_the_summaries_pass_leaves_every_shown_text_as_it_was(store: SqlStore):
    table = Table(Service(store), chat=CHAT)
    for line in GAME:
        await table.ok(line)
    await table.ok("/endgame")  # the ended game's hands: in the export
    await table.ok("/newgame marriage players:alice bob carol dave")
    await table.ok(GAME[1])

    async def shown() -> tuple[str, str, list[tuple[object, object]]]:
        async with store.engine.connect() as conn:
            data = await export_sessions(conn, CHAT)
        return ((await _history(table)), (await table.ok("/board")).text,
                [(h["summary"], h["rules"]) for s in data["sessions"] for h in s["hands"]])

    before = await shown()
    kept = await _summaries(store)
    # six hands (one undone), hand 2's edit, the new game's first: each kept at /hand
    assert all(kept) and len(kept) == 8
    assert await derive_summaries(store.engine, now=LATER, batch=3) == 8
    assert await _summaries(store) == [""] * 8
    assert await shown() == before
