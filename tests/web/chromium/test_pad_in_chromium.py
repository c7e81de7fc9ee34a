"""The scorepad in a real Chromium at phone size (390x844), opened as Telegram opens a Mini
App (its init data signed with the test bot's token, Telegram's script played by
tests/web/telegram_stub.js): a Marriage evening and a result of every other game entered by
taps, the group's board the same as the pad's, exactly once, and forged, stale or another
table's init data refused on the pad itself."""

from __future__ import annotations

import html
import re
import time
from typing import Any

from bot.core.command import Actor, Command
from bot.telegram_adapter.places import chat_key
from bot.web import initdata
from tests.telegram_helpers import ALICE, GROUP
from tests.web.conftest import Web
from tests.web.test_pad import pad_token
from tests.web.webapp import init_data, launch_hash, webapp_user

AS_ALICE = webapp_user(ALICE["id"], "Alice", "alice")
THEME = {"bg_color": "#17212b", "text_color": "#f5f5f5", "button_color": "#5288c1",
         "button_text_color": "#ffffff", "hint_color": "#708499",
         "secondary_bg_color": "#232e3c"}


async def open_pad(web: Web, pages: Any, token: str, user: dict = AS_ALICE,
                   **signed: Any) -> Any:
    page = await pages.page()
    raw = init_data(user, "123456:TEST-TOKEN", token, **signed)
    await page.goto(f"{web.base}/pad{launch_hash(raw, THEME)}")
    return page


async def totals(web: Web, chat_id: int = GROUP) -> dict[str, Any]:
    reply = await web.server.service.handle(Command(chat_key(chat_id),
                                                    Actor("test:reader", "reader"), "board"))
    assert reply.board is not None
    return reply.board.totals


async def send(page: Any) -> None:
    """Tap Telegram's main button and wait for the pad to say how it went."""
    await page.evaluate("document.querySelector('#message').textContent = ''")
    await page.locator("#tg-main-button").click()
    await page.wait_for_function(  # what it said: below the form, or beside what it is about
        "() => !document.body.dataset.busy && (document.querySelector('#message').textContent"
        " || document.querySelector('.problem'))")


async def group_board_is_the_pads(web: Web, page: Any, chat_id: int = GROUP) -> None:
    """The group's live board shows the table the pad shows."""
    assert web.tg is not None
    shown = (await page.locator("#standings").text_content()).strip()
    assert shown

    def board_text() -> str | None:
        pinned = web.tg.fake.pinned.get(chat_id)
        if pinned is None:
            return None
        text = web.tg.fake.messages[(chat_id, pinned)]["text"]
        found = re.search(r"<pre>(.*?)</pre>", text, re.S)
        table = html.unescape(found.group(1)).strip() if found else ""
        return table if table == shown else None

    await web.tg.fake.wait_until(board_text)


async def tap_hand(page: Any, winner: str, seen: list[str], maal: dict[str, int],
                   dublee: bool = False) -> None:
    await page.get_by_role("radio", name=f"winner {winner}").check()
    for name in seen:
        await page.get_by_role("checkbox", name=f"seen {name}").check()
    for name, value in maal.items():
        await page.get_by_role("textbox", name=f"maal {name}").fill(str(value))
    if dublee:
        await page.get_by_role("checkbox", name="dublee", exact=True).check()


async def test_a_marriage_evening_by_taps(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    token = await pad_token(web)
    page = await open_pad(web, pages, token)
    await page.get_by_role("radio", name="winner alice").wait_for()
    # Telegram's theme is the page's
    background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(23, 33, 43)"
    # shared/rules/marriage.md's worked example: +41, -14, -27
    await tap_hand(page, "alice", ["bob"], {"alice": 10, "bob": 2, "carol": 0}, dublee=True)
    await send(page)
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    await group_board_is_the_pads(web, page)
    # bob wins, both others seen, no maal: each pays him 3
    await tap_hand(page, "bob", ["alice", "carol"], {"alice": 0, "bob": 0, "carol": 0})
    await send(page)
    assert await totals(web) == {"alice": 38, "bob": -8, "carol": -30}
    await group_board_is_the_pads(web, page)
    # carol wins, alice seen, bob unseen (an unseen player's maal is murdered, so he gives
    # none): P = 5 + 3 = 8, n = 3; alice 15 - 8 - 3 = 4, bob 0 - 8 - 10 = -18,
    # carol 9 - 8 + 13 = 14
    await tap_hand(page, "carol", ["alice"], {"alice": 5, "carol": 3})
    await send(page)
    assert await totals(web) == {"alice": 42, "bob": -26, "carol": -16}
    await group_board_is_the_pads(web, page)
    assert "Nepali Marriage: 3 hands" in await page.locator("#status").text_content()
    # nothing but our own server and Telegram's (stubbed) script was asked for
    assert pages.outside == [] and page.errors == []
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await page.set_viewport_size({"width": 360, "height": 740})  # the narrowest phone
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360
    names = await page.evaluate(
        "[...document.querySelectorAll('input')].filter(i => !i.labels.length"
        " && !i.getAttribute('aria-label')).length")
    assert names == 0  # every control has a name a screen reader says


async def test_a_refusal_shows_on_the_pad_and_a_dropped_answer_is_recorded_once(web: Web,
                                                                               pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    page = await open_pad(web, pages, await pad_token(web))
    await page.get_by_role("radio", name="winner alice").wait_for()
    # a hand with nobody who won, which the bot refuses: said by the winner's column
    await page.get_by_role("checkbox", name="seen bob").check()
    await send(page)
    problem = page.locator(".problem")
    assert await problem.text_content() == "Tick who won."
    assert await page.get_by_role("radio", name="winner alice").get_attribute(
        "aria-invalid") == "true"
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}
    message = page.locator("#message")
    # the first answer is lost on the way back (recorded all the same): Send again is the
    # same entry, recorded once
    dropped = []

    async def drop_first(route: Any) -> None:
        if not dropped:
            dropped.append(await route.fetch())
            await route.abort()
        else:
            await route.continue_()

    await page.route("**/pad/api/send", drop_first)
    await tap_hand(page, "alice", ["bob"], {"alice": 10, "bob": 2, "carol": 0}, dublee=True)
    await send(page)
    assert "Tap Send again" in await message.text_content()
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    await send(page)
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    assert len([p for p in web.tg.fake.sent("sendMessage", GROUP)
                if p.get("text", "").startswith("Hand 1")]) == 1


async def test_forged_stale_and_another_tables_pads_record_nothing(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    token = await pad_token(web)
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol", chat_id=-1007777)
    other = await pad_token(web, -1007777)
    # forged: the name changed after Telegram signed it
    page = await pages.page()
    raw = init_data(AS_ALICE, "123456:TEST-TOKEN", token).replace("Alice", "Mallory")
    await page.goto(f"{web.base}/pad{launch_hash(raw)}")
    await page.wait_for_function("() => document.querySelector('#title').textContent.length > 3")
    assert "Telegram" in await page.locator("#title").text_content()
    assert not await page.locator("#tg-main-button").is_visible()
    # stale: signed more than initdata.MAX_AGE ago
    page = await open_pad(web, pages, token,
                          auth_date=int(time.time()) - initdata.MAX_AGE - 60)
    await page.wait_for_function("() => document.querySelector('#title').textContent.length > 3")
    assert "too long ago" in await page.locator("#title").text_content()
    # another table's: the pad of the other group, sending for this one
    page = await open_pad(web, pages, other)
    await page.get_by_role("radio", name="winner alice").wait_for()
    await page.evaluate(f"table = {token!r}")
    await tap_hand(page, "alice", ["bob"], {"alice": 10, "bob": 2, "carol": 0})
    await send(page)
    assert "another table" in await page.locator("#message").text_content()
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}
    assert await totals(web, -1007777) == {"alice": 0, "bob": 0, "carol": 0}


async def one_result(web: Web, pages: Any, chat_id: int, newgame: str,
                     taps: list[tuple[str, str, str]], tab: str | None = None) -> Any:
    """A new game in its own group, then one result entered by taps: (role, name, value)
    with value "check" for a radio or checkbox; ("open", words, "") opens a fold."""
    assert web.tg is not None
    await web.tg.say(ALICE, newgame, chat_id=chat_id)
    page = await open_pad(web, pages, await pad_token(web, chat_id))
    await page.locator("#tg-main-button").wait_for()
    if tab is not None:
        await page.get_by_role("tab", name=tab).click()
    for role, name, value in taps:
        if role == "open":  # a fold of the rows: foul, dublee route ...
            await page.locator("summary", has_text=name).click()
            continue
        control = page.get_by_role(role, name=name, exact=True)
        if value == "check":
            await control.check()
        else:
            await control.fill(value)
    await send(page)
    assert page.errors == []
    return page


async def hand_points(web: Web, chat_id: int) -> dict[str, Any]:
    reply = await web.server.service.handle(Command(chat_key(chat_id),
                                                    Actor("test:reader", "reader"), "board"))
    assert reply.board is not None
    return reply.board.hands[-1]["points"] if reply.board.hands else {}


async def test_a_result_of_every_other_game_by_taps(web: Web, pages: Any):
    # marriage rummy (seed 001): no honours, PART_A 0; bikash had no turn: 25 / 2 in hand,
    # x2 = -25; chetan 7 -> -14; asha, who showed, receives 39
    await one_result(web, pages, -1001, "/newgame marriage_rummy players:asha bikash chetan",
                     [("radio", "winner asha", "check"),
                      ("textbox", "points bikash", "25"), ("textbox", "points chetan", "7"),
                      ("open", "no turn", ""), ("checkbox", "no turn bikash", "check")])
    assert await hand_points(web, -1001) == {"asha": 39, "bikash": -25, "chetan": -14}
    # riichi (shared/rules/riichi.md): a non-dealer's ron of 3 han 30 fu is 3,900
    await one_result(web, pages, -1002, "/newgame riichi players:asha bikash chetan dev",
                     [("checkbox", "winner bikash", "check"), ("radio", "from chetan", "check"),
                      ("textbox", "han", "3"), ("textbox", "fu", "30")])
    points = await hand_points(web, -1002)
    assert points["bikash"] == 3900 and points["chetan"] == -3900
    # riichi's tsumo on its own tab: a non-dealer's 1 han 30 fu tsumo is 300 from each
    # other non-dealer and 500 from the dealer: 1,100
    page = await one_result(web, pages, -1003, "/newgame riichi players:asha bikash chetan dev",
                            [("checkbox", "winner bikash", "check"), ("textbox", "han", "1"),
                             ("textbox", "fu", "30")], tab="Tsumo")
    assert await hand_points(web, -1003) == {"asha": -500, "bikash": 1100, "chetan": -300,
                                             "dev": -300}
    assert page.errors == []
    # call break: a made call scores the bid, each trick over it 0.1 (alice: 3 bid, 4 taken)
    await one_result(web, pages, -1004, "/newgame callbreak players:alice bob carol dave",
                     [*(("textbox", f"bids {n}", b) for n, b in
                        [("alice", "3"), ("bob", "4"), ("carol", "2"), ("dave", "3")]),
                      *(("textbox", f"tricks {n}", t) for n, t in
                        [("alice", "4"), ("bob", "4"), ("carol", "2"), ("dave", "3")])])
    assert await hand_points(web, -1004) == {"alice": 3.1, "bob": 4, "carol": 2, "dave": 3}
    # a game of points gets its pad from its declarations: each player's points as typed
    await one_result(web, pages, -1006, "/newgame points players:asha bikash chetan",
                     [("textbox", "points asha", "12"), ("textbox", "points bikash", "-3"),
                      ("textbox", "points chetan", "0")])
    assert await hand_points(web, -1006) == {"asha": 12, "bikash": -3, "chetan": 0}
    # dhumbal (docs/rules/dhumbal.md, example 2): asha shows with 3, bikash counter-shows
    # with 3: the show is caught, asha 3 + 25 = 28, bikash 3, chetan 7
    await one_result(web, pages, -1007, "/newgame dhumbal players:asha bikash chetan",
                     [("radio", "show asha", "check"), ("textbox", "points asha", "3"),
                      ("textbox", "points bikash", "3"), ("textbox", "points chetan", "7")])
    assert await hand_points(web, -1007) == {"asha": 28, "bikash": 3, "chetan": 7}
    # tranca by counts: 365 - 40 + 2 dirty (200) + 3 red 3s (300) - 1 black 3 (100)
    # + going out (100) = 825 for side A; the round waits for side B
    page = await one_result(
        web, pages, -1005, "/newgame tranca teams:alice+carol bob+dave",
        [("textbox", "side", "A"), ("textbox", "table", "365"), ("textbox", "hand", "40"),
         ("textbox", "dirty", "2"), ("textbox", "red3", "3"),
         ("textbox", "black3", "1"), ("checkbox", "morto", "check"),
         ("checkbox", "out", "check")])
    assert "+825" in await page.locator("#message").text_content()


async def test_a_pad_opened_while_the_bot_is_away_loads_once_it_answers(web: Web, pages: Any):
    """The first look at the table fails (the bot restarting): the pad tries again by
    itself and shows the table, with no reload."""
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol")
    token = await pad_token(web)
    page = await pages.page()
    refused: list[str] = []

    async def away_twice(route: Any) -> None:
        if len(refused) < 2:
            refused.append(route.request.url)
            await route.abort()
        else:
            await route.continue_()

    await page.route("**/pad/api/state", away_twice)
    raw = init_data(AS_ALICE, "123456:TEST-TOKEN", token)
    await page.goto(f"{web.base}/pad{launch_hash(raw, THEME)}")
    await page.get_by_role("radio", name="winner alice").wait_for(timeout=15000)
    assert len(refused) == 2
    assert await page.locator("#message").text_content() == ""


async def test_a_round_of_sides_is_tapped_in_by_side(web: Web, pages: Any):
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame points teams:@alice+bob carol+dave")
    page = await open_pad(web, pages, await pad_token(web))
    await page.get_by_role("textbox", name="points A").fill("12")
    await page.get_by_role("textbox", name="points B").fill("5")
    assert await page.locator("#pad td.name").all_text_contents() == [
        "A: alice+bob", "B: carol+dave"]
    assert await page.locator("#pad th.name").text_content() == "Side"
    await send(page)
    assert await totals(web) == {"A": 12, "B": 5}
