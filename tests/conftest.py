"""Shared fixtures. Every store-backed test runs on SQLite and on PostgreSQL.

PostgreSQL: TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/test). Each test
gets a schema of its own. Where no server answers, those tests skip and say why.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from hypothesis import settings

from bot.core.command import Actor, Command, Reply
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.discord_adapter import DiscordAdapter
from bot.storage import SqlStore, open_store
from bot.telegram_adapter import TelegramAdapter
from bot.telegram_adapter.ratelimit import ChatRateLimiter
from tests.discord_helpers import DiscordHarness
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram
from tests.telegram_helpers import Harness

# Property tests check what is true, never how fast: speed is measured by bench/ scripts. A
# deadline fails at random on a busy machine (the first example pays for loading a locale).
settings.register_profile("maalbot", deadline=None)
settings.load_profile("maalbot")

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
_postgres_problem: str | None = None
_postgres_checked = False


async def _postgres_reachable() -> str | None:
    """None if PostgreSQL answers, else why not."""
    global _postgres_checked, _postgres_problem
    if not _postgres_checked:
        _postgres_checked = True
        try:
            import asyncpg

            conn = await asyncio.wait_for(
                asyncpg.connect(POSTGRES_URL.replace("postgresql://", "postgres://")), 5
            )
            await conn.close()
        except Exception as error:  # any failure means: skip, with the reason
            _postgres_problem = f"PostgreSQL not reachable at {POSTGRES_URL}: {error!r}"
    return _postgres_problem


async def _make_schema(drop: bool, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES_URL.replace("postgresql://", "postgres://"))
    try:
        if drop:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        else:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    """A fresh, empty database URL on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    problem = await _postgres_reachable()
    if problem:
        pytest.skip(problem)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    await _make_schema(False, schema)
    try:
        yield f"{POSTGRES_URL}?search_path={schema}"
    finally:
        await _make_schema(True, schema)


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[SqlStore]:
    await _migrated(database_url)  # as open_store would leave it, copied: no migrations run
    store = await open_store(database_url)
    try:
        yield store
    finally:
        await store.close()


# A database migrated once a run and copied into each test's (SQLite: the file, with
# sqlite3's backup; PostgreSQL: its schema's dump, replayed into the test's schema): the
# store tests' every start no longer runs every migration (about 0.1 s on SQLite, 0.15 s
# on PostgreSQL, a thousand times a run). What it copies is exactly what open_store makes.
_templates: dict[str, object] = {}


async def _migrated(url: str) -> None:
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if path.exists():
            return
        template = await _sqlite_template()
        with sqlite3.connect(template) as source, sqlite3.connect(path) as copy:
            source.backup(copy)
        return
    dump = await _postgres_template()
    if dump is None:
        return  # (no pg_dump here: open_store migrates it as before)
    import asyncpg

    schema = url.partition("search_path=")[2]
    conn = await asyncpg.connect(POSTGRES_URL.replace("postgresql://", "postgres://"))
    try:
        await conn.execute(dump.replace(_TEMPLATE_SCHEMA, schema))
    finally:
        await conn.close()


async def _sqlite_template() -> str:
    found = _templates.get("sqlite")
    if found is None:
        folder = Path(tempfile.mkdtemp(prefix="maalbot-template-"))
        made = await open_store(f"sqlite:///{folder / 'template.db'}")
        await made.close()
        with sqlite3.connect(folder / "template.db") as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        found = _templates["sqlite"] = str(folder / "template.db")
    return str(found)


_TEMPLATE_SCHEMA = f"t_template_{os.getpid()}"  # a run (an xdist worker) of its own


async def _postgres_template() -> str | None:
    if "postgresql" in _templates:
        return _templates["postgresql"]  # type: ignore[return-value]
    dump = None
    if shutil.which("pg_dump"):
        await _make_schema(True, _TEMPLATE_SCHEMA)
        await _make_schema(False, _TEMPLATE_SCHEMA)
        try:
            made = await open_store(f"{POSTGRES_URL}?search_path={_TEMPLATE_SCHEMA}")
            await made.close()
            done = subprocess.run(
                ["pg_dump", "--dbname", POSTGRES_URL, "--schema", _TEMPLATE_SCHEMA,
                 "--no-owner", "--no-privileges", "--inserts"],
                capture_output=True, text=True, timeout=60, check=False)
            if done.returncode == 0:
                # psql's own lines (\restrict) and the schema, which the test made already
                dump = "\n".join(line for line in done.stdout.splitlines()
                                 if not line.startswith("\\")
                                 and line != f"CREATE SCHEMA {_TEMPLATE_SCHEMA};")
        finally:
            await _make_schema(True, _TEMPLATE_SCHEMA)
    _templates["postgresql"] = dump
    return dump


async def store_at_version(url: str, version: int, monkeypatch: pytest.MonkeyPatch) -> SqlStore:
    """A store whose tables are as migration `version` left them, for data an older bot
    stored; with the PostgreSQL function of migration 10, which the commands' first round
    trip calls whatever the tables' version (bot/storage/transaction/hot.py)."""
    from bot.storage.engine.database import create_engine
    from bot.storage.transaction import migrations

    engine = create_engine(url)
    upto = migrations.MIGRATIONS[:version]
    # and the club's tables (migrations 22 and 23), which /endgame looks in: a game ends at
    # a table of no club there, as it did before clubs
    always = [m for m in migrations.MIGRATIONS
              if m[2] in (migrations._0010_prefetch, migrations._0022_clubs,
                          migrations._0023_tournaments)]
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "MIGRATIONS", upto + [m for m in always if m not in upto])
        await migrations.upgrade(engine)
    return SqlStore(engine)


@pytest.fixture
def service(store: SqlStore) -> Service:
    return Service(store)


class Table:
    """Send commands as people at a table: `await table("/hand ...", by="bob")`."""

    def __init__(self, service: Service, chat: str = "chat-1", admin: str = "host") -> None:
        self.service = service
        self.chat = chat
        self.admin = admin
        self._origin = 0
        self._prefix = uuid.uuid4().hex[:8]  # origins are unique per message, as on platforms

    async def __call__(self, line: str, by: str | None = None, origin: str | None = "auto",
                       admin: bool | None = None) -> Reply:
        name = by or self.admin
        parsed = parse_command_text(line)
        if origin == "auto":
            self._origin += 1
            origin = f"{self._prefix}:{self.chat}:{self._origin}"
        # as in the console, people are who they say: permissions are tested on their own
        actor = Actor(id=f"test:{name.lower()}", name=name,
                      is_admin=(name == self.admin) if admin is None else admin, by_name=True)
        return await self.service.handle(Command(self.chat, actor, parsed.name, parsed.options,
                                                 origin))

    async def ok(self, line: str, by: str | None = None, **kw: object) -> Reply:
        reply = await self(line, by, **kw)  # type: ignore[arg-type]
        assert reply.ok, reply.text
        return reply

    async def error(self, line: str, by: str | None = None, **kw: object) -> str:
        reply = await self(line, by, **kw)  # type: ignore[arg-type]
        assert not reply.ok, f"expected an error, got: {reply.text}"
        return reply.text

    async def board(self) -> dict:
        reply = await self.ok("/board")
        assert reply.board is not None
        return reply.board.to_json()


@pytest.fixture
def table(service: Service) -> Table:
    return Table(service)


# --- the adapters against their fakes (used by several test modules) -----------------

@asynccontextmanager
async def running_telegram(service: Service) -> AsyncIterator[Harness]:
    """The real Telegram adapter for `service`, against a fake Bot API."""
    import bot.telegram_adapter.adapter as telegram_adapter

    telegram_adapter.PUBLISH_AFTER = 0.05  # the fake has no edit limits: no need to wait
    fake = FakeTelegram()
    base = await fake.start()
    adapter = TelegramAdapter(
        service, fake.token, base, poll_timeout=1,
        # the real limiter, with the group limit raised so a test is not held to 20/minute
        rate_limiter=ChatRateLimiter(group_max_rate=1000, overall_max_rate=1000),
    )
    await adapter.start()
    try:
        yield Harness(fake, adapter, service)
    finally:
        await adapter.stop()
        await fake.stop()


@pytest.fixture
async def tg(store: SqlStore) -> AsyncIterator[Harness]:
    async with running_telegram(Service(store)) as harness:
        yield harness


@pytest.fixture
async def dc(store: SqlStore) -> AsyncIterator[DiscordHarness]:
    import bot.discord_adapter.adapter as discord_adapter

    discord_adapter.PUBLISH_AFTER = 0.05
    fake = FakeDiscord()
    base = await fake.start()
    adapter = DiscordAdapter(Service(store), fake.token, api_url=base,
                             gateway_url=fake.gateway_url)
    await adapter.login()
    try:
        yield DiscordHarness(fake, adapter)
    finally:
        await adapter.stop()  # a live-board edit still due finishes before the store goes
        await fake.stop()
