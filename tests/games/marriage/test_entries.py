"""Entries that cannot go silently wrong (issue 30): maal given for a player not named seen,
where an unseen player's maal is murdered, is refused with the lines that say what was meant;
a near miss is never another player; what was mistyped is corrected with /edit.

Scores from the rules (shared/rules/marriage.md): with n players in the exchange, maal s_i
and P the sum, player i gets n*s_i - P; a seen loser pays the winner 3, an unseen one 10."""

from __future__ import annotations

from tests.conftest import Table

NEW = "/newgame marriage players:bikash ramesh sita prakash"


async def test_maal_for_players_not_named_seen_is_refused_with_both_corrected_lines(
        table: Table):
    await table.ok(NEW)
    said = await table.error("/hand winner:bikash maal:bikash=5 ramesh=2 sita=4")
    saw = "/hand winner:bikash seen:ramesh sita maal:bikash=5 ramesh=2 sita=4"
    unseen = "/hand winner:bikash maal:bikash=5"
    assert said == ("ramesh, sita have maal but are not in seen:, and an unseen player's maal "
                    f"is murdered here. If they saw:\n{saw}\nIf not, without their maal:\n"
                    f"{unseen}")
    assert (await table.board())["hand_count"] == 0  # nothing recorded
    # each line the reply offers is taken as it is. They saw: maal 5, 2, 4, 0 (P 11, n 4):
    # bikash 20-11 = +9, ramesh 8-11 = -3, sita 16-11 = +5, prakash -11; game points:
    # ramesh and sita seen pay 3, prakash unseen 10: bikash +16. +25, -6, +2, -21
    reply = await table.ok(saw)
    assert reply.board.hands[-1]["points"] == {"bikash": 25, "ramesh": -6, "sita": 2,
                                               "prakash": -21}
    await table.ok("/undo")
    # they're unseen: bikash's 5 alone (P 5): +15, -5 each; each unseen pays 10: +45, -15
    reply = await table.ok(unseen)
    assert reply.board.hands[-1]["points"] == {"bikash": 45, "ramesh": -15, "sita": -15,
                                               "prakash": -15}


async def test_unseen_maal_of_zero_or_under_kidnap_is_taken(table: Table):
    await table.ok(NEW)
    # 0 maal for an unseen player loses nothing: taken
    assert (await table.ok("/hand winner:bikash maal:bikash=5 ramesh=0")).ok
    await table.ok("/rules unseen_maal:kidnap")
    # kidnap: ramesh's unseen 2 goes to bikash (7); P 7, n 4: bikash 28-7 = +21, the others
    # -7; unseen pay 10 each: bikash +51, the others -17
    reply = await table.ok("/hand winner:bikash maal:bikash=5 ramesh=2 sita=0 prakash=0")
    assert reply.board.hands[-1]["points"] == {"bikash": 51, "ramesh": -17, "sita": -17,
                                               "prakash": -17}


async def test_maal_given_for_an_unseen_player_of_a_waiting_hand_is_refused(table: Table):
    await table.ok(NEW)
    waiting = await table.ok("/hand winner:bikash seen:ramesh maal:bikash=5")
    assert waiting.text == "Hand 1 waits for the maal of ramesh: /maal ramesh=…"
    said = await table.error("/maal sita=4")
    assert said == ("sita is unseen in this hand, and an unseen player's maal is murdered "
                    "here: leave it out. Still needed: /maal ramesh=… If they saw, /undo "
                    "drops the hand; record it again with them in seen:.")
    # cards count as maal too: sita's, counted, would be murdered the same
    assert "sita is unseen in this hand" in await table.error(
        "/maal tiplu:8H cards:sita=8H 9H 7H")


async def test_an_edit_that_leaves_maal_with_an_unseen_player_is_refused(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:bikash seen:ramesh maal:bikash=5 ramesh=2")
    said = await table.error("/edit hand:1 seen:none")
    assert said == ("ramesh would be unseen with maal, and an unseen player's maal is murdered "
                    "here. If ramesh saw: seen:ramesh. If not: maal:ramesh=0.")
    reply = await table.ok("/edit hand:1 seen:none maal:ramesh=0")
    # maal 5 alone: bikash 15, -5 each; three unseen pay 10: +45, -15 each
    assert reply.board.hands[-1]["points"] == {"bikash": 45, "ramesh": -15, "sita": -15,
                                               "prakash": -15}


async def test_a_near_miss_is_refused_and_every_unknown_name_reported(table: Table):
    await table.ok(NEW)
    said = await table.error("/hand winner:prakas seen:ramesh maal:prakas=5 ramesh=2 xx=3")
    assert said == ("Not players here: `prakas` (did you mean prakash?), `xx`. Players: "
                    "bikash, ramesh, sita, prakash.")
    said = await table.error("/hand winner:bikash seen:rmesh maal:bikash=5")
    assert said == ("No player called `rmesh`: did you mean ramesh? Players: bikash, ramesh, "
                    "sita, prakash.")
    assert (await table.board())["hand_count"] == 0


async def test_a_mistyped_tiplu_is_corrected_with_edit_and_the_cards_counted_again(
        table: Table):
    await table.ok("/newgame marriage players:alice bob")
    # tiplu 8H: alice's 8H 9H 7H is a marriage (10) + the tiplu held... counted by the
    # maal table; with tiplu 5S the same cards are worth nothing
    first = await table.ok("/hand winner:alice seen:bob tiplu:8H cards:alice=8H 9H 7H "
                           "bob=2C")
    assert "alice: marriage 10" in first.text
    edited = await table.ok("/edit hand:1 tiplu:5S")
    assert "maal alice 0, bob 0" in edited.text
    # 2 players, no maal: bob seen pays 3
    assert edited.board.hands[-1]["points"] == {"alice": 3, "bob": -3}
