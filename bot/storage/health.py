"""Is the database there, sound and up to date? For `python -m bot health` and GET /health.

On SQLite it is also the file the bot opened (not removed or replaced meanwhile), SQLite's
quick_check finds no damage, and a file that held hands (its marker says so) still holds
some (bot/storage/sqlite_file.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.database import check_sqlite_file, create_engine, holds_hands, sqlite_path
from bot.storage.migrations import MIGRATIONS, current_version
from bot.storage.problems import GONE
from bot.storage.sqlite_file import (
    DatabaseDamaged,
    SqliteFile,
    damaged,
    held,
    lost,
    quick_check,
)

QUICK_CHECK_EVERY = 60.0  # seconds: GET /health runs quick_check at most this often
_checked: dict[str, tuple[float, str | None]] = {}  # path -> (when, what it found)


async def engine_health(engine: AsyncEngine, file: SqliteFile | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    report: dict[str, Any] = {"database": engine.dialect.name, "latest": MIGRATIONS[-1][0]}
    try:
        if file is not None:
            if file.gone():
                raise DatabaseDamaged(GONE)
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
        report.update(ok=False, error=str(error.message))
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


async def check_health(url: str) -> dict[str, Any]:
    """`python -m bot health`: the same, from outside the bot. A SQLite file that is not
    there is reported, never made."""
    path = sqlite_path(url)
    if path is not None:
        report: dict[str, Any] = {"database": "sqlite", "latest": MIGRATIONS[-1][0]}
        try:
            if not path.exists() and held(path) is None:
                report.update(ok=False, error=f"the database file {path} does not exist")
                return report
            _checked.pop(str(path), None)  # a check asked for by hand reads every page now
            await check_sqlite_file(path)
        except DatabaseDamaged as error:
            report.update(ok=False, error=str(error.message))
            return report
    engine = create_engine(url)
    try:
        file = None
        if path is not None:
            file = SqliteFile(path)
            file.open()
        return await engine_health(engine, file)
    finally:
        await engine.dispose()
