"""Is the database there and up to date? For `python -m bot health` and GET /health."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.database import create_engine
from bot.storage.migrations import MIGRATIONS, current_version


async def engine_health(engine: AsyncEngine) -> dict[str, Any]:
    started = time.perf_counter()
    report: dict[str, Any] = {"database": engine.dialect.name, "latest": MIGRATIONS[-1][0]}
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        report["schema"] = await current_version(engine)
        report["ok"] = report["schema"] == report["latest"]
        if not report["ok"]:
            report["error"] = "the schema is behind: run python -m bot migrate"
    except Exception as error:  # whatever the driver says is the answer
        report.update(ok=False, error=f"{type(error).__name__}: {error}")
    report["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return report


async def check_health(url: str) -> dict[str, Any]:
    engine = create_engine(url)
    try:
        return await engine_health(engine)
    finally:
        await engine.dispose()
