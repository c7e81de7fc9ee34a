"""Dhumbal through the real service (SQLite and PostgreSQL), with the worked examples of
docs/rules/dhumbal.md written out from its sources' numbers: a show held, a show caught
(Wikipedia's 3 + 25 = 28), the stock run out, the limit and the last player in; Yaniv's
table (pagat, yanivgame.com); and the rest every game has (undo, edit, money, stats)."""

from bot.core.command import Actor, Command
from tests.conftest import Table

NEW = "/newgame dhumbal players:asha bikash chetan"


async def test_shows_held_and_caught_and_the_stock_run_out(table: Table):
    reply = await table.ok(NEW)
    assert reply.text.startswith("New Dhumbal game.")
    assert "limit 100, penalty 25, show_max 5" in reply.text
    # 1: asha shows with 3, the others hold 12 and 7: it holds, asha scores nothing
    reply = await table.ok("/round show:asha asha=3 bikash=12 chetan=7")
    assert reply.board.hands[-1]["points"] == {"asha": 0, "bikash": 12, "chetan": 7}
    assert "Round 1: asha showed with 3, and it held; bikash 12, chetan 7" in reply.text
    # 2: bikash counter-shows with 3: "a count of 3 ... counter jhyapped with 3 or less
    # ... gets 28"
    reply = await table.ok("/round show:asha asha=3 bikash=3 chetan=7")
    assert reply.board.hands[-1]["points"] == {"asha": 28, "bikash": 3, "chetan": 7}
    # 3: the stock runs out: no show, each their count
    reply = await table.ok("/round asha=9 bikash=4 chetan=11")
    assert reply.board.hands[-1]["points"] == {"asha": 9, "bikash": 4, "chetan": 11}
    assert "Lowest total wins. Out at 100. In: asha 37, bikash 19, chetan 25." in reply.text
    said = await table.error("/round show:asha asha=6 bikash=12 chetan=7")
    assert said == "A show needs 5 or less in hand (show_max), and that hand holds 6."
    said = await table.error("/round asha=1 bikash=-2 chetan=7")
    assert said == "A hand's points are 0 or more."
    said = await table.error("/round show:asha asha=1 bikash=2")
    assert said == "No count for chetan: every hand in the round gives its count (0 for none)."
    said = await table.error("/round winner:asha bikash=2 chetan=1")
    assert "/round has no option `winner:`" in said


async def test_the_limit_puts_players_out_and_the_last_one_in_wins(table: Table):
    await table.ok("/newgame dhumbal players:asha bikash chetan dev")
    await table.ok("/round asha=96 bikash=40 chetan=50 dev=60")
    # 4: asha at 96 takes 4: 100, out (at the limit, Wikipedia's "scoring 100 points")
    reply = await table.ok("/round asha=4 bikash=10 chetan=10 dev=10")
    assert "In: bikash 50, chetan 60, dev 70. Out: asha 100." in reply.text
    said = await table.error("/round asha=1 bikash=2 chetan=3 dev=4")
    assert "asha (out at 100)" in said
    # chetan and dev out together; bikash, the last one in, wins
    reply = await table.ok("/round show:bikash bikash=1 chetan=45 dev=30")
    assert "bikash won with +50!" in reply.text
    said = await table.error("/round bikash=1")
    assert said.startswith("The game is over: bikash won. /endgame archives it and "
                           "/newgame dhumbal starts the next")
    reply = await table.ok("/endgame")
    # in: bikash; out in round 3: chetan 105 and dev 100 (dev lower, ahead); out in
    # round 2: asha
    assert reply.text.splitlines()[2:6] == ["1. bikash +50 points", "2. dev +100 points",
                                            "3. chetan +105 points", "4. asha +100 points"]
    stats = (await table.ok("/stats")).text
    assert "Dhumbal (1 game):" in stats
    assert "1. bikash 1 win in 1 game (3 rounds, +50 points)" in stats


async def test_yaniv_out_only_past_200_and_the_lowest_hand_catching_scores_nothing(
        table: Table):
    await table.ok(NEW)
    reply = await table.ok("/rules preset:yaniv")
    assert "limit 200, out pass, penalty 30, show_max 7, caught zero" in reply.text
    # yanivgame.com: the caught caller scores the hand + 30, the winner (lowest) 0
    reply = await table.ok("/round show:asha asha=5 bikash=2 chetan=9")
    assert reply.board.hands[-1]["points"] == {"asha": 35, "bikash": 0, "chetan": 9}
    # pagat: more than 200 drops out; exactly 200 stays in
    reply = await table.ok("/round asha=165 bikash=201 chetan=50")
    assert "In: asha 200, chetan 59. Out: bikash 201." in reply.text


async def test_an_edit_moves_who_was_out_and_undo_brings_a_player_back(table: Table):
    await table.ok(NEW)
    await table.ok("/round asha=60 bikash=10 chetan=10")
    await table.ok("/round asha=30 bikash=10 chetan=10")
    reply = await table.ok("/undo")
    assert "In: asha 60, bikash 10, chetan 10." in reply.text
    await table.ok("/round asha=40 bikash=10 chetan=10")  # asha 100: out
    reply = await table.ok("/round bikash=10 chetan=10")
    assert "Out: asha 100." in reply.text
    # with 39 in round 2 asha stays in at 99, and round 3, which left her out, can't stand
    said = await table.error("/edit round:2 points:asha=39")
    assert "round 3 can't stand as recorded: asha would still be in the game" in said
    reply = await table.ok("/edit round:3 points:bikash=20")
    assert "Round 3 changed" in reply.text and "In: bikash 40, chetan 30." in reply.text


async def test_money_by_place_pays_the_last_one_in(table: Table):
    await table.ok(NEW)
    await table.ok("/rules per_place:20 0 -20 currency:Rs limit:50")
    await table.ok("/round asha=50 bikash=10 chetan=20")  # asha out
    await table.ok("/round bikash=45 chetan=1")  # bikash out: chetan wins
    reply = await table.ok("/endgame")
    # chetan first +20, bikash (out later) second 0, asha last -20
    assert "asha pays chetan 20 Rs" in reply.text


async def test_a_finished_game_exports_and_imports_whole(table: Table):
    await table.ok(NEW)
    await table.ok("/rules limit:50 rate:2 currency:Rs")
    await table.ok("/round show:asha asha=3 bikash=3 chetan=7")  # caught: asha 28
    await table.ok("/round asha=30 bikash=10 chetan=10")  # asha 58: out
    await table.ok("/round show:bikash bikash=1 chetan=40")  # chetan 57: out
    before = await table.board()
    await table.ok("/endgame")
    exported = await table.ok("/export")
    assert exported.file is not None
    reply = await table.service.handle(Command(
        "chat-2", Actor("test:host", "host", is_admin=True, by_name=True), "import", {},
        "import-1", attachment=exported.file.data))
    assert reply.ok, reply.text
    other = Table(table.service, chat="chat-2")
    again = (await other.ok("/board last")).board.to_json()
    assert again["totals"] == before["totals"] == {"asha": 58, "bikash": 13, "chetan": 57}
    # money per point: the average (58 + 13 + 57) / 3 = 42.67 less each total, at 2 Rs
    assert again["money"] == before["money"]
    stats = (await other.ok("/stats")).text
    assert "1. bikash 1 win in 1 game (3 rounds, +13 points" in stats
