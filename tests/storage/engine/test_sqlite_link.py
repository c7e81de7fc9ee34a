"""SQLite's links (bot/storage/engine/sqlite_link.py): a sqlite3 connection with a thread of its
own, on which SQLAlchemy's statements run inside the transaction the hot path began by hand,
never beginning or ending one themselves."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import column, insert, select, table, text

from bot.storage.engine.sqlite_link import SqliteLink

notes = table("notes", column("id"), column("body"))


@pytest.fixture
async def link(tmp_path) -> AsyncIterator[SqliteLink]:
    link = await SqliteLink.open(str(tmp_path / "link.db"), 2)
    link.now(lambda db: db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"))
    yield link
    await link.aclose()


async def test_sqlalchemys_statements_run_in_the_transaction_begun_by_hand(link: SqliteLink):
    link.now(lambda db: db.execute("BEGIN IMMEDIATE"))
    made = await link.sa("execute", insert(notes).values(body="a").returning(notes.c.id))
    assert made.scalar_one() == 1
    # seen by the hand-written statements of the same transaction
    assert link.now(lambda db: db.execute("SELECT body FROM notes").fetchall()) == [("a",)]
    assert link.in_transaction()  # SQLAlchemy ended nothing
    link.now(lambda db: db.execute("ROLLBACK"))
    assert (await link.sa("execute", select(notes.c.body))).all() == []


async def test_a_result_is_read_whole_where_it_ran(link: SqliteLink):
    for body in "abc":
        await link.sa("execute", insert(notes).values(body=body))
    rows = await link.sa("execute", select(notes.c.body).order_by(notes.c.id))
    # another statement ran before the rows are read: they were fetched already
    changed = await link.sa("execute", text("UPDATE notes SET body = 'z'"))
    assert changed.rowcount == 3
    assert [r.body for r in rows] == ["a", "b", "c"]


async def test_statements_run_on_the_links_own_thread(link: SqliteLink):
    here = threading.get_ident()
    there = await link.run(lambda _db: threading.get_ident())
    assert there != here
    assert link.now(lambda _db: threading.get_ident()) == here


async def test_an_error_on_the_thread_is_raised_to_the_awaiting_task(link: SqliteLink):
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await link.run(lambda db: db.execute("SELECT * FROM nowhere"))
    assert await link.run(lambda db: db.execute("SELECT 1").fetchone()) == (1,)


async def test_a_closed_link_is_used_no_more(tmp_path):
    link = await SqliteLink.open(str(tmp_path / "closed.db"), 2)
    await link.aclose()
    with pytest.raises(sqlite3.ProgrammingError):
        await link.run(lambda db: db.execute("SELECT 1"))
    with pytest.raises(sqlite3.ProgrammingError):
        link.now(lambda db: db.execute("SELECT 1"))
