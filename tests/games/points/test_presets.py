"""The points game's presets, each played through the real service (SQLite and PostgreSQL)
with the worked examples of its rule page (docs/rules/), written out here from the page's
own numbers, never read from the bot."""

from tests.conftest import Table

FOUR = "/newgame points players:asha bikash chetan dev preset:hearts"


async def test_a_preset_sets_only_the_keys_it_names(table: Table):
    await table.ok("/newgame points players:asha bikash chetan")
    await table.ok("/rules missing:zero per_place:10 0 -10 rate:2")
    reply = await table.ok("/rules preset:uno")
    assert "Preset uno: added to the rules in force." in reply.text
    rules = (await table.ok("/rules")).text
    # the table's own habits stay; the game's keys are Uno's
    for line in ("missing: zero", "per_place: 10 0 -10", "rate: 2", "wins: high",
                 "target: 500", "winner_takes: sum", "name: Uno"):
        assert line in rules, line
    await table.ok("/rules preset:rummy500")  # another game's preset: Uno's keys all go
    rules = (await table.ok("/rules")).text
    assert "winner_takes: no" in rules and "name: Rummy 500" in rules
    assert "missing: zero" in rules


async def test_hearts_a_hand_the_moon_and_the_end(table: Table):
    """docs/rules/hearts.md, examples 1 to 3."""
    reply = await table.ok(FOUR)
    assert reply.text.startswith("New Hearts game.")
    # 1: the queen (13) and 3 hearts to asha; 8 hearts to chetan, 2 to dev
    reply = await table.ok("/round asha=16 bikash=0 chetan=8 dev=2")
    assert reply.board.hands[-1]["points"] == {"asha": 16, "bikash": 0, "chetan": 8,
                                               "dev": 2}
    # 2: asha takes every heart and the queen: 0 to her, 26 to each other player
    reply = await table.ok("/round asha=26 bikash=0 chetan=0 dev=0")
    assert "Round 2: asha shot the moon" in reply.text
    assert reply.board.hands[-1]["points"] == {"asha": 0, "bikash": 26, "chetan": 26,
                                               "dev": 26}
    # 3: totals 101, 40, 62, 23 after a hand: the game is over, dev has the fewest
    reply = await table.ok("/round asha=85 bikash=14 chetan=28 dev=-5")
    assert reply.board.to_json()["totals"] == {"asha": 101, "bikash": 40, "chetan": 62,
                                               "dev": 23}
    assert "dev won with +23!" in reply.text
    assert "The game is over: dev won." in await table.error("/round asha=1 bikash=1 "
                                                              "chetan=1 dev=23")


async def test_hearts_where_the_shooter_takes_26_off(table: Table):
    """docs/rules/hearts.md, example 2 with moon_to:self (digiworksnow.com)."""
    await table.ok(FOUR)
    await table.ok("/rules moon_to:self")
    reply = await table.ok("/round asha=26 bikash=0 chetan=0 dev=0")
    assert reply.board.hands[-1]["points"] == {"asha": -26, "bikash": 0, "chetan": 0,
                                               "dev": 0}


async def test_uno_the_winner_scores_the_cards_left(table: Table):
    """docs/rules/uno.md, examples 1 and 3."""
    await table.ok("/newgame points players:asha bikash chetan preset:uno")
    # 1: bikash holds 3 + 4 + 5 + 5 = 17; chetan two Skips, a Wild Draw Four, a 3 and a
    # 9: 20 + 20 + 50 + 3 + 9 = 102; asha went out and scores them: 119
    reply = await table.ok("/round winner:asha bikash=17 chetan=102")
    assert reply.board.hands[-1]["points"] == {"asha": 119, "bikash": 0, "chetan": 0}
    assert "Uno: 1 round" in (await table.ok("/board")).text
    # up to 450 for asha: 119 + 331
    await table.ok("/round winner:asha bikash=300 chetan=31")
    reply = await table.ok("/round winner:bikash asha=5 chetan=5")
    assert "asha leads with +450." in reply.text
    # 3: asha at 450 wins a hand worth 60 (two Draw Twos and a Reverse): 510, the game is
    # over
    reply = await table.ok("/round winner:asha bikash=40 chetan=20")
    assert reply.board.to_json()["totals"] == {"asha": 510, "bikash": 10, "chetan": 0}
    assert "asha won with +510!" in reply.text


async def test_uno_kept_the_other_way_the_lowest_wins(table: Table):
    """docs/rules/uno.md: each keeps their own cards, the lowest total wins at 500."""
    await table.ok("/newgame points players:asha bikash chetan preset:uno")
    await table.ok("/rules winner_takes:no wins:low")
    await table.ok("/round asha=0 bikash=17 chetan=102")
    reply = await table.ok("/round asha=420 bikash=0 chetan=300")
    # asha 420, bikash 17, chetan 402: nobody at 500 yet
    assert "bikash leads with +17." in reply.text
    reply = await table.ok("/round asha=80 bikash=5 chetan=0")
    assert "bikash won with +22!" in reply.text


async def test_rummy_500_melds_less_the_hand_and_the_highest_past_500(table: Table):
    """docs/rules/rummy500.md, examples 1 to 3."""
    await table.ok("/newgame points players:asha bikash chetan preset:rummy500")
    # 1: asha 76 melded less an ace and a 4 (15 + 4): 57. 2: bikash 87 - 90 = -3
    reply = await table.ok("/round asha=57 bikash=-3 chetan=20")
    assert reply.board.hands[-1]["points"] == {"asha": 57, "bikash": -3, "chetan": 20}
    await table.ok("/round asha=413 bikash=483 chetan=0")  # asha 470, bikash 480
    # 3: asha scores 57 (527), bikash 30 (510): both past 500, asha's higher total wins
    reply = await table.ok("/round asha=57 bikash=30 chetan=0")
    assert reply.board.to_json()["totals"] == {"asha": 527, "bikash": 510, "chetan": 20}
    assert "asha won with +527!" in reply.text
    assert "Rummy 500: 3 rounds" in (await table.ok("/board")).text


async def test_dhumbal_the_show_held_caught_and_the_limit(table: Table):
    """docs/rules/dhumbal.md, examples 1 to 4."""
    await table.ok("/newgame points players:asha bikash chetan preset:dhumbal")
    # 1: asha shows with 3, the others hold 12 and 7: it holds
    reply = await table.ok("/round show:asha asha=3 bikash=12 chetan=7")
    assert reply.board.hands[-1]["points"] == {"asha": 0, "bikash": 12, "chetan": 7}
    assert "asha showed with 3, and it held; bikash 12, chetan 7" in reply.text
    # 2: bikash counter-shows with 3: asha 3 + 25 = 28
    reply = await table.ok("/round show:asha asha=3 bikash=3 chetan=7")
    assert reply.board.hands[-1]["points"] == {"asha": 28, "bikash": 3, "chetan": 7}
    assert "asha showed with 3 and was caught (+25)" in reply.text
    # a show needs 5 or less in hand
    said = await table.error("/round show:asha asha=6 bikash=12 chetan=7")
    assert "A show needs 5 or less in hand (show_max)" in said
    # 3: the stock runs out: no show, each their count
    reply = await table.ok("/round asha=9 bikash=4 chetan=11")
    assert reply.board.hands[-1]["points"] == {"asha": 9, "bikash": 4, "chetan": 11}
    # totals now asha 37, bikash 19, chetan 25; 4: asha to 96, then 4 more: 100, out
    await table.ok("/round asha=59 bikash=0 chetan=0")
    reply = await table.ok("/round asha=4 bikash=30 chetan=30")
    assert "In: bikash 49, chetan 55. Out: asha 100." in reply.text
    reply = await table.ok("/round show:bikash bikash=2 chetan=45")
    # chetan 100: out; bikash, the last one in, wins
    assert "bikash won with +49!" in reply.text
    reply = await table.ok("/endgame")
    assert reply.text.splitlines()[2:5] == ["1. bikash +49 points", "2. chetan +100 points",
                                            "3. asha +100 points"]
