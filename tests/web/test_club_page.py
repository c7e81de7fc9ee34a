"""The club's page against its server, on both databases: `/club page` gives the link; the
page's data is the club's figures for the games written out here (standings from the rules,
ratings equal to openskill's on the same games, the chart's points each game's rating, the
records as /records says them, a member's places and head-to-head); a table that joins with
games played before counts them on the page; the club's language; a link made up, replaced,
turned off or of another kind opens nothing (404, the same sentence); the feed tells of a
game ending at another table of the club, and that a link was turned off."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests.club_helpers import Tables
from tests.web.conftest import Web
from tests.web.test_scoreboard import Feed

LINK = re.compile(r"http://127\.0\.0\.1:\d+/c/[A-Za-z0-9_-]{43}")
T1, T2, T3 = "console:t1", "console:t2", "console:t3"

# The games, in the order they end: (table, /newgame, rounds)
GAMES = [
    (T1, "/newgame points players:@ana @ben @cy", ["/round ana=10 ben=5 cy=0"]),
    (T2, "/newgame points players:@ben @cy @di", ["/round ben=7 cy=3 di=1"]),
    # eve is a guest of t1 (typed by name): in the league table, never rated
    (T1, "/newgame points players:@ana eve @di", ["/round ana=2 eve=9 di=4"]),
    # shared/rules/marriage.md's worked example: +41, -14, -27
    (T1, "/newgame marriage players:@ana @ben @cy",
     ["/hand winner:ana seen:ben maal:ana=10 ben=2 cy=0 dublee:yes"]),
]
# the points game's ranks, each as openskill is given it (None: a guest, a newcomer)
RATED = [([["ana"], ["ben"], ["cy"]], [1, 2, 3]),
         ([["ben"], ["cy"], ["di"]], [1, 2, 3]),
         ([["ana"], [None], ["di"]], [3, 1, 2])]
# the points game's league table, from the rules: a game of points ranks by games won,
# then points, then name (name, games, wins, points, a guest's table): ana and ben won one
# each with 12 points, eve one with 9
STANDINGS = [("ana", 2, 1, "12", ""), ("ben", 2, 1, "12", ""), ("eve", 1, 1, "9", "t1"),
             ("di", 2, 0, "5", ""), ("cy", 2, 0, "3", "")]


def openskill_ratings() -> dict[str, Any]:
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for teams, ranks in RATED:
        played = [[ratings.get(w) or model.rating() if w else model.rating() for w in team]
                  for team in teams]
        for team, rated in zip(teams, model.rate(played, ranks=ranks), strict=True):
            for who, new in zip(team, rated, strict=True):
                if who is not None:
                    ratings.setdefault("history:" + who, []).append(new.mu - 3 * new.sigma)
                    ratings[who] = new
    return ratings


async def club_link(tables: Tables, chat: str = T1, line: str = "/club page") -> str:
    reply = await tables.ok(chat, line)
    found = LINK.search(reply.text)
    assert found, reply.text
    return found.group(0)


async def data(web: Web, link: str, member: str | None = None) -> dict[str, Any]:
    async with web.http.get(link + "/data",
                            params={"member": member} if member else None) as response:
        assert response.status == 200, await response.text()
        assert response.headers["Referrer-Policy"] == "no-referrer"
        return await response.json()


def game_of(page: dict[str, Any], key: str) -> dict[str, Any]:
    found = [g for g in page["games"] if g["key"] == key]
    assert found, [g["key"] for g in page["games"]]
    return found[0]


async def played(web: Web) -> Tables:
    tables = Tables(web.server.service)
    await tables.club("Friday", T1, T2)
    for chat, newgame, rounds in GAMES:
        await tables.game(chat, newgame, *rounds)
    return tables


async def test_the_page_is_the_clubs_figures(console_web: Web):
    web = console_web
    tables = await played(web)
    link = await club_link(tables, T2)  # any table of the club may ask for it
    async with web.http.get(link) as page:
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    shown = await data(web, link)
    assert shown["club"]["name"] == "Friday"
    assert shown["club"]["summary"] == "2 tables · 4 members · 4 games"
    assert [t["name"] for t in shown["club"]["tables"]] == [T1, T2]
    assert [g["key"] for g in shown["games"]] == ["points", "marriage"]  # the most played first
    points = game_of(shown, "points")
    board = points["standings"][-1]
    assert board["label"] == "Every game (3 games)"
    assert [(r["name"], r["games"], r["wins"], r["points"], r["where"]) for r in board["rows"]] \
        == [(n, g, w, p, T1 if where else "") for n, g, w, p, where in STANDINGS]
    assert [r["place"] for r in board["rows"]] == ["1", "2", "3", "4", "5"]
    assert board["headings"] == ["#", "player", "games", "wins", "avg place", "points"]
    # ben: games, wins, average place, and the race's points (ranked by wins first)
    assert board["rows"][1]["cells"] == ["2", "1", "1.50", "+" + STANDINGS[1][3]]
    # the ratings: openskill's own, on the same games; eve, a guest, never rated
    wanted = openskill_ratings()
    rows = points["ratings"]["rows"]
    assert {r["name"] for r in rows} == {"ana", "ben", "cy", "di"}
    for row in rows:
        rating = wanted[row["name"]]
        assert row["mu"] == pytest.approx(rating.mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(rating.sigma, abs=1e-9)
        assert row["shown"] == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-9)
        assert row["provisional"] is True and row["cells"][0].endswith("*")
    assert [r["shown"] for r in rows] == sorted((r["shown"] for r in rows), reverse=True)
    # the chart: a line per member, a point per game that moved their rating
    chart = points["chart"]
    assert chart["count"] == 3
    lines = {line["name"]: line["points"] for line in chart["lines"]}
    assert [x for x, _y in lines["ana"]] == [1, 3] and [x for x, _y in lines["cy"]] == [1, 2]
    for name, points_ in lines.items():
        assert [y for _x, y in points_] == pytest.approx(wanted["history:" + name], abs=0.01)
    ticks = [t["value"] for t in chart["ticks"]]
    assert 0 in ticks and ticks == sorted(ticks)
    assert min(ticks) <= min(y for p in lines.values() for _x, y in p)
    assert max(ticks) >= max(y for p in lines.values() for _x, y in p)
    # the records, as /records says them
    said = (await tables.ok(T1, "/records game:marriage")).text
    marriage = game_of(shown, "marriage")
    records = {r["label"]: (r["name"], r["text"]) for r in marriage["records"]}
    assert records["Biggest hand"][0] == "ana" and "+41" in records["Biggest hand"][1]
    assert "Biggest hand: ana, +41" in said
    assert records["Most games"][1] == "1 game"
    # no account's key on the page, nor a guest's (members are named by an opaque id)
    dumped = json.dumps(shown)
    assert not any(f"console:{who}" in dumped for who in ("ana", "ben", "cy", "di", "eve"))
    assert "name:eve" not in dumped

async def test_a_members_page(console_web: Web):
    web = console_web
    tables = await played(web)
    link = await club_link(tables)
    shown = await data(web, link)
    ids = {r["name"]: r["member"] for r in game_of(shown, "points")["standings"][-1]["rows"]}
    ana = (await data(web, link, ids["ana"]))["member"]
    assert ana["name"] == "ana" and not ana["guest"] and ana["summary"] == "3 games"
    assert [g["key"] for g in ana["games"]] == ["points", "marriage"]
    points = ana["games"][0]
    assert [(p["place"], p["count"]) for p in points["places"]] == [("1st", "1"), ("3rd", "1")]
    facts = {f["label"]: f["value"] for f in points["facts"]}
    assert facts == {"games": "2", "wins": "1", "avg place": "2.00"}  # wins: the measure
    rating = openskill_ratings()["ana"]
    assert points["rating"]["mu"] == pytest.approx(rating.mu, abs=1e-9)
    assert "μ" in points["rating"]["said"] and "2 games rated" in points["rating"]["said"]
    assert [line["name"] for line in points["chart"]["lines"]] == ["ana"]
    # head-to-head: game 1 above ben and cy; game 3 below di (eve, a guest, is nobody's)
    met = {r["name"]: (r["games"], r["above"], r["below"], r["level"], r["points"])
           for r in points["opponents"]["rows"]}
    assert met == {"ben": (1, 1, 0, 0, "5"), "cy": (1, 1, 0, 0, "10"),
                   "di": (1, 0, 1, 0, "-2")}
    assert (await tables.ok(T1, "/vs ana di game:points")).text.count("placed higher 0") == 1
    marriage = ana["games"][1]
    assert marriage["best"].startswith("+41")
    # a guest's page: their table's name, no rating
    eve = (await data(web, link, ids["eve"]))["member"]
    assert eve["guest"] and eve["where"] == T1 and eve["games"][0]["rating"] is None
    # an id that is nobody's
    assert (await data(web, link, "0123456789ab"))["member"] is None
    assert (await data(web, link, "../../etc"))["member"] is None


async def test_a_table_that_joins_with_games_played_counts_them_on_the_page(
        console_web: Web):
    """Its games have no summary yet (no club command has looked): the page writes them
    as a command would, and counts them."""
    web = console_web
    tables = await played(web)
    await tables.game(T3, "/newgame points players:@ana @di", "/round ana=1 di=6")
    link = await club_link(tables)
    assert (await data(web, link))["club"]["summary"] == "2 tables · 4 members · 4 games"
    code = re.search(r"code:(\S+)", (await tables.ok(T1, "/club code")).text)
    assert code
    await tables.ok(T3, f"/club join code:{code.group(1)}")
    shown = await data(web, link)
    assert shown["club"]["summary"] == "3 tables · 4 members · 5 games"
    assert game_of(shown, "points")["count"] == "4 games"
    assert [t["name"] for t in shown["club"]["tables"]] == [T1, T2, T3]


async def test_the_open_season_comes_first(console_web: Web):
    web = console_web
    tables = await played(web)
    await tables.ok(T1, "/club season start name:Spring")
    link = await club_link(tables)
    season, every = game_of(await data(web, link), "points")["standings"]
    assert season["label"] == "Season Spring (0 games)" and season["rows"] == []
    assert season["note"] == "No game of it ended in the season yet."
    assert every["label"] == "Every game (3 games)" and len(every["rows"]) == 5
    await tables.game(T2, "/newgame points players:@cy @di", "/round cy=8 di=2")
    season, every = game_of(await data(web, link), "points")["standings"]
    assert [(r["name"], r["games"], r["wins"]) for r in season["rows"]] == [
        ("cy", 1, 1), ("di", 1, 0)]
    assert every["label"] == "Every game (4 games)"


async def test_the_page_speaks_the_clubs_first_tables_language(console_web: Web):
    web = console_web
    tables = await played(web)
    await tables.ok(T1, "/newgame points players:@ana @ben")
    await tables.ok(T1, "/settings language:ne")
    link = await club_link(tables, T2)
    shown = await data(web, link)
    assert shown["language"] == "ne"
    assert any("\u0900" <= c <= "\u097f" for c in shown["words"]["live"])


async def test_a_link_made_up_replaced_or_turned_off_opens_nothing(console_web: Web):
    web = console_web
    tables = await played(web)
    first = await club_link(tables)
    assert await club_link(tables, T2) == first  # asked for again: the same link
    second = await club_link(tables, T1, "/club page new")
    assert second != first
    board = LINK.pattern.replace("/c/", "/s/")
    scoreboard = re.search(board, (await tables.ok(T1, "/scoreboard")).text)
    assert scoreboard
    made_up = web.base + "/c/" + "C" * 43
    bodies = set()
    for gone in (first, made_up, web.base + "/c/short", first + "/data", first + "/events",
                 web.base + "/c/" + scoreboard.group(0).rpartition("/")[2]):
        async with web.http.get(gone) as page:
            assert page.status == 404, gone
            bodies.add(await page.text())
    assert len(bodies) == 1  # an old link says no more than a made-up one
    said = bodies.pop()
    assert "opens nothing" in said and "/club page" in said
    async with web.http.get(second) as page:
        assert page.status == 200
    await tables.ok(T1, "/club page off")
    for gone in (second, second + "/data"):
        async with web.http.get(gone) as page:
            assert page.status == 404


async def test_the_feed_tells_of_a_game_ending_at_another_table(console_web: Web):
    web = console_web
    tables = await played(web)
    link = await club_link(tables)
    async with web.http.get(link + "/events") as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        assert response.headers["Referrer-Policy"] == "no-referrer"
        feed = Feed(response)
        event, first, body = await feed.next(timeout=5)
        assert event == "club"
        assert json.loads(body)["club"]["summary"].endswith("4 games")
        await tables.game(T2, "/newgame points players:@cy @di", "/round cy=8 di=2")
        started = time.monotonic()
        event, second, body = await feed.next(timeout=5)
        assert time.monotonic() - started < 2.5
        assert event == "club" and second != first
        shown = json.loads(body)
        assert shown["club"]["summary"].endswith("5 games")
        rows = game_of(shown, "points")["standings"][-1]["rows"]
        assert {r["name"]: r["games"] for r in rows}["cy"] == 3
        # the same data as the page asks for
        assert shown == await data(web, link)
        await tables.ok(T1, "/club page off")
        assert (await feed.next(timeout=5))[0] == "gone"
    # a page that reconnects with the last id it saw is sent nothing it has
    again = await club_link(tables)
    async with web.http.get(again + "/events") as response:
        event, last, _body = await Feed(response).next(timeout=5)
    async with web.http.get(again + "/events", headers={"Last-Event-ID": last}) as response:
        try:
            event, _, _ = await Feed(response).next(timeout=1.5)
        except TimeoutError:
            event = None
        assert event is None
