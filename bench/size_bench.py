"""What a recorded hand costs at rest, in bytes, before and after issue 27 (rules kept once
per change, summaries derived when shown, kept replies emptied after their window).

    python bench/size_bench.py [--hands 2000] [--database-url postgresql://...]

One five-player Marriage game of --hands hands is played through the service, each hand a
Telegram message of its own, on a database with every migration ("after"). The same game
is then written into a database at migration 13 as the bot wrote it then: every hand with
its rules and summary, every reply kept ("before"); that database is migrated in place
("migrated"). Then every reply is past its window and every hand settled (the pruning and
the summaries' pass run as days later: a new hand keeps its summary until that pass leaves
it out where it derives) and the database is compacted: SQLite's VACUUM (bytes: the file),
PostgreSQL's tables copied afresh (bytes: pg_total_relation_size of every table, indexes and
TOAST included). PostgreSQL is measured when it answers (TEST_POSTGRES_URL, or
--database-url). Figures only, no pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import sys
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    Text,
    column,
    insert,
    select,
    table,
)

from bot.core import stored_json
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import open_store
from bot.storage.chats.backup import export_sessions
from bot.storage.engine.database import create_engine
from bot.storage.engine.tables import origins, session_events, sessions
from bot.storage.transaction import migrations
from bot.storage.transaction.retention import derive_summaries, prune_replies

PLAYERS = ["asha", "bikash", "chandra", "dipa", "esha"]
CHAT = "telegram:-1001234567890"
HOST = Actor(id="telegram:123456789", name="Asha Rai", is_admin=True)
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")

# the hands table as migrations 2 to 13 left it: each hand with its rules and summary
OLD_HANDS = table(
    "hands", column("session_id", Integer), column("no", Integer), column("players", JSON),
    column("inputs", JSON), column("rules", JSON), column("deltas", JSON),
    column("summary", Text), column("recorded_by", Text), column("recorded_by_name", Text),
    column("origin_id", Text), column("created_at", DateTime(timezone=True)),
    column("voided_at", DateTime(timezone=True)), column("voided_by", Text),
    column("void_reason", Text), column("replaced_by", Integer), column("state_before", Text))


def a_hand(rng: random.Random) -> str:
    """A hand as a table types it: a winner, who saw, the seen players' maal."""
    winner = rng.choice(PLAYERS)
    seen = sorted({winner} | {p for p in PLAYERS if rng.random() < 0.6})
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in seen)
    return f"/hand winner:{winner} seen:{' '.join(seen)} maal:{maal}"


async def play(service: Service, hands: int) -> None:
    rng = random.Random(27)
    lines = [f"/newgame players:{' '.join(PLAYERS)}", "/rules rate:10 currency:Rs"]
    lines += [a_hand(rng) for _ in range(hands)]
    for no, line in enumerate(lines, 1):
        parsed = parse_command_text(line)
        reply = await service.handle(Command(CHAT, HOST, parsed.name, parsed.options,
                                             f"{CHAT}:{no}"))
        assert reply.ok, reply.text


def _when(value: Any) -> Any:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


async def write_as_before(url: str, data: dict[str, Any], kept: list[Any],
                          events: list[Any]) -> None:
    """The game into a database at migration 13, as the bot then wrote it."""
    engine = create_engine(url)
    try:
        upto = [m for m in migrations.MIGRATIONS if m[0] <= 13]
        saved, migrations.MIGRATIONS = migrations.MIGRATIONS, upto
        try:
            await migrations.upgrade(engine)
        finally:
            migrations.MIGRATIONS = saved
        async with engine.begin() as conn:
            for session in data["sessions"]:
                values = {k: _when(v) if k in ("created_at", "ended_at") else v
                          for k, v in session.items() if k not in ("id", "hands", "events")}
                new_id = (await conn.execute(insert(sessions).values(**values)
                                             .returning(sessions.c.id))).scalar_one()
                rows = []
                for hand in session["hands"]:
                    row = {k: v for k, v in hand.items() if k not in ("id", "session_id")}
                    row.update(session_id=new_id, created_at=_when(row["created_at"]),
                               voided_at=_when(row.get("voided_at")),
                               state_before=None if row.get("state_before") is None
                               else stored_json.dumps(row["state_before"]))
                    rows.append(row)
                await conn.execute(insert(OLD_HANDS), rows)
                await conn.execute(insert(session_events), [
                    {**dict(e._mapping), "session_id": new_id} for e in events])
            await conn.execute(insert(origins), [dict(o._mapping) for o in kept])
    finally:
        await engine.dispose()


async def sqlite_bytes(path: Path) -> tuple[int, dict[str, int]]:
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        parts = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"))
    finally:
        db.close()
    return path.stat().st_size, parts


async def postgres_bytes(url: str, schema: str) -> tuple[int, dict[str, int]]:
    """Each table copied afresh into a schema of its own, with its indexes: what VACUUM
    FULL leaves, without depending on it (on a shared server another session's old
    snapshot keeps the rows a prune left behind)."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgres://", "postgresql://"))
    try:
        names = [r["relname"] for r in await conn.fetch(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = $1 AND c.relkind = 'r'", schema)]
        await conn.execute("DROP SCHEMA IF EXISTS at_rest CASCADE; CREATE SCHEMA at_rest")
        for name in names:
            await conn.execute(f'CREATE TABLE at_rest."{name}" '
                               f'(LIKE "{schema}"."{name}" INCLUDING ALL); '
                               f'INSERT INTO at_rest."{name}" SELECT * FROM "{schema}"."{name}"')
        parts = {r["relname"]: int(r["size"]) for r in await conn.fetch(
            "SELECT c.relname, pg_total_relation_size(c.oid) AS size FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'at_rest' AND c.relkind = 'r'")}
        await conn.execute("DROP SCHEMA at_rest CASCADE")
    finally:
        await conn.close()
    return sum(parts.values()), parts

Measure = Callable[[], Awaitable[tuple[int, dict[str, int]]]]


async def one_backend(name: str, urls: list[str], measures: list[Measure],
                      hands: int) -> dict[str, tuple[int, dict[str, int]]]:
    """after, before, migrated: each database's bytes at rest."""
    later = datetime.now(UTC) + timedelta(days=3)  # every reply past its window
    after_url, before_url = urls
    store = await open_store(after_url)
    try:
        await play(Service(store), hands)
        async with store.engine.connect() as conn:
            data = await export_sessions(conn, CHAT)
            kept = (await conn.execute(select(origins))).all()
            events = (await conn.execute(select(
                session_events.c.kind, session_events.c.data, session_events.c.by,
                session_events.c.by_name, session_events.c.after_hand,
                session_events.c.created_at))).all()
        await prune_replies(store.engine, now=later)
        derived = await derive_summaries(store.engine, now=later)
    finally:
        await store.close()
    figures = {"after": await measures[0]()}
    await write_as_before(before_url, data, kept, events)
    figures["before"] = await measures[1]()
    engine = create_engine(before_url)
    try:
        await migrations.upgrade(engine)
        await prune_replies(engine, now=later)
        await derive_summaries(engine, now=later)  # migration 16 derived them: none left
    finally:
        await engine.dispose()
    figures["migrated"] = await measures[1]()
    print(f"{name}: {hands:,} hands of five players, at rest")
    print(f"  (replies pruned and the summaries' pass run as days later: {derived:,} of"
          f" {hands:,} summaries left out, derived when shown)")
    before = figures["before"][0] / hands
    for label in ("before", "after", "migrated"):
        total, parts = figures[label]
        top = sorted(parts.items(), key=lambda kv: -kv[1])[:4]
        print(f"  {label:<9}{total / hands:8.0f} bytes a hand   x{total / hands / before:.2f}"
              f" of before   ({', '.join(f'{k} {v / hands:.0f}' for k, v in top)})")
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--database-url", default=POSTGRES_URL)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(folder) / "after.db", Path(folder) / "before.db"]
        await one_backend("SQLite", [f"sqlite:///{p}" for p in paths],
                          [lambda: sqlite_bytes(paths[0]), lambda: sqlite_bytes(paths[1])],
                          args.hands)
    try:
        import asyncpg

        probe = await asyncio.wait_for(asyncpg.connect(
            args.database_url.replace("postgresql://", "postgres://")), 5)
    except Exception as error:
        print(f"PostgreSQL: not measured ({error!r})")
        return
    # databases of their own: VACUUM FULL keeps rows that another session of the same
    # database might still see (the tests', on a shared server)
    names = [f"maal_size_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    base = args.database_url.rsplit("/", 1)[0]
    try:
        for name in names:
            await probe.execute(f'CREATE DATABASE "{name}"')
        await one_backend(
            "PostgreSQL", [f"{base}/{n}" for n in names],
            [lambda: postgres_bytes(f"{base}/{names[0]}", "public"),
             lambda: postgres_bytes(f"{base}/{names[1]}", "public")], args.hands)
    finally:
        for name in names:
            await probe.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await probe.close()

if __name__ == "__main__":
    asyncio.run(main())
