"""Engines for the database URLs people write, with the settings each backend needs (the
ground of storage: it imports nothing of it but problems.py; the store is opened by
opening.py)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.core import stored_json
from bot.core.i18n import _
from bot.storage.engine import problems

CONNECT_SECONDS, STATEMENT_SECONDS, POOL_SECONDS = 10, 15, 10


def async_url(url: str) -> str:
    """`sqlite:///x.db` and `postgresql://...` as their async-driver forms."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return str(parsed.set(drivername="sqlite+aiosqlite"))
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    # a lazy message: the command line shows it in its language (bot/failures.py)
    raise ValueError(_("DATABASE_URL must be sqlite:/// or postgresql://, not {backend}",
                       backend=backend))


def create_engine(url: str, hot: bool = False) -> AsyncEngine:
    """An engine for `url`. A PostgreSQL URL may carry `?search_path=schema` to keep one
    bot's tables in their own schema (the tests use this for isolation).

    `hot` (PostgreSQL): the commands' engine (bot/storage/transaction/connections.py), whose
    transactions the hot path begins and ends itself on the driver's connection:
    SQLAlchemy's side is in AUTOCOMMIT mode, a returned connection is not reset (the
    transaction was ended or the connection invalidated) and not pinged (a dead one fails
    its BEGIN, which is retried once on a new one). SQLite's commands have connections of
    their own (bot/storage/engine/sqlite_link.py)."""
    parsed = make_url(async_url(url))
    hot_options: dict[str, object] = dict(
        isolation_level="AUTOCOMMIT", pool_reset_on_return=None, pool_pre_ping=False,
    ) if hot else {}
    if parsed.get_backend_name() == "sqlite":
        if hot:
            raise ValueError("SQLite's commands use links of their own (sqlite_link.py)")
        folder = Path(parsed.database or ".").expanduser().parent
        if _sqlite_file(parsed) and not folder.is_dir():
            # said before a driver thread starts, which would outlive a failed connect
            raise OSError(f"unable to open database file: the folder {folder} does not exist")
        engine = create_async_engine(parsed, connect_args={"timeout": STATEMENT_SECONDS},
                                     **JSON_CODEC)
        _sqlite_transactions(engine)
        return engine
    connect_args: dict[str, object] = {}
    search_path = parsed.query.get("search_path")
    if search_path:
        parsed = parsed.difference_update_query(["search_path"])
        connect_args["server_settings"] = {"search_path": str(search_path)}
    # A database that stops answering must not hang a command: connecting, each statement
    # and waiting for a pooled connection all give up (the service then says what it knows)
    connect_args.update(timeout=CONNECT_SECONDS, command_timeout=STATEMENT_SECONDS)
    options: dict[str, object] = dict(pool_size=5, max_overflow=5, pool_pre_ping=True,
                                      pool_timeout=POOL_SECONDS, connect_args=connect_args)
    return create_async_engine(parsed, **{**options, **JSON_CODEC, **hot_options})


def _sqlite_file(url: URL) -> bool:
    """A SQLite URL names a file (not a database in memory)."""
    return url.database not in (None, "", ":memory:")


# JSON columns are written and read by bot/core/stored_json.py (orjson), not json
JSON_CODEC: dict[str, object] = dict(json_serializer=stored_json.dumps,
                                     json_deserializer=problems.loads)

READ_ONLY = "maalbot_read_only"  # an execution option: this transaction only reads


def _sqlite_transactions(engine: AsyncEngine) -> None:
    """Let SQLAlchemy, not the sqlite3 module, start transactions, and take the write lock
    up front (BEGIN IMMEDIATE), so two processes on one file serialise instead of failing
    half-way. WAL keeps readers from blocking the writer."""

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection) -> None:  # type: ignore[no-untyped-def]
        if connection.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
            return  # one statement at a time (the store's WAL checkpoint)
        # a command that only reads takes no write lock: WAL readers never wait
        reading = connection.get_execution_options().get(READ_ONLY, False)
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")


def sqlite_path(url: str) -> Path | None:
    """The file a SQLite URL names (None: PostgreSQL, or SQLite in memory)."""
    parsed = make_url(async_url(url))
    if parsed.get_backend_name() != "sqlite" or not _sqlite_file(parsed):
        return None
    return Path(str(parsed.database)).expanduser()
