"""A real headless Chromium for the web pages' tests: Debian's `chromium`, driven by
Playwright with `executable_path` (Playwright never downloads a browser here), offline: a
request to anything but the page's own server is refused and kept, so a test can say that
no third-party script or font was asked for. Telegram's Mini App script is played by
tests/web/telegram_stub.js."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
STUB = Path(__file__).with_name("telegram_stub.js")
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
PHONE = {"width": 390, "height": 844}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def chromium_problem() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)"
    return None


class Pages:
    """A browser; `outside` keeps every request that left 127.0.0.1."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.outside: list[str] = []
        self.contexts: list[Any] = []

    async def page(self, viewport: dict[str, int] = PHONE) -> Any:
        context = await self.browser.new_context(viewport=viewport, locale="en-US")
        self.contexts.append(context)

        async def route(route: Any) -> None:
            url = route.request.url
            if url == TELEGRAM_SCRIPT:
                await route.fulfill(path=str(STUB), content_type="text/javascript")
            elif url.startswith("http://127.0.0.1"):
                await route.continue_()
            else:
                self.outside.append(url)
                await route.abort()

        await context.route("**/*", route)
        page = await context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    async def close(self) -> None:
        """Every page opened here closed (a live feed left open holds up a server's stop)."""
        for context in self.contexts:
            await context.close()
        self.contexts.clear()


@asynccontextmanager
async def chromium() -> AsyncIterator[Pages]:
    problem = chromium_problem()
    if problem:
        pytest.skip(problem)
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield Pages(browser)
        finally:
            await browser.close()
