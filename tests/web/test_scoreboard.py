"""The scoreboard's server, against the real Telegram adapter and its fake Bot API, on both
databases: /scoreboard gives the table's link, the page shows what /board shows, its feed
tells of every change (within 2 seconds: bench/pages_bench.py measures it; a test waits for
it with a generous deadline, never times it), and a link turned off, replaced, forgotten or
made up opens nothing."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import aiohttp

from bot.core.command import Actor, Command
from bot.telegram_adapter.places import chat_key
from tests.telegram_helpers import ALICE, BOB, GROUP
from tests.web.conftest import PUBLIC, Web

NEW = "/newgame marriage players:@alice bob @carol"
LINK = re.compile(re.escape(PUBLIC) + r"/s/[A-Za-z0-9_-]{43}")


async def board_totals(web: Web) -> dict[str, Any]:
    reply = await web.server.service.handle(Command(chat_key(GROUP),
                                                    Actor("test:reader", "reader"), "board"))
    assert reply.board is not None
    return reply.board.totals


async def scoreboard_link(web: Web, who: dict = BOB, line: str = "/scoreboard") -> str:
    assert web.tg is not None
    update = await web.tg.say(who, line)
    answer = await web.tg.reply_to(update)
    found = LINK.search(answer["text"])
    assert found, answer["text"]
    return web.local(found.group(0))


async def data(web: Web, link: str) -> dict[str, Any]:
    async with web.http.get(link + "/data") as response:
        assert response.status == 200
        return await response.json()


def shown_totals(page: dict[str, Any]) -> dict[str, int]:
    return {c["label"]: c["value"] for c in page["game"]["columns"]}


class Feed:
    """A page's live feed, read as a browser's EventSource reads it."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self, timeout: float = 15.0) -> tuple[str, str, str]:
        """(event, id, data) of the next event within `timeout` seconds."""
        event, ident, lines = "message", "", []
        async with asyncio.timeout(timeout):
            while True:
                raw = (await self.response.content.readline()).decode().rstrip("\r\n")
                if raw == "" and lines:
                    return event, ident, "\n".join(lines)
                if raw.startswith(":") or raw == "":
                    continue
                field, _, value = raw.partition(":")
                value = value.removeprefix(" ")
                if field == "event":
                    event = value
                elif field == "id":
                    ident = value
                elif field == "data":
                    lines.append(value)


async def test_the_link_opens_the_tables_board_and_follows_every_hand(web: Web):
    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)  # anyone at the chat may ask for it
    async with web.http.get(link) as page:
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]
    for hand, expected in [
        ("/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0 dublee:yes",
         {"alice": 41, "bob": -14, "carol": -27}),
        ("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0",
         {"alice": 38, "bob": -8, "carol": -30}),
    ]:
        update = await web.tg.say(ALICE, hand)
        await web.tg.reply_to(update)  # recorded
        page = await data(web, link)
        assert shown_totals(page) == expected == await board_totals(web)
    assert page["game"]["title"] == "Nepali Marriage"
    assert [h["no"] for h in page["game"]["hands"]] == [1, 2]
    assert page["game"]["running"][0] == [0, 41, 38]


async def test_undone_and_edited_hands_stay_on_the_page_marked(web: Web):
    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)
    await web.tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0")
    await web.tg.said("Hand 1")
    await web.tg.say(ALICE, "/undo reason:wrong winner")
    await web.tg.said("Undid hand 1")
    page = await data(web, link)
    assert [(h["no"], h["state"]) for h in page["game"]["hands"]] == [(1, "undone")]
    assert shown_totals(page) == {"alice": 0, "bob": 0, "carol": 0}


async def test_the_feed_tells_of_a_hand_and_a_page_back_is_sent_only_what_it_lacks(web: Web):
    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)
    async with web.http.get(link + "/events") as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        assert response.headers["Referrer-Policy"] == "no-referrer"
        feed = Feed(response)
        event, first, body = await feed.next()
        assert event == "table" and shown_totals(json.loads(body)) == {
            "alice": 0, "bob": 0, "carol": 0}
        await web.tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0 "
                                "dublee:yes")
        event, second, body = await feed.next()
        assert event == "table" and second != first
        assert shown_totals(json.loads(body)) == {"alice": 41, "bob": -14, "carol": -27}
    # a page that reconnects with the last id it saw is sent nothing it has: the first
    # event it gets is the next hand's (bob wins, all seen, no maal: 3 from each loser)
    async with web.http.get(link + "/events", headers={"Last-Event-ID": second}) as response:
        back = Feed(response)
        await web.tg.say(ALICE, "/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
        event, third, body = await back.next()
        assert event == "table" and third not in (first, second)
        assert shown_totals(json.loads(body)) == {"alice": 38, "bob": -8, "carol": -30}


async def test_a_link_turned_off_replaced_or_made_up_opens_nothing(web: Web):
    assert web.tg is not None
    web.tg.fake.admins[GROUP] = [ALICE["id"]]
    await web.tg.say(ALICE, NEW)
    first = await scoreboard_link(web)
    async with web.http.get(first) as page:
        assert page.status == 200
    # not an admin: the link stays
    update = await web.tg.say(BOB, "/scoreboard off")
    assert "admin" in (await web.tg.reply_to(update))["text"]
    async with web.http.get(first) as page:
        assert page.status == 200
    second = await scoreboard_link(web, ALICE, "/scoreboard new")
    assert second != first
    made_up = web.base + "/s/" + "C" * 43
    bodies = set()
    for gone in (first, made_up, web.base + "/s/short", first + "/data", first + "/events"):
        async with web.http.get(gone) as page:
            assert page.status == 404, gone
            bodies.add(await page.text())
    assert len(bodies) == 1  # a replaced link says no more than a made-up one
    async with web.http.get(second + "/events") as response:
        feed = Feed(response)
        assert (await feed.next())[0] == "table"
        update = await web.tg.say(ALICE, "/scoreboard off")
        await web.tg.reply_to(update)
        assert (await feed.next())[0] == "gone"
    async with web.http.get(second) as page:
        assert page.status == 404


async def test_forgetting_the_chat_takes_its_pages(web: Web):
    assert web.tg is not None
    web.tg.fake.admins[GROUP] = [ALICE["id"]]
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)
    ask = await web.tg.reply_to(await web.tg.say(ALICE, "/forget chat"))
    await web.tg.tap(ALICE, web.tg.sent_message(ask), web.tg.buttons(ask)["Yes, forget it all"])
    for _ in range(100):
        async with web.http.get(link) as page:
            if page.status == 404:
                break
        await asyncio.sleep(0.05)
    assert page.status == 404


async def test_the_second_view_lists_finished_games_and_the_ledger(web: Web):
    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    await web.tg.say(ALICE, "/rules rate:10 currency:Rs")
    await web.tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0 "
                            "dublee:yes")
    await web.tg.said("Hand 1")
    ask = await web.tg.reply_to(await web.tg.say(ALICE, "/endgame"))
    yes = next(d for text, d in web.tg.buttons(ask).items() if "Yes" in text)
    await web.tg.tap(ALICE, web.tg.sent_message(ask), yes)
    await web.tg.said("pays")
    link = await scoreboard_link(web)
    page = await data(web, link)
    finished = page["more"]["finished"]
    assert [(f["number"], f["title"]) for f in finished] == [(1, "Nepali Marriage")]
    assert finished[0]["totals"][0] == ["alice", "+41"]
    # the ledger as /ledger says it, a table: 41, 14 and 27 points at Rs 10 a point, and
    # the fewest transfers that settle it
    assert page["more"]["ledger"]["tables"] == [{
        "currency": "Rs", "rows": [["alice", "+410 Rs"], ["bob", "-140 Rs"],
                                   ["carol", "-270 Rs"]],
        "settle": [["carol", "alice", "270 Rs"], ["bob", "alice", "140 Rs"]]}]
    assert page["more"]["season"]["note"] == "No season yet."
    assert not page["game"]["open"]  # the page says finished, not live


async def test_the_history_is_in_hand_order_with_each_winner_and_foul_marked(web: Web):
    from tests.conftest import Table

    table = Table(web.server.service, chat=chat_key(GROUP), admin="alice")
    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)
    for line in ["/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0",
                 "/hand winner:bob seen:alice maal:alice=0 bob=0 foul:carol",
                 "/hand foul:bob",  # a misdeal: a foul and no winner
                 "/hand winner:carol seen:alice maal:alice=5 carol=3"]:
        await table.ok(line, by="alice")
    await table.ok("/edit hand:2 winner:alice", by="alice")
    page = await data(web, link)
    hands = page["game"]["hands"]
    # hand 2 as it was (replaced by the edit) just before what replaced it
    assert [(h["no"], h["state"]) for h in hands] == [(1, ""), (2, "edited"), (2, ""),
                                                      (3, ""), (4, "")]
    # alice bob carol: the winner's column, the fouls', and the misdeal
    assert [h["won"] for h in hands] == [[0], [1], [0], [], [2]]
    assert [h["fouled"] for h in hands] == [[], [2], [2], [1], []]
    assert [h["misdeal"] for h in hands] == [False, False, False, True, False]
    assert page["game"]["last"] == {"no": 4, "title": "Hand 4",
                                    "summary": hands[-1]["summary"]}
    assert hands[-1]["summary"].startswith("carol won")


GAMES = [
    # (game, newgame, one result, the board's totals after it, from the rules)
    ("marriage_rummy", "/newgame marriage_rummy players:asha bikash chetan",
     "/hand winner:asha points:bikash=25 chetan=7 no_turn:bikash",
     {"asha": 39, "bikash": -25, "chetan": -14}),
    ("tranca", "/newgame tranca teams:alice+carol bob+dave",
     "/round side:A table:365 hand:40 dirty:2 red3:3 black3:1 morto:yes out:yes", None),
    ("riichi", "/newgame riichi players:asha bikash chetan dev",
     "/ron winner:bikash from:chetan han:3 fu:30",
     {"asha": 0, "bikash": 3900, "chetan": -3900, "dev": 0}),  # from the start
    ("callbreak", "/newgame callbreak players:alice bob carol dave",
     "/round bids:alice=3 bob=4 carol=2 dave=3 tricks:alice=4 bob=4 carol=2 dave=3",
     {"alice": 3.1, "bob": 4, "carol": 2, "dave": 3}),
]


async def test_every_game_has_its_page(web: Web):
    from tests.conftest import Table

    for n, (game, newgame, result, expected) in enumerate(GAMES):
        table = Table(web.server.service, chat=f"telegram:-5{n}")
        await table.ok(newgame)
        await table.ok(result)
        link = LINK.search((await table.ok("/scoreboard")).text)
        assert link, game
        page = await data(web, web.local(link.group(0)))
        board = (await table.board())["totals"]
        assert shown_totals(page) == board, game
        if expected is not None:
            assert board == expected, game
        columns = page["game"]["columns"]
        if game == "tranca":  # sides, not players: A with alice and carol
            assert [c["label"] for c in columns] == ["A", "B"]
            assert "alice" in columns[0]["legend"] and "carol" in columns[0]["legend"]
        if game == "riichi":  # places by the final result, uma and oka in
            assert {c["label"]: c["place"] for c in columns}["bikash"] == 1
            assert all("result" in c for c in columns)
        assert page["game"]["key"] == game


async def test_the_page_speaks_the_tables_language(web: Web):
    from tests.conftest import Table

    table = Table(web.server.service, chat="telegram:-61")
    await table.ok("/newgame marriage players:asha bikash chetan")
    await table.ok("/settings language:ne")
    link = LINK.search((await table.ok("/scoreboard")).text)
    assert link
    page = await data(web, web.local(link.group(0)))
    assert page["language"] == "ne"
    assert all(any("\u0900" <= c <= "\u097f" for c in page["words"][w])
               for w in ("standings", "hands", "ledger"))


async def test_a_page_on_one_process_sees_a_hand_recorded_on_another(database_url: str):
    """Two bot processes on one database (two stores, two services): the page is served by
    one, the hand is recorded by the other."""
    from bot.core.service import Service
    from bot.storage import open_store
    from bot.web.server import WebServer
    from tests.conftest import Table

    first, second = await open_store(database_url), await open_store(database_url)
    secret = b"shared by both processes"
    try:
        serving, recording = Service(first, secret=secret), Service(second, secret=secret)
        server = WebServer(serving, base_url=PUBLIC, secret=secret, port=0)
        await server.start()
        try:
            there = Table(recording, chat="telegram:-71")
            await there.ok("/newgame marriage players:asha bikash chetan")
            here = Table(serving, chat="telegram:-71")
            link = LINK.search((await here.ok("/scoreboard")).text)
            assert link
            local = link.group(0).replace(PUBLIC, f"http://127.0.0.1:{server.port}")
            async with aiohttp.ClientSession() as http, \
                    http.get(local + "/events") as response:
                feed = Feed(response)
                assert (await feed.next())[0] == "table"
                await there.ok("/hand winner:asha seen:bikash maal:asha=10 bikash=2 "
                               "chetan=0 dublee:yes")
                event, _, body = await feed.next()  # at the next poll: a second at most
                assert event == "table"
                assert shown_totals(json.loads(body)) == {"asha": 41, "bikash": -14,
                                                          "chetan": -27}
        finally:
            await server.stop()
    finally:
        await first.close()
        await second.close()


async def test_a_database_that_fails_is_said_on_the_page_without_a_traceback(web: Web,
                                                                             monkeypatch):
    import sqlite3

    import bot.web.builds as builds
    import bot.web.pad as pad

    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)

    async def damaged(*_args, **_kwargs):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(builds, "read_view", damaged)
    monkeypatch.setattr(pad, "read_view", damaged)
    async with web.http.get(link + "/data") as page:
        assert page.status == 503
        said = await page.text()
    assert "damaged" in said and "Traceback" not in said
    from tests.web.test_pad import AS_ALICE, pad_token, signed

    status, answer = await web.post("/pad/api/state",
                                    {"init_data": signed(AS_ALICE, await pad_token(web))})
    assert status == 503 and "damaged" in answer["error"]


async def test_a_feed_that_cannot_read_its_table_is_a_503_before_it_starts(web: Web):
    """The first read of the table is done before the stream starts: a failing database
    is a clean 503 with the store's sentence, never a stream that breaks off."""
    import sqlite3

    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    link = await scoreboard_link(web)

    async def damaged(*_args, **_kwargs):
        raise sqlite3.DatabaseError("database disk image is malformed")

    web.server.watcher._versions = damaged
    async with asyncio.timeout(5), web.http.get(link + "/events") as response:
        assert response.status == 503
        said = await response.text()
        assert "text/event-stream" not in response.headers.get("Content-Type", "")
    assert "damaged" in said and "Traceback" not in said
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")


async def test_a_link_made_with_another_secret_is_made_again(web: Web):
    """The host changed the bot's secret: the links the table had open nothing that the
    database knows, so /scoreboard and /scorepad make new ones that open their pages."""
    from dataclasses import replace

    from tests.web.test_pad import AS_ALICE, signed

    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    await scoreboard_link(web)
    changed = replace(web.server.web, secret=b"the host's new secret")
    web.server.web = web.server.service.web = changed
    again = await scoreboard_link(web)
    async with web.http.get(again) as page:
        assert page.status == 200
    async with web.http.get(again + "/data") as page:
        assert page.status == 200
    update = await web.tg.say(ALICE, "/scorepad")
    answer = await web.tg.reply_to(update)
    buttons = [b["url"] for row in answer["reply_markup"]["inline_keyboard"] for b in row
               if "url" in b]
    token = buttons[0].split("startapp=")[1].split("&")[0]
    status, state = await web.post("/pad/api/state", {"init_data": signed(AS_ALICE, token)})
    assert status == 200, state
    assert state["open"]


async def test_a_link_that_opens_nothing_says_so_in_the_readers_language(web: Web):
    """Not a bare "404: Not Found": a sentence that tells what to do, the same whether the
    link was turned off, replaced or never made."""
    made_up = web.base + "/s/" + "C" * 43
    async with web.http.get(made_up) as page:
        assert page.status == 404
        said = await page.text()
    assert "opens nothing" in said and "/scoreboard" in said
    async with web.http.get(made_up, headers={"Accept-Language": "pt-BR,pt;q=0.9"}) as page:
        assert page.status == 404
        said = await page.text()
    assert "não abre nada" in said and "/scoreboard" in said
