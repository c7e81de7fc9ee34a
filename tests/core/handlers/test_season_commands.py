"""Seasons through the core, on both databases: a season holds the games that end while it
is open; /stats season ranks it game by game as a table and a picture; only an admin starts
or ends one; seasons travel in /export all.

Worked values (../shared/rules/marriage.md, riichi.md):
- Marriage HAND_A: maal 10, 2, 0 (carol unseen: murdered), P = 12, n = 3: exchange 18, -6,
  -12; bob pays 3 (seen), carol 10 (unseen): alice +31, bob -9, carol -22.
- Marriage HAND_B: all seen, maal 3, 1, 8, P = 12: exchange -3, -9, +12; alice and carol
  pay bob 3 each: alice -6, bob -3, carol +9.
- Riichi (tenhou: 25,000 to start, 30,000 returned, uma 20/10, oka 20 to the first):
  alice (East, the dealer) rons bob for 4 han 30 fu: 11,600. Final scores alice 36,600,
  carol 25,000, dave 25,000, bob 13,400. Results: alice +6.6 + 20 uma + 20 oka = +46.6;
  carol -5 + 10 = +5.0; dave -5 - 10 = -15.0 (tied with carol: the earlier seat ranks
  first); bob -16.6 - 20 = -36.6.
- Tranca to 500: side A (alice+carol) 925, side B (bob+dave) 40: A wins.
"""

from __future__ import annotations

import io
import json

import matplotlib.image as mpimg
import pytest

from bot.core.command import Actor, Command
from bot.core.service import Service
from bot.core.width import width
from tests.conftest import Table

NEW = "/newgame players:alice bob carol"
HAND_A = "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0"
HAND_B = "/hand winner:bob seen:alice carol maal:alice=3 bob=1 carol=8"


async def _marriage(table: Table, *hands: str) -> None:
    await table.ok(NEW)
    await table.ok("/rules rate:10 currency:Rs")
    for hand in hands:
        await table.ok(hand)
    await table.ok("/endgame")


async def _riichi(table: Table) -> None:
    await table.ok("/newgame riichi players:alice bob carol dave preset:tenhou")
    await table.ok("/ron winner:alice from:bob han:4 fu:30")
    await table.ok("/endgame sure")  # before the hanchan's end


async def _tranca(table: Table) -> None:
    await table.ok("/newgame tranca teams:alice+carol bob+dave")
    await table.ok("/rules target:500")
    await table.ok("/round side:A table:365 hand:40 clean:1 dirty:1 red3:3 black3:1 out:yes")
    await table.ok("/round side:B table:50 hand:10")
    await table.ok("/endgame")


async def test_a_season_ranks_its_games_each_by_what_wins_it(table: Table):
    assert "No season yet" in (await table.ok("/season")).text
    await _marriage(table, HAND_A)  # before the season: not in it
    await table.ok("/season start name:Autumn")
    assert "Season Autumn, since" in (await table.ok("/season")).text
    await _marriage(table, HAND_A, HAND_B)
    await _riichi(table)
    await _tranca(table)
    reply = await table.ok("/stats season")
    assert reply.text == reply.text.splitlines()[0]
    assert reply.text.endswith(", 3 games:")
    blocks = reply.table.split("\n\n")
    # Marriage by money: alice 31 - 6 = +25 points (+250 Rs, 12.50 a hand), bob -9 - 3 =
    # -12 (-120 Rs, -6.00), carol -22 + 9 = -13 (-130 Rs, -6.50)
    # too wide for a phone's 34 columns as a table: a few lines a person, the place, the
    # name and what ranks them first, then the other columns as heading and value
    assert blocks[0].splitlines() == [
        "Nepali Marriage (1 game), by money (Rs):",
        "1. alice  +250", "   games 1, hands 2, points +25,", "   per hand +12.50",
        "2. bob  -120", "   games 1, hands 2, points -12,", "   per hand -6.00",
        "3. carol  -130", "   games 1, hands 2, points -13,", "   per hand -6.50"]
    # Riichi by the final results; places 1st to 4th, best hand (a hand won, "-" for none:
    # alice, the dealer, won 4 han 30 fu by ron, 11,600 in riichi.md's dealer table), busts
    riichi = blocks[1].splitlines()
    assert riichi[0] == "Riichi mahjong (1 game), by final results (uma and oka):"
    assert riichi[1:5] == ["1. alice  +46.6", "   games 1, avg place 1.00, 1st 1,",
                           "   2nd 0, 3rd 0, 4th 0,", "   best hand +11,600, busts 0"]
    people = [line for line in riichi[1:] if not line.startswith(" ")]
    assert people == ["1. alice  +46.6", "2. carol  +5.0", "3. dave  -15.0", "4. bob  -36.6"]
    assert "   2nd 0, 3rd 0, 4th 1," in riichi and "   games 1, avg place 4.00, 1st 0," in riichi
    assert all(width(line) <= 34 for block in blocks for line in block.splitlines()[1:])
    # Tranca by wins, through each player's side
    tranca = blocks[2].splitlines()
    assert tranca[0] == "Tranca (1 game), by games won:"
    assert [line.split() for line in tranca[2:]] == [
        ["1", "alice", "1", "1", "+925"], ["2", "carol", "1", "1", "+925"],
        ["3", "bob", "0", "1", "+40"], ["4", "dave", "0", "1", "+40"]]
    # and as a picture
    assert reply.file is not None and reply.file.kind == "image"
    picture = mpimg.imread(io.BytesIO(reply.file.data), format="png")
    assert picture.shape[1] == 1200 and picture[..., :3].std() > 0.05
    # /stats itself is unchanged: every game, the one before the season too (2 Marriage)
    assert "Nepali Marriage (2 games):" in (await table.ok("/stats")).text


async def test_a_game_is_in_the_season_it_ends_in(table: Table):
    await table.ok("/season start name:Autumn")
    await table.ok(NEW)
    await table.ok(HAND_A)
    # open: counted in the open season (its hands so far)
    assert "1 game (1 still open)" in (await table.ok("/stats season")).text
    reply = await table.ok("/season end")
    assert reply.text.startswith("Season Autumn is over: 0 games. The open game is not in it")
    assert "has no games yet" in (await table.ok("/stats season:Autumn")).text
    await table.ok("/season start name:Winter")
    await table.ok("/endgame")  # ends in Winter
    text = (await table.ok("/stats season")).text
    assert text.startswith("Season Winter (") and text.endswith("1 game:")
    assert "No season called Spring. Seasons: Autumn, Winter." in \
        await table.error("/stats season:Spring")
    assert "has no games yet" in (await table.ok("/stats season:autumn")).text


async def test_starting_and_ending_seasons_say_what_is_wrong(table: Table):
    assert "No season is open" in await table.error("/season end")
    assert "Name the season" in await table.error("/season start")
    await table.ok("/season start name:Autumn")
    assert "Autumn is open" in await table.error("/season start name:Winter")
    await table.ok("/season end")
    assert "already" in await table.error("/season start name:AUTUMN")
    assert "No season is open. The last: Autumn" in (await table.ok("/season")).text
    # only a chat admin starts or ends one; anyone may look
    assert "Only a chat admin" in await table.error("/season start name:Spring", by="bob")
    await table.ok("/season", by="bob")


async def test_seasons_travel_in_an_export(table: Table, service: Service):
    await table.ok("/season start name:Autumn")
    await _marriage(table, HAND_A)
    await table.ok("/season end")
    await table.ok("/season start name:Winter")
    reply = await table.ok("/export all")
    data = json.loads(reply.file.data)
    assert [s["name"] for s in data["seasons"]] == ["Autumn", "Winter"]
    command = Command("chat-2", Actor("test:host", "host", is_admin=True), "import", {},
                      "import-1", attachment=reply.file.data)
    assert (await service.handle(command)).ok
    other = Table(service, chat="chat-2")
    assert (await other.ok("/stats season:Autumn")).table == \
        (await table.ok("/stats season:Autumn")).table
    assert "Season Winter, since" in (await other.ok("/season")).text


async def test_dollar_signs_in_a_season_draw_as_themselves(table: Table):
    # "$...$" is mathtext to matplotlib: a season or a currency with two "$" crashed the
    # picture; they are drawn as typed
    await table.ok("/season start name:Autumn $$ $x^$")
    await table.ok(NEW)
    await table.ok("/rules rate:10 currency:$$")
    await table.ok(HAND_A)
    await table.ok("/endgame")
    reply = await table.ok("/stats season")
    assert "by money ($$)" in reply.table
    assert reply.file is not None and reply.file.kind == "image"
    assert mpimg.imread(io.BytesIO(reply.file.data), format="png")[..., :3].std() > 0.05


async def test_stats_season_refuses_what_it_would_drop(table: Table):
    await table.ok("/season start name:Autumn")
    await _marriage(table, HAND_A)
    assert "not one person: /stats alice is their record" in await table.error(
        "/stats alice season:Autumn")
    assert "not one person" in await table.error("/stats season alice")
    assert "A season is its own period" in await table.error(
        "/stats season:Autumn period:month")
    assert "A season is its own period" in await table.error("/stats season period:month")


async def test_season_names_are_one_form_and_visible(table: Table):
    for hidden in ("Autumn\u200b", "\u200b", "Au\u200dtumn", "\u3164", "\u0301"):
        error = await table.error(f"/season start name:{hidden}")
        assert "invisible" in error or "Name the season" in error, (hidden, error)
    # fullwidth letters are the plain ones: one season, found either way
    assert "Season Autumn starts" in (await table.ok("/season start name:Ａｕｔｕｍｎ")).text
    await table.ok("/season end")
    assert "already" in await table.error("/season start name:autumn")
    assert "has no games yet" in (await table.ok("/stats season:ＡＵＴＵＭＮ")).text


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
async def test_a_season_picture_says_which_names_it_draws_as_boxes(table: Table):
    """A season named in Thai, a player named in Tamil: the ranking's picture has no
    letters for either, and says so (the CJK of a Riichi table it draws)."""
    await table.ok("/season start name:ฤดูร้อน")
    await table.ok("/newgame marriage players:முருகன் 山田 alice")
    await table.ok("/hand winner:alice seen:முருகன் maal:alice=3 முருகன்=1")
    await table.ok("/endgame")
    reply = await table.ok("/stats season")
    assert reply.file is not None
    assert reply.text.splitlines()[-1] == ("The chart has no letters for ฤดูร้อน, முருகன்: "
                                           "they are drawn as empty boxes.")
