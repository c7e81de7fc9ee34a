"""The pages held in a hand at a table, in a real Chromium at 320x640, 390x844 and a TV's
1920x1080 (and 1280x720): the scorepad of every game with thumb-sized targets (44 x 44 CSS
px), the numeric keypad for whole numbers, the game's words (no option identifier, no
tooltip a phone never shows), no word split in two, a refusal beside the row it is about,
Undo asked first, and the Send bar never over the standings; the scoreboard of ten players
with a history whose numbers stay whole and whose hand numbers stay in view, in hand order
with each winner marked; a finished game said finished; the "More" view as tables with no
command in it; the TV filled; and names written right to left kept apart from what stands
beside them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.core.command import Actor, Command
from bot.telegram_adapter.places import chat_key
from tests.conftest import Table
from tests.telegram_helpers import ALICE, GROUP
from tests.web.chromium.test_pad_in_chromium import open_pad, send
from tests.web.conftest import Web, console_table
from tests.web.test_pad import pad_token
from tests.web.test_scoreboard import scoreboard_link

# How a page is laid out owes nothing to the database under it (the pages' flows are tested
# on both in the other modules here): SQLite alone
pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)

PHONES = [{"width": 320, "height": 640}, {"width": 390, "height": 844}]
TVS = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]
# every game's pad, each in a group of its own: (group, /newgame, the tabs it has)
GAMES = [
    (-2001, "/newgame marriage players:@alice Gyanendra Chandrakala Dipendra", ["Hand"]),
    (-2002, "/newgame marriage_rummy players:@alice Gyanendra Chandrakala Dipendra", ["Hand"]),
    (-2003, "/newgame riichi players:@alice Gyanendra Chandrakala Dipendra",
     ["Ron", "Tsumo", "Riichi", "Draw", "Chombo"]),
    (-2004, "/newgame callbreak players:@alice Gyanendra Chandrakala Dipendra",
     ["Round", "Bid", "Tricks"]),
    (-2005, "/newgame points players:@alice Gyanendra Chandrakala", ["Round"]),
    (-2006, "/newgame points teams:@alice+Gyanendra Chandrakala+Dipendra", ["Round"]),
    (-2007, "/newgame dhumbal players:@alice Gyanendra Chandrakala", ["Round"]),
    (-2008, "/newgame tranca teams:@alice+Gyanendra Chandrakala+Dipendra", ["Round"]),
]

# a result of each, typed in its group
RESULTS = {
    -2001: "/hand winner:alice seen:Gyanendra maal:alice=10 Gyanendra=2 Chandrakala=0 "
           "Dipendra=0",
    -2002: "/hand winner:alice points:Gyanendra=25 Chandrakala=7 Dipendra=3",
    -2003: "/ron winner:Gyanendra from:Chandrakala han:3 fu:30",
    -2004: "/round bids:alice=3 Gyanendra=4 Chandrakala=2 Dipendra=3 tricks:alice=4 "
           "Gyanendra=4 Chandrakala=2 Dipendra=3",
    -2005: "/round alice=12 Gyanendra=-3 Chandrakala=0",
    -2006: "/round A=12 B=5",
    -2007: "/round show:alice alice=3 Gyanendra=12 Chandrakala=7",
    -2008: "/round side:A table:365 hand:40 clean:1 dirty:1 twos:0 red3:3 black3:1 morto:yes "
           "out:yes",
}
LATER = {-2008: "/round side:B table:200 hand:65 dirty:1 black3:1 morto:no"}  # both sides
LINK = re.compile(r"/s/[A-Za-z0-9_-]{43}")

SMALL = """() => [...document.querySelectorAll('input, button, summary, [role=tab]')]
    .filter(e => e.offsetParent !== null && e.id !== 'tg-main-button')
    .map(e => [e.getAttribute('aria-label') || e.textContent, e.getBoundingClientRect()])
    .filter(([_, r]) => r.width < 43.5 || r.height < 43.5)
    .map(([n, r]) => `${n} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
# the words of `selector`'s elements that run over two lines: a word split in two
SPLIT = """(selector) => [...document.querySelectorAll(selector)]
    .filter(e => e.offsetParent !== null).flatMap(e => {
      const found = [], walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        for (const m of n.data.matchAll(/\\S+/g)) {
          const r = document.createRange();
          r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
          if (new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1)
            found.push(m[0]);
        }
      }
      return found; })"""
WIDE = "document.documentElement.scrollWidth"


async def check_the_pad(page: Any, size: dict[str, int], what: str = "") -> None:
    await page.set_viewport_size(size)
    assert await page.evaluate(SMALL) == [], (what, size)
    assert await page.evaluate(WIDE) <= size["width"], (what, size)
    assert await page.evaluate(SPLIT, ".grid th, .grid td.name, #forms button") == [], \
        (what, size)
    shown = await page.evaluate("document.body.innerText")
    assert "_" not in shown, shown  # the game's words, never an option's identifier
    assert await page.locator("[title]").count() == 0  # no tooltip: phones never show one
    numbers = await page.evaluate(
        "[...document.querySelectorAll('input.number')].map(i => i.inputMode)")
    assert set(numbers) <= {"numeric"}


async def test_every_games_pad_fits_a_thumb_at_every_phone_size(web: Web, pages: Any):
    assert web.tg is not None
    for chat_id, newgame, tabs in GAMES:
        await web.tg.say(ALICE, newgame, chat_id=chat_id)
        page = await open_pad(web, pages, await pad_token(web, chat_id))
        await page.locator("#tg-main-button").wait_for()
        found = await page.get_by_role("tab").all_text_contents()
        assert found == (tabs if len(tabs) > 1 else []), newgame
        for tab in tabs if len(tabs) > 1 else [None]:
            if tab is not None:
                await page.get_by_role("tab", name=tab).click()
            for fold in await page.locator("#pad details").all():
                await fold.evaluate("d => d.open = true")  # what is folded, open
            for size in PHONES:
                await check_the_pad(page, size, f"{newgame} {tab}")
        assert page.errors == [], newgame
        await page.close()


async def test_every_games_scoreboard_on_a_phone_and_a_tv(web: Web, pages: Any):
    assert web.tg is not None
    phone, screen = await pages.page(PHONES[0]), await pages.page(TVS[0])
    for chat_id, newgame, _tabs in GAMES:
        await web.tg.reply_to(await web.tg.say(ALICE, newgame, chat_id=chat_id))
        for line in [RESULTS[chat_id], *([LATER[chat_id]] if chat_id in LATER else [])]:
            result = await web.tg.reply_to(await web.tg.say(ALICE, line, chat_id=chat_id))
            assert "Error" not in result["text"], result["text"]
        answer = await web.tg.reply_to(await web.tg.say(ALICE, "/scoreboard", chat_id=chat_id))
        found = LINK.search(answer["text"])
        assert found, answer["text"]
        link = web.base + found.group(0)
        await phone.goto(link)
        await phone.wait_for_function("() => document.querySelectorAll('#hands tr').length == 2")
        assert await phone.evaluate(WIDE) <= PHONES[0]["width"], newgame
        assert await phone.evaluate(SPLIT, "#standings td, #hands th, #hands td") == [], newgame
        assert await phone.locator("#hands td.note").count() == 0  # none to say: no column
        await screen.goto(link + "?tv")
        await screen.wait_for_function("() => document.querySelector('#chart polyline')")
        foot = await screen.evaluate(
            "document.querySelector('#last').getBoundingClientRect().bottom")
        assert foot >= 0.85 * TVS[0]["height"], newgame
        sizes = await screen.evaluate(
            "[...document.querySelectorAll('#standings td, #count, #last, #chart svg text')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(sizes) >= 32, newgame
    assert phone.errors == [] and screen.errors == []


async def test_a_refusal_is_shown_beside_the_row_it_is_about(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob carol")
    page = await open_pad(web, pages, await pad_token(web))
    await page.get_by_role("radio", name="winner alice").check()
    await page.get_by_role("checkbox", name="seen bob").check()
    await page.get_by_role("textbox", name="maal carol").fill("4")  # carol has not seen
    await page.locator("#tg-main-button").click()
    problem = page.locator("tr.problem")
    await problem.wait_for()
    assert await problem.text_content() == "carol: Tick seen, or clear the maal."
    # right under carol's row, her seen and her maal marked; the chat's command form is
    # not shown
    assert await problem.evaluate("r => r.previousElementSibling.dataset.player") == "carol"
    for control in (page.get_by_role("checkbox", name="seen carol"),
                    page.get_by_role("textbox", name="maal carol")):
        assert await control.get_attribute("aria-invalid") == "true"
    assert await page.locator("#message").text_content() == ""
    # put right and sent again: recorded, and the mark gone
    await page.get_by_role("checkbox", name="seen carol").check()
    await send(page)
    assert await page.locator(".problem").count() == 0
    assert "Hand 1" in await page.locator("#message").text_content()


async def test_undo_on_the_pad_asks_first(console_web: Web, pages: Any):
    table = console_table(console_web)
    await table.ok("/newgame marriage players:host bob carol")
    await table.ok("/hand winner:host seen:bob maal:host=10 bob=2 carol=0")
    links = await pad_and_board(console_web)
    page = await pages.page(PHONES[0])
    await page.goto(links[0])
    undo = page.get_by_role("button", name="Undo hand 1")
    await undo.click()
    confirm = page.get_by_role("alertdialog")
    await confirm.wait_for()
    assert (await page.locator("#confirm-text").text_content()).startswith(
        "Undo hand 1 (host won")
    await page.get_by_role("button", name="No, keep it").click()
    # shared/rules/marriage.md: maal 10, 2, 0 against 12 in all: 18, -6, -12; bob seen
    # pays 3, carol unseen 10
    assert (await table.board())["totals"] == {"host": 31, "bob": -9, "carol": -22}
    await undo.click()
    await page.locator("#confirm-yes").click()
    await page.wait_for_function(
        "() => !document.body.dataset.busy && document.querySelector('#message').textContent")
    assert (await table.board())["totals"] == {"host": 0, "bob": 0, "carol": 0}
    assert not await page.get_by_role("button", name="Undo hand 1").count()
    # the Send bar never hides the standings' last line
    for size in PHONES:
        await page.set_viewport_size(size)
        await page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
        under = await page.evaluate(
            "(() => { const r = document.createRange(), s = document.querySelector('#standings');"
            " r.selectNodeContents(s); const lines = [...r.getClientRects()];"
            " return [lines[lines.length - 1].bottom,"
            " document.querySelector('#send').getBoundingClientRect().top]; })()")
        assert under[0] <= under[1], (size, under)
    assert page.errors == []


async def pad_and_board(web: Web) -> tuple[str, str]:
    from bot.console import page_links

    links = await page_links(web.server.service, "console", "host")
    assert links is not None
    return links


TEN = ["Gyanendra", "Bikash", "Chandrakala", "Dipendra", "Esha", "Farah", "Gita", "Hari",
       "Indra", "Jaya"]


async def test_ten_players_on_the_scoreboard_at_every_size(web: Web, pages: Any):
    assert web.tg is not None
    table = Table(web.server.service, chat=chat_key(GROUP), admin="alice")
    await web.tg.reply_to(await web.tg.say(ALICE, f"/newgame points players:{' '.join(TEN)}"))
    for _ in range(7):
        # Gyanendra wins each round by 127; the numbers that split today (+12/7) stay whole
        await table.ok("/round " + " ".join(f"{n}={127 if n == 'Gyanendra' else i - 3}"
                                            for i, n in enumerate(TEN)), by="Gyanendra")
    await table.ok("/edit round:2 Bikash=5", by="Gyanendra")
    link = await scoreboard_link(web)
    page = await pages.page(PHONES[0])
    await page.goto(link)
    await page.wait_for_function("() => document.querySelectorAll('#hands tr').length == 9")
    for size in PHONES:
        await page.set_viewport_size(size)
        assert await page.evaluate(WIDE) <= size["width"], size  # only the history scrolls
        assert await page.evaluate(SPLIT, "#hands th, #hands td, #standings td") == [], size
        # the hand numbers stay in view while the history scrolls sideways
        box = page.locator("#hands-box")
        left = await box.evaluate("b => b.getBoundingClientRect().left")
        await box.evaluate("b => b.scrollLeft = b.scrollWidth")
        kept = await page.evaluate(
            "document.querySelector('#hands tr:last-child > :first-child')"
            ".getBoundingClientRect().left")
        assert abs(kept - left) <= 1, size
        await box.evaluate("b => b.scrollLeft = 0")
    # in hand order, round 2 as it was just before its edit, each winner marked
    numbers = await page.evaluate(
        "[...document.querySelectorAll('#hands tr')].slice(1).map(r => r.cells[0].textContent)")
    assert numbers == ["1", "2", "2", "3", "4", "5", "6", "7"]
    states = await page.evaluate(
        "[...document.querySelectorAll('#hands tr')].slice(1).map(r => r.className)")
    assert states[1] == "edited" and states[2] == ""
    winners = await page.evaluate(
        "[...document.querySelectorAll('#hands tr')].slice(1).map(r =>"
        " [...r.cells].findIndex(c => c.querySelector('.mark')))")
    assert winners == [1] * 8  # Gyanendra's column, after the hand's number
    assert await page.locator("#marks").text_content() == "★ won · ✕ foul"
    # no column of notes where none has a note... and one where a hand has
    assert await page.locator("#hands td.note").count() == 8
    assert page.errors == []


async def test_the_tv_fills_the_screen_readable_across_a_room(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob carol")
    for line in ["/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0",
                 "/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0"]:
        await web.tg.say(ALICE, line)
    await web.tg.said("Hand 2")
    link = await scoreboard_link(web)
    page = await pages.page(TVS[0])
    await page.goto(link + "?tv")
    await page.wait_for_function("() => document.querySelectorAll('#chart polyline').length == 3")
    for size in TVS:
        await page.set_viewport_size(size)
        await page.wait_for_function(  # drawn again for this screen
            "(w) => Math.abs(document.querySelector('#chart svg').viewBox.baseVal.width"
            " - document.querySelector('#chart svg').getBoundingClientRect().width) < 2",
            arg=size["width"])
        # the last hand at the foot of the screen, the chart down to it: nothing empty
        foot = await page.evaluate("document.querySelector('#last').getBoundingClientRect().bottom")
        chart = await page.evaluate("document.querySelector('#chart svg').getBoundingClientRect()"
                                    ".height")
        assert foot >= 0.85 * size["height"] and chart >= 0.4 * size["height"], (size, foot)
        assert await page.evaluate(WIDE) <= size["width"]
        sizes = await page.evaluate(
            "[...document.querySelectorAll('#standings td, #standings th, #count, #last,"
            " #chart .legend, #chart svg text')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(sizes) >= 32, (size, sizes)
        said = await page.evaluate("[document.querySelector('#count').textContent,"
                                   " document.querySelector('#last').textContent]")
        assert said[0] == "2 hands" and said[1].startswith("Hand 2 bob won")
        # the axes and the zero line, named
        assert await page.locator("#chart line.axis").count() == 2
        assert await page.locator("#chart line.zero").count() == 1
        assert "0" in await page.locator("#chart svg text").all_text_contents()
    assert page.errors == []


async def test_a_finished_game_says_so_and_more_is_tables_without_commands(web: Web,
                                                                             pages: Any):
    assert web.tg is not None
    table = Table(web.server.service, chat=chat_key(GROUP), admin="alice")
    await web.tg.reply_to(await web.tg.say(ALICE, "/newgame marriage players:@alice bob carol"))
    await table.ok("/rules rate:10 currency:Rs", by="alice")
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0", by="alice")
    link = await scoreboard_link(web)
    page = await pages.page(PHONES[1])
    await page.goto(link)
    await page.wait_for_function("() => document.querySelector('#state').textContent == 'Live'")
    await table.ok("/endgame", by="alice")
    await page.wait_for_function("() => document.querySelector('#state').textContent == 'Finished'")
    await page.locator("#switch").click()
    more = page.locator("#more")
    entries = await page.locator("#finished li strong").all_text_contents()
    assert entries == ["1. Nepali Marriage"]  # numbered once
    assert await page.locator("#finished").evaluate(
        "l => getComputedStyle(l).listStyleType") == "none"
    # the ledger a table: +31, -9, -22 (marriage.md: the maal 18, -6, -12; bob seen pays
    # 3, carol unseen 10) at Rs 10 a point, and who pays whom
    balances = await page.evaluate(
        "[...document.querySelectorAll('#ledger table tr')].slice(1)"
        ".map(r => [...r.cells].map(c => c.textContent))")
    assert balances == [["alice", "+310 Rs"], ["bob", "-90 Rs"], ["carol", "-220 Rs"]]
    text = await more.inner_text()
    assert "carol pays alice 220 Rs" in text and "bob pays alice 90 Rs" in text
    assert not any(word.startswith("/") for word in text.split())  # nothing to type here
    assert page.errors == []


RIGHT_TO_LEFT = ["علي", "שרה"]


async def test_a_name_written_right_to_left_keeps_what_stands_beside_it(web: Web, pages: Any):
    assert web.tg is not None
    table = Table(web.server.service, chat=chat_key(GROUP), admin="alice")
    newgame = f"/newgame points players:@alice {' '.join(RIGHT_TO_LEFT)}"
    await web.tg.reply_to(await web.tg.say(ALICE, newgame))
    await table.ok(f"/round {RIGHT_TO_LEFT[0]}=7 alice=3 {RIGHT_TO_LEFT[1]}=-2", by="alice")
    page = await pages.page(PHONES[1])
    await page.goto(await scoreboard_link(web))
    await page.wait_for_function("() => document.querySelectorAll('#standings tr').length == 4")
    # "1. علي", never "علي .1": the place stands left of the name (a left-to-right page)
    order = await page.evaluate(
        "(() => { const td = document.querySelector('#standings tr:nth-child(2) td.name');"
        " const r = document.createRange(); r.selectNodeContents(td.firstChild);"
        " return [td.textContent, r.getBoundingClientRect().left,"
        " td.querySelector('bdi').getBoundingClientRect().left]; })()")
    assert order[0] == f"1.\u00a0{RIGHT_TO_LEFT[0]}" and order[1] < order[2], order
    # "علي +7", never "7+ علي": the total stands right of the name in the chart's legend
    legend = await page.evaluate(
        "[...document.querySelectorAll('#chart .legend span')].map(s => {"
        " const r = document.createRange(); r.selectNodeContents(s.lastChild);"
        " return [s.textContent, s.querySelector('bdi').getBoundingClientRect().right,"
        " r.getBoundingClientRect().left]; })")
    for text, name_right, total_left in legend:
        assert name_right <= total_left + 1, (text, name_right, total_left)
    assert [t for t, _r, _l in legend if RIGHT_TO_LEFT[0] in t] == [f"{RIGHT_TO_LEFT[0]} +7"]
    # every name on the pages is set apart: the standings, the history, the legend, the pad
    names = await page.evaluate(
        "[...document.querySelectorAll('#standings td.name, #hands tr:first-child th,"
        " #chart .legend span')]"
        ".filter(e => e.textContent.trim() && e.textContent != '#')"
        ".every(e => e.querySelector('bdi'))")
    assert names
    pad = await open_pad(web, pages, await pad_token(web))
    await pad.get_by_role("textbox", name=f"points {RIGHT_TO_LEFT[1]}").wait_for()
    assert await pad.evaluate(
        "[...document.querySelectorAll('.grid td.name')].every(c => c.querySelector('bdi'))")
    assert page.errors == [] and pad.errors == []


async def reader_board(web: Web) -> dict[str, Any]:
    reply = await web.server.service.handle(Command(chat_key(GROUP),
                                                    Actor("test:reader", "reader"), "board"))
    assert reply.board is not None
    return reply.board.totals
