"""What a new player reads: each game's own words (a Tranca round, a Riichi result),
examples that name only the people at the table, and numbers written one way."""

from tests.conftest import Table


async def test_tranca_and_call_break_speak_of_rounds(table: Table):
    await table.ok("/newgame tranca teams:ram+sita bikram+gita")
    assert "No rounds recorded here (all time)." in (await table.ok("/stats")).text
    edit = (await table.ok("/help edit")).text
    assert "Usage: /edit round:3 side:A table:365" in edit  # not Marriage's maal:
    assert "re-enter a recorded round" in edit and "maal" not in edit
    assert "/undo - undo the last round" in (await table.ok("/help")).text
    await table.ok("/endgame")
    assert "Call Break takes 4 players; you named 3." in await table.error(
        "/newgame callbreak players:ram sita bikram")
    await table.ok("/newgame callbreak players:ram sita bikram gita")
    assert "ram sits out from the next round." in (await table.ok("/sitout ram")).text


async def test_riichi_speaks_of_results(table: Table):
    await table.ok("/newgame riichi players:ram sita bikram gita")
    # every option a result was entered with can be edited (issue 30), the examples with the
    # table's own names
    assert "Usage: /edit result:3 from:bikram   /edit result:3 winner:sita han:2 fu:30" in (
        await table.ok("/help edit")).text
    assert (await table.ok("/tsumo winner:sita han:1 fu:30")).text.startswith("Result 1:")
    assert (await table.ok("/undo reason:typo")).text.startswith("Undid result 1")


async def test_examples_name_only_the_players_at_the_table(table: Table):
    new = (await table.ok("/newgame marriage players:ram sita bikram")).text
    # the usage names a fourth player (foul:dave) : with three at the table it goes round
    assert "/hand winner:ram seen:sita maal:ram=10 sita=5 [dublee:yes] [foul:ram]" in new
    assert "dave" not in new and "alice" not in new
    waiting = (await table.ok("/hand winner:ram seen:ram")).text
    # one player's maal missing: that player is named, and so is the way to give it
    assert waiting == "Hand 1 waits for the maal of ram: /maal ram=…"
    await table.ok("/undo reason:test")
    await table.ok("/endgame")
    rummy = (await table.ok("/newgame marriage_rummy players:ram sita bikram")).text
    for example in ("asha", "bikash", "chetan", "dev", "esha", "farah"):
        assert example not in rummy


async def test_numbers_are_written_one_way(table: Table):
    await table.ok("/newgame riichi players:ram sita bikram gita")
    rules = (await table.ok("/rules")).text
    assert "start: 25,000" in rules and "back: 30,000" in rules
    await table.ok("/endgame")
    tranca = (await table.ok("/newgame tranca teams:ram+sita bikram+gita")).text
    assert "target auto" in tranca and "target 0" not in tranca
    await table.ok("/endgame")
    await table.ok("/newgame marriage players:ram sita bikram")
    await table.ok("/rules currency:Rs")
    await table.ok("/rules currency:none")  # takes the currency away, not a currency "none"
    assert "currency: none" in (await table.ok("/rules")).text
    # rate 1 and no currency: not played for money, so no money row and no "$"
    reply = await table.ok("/hand winner:ram seen:sita maal:ram=3 sita=1")
    assert reply.table is not None and "none" not in reply.table and "$" not in reply.table
    assert reply.table.splitlines()[-1].split()[0] == "Σ"


async def test_call_break_stopped_early_says_so(table: Table):
    await table.ok("/newgame callbreak players:ram sita bikram gita")
    # ram bid 3 took 5: 3.2; sita bid 4 took 2: -4; bikram bid 2 took 3: 2.1; gita 3, 3: 3
    await table.ok("/round bids:3 4 2 3 tricks:5 2 3 3")
    end = (await table.ok("/endgame")).text
    assert "Ended after 1 of 5 rounds; ram finished first with +3.2." in end
    assert "leads" not in end


async def test_maal_with_no_game_says_what_works(table: Table):
    assert "start a game with /newgame" in await table.error("/maal 5")
    assert "Give the cards too: /maal tiplu:8H cards:" in await table.error("/maal tiplu:8H")
    # the cards alone are counted with no game: the marriage 7H 8H 9H is 10 (rules page)
    assert "marriage 10" in (await table.ok("/maal tiplu:8H cards:7H 8H 9H 2C 3D")).text


async def test_a_game_ended_before_any_hand_owes_nothing(table: Table):
    await table.ok("/newgame riichi players:ram sita bikram gita")
    await table.ok("/rules rate:0.1 currency:Rs")
    end = (await table.ok("/endgame")).text
    # closed, not kept: no places handed out by seat order, no uma, nothing to pay
    assert end == ("Riichi mahjong closed: no result was recorded, so nothing was kept or "
                   "settled.")


async def test_usage_in_an_error_names_the_players_at_the_table(table: Table):
    await table.ok("/newgame marriage players:ram sita bikram")
    said = await table.error("/hand")
    assert "/hand winner:ram seen:sita maal:ram=10 sita=5" in said
    assert "alice" not in said and "bob" not in said
    edit = await table.error("/edit")  # a usage from the command table
    assert "Usage: /edit hand:3 maal:sita=6 seen:sita bikram" in edit
    # a name the user typed is never swapped: bob stays bob in the answer
    assert "No player called `bob`" in await table.error("/hand winner:bob seen:ram")


async def test_help_for_a_command_two_games_have_gives_each_games_own(table: Table):
    # no game open: /round is Tranca's (a side's round) and Call Break's (bids and tricks)
    said = (await table.ok("/help round")).text
    assert "Tranca:" in said and "Call Break:" in said
    assert "side:" in said and "bids:" in said
