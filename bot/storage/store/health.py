"""Is the database there, sound and up to date? For the start, `python -m bot health`
(`--deep`) and GET /health.

On SQLite it is also the file the bot opened (not removed or replaced meanwhile), SQLite's
quick_check finds no damage, a file that held hands (its marker says so) still holds some,
and no record was found damaged (its `.damaged` marker: bot/storage/engine/sqlite_file.py). The
deep check runs SQLite's integrity_check and reads every stored record back through its
decoder (bot/storage/transaction/damage.py), on either backend."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.engine.database import create_engine, sqlite_path
from bot.storage.engine.problems import GONE, DatabaseDamaged
from bot.storage.engine.sqlite_file import (
    SqliteFile,
    damage_marker_of,
    damaged,
    found_damage,
    held,
    integrity_check,
    lost,
    quick_check,
    unreadable_records,
)
from bot.storage.transaction.damage import Damage, find
from bot.storage.transaction.migrations import MIGRATIONS, current_version

log = logging.getLogger(__name__)
QUICK_CHECK_EVERY = 60.0  # seconds: GET /health runs quick_check at most this often
_checked: dict[str, tuple[float, str | None]] = {}  # path -> (when, what it found)


async def check_sqlite_file(path: Path, clear: bool = False) -> None:
    """Before the store opens its file: a file that held hands and is now gone or empty
    (its marker says so), that SQLite's quick_check finds damaged, or in which a record
    was found damaged and that does not read whole yet, stops the start (DatabaseDamaged,
    exit code 7) instead of being taken for a new database or written into. `clear`: a
    file found damaged that reads whole now (restored) has its `.damaged` marker deleted."""
    since = held(path)
    if since is not None and (not path.exists() or path.stat().st_size == 0):
        raise lost(path, since)
    why = await asyncio.to_thread(quick_check, path)
    if why is not None:
        raise damaged(path, why)
    if found_damage(path) is None:
        return
    await read_whole(f"sqlite:///{path}")  # found damaged once: every record read again
    if clear:
        damage_marker_of(path).unlink(missing_ok=True)
        log.warning("%s reads whole again (restored?): its .damaged marker is deleted", path)


async def read_whole(url: str) -> int:
    """The deep check: SQLite's integrity_check, then every record read back through its
    decoder. DatabaseDamaged names what does not read; else how many records were read."""
    path = sqlite_path(url)
    if path is not None:
        why = await asyncio.to_thread(integrity_check, path)
        if why is not None:
            raise damaged(path, why)
    engine = create_engine(url)
    try:
        found, read = await find(engine)
    finally:
        await engine.dispose()
    if found:
        raise unreadable_records(str(path) if path is not None else engine.dialect.name,
                                 [d.for_host() for d in found], len(found))
    return read


async def holds_hands(engine: AsyncEngine) -> bool:
    async with engine.connect() as conn:
        return bool((await conn.execute(text("SELECT EXISTS (SELECT 1 FROM hands)"))).scalar())


async def engine_health(engine: AsyncEngine, file: SqliteFile | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    report: dict[str, Any] = {"database": engine.dialect.name, "latest": MIGRATIONS[-1][0]}
    try:
        if file is not None:
            if file.gone():
                raise DatabaseDamaged(GONE)
            if (found := file.damage()) is not None:  # found by a command, here or not
                raise unreadable_records(str(file.path), [
                    Damage.from_json(d).for_host() for d in found], len(found))
            why = await _quick_check(file.path)
            if why is not None:
                raise damaged(file.path, why)
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        report["schema"] = await current_version(engine)
        report["ok"] = report["schema"] == report["latest"]
        if not report["ok"]:
            report["error"] = "the schema is behind: run python -m bot migrate"
        elif file is not None and (since := held(file.path)) is not None \
                and not await holds_hands(engine):
            raise lost(file.path, since)
    except DatabaseDamaged as error:
        report.update(ok=False, damaged=True, error=str(error.message))
    except Exception as error:  # whatever the driver says is the answer
        report.update(ok=False, error=f"{type(error).__name__}: {error}")
    report["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return report


async def _quick_check(path: Path) -> str | None:
    """quick_check of the file, at most once a QUICK_CHECK_EVERY (it reads every page)."""
    key = str(path)
    when, found = _checked.get(key, (0.0, None))
    if time.monotonic() - when >= QUICK_CHECK_EVERY:
        found = await asyncio.to_thread(quick_check, path)
        _checked[key] = (time.monotonic(), found)
    return found


async def check_health(url: str, deep: bool = False) -> dict[str, Any]:
    """`python -m bot health`: the same, from outside the bot. A SQLite file that is not
    there is reported, never made. `deep`: every record read again as well (read_whole);
    `damaged` in the report: restore from a backup (exit code 7)."""
    path = sqlite_path(url)
    if path is not None:
        report: dict[str, Any] = {"database": "sqlite", "latest": MIGRATIONS[-1][0]}
        try:
            if not path.exists() and held(path) is None:
                report.update(ok=False, error=f"the database file {path} does not exist")
                return report
            _checked.pop(str(path), None)  # a check asked for by hand reads every page now
            await check_sqlite_file(path, clear=True)  # restored: reads whole
        except DatabaseDamaged as error:
            report.update(ok=False, damaged=True, error=str(error.message))
            return report
    engine = create_engine(url)
    try:
        file = None
        if path is not None:
            file = SqliteFile(path)
            file.open()
        report = await engine_health(engine, file)
    finally:
        await engine.dispose()
    if deep and report["ok"]:
        started = time.perf_counter()
        try:
            report["records"] = await read_whole(url)
        except DatabaseDamaged as error:
            report.update(ok=False, damaged=True, error=str(error.message))
        report["deep_ms"] = round((time.perf_counter() - started) * 1000, 2)
    return report
