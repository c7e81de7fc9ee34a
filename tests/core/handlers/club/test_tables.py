"""A club night through the service (both databases): /club tables splits the people into
the game's tables as even as possible, refuses in words who can't sit, keeps apart who met
at the club's tables, gives the same tables for the same seed, and with start:yes begins
each table's game at a chat of the club; /club night's "I'm here" and /club here make the
list that present:yes seats."""

from __future__ import annotations

import re

import pytest

from bot.core.service import Service
from bot.core.width import width
from tests.club_helpers import Tables

SEED = re.compile(r"seed (\d+)")


@pytest.fixture
async def club(service: Service) -> Tables:
    tables = Tables(service)
    await tables.club("Friday", "t1", "t2", "t3", "t4")
    return tables


def seated(table: str) -> list[list[str]]:
    """The tables of a reply's block: each table's names, in seat order."""
    out: list[list[str]] = []
    for line in table.splitlines():
        if line.startswith("Table"):
            out.append([])
        else:
            winds = re.findall(r"\b[ESWN] (\S+)", line)
            out[-1].extend(winds or [n.strip() for n in line.split(",") if n.strip()])
    return out


async def test_fifteen_at_marriage_sit_five_a_table_and_a_seed_repeats(club: Tables):
    people = " ".join(f"@p{i}" for i in range(1, 16))
    reply = await club.ok("t1", f"/club tables game:marriage players:{people}")
    assert reply.text.startswith("Nepali Marriage: 15 at 3 tables (seed ")
    assert reply.table is not None and max(map(width, reply.table.splitlines())) <= 34
    tables = seated(reply.table)
    assert [len(t) for t in tables] == [5, 5, 5]
    assert sorted(n for t in tables for n in t) == sorted(f"p{i}" for i in range(1, 16))
    seed = SEED.search(reply.text)
    assert seed is not None
    again = await club.ok("t2", f"/club tables game:marriage players:{people} "
                                f"seed:{seed.group(1)}")
    assert again.table == reply.table
    assert "start:yes begins" in reply.text
    assert await club.posted() == []  # nothing begun


async def test_who_cant_sit_is_refused_in_words(club: Tables):
    people = " ".join(f"@p{i}" for i in range(1, 14))
    said = await club.error("t1", f"/club tables game:riichi players:{people}")
    assert said == ("13 can't all sit at Riichi mahjong tables of 4: 12 fit at 3 tables (1 "
                    "left over), 4 tables need 16 (3 short). With sanma:yes they sit as 4 + "
                    "3 + 3 + 3.")
    sanma = await club.ok("t1", f"/club tables game:riichi players:{people} sanma:yes")
    assert [len(t) for t in seated(sanma.table or "")] == [4, 3, 3, 3]
    assert "named twice" in await club.error("t1", "/club tables game:riichi "
                                                   "players:@a @b @c @a")
    assert "Name the game" in await club.error("t1", "/club tables players:@a @b")
    assert "Who plays?" in await club.error("t1", "/club tables game:dhumbal")
    five = " ".join(f"@p{i}" for i in range(1, 21))
    refused = await club.error("t1", f"/club tables game:marriage players:{five} tables:5 "
                                     "start:yes")
    assert "5 tables need 5 of the club's chats; it has 4" in refused
    # beginning games at the club's tables is a club admin's; seeing the tables anyone's
    assert "Only the club's owner or one of its admins can begin games" in await club.error(
        "t1", "ana: /club tables game:riichi players:@a @b @c @d start:yes")
    assert (await club.ok("t1", "ana: /club tables game:riichi players:@a @b @c @d")).table


async def test_who_met_sit_apart_and_start_begins_the_games_at_the_chats(club: Tables):
    # four Riichi games: abcd, efgh, ijkl, mnop. Sixteen at four tables can sit with nobody
    # they met (one of each game at each table): every table has one of each
    groups = ["abcd", "efgh", "ijkl", "mnop"]
    for chat, group in zip(("t1", "t2", "t3", "t4"), groups, strict=True):
        seats = " ".join(f"@{c}" for c in group)
        await club.game(chat, f"/newgame riichi players:{seats}",
                        f"/ron winner:{group[0]} from:{group[1]} han:3 fu:40")
    people = " ".join(f"@{c}" for c in "abcdefghijklmnop")
    reply = await club.ok("t1", f"/club tables game:riichi players:{people} start:yes")
    assert "Nobody sits with anyone they met" in reply.text
    tables = seated(reply.table or "")
    for table in tables:
        assert sorted(g for g in range(4) for n in table if n in groups[g]) == [0, 1, 2, 3]
    # each table's game began at a chat of the club, its seats in the order shown (East
    # first)
    posts = dict(await club.posted())
    assert sorted(posts) == ["t1", "t2", "t3", "t4"]
    for chat, table in zip(("t1", "t2", "t3", "t4"), tables, strict=True):
        assert posts[chat].text.startswith("New Riichi mahjong game. Players: "
                                           + ", ".join(table))
    # a table with a game open can't begin another: said under the reply
    again = await club.ok("t2", f"/club tables game:riichi players:{people} start:yes")
    assert "A Riichi mahjong game is already open here" in again.text


async def test_the_night_list_is_who_tapped_and_present_seats_them(club: Tables):
    assert "Nobody has tapped" in await club.error("t1", "/club tables game:dhumbal "
                                                         "present:yes")
    assert "Only the club's owner" in await club.error("t1", "ana: /club night")
    opened = await club.ok("t1", "/club night")
    assert opened.question is not None and "Nobody yet." in opened.text
    for who in ("ana", "bo", "cy"):
        said = await club.ok("t2", f"{who}: /club here")
        assert said.text.startswith(f"{who} is here")
    await club.ok("t2", "ana: /club here")  # twice is once
    reply = await club.ok("t3", "/club tables game:dhumbal present:yes players:@dee")
    assert reply.text.startswith("Dhumbal: 4 at 1 table")
    assert sorted(seated(reply.table or "")[0]) == ["ana", "bo", "cy", "dee"]


async def test_a_tap_on_im_here_is_the_tappers_and_keeps_the_button(club: Tables):
    from bot.core.command import Actor
    from bot.core.flows import HERE, seal

    opened = await club.ok("t1", "/club night")
    assert opened.question is not None
    sealed = seal(opened.question.token, "t1", club.service.secret)
    for at, who in enumerate(("ana", "bo", "ana")):  # ana's second tap: she is here once
        tapped = await club.service.answer("t1", Actor(f"console:{who}", who), sealed, HERE,
                                           origin=f"tap{at}")
        assert tapped.ok and tapped.in_place and tapped.question is not None
    assert "Here (2): ana, bo." in tapped.text
    # a button of a night that is over
    await club.ok("t1", "/club night")
    late = await club.service.answer("t1", Actor("console:cy", "cy"), sealed, HERE)
    assert not late.ok and "That club night is over" in late.text
