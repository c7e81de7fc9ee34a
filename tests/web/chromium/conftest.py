"""One Chromium for each test module here. Playwright's objects belong to the event loop
that made them, so these tests, and the fixtures they use, run in their module's loop; the
fixtures below stand in for tests/conftest.py's and tests/web/conftest.py's of the same
names, each test still with a database, a store and a server of its own. Only the browser
(and the loop) is shared; each test's pages are closed after it."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.storage import SqlStore, open_store
from tests.conftest import POSTGRES_URL, _make_schema, _postgres_reachable
from tests.web.browser import Pages, chromium
from tests.web.conftest import Web, console_serving, serving

HERE = Path(__file__).parent
IN_THE_MODULES_LOOP = pytest.mark.asyncio(loop_scope="module")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(IN_THE_MODULES_LOOP, append=False)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Pages]:
    """The module's headless Chromium (tests/web/browser.py), or a skip that says why."""
    async with chromium() as found:
        yield found


@pytest_asyncio.fixture(loop_scope="module")
async def pages(browser: Pages) -> AsyncIterator[Pages]:
    """The module's browser for one test: what it asked of other sites counted afresh, and
    the pages it opened closed after it."""
    mine = Pages(browser.browser)
    try:
        yield mine
    finally:
        await mine.close()


@pytest_asyncio.fixture(loop_scope="module", params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[str]:
    """As tests/conftest.py's: a fresh, empty database on each backend."""
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


@pytest_asyncio.fixture(loop_scope="module")
async def store(database_url: str) -> AsyncIterator[SqlStore]:
    opened = await open_store(database_url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest_asyncio.fixture(loop_scope="module")
async def web(store: SqlStore) -> AsyncIterator[Web]:
    async with serving(store) as found:
        yield found


@pytest_asyncio.fixture(loop_scope="module")
async def console_web(store: SqlStore) -> AsyncIterator[Web]:
    async with console_serving(store) as found:
        yield found
