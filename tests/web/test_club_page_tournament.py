"""A tournament on the club's page (both databases): its standings as /tournament ranks
them (place, name, total and each round's score, from the rules), its round's tables with
their seats (Riichi: East first) and which have their result in; and the page's feed tells
of a change to it (a round seated, a penalty) with no game ending.

Riichi, WRC, eight players at two tables: at each, East wins a ron of 3 han 40 fu from
South, 7,700 as the dealer: East 37,700 -> +7.7 + 15 = +22.7; South 22,300 -> -22.7; the
two left on 30,000 share second and third: 0.0 each."""

from __future__ import annotations

import re

from tests.club_helpers import Tables
from tests.web.conftest import Web
from tests.web.test_club_page import T1, T2, club_link, data
from tests.web.test_scoreboard import Feed


def seats_of(block: str) -> list[list[str]]:
    out: list[list[str]] = []
    for line in block.splitlines():
        if line.startswith("Table"):
            out.append([])
        else:
            out[-1].extend(re.findall(r"\b[ESWN] (\S+)", line))
    return out


async def test_the_page_shows_the_tournament_and_its_round(console_web: Web):
    tables = Tables(console_web.server.service)
    await tables.club("Friday", T1, T2)
    await tables.ok(T1, "/tournament new name:Cup game:riichi rounds:2")
    await tables.ok(T1, "/tournament add " + " ".join(f"@p{i}" for i in range(1, 9)))
    began = await tables.ok(T1, "/tournament start seed:4")
    laid = seats_of(began.table or "")
    link = await club_link(tables)
    shown = (await data(console_web, link))["tournaments"]
    [cup] = shown
    assert cup["name"] == "Cup"
    assert cup["summary"] == "Riichi mahjong (WRC) · 2 rounds, none played yet"
    assert cup["round"]["label"] == "Round 1 of 2"
    assert [t["seats"] for t in cup["round"]["tables"]] == [
        [f"{w} {p}" for w, p in zip("ESWN", seats, strict=True)] for seats in laid]
    assert [t["done"] for t in cup["round"]["tables"]] == [False, False]
    for chat, seats in zip((T1, T2), laid, strict=True):
        await tables.ok(chat, f"/ron winner:{seats[0]} from:{seats[1]} han:3 fu:40")
        await tables.ok(chat, "/endgame sure")
    cup = (await data(console_web, link))["tournaments"][0]
    assert cup["summary"] == "Riichi mahjong (WRC) · standings after round 1 of 2"
    assert cup["standings"]["headings"] == ["#", "player", "total", "R1"]
    rows = {r["name"]: r["cells"] for r in cup["standings"]["rows"]}
    for seats in laid:
        assert rows[seats[0]] == ["+22.7", "+22.7"] and rows[seats[1]] == ["-22.7", "-22.7"]
        assert rows[seats[2]] == rows[seats[3]] == ["0.0", "0.0"]
    assert [r["place"] for r in cup["standings"]["rows"]] == ["1", "1", "3", "3", "3", "3",
                                                             "7", "7"]
    # round 2 is seated (not begun): the page shows it; a penalty, with no game, is live
    assert cup["round"]["label"] == "Round 2 of 2 · seated, not begun"
    async with console_web.http.get(link + "/events") as response:
        feed = Feed(response)
        await feed.next(timeout=5)
        await tables.ok(T2, f"/tournament penalty @{laid[0][0]} -2 reason:late")
        event, _, body = await feed.next(timeout=5)
        assert event == "club" and '"+20.7"' in body
