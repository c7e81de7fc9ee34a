"""How the pages read in a real Chromium: long names wrap rather than being cut (a phone at
360 pixels, a TV), nothing scrolls sideways, the TV's type stays large, its chart is drawn
again when the screen or the table changes, the pad's answer keeps its lines, and an empty
list of finished games is said as a sentence."""

from __future__ import annotations

from typing import Any

from tests.telegram_helpers import ALICE
from tests.web.chromium.test_pad_in_chromium import open_pad, send, tap_hand
from tests.web.conftest import Web
from tests.web.test_pad import pad_token
from tests.web.test_scoreboard import scoreboard_link

# names as long as a name may be (bot/core/players.py: 24 characters), with no space to
# break at
LONG = ["Wolfeschlegelsteinhausen", "Featherstonehaugh_Smythe", "Chrysanthemum_Blackwood"]
NEW_LONG = "/newgame marriage players:@alice " + " ".join(LONG[1:])

CUT = """(selector) => [...document.querySelectorAll(selector)]
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent)"""


async def cut(page: Any, selector: str) -> list[str]:
    """The texts of the cells of `selector` that are wider than their box (cut off)."""
    return await page.evaluate(CUT, selector)


async def wide(page: Any) -> int:
    return await page.evaluate("document.documentElement.scrollWidth")


async def test_long_names_wrap_on_a_360_pixel_phone(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, NEW_LONG)
    await web.tg.say(ALICE, f"/hand winner:alice seen:{LONG[1]} "
                            f"maal:alice=10 {LONG[1]}=2 {LONG[2]}=0")
    # the pad
    page = await open_pad(web, pages, await pad_token(web))
    await page.get_by_role("radio", name="winner alice").wait_for()
    await page.set_viewport_size({"width": 360, "height": 740})
    assert await cut(page, ".grid td, .grid th") == []
    assert await wide(page) <= 360
    # the scoreboard
    board = await pages.page({"width": 360, "height": 740})
    await board.goto(await scoreboard_link(web))
    await board.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    assert await cut(board, "#standings td, #standings th, #hands td, #hands th") == []
    assert await wide(board) <= 360
    assert board.errors == []


async def test_the_tv_view_shows_long_names_and_money_whole_without_sideways_scroll(
        web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, NEW_LONG)
    await web.tg.say(ALICE, "/rules rate:1250.75 currency:Rs")
    await web.tg.say(ALICE, f"/hand winner:alice seen:{LONG[1]} "
                            f"maal:alice=10 {LONG[1]}=2 {LONG[2]}=0 dublee:yes")
    await web.tg.said("Hand 1")
    link = await scoreboard_link(web)
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720},
                 {"width": 1024, "height": 768}):
        page = await pages.page(size)
        await page.goto(link + "?tv")
        await page.wait_for_function(
            "() => document.querySelectorAll('#standings tr').length == 4")
        assert await cut(page, "#standings td, #standings th") == [], size
        assert await wide(page) <= size["width"], size
        if size["width"] >= 900:  # side by side: the standings never run under the chart
            assert await page.evaluate(
                "document.querySelector('#standings').getBoundingClientRect().right <="
                " document.querySelector('#chart').getBoundingClientRect().left"), size
        sizes = await page.evaluate(
            "[...document.querySelectorAll('#standings td, #standings th')]"
            ".map(c => parseFloat(getComputedStyle(c).fontSize))")
        assert min(sizes) >= 32, size
        # the totals stay on one line: a number is never broken
        lines = await page.evaluate(
            "[...document.querySelectorAll('#standings td:not(.name)')].map(c => {"
            " const r = document.createRange(); r.selectNodeContents(c);"
            " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; })")
        assert all(n <= 1 for n in lines), (size, lines)
        assert page.errors == []


async def test_the_tv_chart_is_drawn_again_for_a_new_hand_and_a_new_screen(web: Web,
                                                                        pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    await web.tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0")
    await web.tg.said("Hand 1")
    page = await pages.page({"width": 1920, "height": 1080})
    await page.goto(await scoreboard_link(web) + "?tv")
    await page.wait_for_function("() => document.querySelectorAll('#chart polyline').length")
    points = "document.querySelector('#chart polyline').getAttribute('points').split(' ')"
    assert len(await page.evaluate(points)) == 2
    await web.tg.say(ALICE, "/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    await page.wait_for_function(f"() => {points}.length == 3", timeout=5000)
    # drawn for the size it is shown at: its labels as large on a small screen as a big one
    label = ("(() => { const t = document.querySelector('#chart svg text');"
             " return t.getBoundingClientRect().height; })()")
    large = await page.evaluate(label)
    await page.set_viewport_size({"width": 1024, "height": 768})
    await page.wait_for_timeout(300)
    smaller = await page.evaluate(label)
    assert smaller >= large * 0.9, (large, smaller)
    svg = await page.evaluate(
        "(() => { const s = document.querySelector('#chart svg');"
        " return [s.viewBox.baseVal.width, s.getBoundingClientRect().width]; })()")
    assert abs(svg[0] - svg[1]) <= 2, svg
    assert await wide(page) <= 1024
    assert page.errors == []


async def test_the_pads_answer_keeps_its_lines(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    page = await open_pad(web, pages, await pad_token(web))
    await page.get_by_role("radio", name="winner alice").wait_for()
    await tap_hand(page, "alice", ["bob"], {"alice": 10, "bob": 2, "carol": 0}, dublee=True)
    await send(page)
    message = page.locator("#message")
    said = (await message.text_content()).strip()
    assert "\n" in said  # the bot's answer is several lines...
    shown = (await message.inner_text()).strip()

    def lines(text: str) -> list[str]:
        return [" ".join(line.split()) for line in text.splitlines()]

    assert lines(shown) == lines(said)  # ...and the pad shows them as lines


async def test_no_finished_games_is_a_sentence_not_a_list(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    page = await pages.page()
    await page.goto(await scoreboard_link(web))
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    await page.locator("#switch").click()
    assert await page.locator("#finished li").count() == 0
    sentence = page.get_by_text("No finished games yet.")
    assert await sentence.is_visible()
    assert await sentence.evaluate("e => e.tagName") == "P"
