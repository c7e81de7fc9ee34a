"""The scoreboard in a real Chromium: a game played in the chat while the page is open, its
totals the same as /board after each hand, shown without a reload (within 2 seconds:
bench/pages_bench.py measures it; here a generous deadline waits for it, on a loaded
machine too); the
phone view at 360 pixels with no sideways scroll; the TV view's type at least 32 pixels; a
link turned off."""

from __future__ import annotations

from typing import Any

from bot.core.command import Actor, Command
from bot.telegram_adapter.places import chat_key
from bot.web.server import WebServer
from tests.telegram_helpers import ALICE, GROUP
from tests.web.conftest import PUBLIC, Web
from tests.web.test_scoreboard import scoreboard_link

HANDS = [
    # shared/rules/marriage.md's worked example, then bob wins with everyone seen and no
    # maal (3 from each), then carol wins with alice seen and bob unseen
    ("/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0 dublee:yes",
     {"alice": "+41", "bob": "-14", "carol": "-27"}),
    ("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0",
     {"alice": "+38", "bob": "-8", "carol": "-30"}),
    ("/hand winner:carol seen:alice maal:alice=5 carol=3",
     {"alice": "+42", "bob": "-26", "carol": "-16"}),
]


async def shown(page: Any) -> dict[str, str]:
    """The standings as the page shows them: name -> total."""
    return await page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#standings tr')].slice(1)"
        ".map(r => [r.cells[0].textContent.replace(/^\\d+\\.\\s/, ''),"
        " r.cells[1].textContent]))")


async def board(web: Web) -> dict[str, Any]:
    reply = await web.server.service.handle(Command(chat_key(GROUP),
                                                    Actor("test:reader", "reader"), "board"))
    assert reply.board is not None
    return reply.board.totals


async def test_the_page_follows_a_game_played_in_the_chat(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    link = await scoreboard_link(web)
    page = await pages.page({"width": 360, "height": 740})
    await page.goto(link)
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    loaded = await page.evaluate("performance.timeOrigin")
    for line, expected in HANDS:
        await web.tg.say(ALICE, line)
        await page.wait_for_function(
            "(want) => { const rows = [...document.querySelectorAll('#standings tr')]"
            ".slice(1).map(r => r.cells[0].textContent.replace(/^\\d+\\.\\s/, '')"
            " + r.cells[1].textContent).sort();"
            " return JSON.stringify(rows) == JSON.stringify(want); }",
            arg=sorted(name + total for name, total in expected.items()), timeout=30000)
        assert {name: int(total) for name, total in (await shown(page)).items()} \
            == await board(web)
    assert await page.evaluate("performance.timeOrigin") == loaded  # never reloaded
    # the chart is drawn on the page: a line per player, from 0 through every hand
    lines = await page.locator("#chart svg polyline").count()
    assert lines == 3
    points = await page.locator("#chart svg polyline").first.get_attribute("points")
    assert len(points.split()) == 4
    # a phone: nothing wider than the screen
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360
    assert pages.outside == [] and page.errors == []


async def test_the_tv_view_is_large_and_shows_the_standings_and_the_chart(web: Web,
                                                                         pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    await web.tg.say(ALICE, HANDS[0][0])
    link = await scoreboard_link(web)
    page = await pages.page({"width": 1920, "height": 1080})
    await page.goto(link + "?tv")
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    sizes = await page.evaluate(
        "[...document.querySelectorAll('#standings td, #standings th')]"
        ".map(c => parseFloat(getComputedStyle(c).fontSize))")
    assert min(sizes) >= 32
    assert await page.locator("#chart svg").is_visible()
    assert not await page.locator("#hands").is_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= 1920


async def restarted(web: Web) -> WebServer:
    """The bot's web server started again on the address of the stopped `web.server`."""
    assert web.tg is not None
    again = WebServer(web.tg.service, base_url=PUBLIC, secret=web.tg.service.secret,
                      port=web.server.port, faces={"telegram": web.tg.adapter},
                      telegram_token=web.tg.fake.token)
    await again.start()
    return again

async def test_a_link_turned_off_empties_the_open_page(web: Web, pages: Any):
    assert web.tg is not None
    web.tg.fake.admins[GROUP] = [ALICE["id"]]
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    link = await scoreboard_link(web)
    page = await pages.page()
    await page.goto(link)
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    await web.tg.say(ALICE, "/scoreboard off")
    await page.wait_for_function("() => !document.querySelector('#standings')",
                                 timeout=30000)
    assert "alice" not in await page.content()


async def test_the_page_picks_up_again_after_the_bot_restarts(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    link = await scoreboard_link(web)
    page = await pages.page()
    await page.goto(link)
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    await web.server.stop()  # the bot goes away...
    await page.wait_for_function("() => document.querySelector('#state.offline')")
    again = await restarted(web)  # ...and comes back on the same address
    try:
        await web.tg.say(ALICE, HANDS[0][0])
        await page.wait_for_function(
            "() => [...document.querySelectorAll('#standings td.total')]"
            ".some(c => c.textContent == '+41')", timeout=10000)
        assert not await page.locator("#state.offline").count()
    finally:
        await again.stop()


async def test_a_link_turned_off_while_the_page_was_away_empties_it_when_it_is_back(
        web: Web, pages: Any):
    """The page missed the feed's "gone" (its connection was down when the link was turned
    off): reconnecting, it finds the link opens nothing and stops showing the table, rather
    than trying again for ever with the last scores on screen."""
    assert web.tg is not None
    web.tg.fake.admins[GROUP] = [ALICE["id"]]
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    link = await scoreboard_link(web)
    page = await pages.page()
    await page.goto(link)
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")

    async def away(route: Any) -> None:
        await route.abort()

    await page.route("**/events", away)  # the page can't reach its feed...
    await web.server.stop()
    await page.wait_for_function("() => document.querySelector('#state.offline')")
    again = await restarted(web)
    try:
        update = await web.tg.say(ALICE, "/scoreboard off")  # ...while the link goes
        assert "off" in (await web.tg.reply_to(update))["text"]
        await page.unroute("**/events", away)
        await page.wait_for_function("() => !document.querySelector('#standings')",
                                     timeout=10000)
        assert "alice" not in await page.content()
    finally:
        await again.stop()
