"""/export club, restored into a fresh database (`python -m bot restore`'s path), makes the
club again: the same tables, seasons, linked accounts and tournaments, and so the same standings,
ratings, records and ledger. A forged club part is refused with what is wrong, and nothing
is written (both databases)."""

from __future__ import annotations

import json
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.core.service import Service
from bot.storage import open_store
from bot.storage.chats.reading import outline
from bot.storage.chats.restore import restore_file
from bot.storage.chats.validate import RestoreError
from tests.club_helpers import Tables
from tests.conftest import POSTGRES_URL, _make_schema

SHOWN = ["/club", "/club standings", "/rating", "/records", "/club ledger",
         "/club standings season:Spring", "/tournament", "/tournament tables"]


@asynccontextmanager
async def fresh_database(database_url: str, name: str) -> AsyncIterator[str]:
    """Another empty database of the same backend (PostgreSQL: a schema of its own)."""
    if database_url.startswith("sqlite"):
        yield database_url.replace("test.db", f"{name}.db")
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    await _make_schema(False, schema)
    try:
        yield f"{POSTGRES_URL}?search_path={schema}"
    finally:
        await _make_schema(True, schema)


def shape_of(path: Path):  # type: ignore[no-untyped-def]
    steps = outline(path, every=True)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


async def play(tables: Tables) -> None:
    await tables.club("Friday", "t1", "t2")
    await tables.game("t1", "/newgame points players:@ana @ben eve", "/round ana=4 ben=2 eve=1")
    await tables.ok("t1", "/club season start name:Spring")
    await tables.ok("t2", "/newgame points players:@ana @ben @cy")
    await tables.ok("t2", "/rules rate:0.5 currency:Rs")
    await tables.ok("t2", "/round ana=1 ben=9 cy=2")
    await tables.ok("t2", "/endgame")
    await tables.ok("t2", "/paid ana 2 Rs to:ben")
    await tables.ok("t1", "/tournament new name:Cup game:marriage rounds:2")
    await tables.ok("t1", "/tournament add @ana @ben @cy")
    await tables.ok("t1", "/tournament penalty @cy -5 reason:late")
    await tables.ok("t1", "/tournament seat seed:3")


async def test_a_clubs_file_restored_into_a_fresh_database_shows_the_same(
        service: Service, database_url: str):
    tables = Tables(service)
    await play(tables)
    before = [(await tables.ok("t1", line)) for line in SHOWN]
    exported = await tables.ok("t1", "/export club")
    assert exported.file is not None and "2 tables" in exported.text
    path = Path(tempfile.mkdtemp()) / exported.file.name
    path.write_bytes(exported.file.data)
    async with fresh_database(database_url, "fresh") as url:
        await round_trip(url, path, before)


async def round_trip(url: str, path: Path, before: list) -> None:  # type: ignore[type-arg]
    fresh = await open_store(url)
    try:
        chats, sessions = await restore_file(fresh.engine, path, shape_of(path), None)
        assert sorted(chats) == ["t1", "t2"] and sessions == 2
        again = Tables(Service(fresh))
        after = [(await again.ok("t1", line)) for line in SHOWN]
        assert [(r.text, r.table) for r in after] == [(r.text, r.table) for r in before]
    finally:
        await fresh.close()


@pytest.mark.parametrize(("forged", "why"), [
    ({"tables": []}, "the club must have tables"),
    ({"tables": [{"chat": "elsewhere", "name": "x", "joined_by": "a",
                  "joined_at": "2026-01-01T00:00:00+00:00"}]}, "not among the file's chats"),
    ({"name": ["a list"]}, "the club's name must be text"),
    ({"seasons": [{"name": "S", "started_at": "2026-02-01T00:00:00+00:00",
                   "started_by": "a", "ended_at": "2026-01-01T00:00:00+00:00"}]},
     "ends before it starts"),
    ({"tournaments": [{"name": "X", "status": "weird", "data": {}}]},
     "status is open, running or ended"),
    ({"tournaments": [{"name": "X", "status": "open", "data": {"game": "marriage"}}]},
     "tournament X is not as /export club writes it"),
])
async def test_a_forged_club_part_is_refused_and_nothing_is_written(
        service: Service, database_url: str, forged: dict, why: str):
    tables = Tables(service)
    await play(tables)
    exported = await tables.ok("t1", "/export club")
    assert exported.file is not None
    data = json.loads(exported.file.data)
    data["club"].update(forged)
    path = Path(tempfile.mkdtemp()) / "forged.json"
    path.write_text(json.dumps(data))
    async with fresh_database(database_url, "forged") as url:
        await refused(url, path, why)


async def refused(url: str, path: Path, why: str) -> None:
    fresh = await open_store(url)
    try:
        with pytest.raises(RestoreError, match=why):
            await restore_file(fresh.engine, path, shape_of(path), None)
        assert "in no club" in (await Tables(Service(fresh)).error("t1", "/club"))
        assert "No game" in await Tables(Service(fresh)).error("t1", "/board")
    finally:
        await fresh.close()
