"""The club's page in a real Chromium (tests/web/browser.py, one for the module), on both
databases: on a phone (390x844, and 320 pixels wide) the standings, the rating chart (its
axes and zero line, a line per charted member) and a member's page, opened from their name,
show with no word split across lines, nothing sideways, every control at least 44 pixels;
on a TV (1920x1080) the standings and the chart fill the screen in type of 32 pixels or
more; a game that ends at another table shows without a reload; a link turned off empties
the open page. Nothing is asked of anything but 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio

from bot.core.service import Service
from bot.storage import open_store
from bot.web.server import WebServer
from tests.club_helpers import Tables
from tests.web.browser import Pages, chromium
from tests.web.test_club_page import GAMES, T1, T2, club_link

pytestmark = pytest.mark.asyncio(loop_scope="module")  # the module's one browser, its loop
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

# every word of the page that is shown across two lines (a word split), by its text nodes
SPLIT = """() => {
  const split = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, parent = node.parentElement;
    if (!parent || parent.closest("[hidden]") || parent.offsetParent === null) continue;
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                            .map((r) => Math.round(r.bottom)));
      if (lines.size > 1) split.push(word[0]);
    }
  }
  return split;
}"""
# the links and buttons shown that are smaller than a thumb (44 by 44 CSS pixels)
SMALL = """() => [...document.querySelectorAll("a, button")]
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e.textContent, e.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44).map(([t]) => t)"""
STANDINGS = "#standings tr"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Pages]:
    async with chromium() as found:
        yield found


@dataclass
class Club:
    server: WebServer
    tables: Tables
    link: str


@pytest_asyncio.fixture(loop_scope="module")
async def club(database_url: str) -> AsyncIterator[Club]:
    """A club of two tables with tests/web/test_club_page.py's games, its page served."""
    store = await open_store(database_url)
    service = Service(store)
    server = WebServer(service, base_url="http://127.0.0.1:0", secret=service.secret, port=0)
    await server.start()
    try:
        tables = Tables(service)
        await tables.club("Friday", T1, T2)
        for chat, newgame, rounds in GAMES:
            await tables.game(chat, newgame, *rounds)
        yield Club(server, tables, await club_link(tables))
    finally:
        await server.stop()
        await store.close()


async def opened(browser: Pages, link: str, viewport: dict[str, int] = PHONE) -> Any:
    page = await browser.page(viewport)
    await page.goto(link)
    await page.wait_for_selector("#chart svg polyline")
    return page


async def readable(page: Any, width: int) -> None:
    """Nothing sideways, no word split, every control a thumb's."""
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    assert await page.evaluate(SPLIT) == []
    assert await page.evaluate(SMALL) == []


async def test_a_phone_shows_the_standings_the_chart_and_a_members_page(
        club: Club, browser: Pages):
    page = await opened(browser, club.link)
    # the league table of the points game, the most played: a row a member (eve a guest)
    every = page.locator("#standings table").last
    assert await every.locator("td.name a.who > bdi").all_text_contents() == [
        "ana", "ben", "eve", "di", "cy"]
    assert await every.locator("td.name small bdi").all_text_contents() == [T1]
    # the chart: a line per rated member, its axes, its zero line and round values
    chart = page.locator("#chart svg")
    assert await chart.locator("polyline").count() == 4
    assert await chart.locator("line.axis").count() == 2
    assert await chart.locator("line.zero").count() == 1
    assert "0" in await chart.locator("text").all_text_contents()
    assert await page.locator("#ratings tr").count() == 5
    await readable(page, 390)
    # two games: a button each, the other game's figures a tap away
    await page.get_by_role("button", name="Nepali Marriage").click()
    await page.wait_for_function(
        "() => document.getElementById('standings-title').textContent.includes('Marriage')")
    assert await page.locator("#chart svg polyline").count() == 3
    # a member's page, from their name: its figures, its chart, head-to-head
    await page.locator("#standings a.who", has_text="ana").first.click()
    await page.wait_for_selector("#member-games .chart svg polyline")
    assert "#member=" in page.url
    assert await page.locator("#member-name bdi").text_content() == "ana"
    assert await page.locator("#member-games section h3").all_text_contents() == [
        "Points", "Nepali Marriage"]
    opponents = page.locator("#member-games section").first.locator("table").last
    assert sorted(await opponents.locator("td.name bdi").all_text_contents()) == [
        "ben", "cy", "di"]
    assert not await page.locator("#club").is_visible()
    await readable(page, 390)
    # and back
    await page.locator("#back").click()
    await page.wait_for_selector("#club", state="visible")
    # the narrowest phone: the same, at 320 pixels
    await page.set_viewport_size({"width": 320, "height": 640})
    await page.wait_for_function("() => document.querySelector('#chart svg')"
                                 ".viewBox.baseVal.width <= 320")
    await readable(page, 320)
    await page.locator("#standings a.who", has_text="ben").first.click()
    await page.wait_for_selector("#member-games .chart svg polyline")
    await readable(page, 320)
    assert browser.outside == [] and page.errors == []


async def test_a_tv_shows_the_standings_and_the_chart_large_and_whole(
        club: Club, browser: Pages):
    page = await opened(browser, club.link + "?tv", TV)
    assert await page.locator("#standings table").count() == 1
    sizes = await page.evaluate(
        "[...document.querySelectorAll('#standings td, #standings th, #chart text,"
        " #chart figcaption, #chart .legend, h1, h2')]"
        ".filter(e => e.getBoundingClientRect().width > 0)"
        ".map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 32
    chart = await page.locator("#chart svg").bounding_box()
    assert chart is not None and chart["height"] > 500 and chart["width"] > 600
    assert not await page.locator("#ratings").is_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert await page.evaluate("document.documentElement.scrollHeight") <= 1080
    assert await page.evaluate(SPLIT) == []
    assert browser.outside == [] and page.errors == []


async def test_a_game_that_ends_at_another_table_shows_without_a_reload(
        club: Club, browser: Pages):
    page = await opened(browser, club.link)
    loaded = await page.evaluate("performance.timeOrigin")
    assert await page.locator("#summary").text_content() == "2 tables · 4 members · 4 games"
    await club.tables.game(T2, "/newgame points players:@cy @di", "/round cy=8 di=2")
    await page.wait_for_function(
        "() => document.getElementById('summary').textContent.endsWith('5 games')",
        timeout=5000)
    cy = page.locator("#standings table").last.locator("tr", has_text="cy")
    assert (await cy.locator("td.num").first.text_content()) == "3"
    assert await page.evaluate("performance.timeOrigin") == loaded
    assert browser.outside == [] and page.errors == []


async def test_a_link_turned_off_empties_the_open_page(club: Club, browser: Pages):
    page = await opened(browser, club.link)
    await club.tables.ok(T1, "/club page off")
    await page.wait_for_function("() => !document.getElementById('standings')",
                                 timeout=5000)
    assert "opens nothing" in await page.content()
    assert "ana" not in await page.content()
