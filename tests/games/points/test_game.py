"""A game of points through the real service (SQLite and PostgreSQL): rounds as typed,
the ways a round is scored, where the game ends, undo and edit, money per point and per
place, sides, and /stats keeping each game's name apart. Every expected number is worked
out here by hand from the rule it names."""

import csv
import io

from tests.conftest import Table

NEW = "/newgame points players:asha bikash chetan"


async def test_a_game_of_three_rounds_from_the_first_round_to_the_end(table: Table):
    reply = await table.ok(NEW)
    assert "New Points game" in reply.text
    await table.ok("/rules rounds:3")
    reply = await table.ok("/round asha=12 bikash=-3 chetan=0")
    assert "asha +12  bikash -3  chetan 0" in reply.text
    assert "Round 1 of 3." in reply.text and "asha leads with +12." in reply.text
    reply = await table.ok("/round 5 20 -1")  # seat order: asha, bikash, chetan
    assert reply.board.hands[-1]["points"] == {"asha": 5, "bikash": 20, "chetan": -1}
    # 12 + 5 = 17, -3 + 20 = 17: level at the top
    assert "asha and bikash share the lead with +17." in reply.text
    reply = await table.ok("/round asha=1 bikash=2 chetan=30")
    board = reply.board.to_json()
    assert board["totals"] == {"asha": 18, "bikash": 19, "chetan": 29}
    assert "chetan won with +29!" in reply.text
    said = await table.error("/round asha=1 bikash=2 chetan=3")
    assert said.startswith("The game is over: chetan won. /endgame archives it and "
                           "/newgame points starts the next")
    await table.ok("/undo")  # round 3 again: it is no longer over
    await table.ok("/round asha=40 bikash=2 chetan=3")
    reply = await table.ok("/endgame")
    lines = reply.text.splitlines()
    # 17 + 40 = 57, 17 + 2 = 19, -1 + 3 = 2 (chetan: 0 - 1 + 3)
    assert lines[1:5] == ["Final standings:", "1. asha +57 points", "2. bikash +19 points",
                          "3. chetan +2 points"]
    assert "asha won with +57!" in reply.text
    assert "Nobody owes" not in reply.text and "pays" not in reply.text  # not for money


async def test_a_round_must_name_everyone_and_only_the_table(table: Table):
    await table.ok(NEW)
    said = await table.error("/round asha=12 bikash=-3")
    assert said.startswith("No points for chetan: give every player's (0 for none)")
    said = await table.error("/round asha=1 bikash=2 chetan=3 zed=4")
    assert "Not in this round: `zed`." in said and "Playing: asha bikash chetan." in said
    said = await table.error("/round asha=1 asha=2 bikash=2 chetan=3")
    assert "asha is given twice" in said
    said = await table.error("/round 1 2")
    assert said.startswith("2 numbers for 3: give one each in seat order")
    said = await table.error("/round asha=x bikash=2 chetan=3")
    assert "asha's points must be a whole number, not `x`." in said
    await table.ok("/sitout chetan")
    said = await table.error("/round asha=1 bikash=2 chetan=3")
    assert "chetan (sitting out)" in said
    reply = await table.ok("/round asha=1 bikash=2")  # chetan is out of this round: 0
    assert reply.board.hands[-1]["points"] == {"asha": 1, "bikash": 2, "chetan": 0}
    await table.ok("/back chetan")
    await table.ok("/rules missing:zero")
    reply = await table.ok("/round asha=7")
    assert reply.board.hands[-1]["points"] == {"asha": 7, "bikash": 0, "chetan": 0}
    assert (await table.board())["totals"] == {"asha": 8, "bikash": 2, "chetan": 0}


async def test_the_winner_takes_and_money_settles_it(table: Table):
    await table.ok(NEW)
    await table.ok("/rules winner_takes:yes rate:10 currency:Rs")
    said = await table.error("/round bikash=12 chetan=7")
    assert said.startswith("Say who won the round: winner:NAME")
    said = await table.error("/round winner:asha asha=5 bikash=12 chetan=7")
    assert "asha won: the winner's points are the others'" in said
    # issue 37: bikash -12, chetan -7 and asha +19
    reply = await table.ok("/round winner:asha bikash=12 chetan=7")
    assert "asha +19  bikash -12  chetan -7" in reply.text
    assert "Round 1: asha won; bikash 12, chetan 7" in reply.text
    reply = await table.ok("/round winner:chetan asha=4 bikash=10")
    # asha 19 - 4 = 15, bikash -12 - 10 = -22, chetan -7 + 14 = 7; at 10 Rs a point, the
    # rounds add up to zero, so the money is the points x 10
    board = reply.board.to_json()
    assert board["totals"] == {"asha": 15, "bikash": -22, "chetan": 7}
    assert board["money"] == {"asha": 150, "bikash": -220, "chetan": 70}
    reply = await table.ok("/endgame")
    assert "bikash pays asha 150 Rs" in reply.text and "bikash pays chetan 70 Rs" in reply.text


async def test_the_lowest_wins_and_its_money_is_the_average_less_each_score(table: Table):
    await table.ok("/newgame points players:asha bikash chetan dev")
    await table.ok("/rules wins:low target:100 name:Hearts rate:1 currency:Rs")
    await table.ok("/round asha=16 bikash=0 chetan=8 dev=2")
    reply = await table.ok("/round asha=60 bikash=13 chetan=10 dev=3")
    assert "Lowest total wins. Ends at 100." in reply.text
    assert "dev leads with +5." in reply.text
    board = reply.board.to_json()
    # totals 76, 13, 18, 5; average 112 / 4 = 28; money = 28 - total
    assert board["totals"] == {"asha": 76, "bikash": 13, "chetan": 18, "dev": 5}
    assert board["money"] == {"asha": -48, "bikash": 15, "chetan": 10, "dev": 23}
    reply = await table.ok("/round asha=30 bikash=0 chetan=0 dev=0")  # 106: over
    assert "dev won with +5!" in reply.text
    reply = await table.ok("/endgame")
    assert "Money: the table's average (35.5) less each score" in reply.text
    # 106, 13, 18, 5: average 142 / 4 = 35.5; dev +30.5, bikash +22.5, chetan +17.5,
    # asha -70.5
    lines = reply.text.splitlines()
    assert lines[2:6] == ["1. dev +5 points = +30.50 Rs", "2. bikash +13 points = +22.50 Rs",
                          "3. chetan +18 points = +17.50 Rs",
                          "4. asha +106 points = -70.50 Rs"]
    assert "Hearts: 3 rounds (finished)" not in reply.text  # the standings, then the board
    board = await table.board()
    assert board["game"] == "points"


async def test_who_wins_is_fixed_by_the_first_round_and_rules_that_clash_are_refused(
        table: Table):
    await table.ok(NEW)
    said = await table.error("/rules at_target:eliminates target:50")
    assert "it needs wins:low" in said
    said = await table.error("/rules wins:low winner_takes:yes")
    assert "can't go with wins:low" in said
    await table.ok("/rules wins:low")
    await table.ok("/round asha=1 bikash=2 chetan=3")
    said = await table.error("/rules wins:high")
    assert said.startswith("Who wins was set with the first round (wins:low)")
    said = await table.error("/rules per_place:3 -3")
    assert "per_place has 2 amounts and this game has 3 places" in said
    said = await table.error("/rules per_place:3 -2 -2")
    assert "`per_place` must add up to zero" in said


async def test_elimination_and_an_edit_that_changes_who_was_out(table: Table):
    await table.ok("/newgame points players:asha bikash chetan dev")
    await table.ok("/rules wins:low target:50 at_target:eliminates")
    await table.ok("/round asha=20 bikash=30 chetan=10 dev=5")
    reply = await table.ok("/round asha=20 bikash=25 chetan=10 dev=5")
    # bikash 55: out at 50
    assert "In: asha 40, chetan 20, dev 10. Out: bikash 55." in reply.text
    said = await table.error("/round asha=1 bikash=2 chetan=3 dev=4")
    assert "bikash (out at 55)" in said
    reply = await table.ok("/round asha=1 chetan=3 dev=4")
    assert reply.board.hands[-1]["points"] == {"asha": 1, "bikash": 0, "chetan": 3,
                                               "dev": 4}
    # with bikash 20 in round 2 he would be at 50 and out all the same; with 19 he'd be in
    # at 49 and round 3, which left him out, can't stand: the edit is refused
    said = await table.error("/edit round:2 points:bikash=19")
    assert "round 3 can't stand as recorded" in said and "bikash" in said
    await table.ok("/undo")  # round 3 goes
    reply = await table.ok("/edit round:2 points:bikash=19")
    assert "In: asha 40, bikash 49, chetan 20, dev 10." in reply.text
    await table.ok("/round asha=15 bikash=0 chetan=40 dev=45")  # asha 55, chetan 60, dev 55
    reply = await table.ok("/board")
    assert "bikash won with +49!" in reply.text
    reply = await table.ok("/endgame")
    lines = reply.text.splitlines()
    # bikash in; asha, chetan, dev out together in round 3: dev 55 and asha 55 share
    # second, then chetan 60
    assert lines[2:6] == ["1. bikash +49 points", "2. asha +55 points", "3. dev +55 points",
                          "4. chetan +60 points"]


async def test_money_by_place_at_the_end(table: Table):
    await table.ok(NEW)
    await table.ok("/rules per_place:30 0 -30 currency:Rs rounds:2")
    await table.ok("/round asha=5 bikash=9 chetan=1")
    await table.ok("/round asha=5 bikash=0 chetan=4")
    reply = await table.ok("/endgame")
    # asha 10, bikash 9, chetan 5: asha first +30, bikash 0, chetan -30
    assert "chetan pays asha 30 Rs" in reply.text
    ledger = (await table.ok("/ledger")).text
    assert "asha +30 Rs" in ledger and "chetan -30 Rs" in ledger


async def test_sides_score_as_one(table: Table):
    reply = await table.ok("/newgame points teams:asha+chetan bikash+dev")
    assert "Players: asha, chetan, bikash, dev." in reply.text
    await table.ok("/rules target:100")
    reply = await table.ok("/round A=50 bikash=20")
    assert "A: asha+chetan · B: bikash+dev." in reply.text
    assert reply.board.hands[-1]["points"] == {"A": 50, "B": 20}
    reply = await table.ok("/round chetan=60 B=10")
    assert "A won with +110!" in reply.text
    said = await table.error("/sitout asha")
    assert "A side scores as one" in said
    await table.ok("/endgame")
    stats = (await table.ok("/stats")).text
    assert "asha 1 win in 1 game" in stats and "bikash 0 wins in 1 game" in stats


async def test_each_name_is_a_game_of_its_own_in_stats(table: Table):
    await table.ok("/season start name:Autumn")
    for name, line in (("Uno", "/round asha=50 bikash=0 chetan=0"),
                       ("Hearts", "/round asha=3 bikash=10 chetan=13")):
        await table.ok(NEW)
        await table.ok(f"/rules name:{name}")
        reply = await table.ok(line)
        assert reply.text.splitlines()[0].startswith("Round 1")
        assert (await table.ok("/board")).text.startswith(f"{name}: 1 round")
        await table.ok("/endgame")
    stats = (await table.ok("/stats")).text.splitlines()
    assert "Uno (1 game):" in stats and "Hearts (1 game):" in stats
    uno = stats.index("Uno (1 game):")
    assert stats[uno + 1] == "1. asha 1 win in 1 game (1 round, +50 points)"
    # Hearts is highest-wins here (no wins:low): chetan won
    hearts = stats.index("Hearts (1 game):")
    assert stats[hearts + 1] == "1. chetan 1 win in 1 game (1 round, +13 points)"
    season = (await table.ok("/stats season")).table or ""
    assert "Uno (1 game), by games won:" in season
    assert "Hearts (1 game), by games won:" in season


async def test_the_round_in_history_chart_and_export(table: Table):
    await table.ok(NEW)
    await table.ok("/round asha=12 bikash=-3 chetan=0")
    history = (await table.ok("/history")).text
    assert "Round 1" in history and "asha 12, bikash -3, chetan 0" in history
    chart = await table.ok("/chart")
    assert chart.file is not None and chart.file.data.startswith(b"\x89PNG")
    exported = await table.ok("/export format:csv")
    assert exported.file is not None
    rows = list(csv.DictReader(io.StringIO(exported.file.data.decode())))
    assert [(r["player"], r["points"]) for r in rows] == [("asha", "12"), ("bikash", "-3"),
                                                           ("chetan", "0")]


async def test_money_by_place_is_said_by_place_not_by_point(table: Table):
    await table.ok("/newgame points players:asha bikash chetan")
    await table.ok("/rules per_place:20 0 -20 rounds:1 rate:5 currency:Rs")
    await table.ok("/round asha=10 bikash=3 chetan=1")
    reply = await table.ok("/endgame")
    # first place 20 shares, second 0, last -20, at 5 Rs a share: +100, 0, -100
    assert ("Money by place (20 0 -20) at 5 Rs each: asha +100 Rs, bikash 0 Rs, "
            "chetan -100 Rs") in reply.text
    assert "a point" not in reply.text
    assert "chetan pays asha 100 Rs" in reply.text
