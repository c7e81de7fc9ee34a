"""The core service end to end on a real database (SQLite and PostgreSQL)."""

import pytest

from bot.core.errors import UserError
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import open_store
from tests.conftest import Table

NEW = "/newgame marriage players:alice bob carol"


async def test_worked_example_through_the_commands(table: Table):
    await table.ok(NEW)
    reply = await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes")
    assert "Hand 1" in reply.text
    assert reply.board.totals == {"alice": 41, "bob": -14, "carol": -27}
    assert reply.board.hands == [{"no": 1, "points": {"alice": 41, "bob": -14, "carol": -27}}]
    assert "+41" in reply.table and "-27" in reply.table


async def test_one_open_session_per_chat_and_chats_are_separate(table: Table, service: Service):
    await table.ok(NEW)
    assert "/endgame" in await table.error(NEW)
    other = Table(service, chat="chat-2")
    await other.ok("/newgame players:dave erin")
    await other.ok("/hand winner:dave maal:dave=3")
    assert (await table.board())["hand_count"] == 0


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/newgame marriage players:alice", "2 to 10 players"),
        ("/newgame marriage players:a b c d e f g h i j k", "2 to 10 players"),
        ("/newgame marriage players:alice Alice", "named twice"),
        ("/newgame marriage players:alice @everyone", "reserved"),
        ("/newgame marriage players:alice " + "b" * 400, "too long"),
        ("/newgame marriage players:alice 🎲", "can't be a name"),
        ("/newgame poker players:alice bob", "don't know the game"),
        ("/newgame marriage players:alice bob colour:red", "no option `colour:`"),
    ],
)
async def test_newgame_refuses_bad_tables(table: Table, line: str, message: str):
    assert message in await table.error(line)
    assert "No game is open" in await table.error("/board")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/hand seen:bob maal:bob=3", "Name the winner"),
        ("/hand winner:alice bob maal:alice=1 bob=1", "exactly one winner"),
        ("/hand winner:dave maal:dave=1", "No player called `dave`. Players: alice, bob, carol"),
        ("/hand winner:alice maal:alice=-3", "between 0 and 999"),
        ("/hand winner:alice maal:alice=" + "9" * 300, "too large"),
        ("/hand winner:alice maal:alice=ten", "whole number"),
        ("/hand winner:alice seen:bob bob maal:alice=1 bob=1", "listed twice"),
        ("/hand winner:alice foul:alice", "can't win and foul"),
        ("/hand winner:alice foul:bob maal:alice=1 bob=2", "leave their maal out"),
        ("/hand winner:alice dublee:maybe maal:alice=1", "yes or no"),
        ("/hand alice won", "key:value"),
        ("/hand maal:7", "No hand is waiting"),
        ("/hand", "Say who won"),
        ("/hand winner:alice maal:alice=1 alice=2", "given twice"),
        ("/hand winner:alice maal:7", "not playing in this hand"),
        ("/maal 7", "No hand is waiting"),
        ("/hand winner:@everyone", "No player called"),
        ("/frobnicate", "don't know /frobnicate"),
    ],
)
async def test_bad_hands_change_nothing(table: Table, line: str, message: str):
    await table.ok(NEW)
    await table.ok("/hand winner:bob seen:alice maal:alice=2 bob=3")
    before = await table.board()
    assert message in await table.error(line)
    assert await table.board() == before


async def test_missing_maal_waits_then_players_report_their_own(table: Table):
    await table.ok(NEW)
    reply = await table.ok("/hand winner:alice seen:bob carol maal:alice=4")
    assert reply.board.waiting_for == ["bob", "carol"]
    assert reply.board.hand_count == 0
    # short: whose maal is missing and how to give it, in the prompt's syntax; no board
    assert reply.text == "Hand 1 waits for the maal of bob, carol: /maal bob=… carol=…"
    assert reply.table is None
    assert "Hand 1" in (await table.ok("/board")).text
    reply = await table.ok("/maal 5", by="bob")
    assert reply.text == "Hand 1 waits for the maal of carol: /maal carol=…"
    assert "A hand waits for the maal of carol: /maal carol=…, or /undo drops it." in \
        await table.error("/hand winner:bob maal:bob=1")
    reply = await table.ok("/hand maal:2", by="carol")
    assert reply.board.hand_count == 1
    # s = 4, 5, 2 (P 11): 1, 4, -5; game: alice +6, bob -3, carol -3
    assert reply.board.totals == {"alice": 7, "bob": 1, "carol": -8}
    assert reply.board.waiting_for is None


async def test_someone_else_can_give_maal_and_a_bare_number_needs_a_seat(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=4")
    assert "not playing" in await table.error("/maal 3", by="host")
    # someone not at the table may not touch the hand
    assert "Only a player" in await table.error("/maal bob=3", by="stranger")
    reply = await table.ok("/maal bob=3", by="carol")
    # s = 4, 3, 0 (P 7): 5, 2, -7; game +13, -3, -10
    assert reply.board.totals == {"alice": 18, "bob": -1, "carol": -17}


async def test_unseen_maal_is_needed_only_when_it_counts(table: Table):
    await table.ok(NEW)
    await table.ok("/rules unseen_maal:kidnap")
    reply = await table.ok("/hand winner:alice seen:bob maal:alice=4 bob=2")
    assert reply.board.waiting_for == ["carol"]
    reply = await table.ok("/maal 6", by="carol")
    # kidnap: s = 10, 2, 0 -> 18, -6, -12; game +13, -3, -10
    assert reply.board.totals == {"alice": 31, "bob": -9, "carol": -22}


async def test_undo_restores_the_board_and_needs_the_recorder_or_an_admin(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1", by="bob")
    before = await table.board()
    await table.ok("/hand winner:carol seen:alice bob maal:alice=3 bob=1 carol=9", by="bob")
    assert "Only the person who recorded it, the person who started the game or a chat " \
        "admin can undo hand 2 (recorded by bob)" in await table.error("/undo", by="carol")
    reply = await table.ok("/undo reason:wrong winner", by="bob")
    assert "Undid hand 2" in reply.text
    assert await table.board() == before
    await table.ok("/undo")  # the host is the chat admin
    assert (await table.board())["totals"] == {"alice": 0, "bob": 0, "carol": 0}
    assert "no hand to undo" in await table.error("/undo")


async def test_undo_drops_a_waiting_hand(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=3", by="bob")
    assert "Dropped" in (await table.ok("/undo", by="bob")).text
    board = await table.board()
    assert board["hand_count"] == 0 and "waiting_for" not in board


async def test_edit_changes_one_hand_and_the_totals_follow(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes")
    await table.ok("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    await table.ok("/rules seen:5")  # later rules must not touch hand 1
    reply = await table.ok("/edit hand:1 dublee:no reason:no dublees")
    # hand 1 without dublee: 18, -6, -12 with game +13, -3, -10 -> 31, -9, -22
    assert reply.board.hands[0]["points"] == {"alice": 31, "bob": -9, "carol": -22}
    assert reply.board.totals == {"alice": 31 - 3, "bob": -9 + 6, "carol": -22 - 3}
    assert "between 1 and 2" in await table.error("/edit hand:3 dublee:no")
    assert "Say what to change" in await table.error("/edit hand:1")
    assert "between 0 and 999" in await table.error("/edit hand:2 maal:bob=-1")


async def test_edit_permissions(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=1 bob=1", by="bob")
    assert "Only its players, the person who recorded it" in await table.error(
        "/edit hand:1 maal:bob=2", by="zed")
    await table.ok("/edit hand:1 maal:bob=2", by="carol")  # a player of that hand may


async def test_rules_show_change_and_presets(table: Table):
    await table.ok(NEW)
    shown = (await table.ok("/rules")).text
    assert "unseen_maal: murder" in shown and "kidnap" in shown
    assert "has no option `colour:`" in await table.error("/rules colour:red")
    assert "is one of" in await table.error("/rules unseen_maal:theft")
    assert "between" in await table.error("/rules seen:3 unseen:-1")
    assert "unseen: 10" in (await table.ok("/rules")).text  # the bad change changed nothing
    await table.ok("/rules preset:kidnap rate:0.25 currency:Rs")
    shown = (await table.ok("/rules")).text
    assert "unseen_maal: kidnap" in shown and "rate: 0.25" in shown and "currency: Rs" in shown
    assert "no preset" in await table.error("/rules preset:vegas")


async def test_dublee_needs_enough_players(table: Table):
    await table.ok(NEW)
    await table.ok("/rules dublee_min_players:4")
    assert "at least 4 players" in await table.error(
        "/hand winner:alice dublee:yes maal:alice=1")


async def test_foul_and_misdeal(table: Table):
    await table.ok("/newgame players:alice bob carol dave")
    reply = await table.ok("/hand winner:alice seen:bob foul:dave maal:alice=3 bob=6")
    assert reply.board.totals == {"alice": 28, "bob": 21, "carol": -4, "dave": -45}
    reply = await table.ok("/hand foul:bob")
    assert reply.board.hands[-1]["points"] == {"alice": 15, "bob": -45, "carol": 15,
                                                 "dave": 15}


async def test_setmaal_shows_and_edits_the_table(table: Table):
    await table.ok(NEW)
    # pagat's table (marriage.md): 1 tiplu 3, 2 tiplu 7; alter and man not counted. Each line
    # as text, not padded into columns a phone would wrap out of line
    lines = (await table.ok("/setmaal")).text.splitlines()
    assert lines[1:2] == ["tiplu 3/7 — tiplu (the joker card)"]
    assert "alter - — alter (same rank, same colour)" in lines
    await table.ok("/setmaal preset:house tiplu:3 9")
    text = (await table.ok("/setmaal")).text
    assert "3/9" in text and "5/15/30" in text
    assert "at most 2 values" in await table.error("/setmaal marriage:1 2 3")
    assert "has no option `joker:`" in await table.error("/setmaal joker:5")


async def test_join_and_players(table: Table):
    await table.ok("/newgame", by="Ram Bahadur")
    assert "at least 2" in await table.error("/hand winner:ram_bahadur maal:1")
    reply = await table.ok("/join", by="sita")
    assert "sita joins at seat 2" in reply.text
    assert "already seated as sita" in await table.error("/join", by="sita")
    await table.ok("/hand winner:sita maal:sita=2")
    reply = await table.ok("/join name:hari", by="hari_account")
    assert "from the next hand" in reply.text
    players = (await table.ok("/players")).text
    assert "3. hari (joined after hand 1)" in players
    board = await table.board()
    assert board["players"] == ["Ram_Bahadur", "sita", "hari"]
    assert board["hands"][0]["points"].keys() == {"Ram_Bahadur", "sita"}
    assert "someone else's seat" in await table.error("/join name:sita", by="imposter")


async def test_a_seat_typed_by_name_is_taken_before_the_first_hand_given_after_it(
        table: Table):
    from bot.core.command import Actor, Command

    await table.ok(NEW)  # the host types the names: guest seats

    def as_account(line: str, who: str, mentions: dict | None = None) -> Command:
        parsed = parse_command_text(line)
        return Command(table.chat, Actor(who, who.split(":")[1].title()), parsed.name,
                       parsed.options, mentions=mentions or {})

    # before the first hand a free seat typed by name is taken at once, and the chat told
    taken = await table.service.handle(as_account("/join name:bob", "tg:bob"))
    assert taken.ok and taken.text == "Bob sits at bob."
    await table.ok("/hand winner:alice seen:bob maal:alice=1 bob=1")
    # after it the person who started the game (or an admin) gives it
    carol = Actor("tg:carol", "Carol")
    asked = await table.service.handle(as_account("/join name:carol", "tg:carol"))
    assert asked.ok and asked.text.startswith("Carol asks to sit at carol.")
    assert "/seat carol person:@Carol" in asked.text  # a name is not a key
    not_yet = await table.service.handle(as_account("/sitout", "tg:carol"))
    assert not not_yet.ok
    refused = await table.service.handle(as_account("/seat carol person:@carol", "tg:bob",
                                                    {"@carol": carol}))
    assert not refused.ok and "Only the person who started the game" in refused.text
    given = await table.service.handle(as_account("/seat carol person:@carol", "test:host",
                                                  {"@carol": carol}))
    assert given.text == "Carol sits at carol (seat 3)."
    mine = await table.service.handle(as_account("/sitout", "tg:carol"))
    assert mine.ok and "carol sits out" in mine.text


async def test_endgame_settles_up_and_archives(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes")
    reply = await table.ok("/endgame")
    assert "1. alice +41 points = +10.25 Rs" in reply.text
    assert "carol pays alice 6.75 Rs" in reply.text
    assert "bob pays alice 3.50 Rs" in reply.text
    assert reply.board.ended is True
    assert "No game is open" in await table.error("/hand winner:alice")
    assert "(finished)" in (await table.ok("/board")).text  # the game just ended, shown
    await table.ok(NEW)  # a new game can start


async def test_endgame_refuses_a_waiting_hand_and_strangers(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=1")
    assert "waiting for maal from bob" in await table.error("/endgame")
    await table.ok("/undo")
    assert "Only a player" in await table.error("/endgame", by="stranger")


async def test_a_redelivered_command_records_nothing_twice(table: Table):
    await table.ok(NEW)
    first = await table("/hand winner:alice seen:bob maal:alice=3 bob=1", origin="tg:1:55")
    again = await table("/hand winner:alice seen:bob maal:alice=3 bob=1", origin="tg:1:55")
    assert again.duplicate and again.text == first.text
    assert (await table.board())["hand_count"] == 1


async def test_everything_survives_a_restart(database_url: str):
    store = await open_store(database_url)
    table = Table(Service(store))
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes",
                   origin="o-1")
    await table.ok("/hand winner:bob seen:alice maal:alice=3 bob=1")
    await table.ok("/rules rate:0.5")
    before = await table.board()
    await store.close()

    store = await open_store(database_url)
    table = Table(Service(store))
    assert await table.board() == before
    assert (await table("/hand winner:x", origin="o-1")).duplicate
    await store.close()


async def test_help_explains_commands_words_and_rules(table: Table):
    text = (await table.ok("/help")).text
    for word in ("/hand", "/endgame", "/help marriage", "/help rules", "/help seat"):
        assert word in text
    words = (await table.ok("/help marriage")).text  # the game's words are its topic
    for word in ("tiplu", "poplu", "jhiplu", "maal", "seen", "dublee"):
        assert word in words
    assert "Usage: /hand" in (await table.ok("/help hand")).text
    assert "kidnap" in (await table.ok("/help rules")).text
    assert "No help" in (await table.ok("/help nonsense")).text
    for name in ("newgame", "join", "players", "board", "undo", "edit", "rules", "setmaal",
                 "maal", "endgame"):
        assert "Usage:" in (await table.ok(f"/help {name}")).text


async def test_sitting_out_and_back(table: Table):
    await table.ok("/newgame players:alice bob carol dave")
    reply = await table.ok("/sitout dave")
    assert "dave sits out" in reply.text and "Playing: alice, bob, carol" in reply.text
    assert "already sitting out" in await table.error("/sitout dave")
    assert "not playing in this hand" not in await table.error("/hand winner:dave maal:dave=1")
    reply = await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes")
    # the worked example again: n = 3 without dave, who is untouched
    assert reply.board.hands[-1]["points"] == {"alice": 41, "bob": -14, "carol": -27}
    assert "sitting out" in (await table.ok("/players")).text
    await table.ok("/back", by="dave")  # a guest seat found by its name
    reply = await table.ok("/hand winner:dave seen:alice maal:alice=0 dave=0")
    assert set(reply.board.hands[-1]["points"]) == {"alice", "bob", "carol", "dave"}
    assert "Say who" in await table.error("/sitout", by="stranger")


@pytest.mark.parametrize(("game", "because"), [
    ("riichi players:alice bob carol dave", "In Riichi every seat plays every hand"),
    ("tranca teams:alice+carol bob+dave", "In Tranca a side scores as one"),
])
async def test_a_game_that_scores_every_seat_refuses_sitting_out(table: Table, game: str,
                                                                 because: str):
    await table.ok(f"/newgame {game}")
    error = await table.error("/sitout dave")
    assert because in error and "nobody sits out" in error, error
    players = (await table.ok("/players")).text
    assert "sitting out" not in players  # nothing changed
    assert "already playing" in await table.error("/back dave")


async def test_riichi_takes_a_new_seat_only_before_its_first_result(table: Table):
    """riichi.md: the scores plus the sticks on the table always add to players x start; a
    seat that joined after a result would break that, so it is refused until the next game.
    Before the first result a fourth player may still sit down."""
    await table.ok("/newgame riichi players:alice bob carol")  # Riichi's default rules
    await table.ok("/join dave", by="dave")
    await table.ok("/ron winner:alice from:bob han:1 fu:30")
    error = await table.error("/join erin", by="erin")
    assert "the seats are set once a result is recorded" in error, error
    players = (await table.ok("/players")).text
    assert "erin" not in players and "dave" in players  # nothing changed


async def test_another_games_newgame_option_is_refused_not_ignored(table: Table):
    assert "Nepali Marriage has no /newgame option teams:" in await table.error(
        "/newgame marriage teams:a+b c+d")
    assert "No game is open" in await table.error("/board")  # nothing was started


async def test_odd_input_gets_a_clear_answer_not_a_crash(table: Table):
    await table.ok(NEW)
    assert "not a timezone" in await table.error("/settings timezone:" + "A" * 300)
    with pytest.raises(UserError, match="broken character"):  # the text grammar says so
        parse_command_text("/undo reason:half \ud83d an emoji")
    from bot.core.command import Actor, Command  # Discord's typed options reach the core raw

    raw = await table.service.handle(Command(table.chat, Actor("test:host", "host", True),
                                             "undo", {"reason": "half \ud83d an emoji"}))
    assert not raw.ok and "broken character" in raw.text
    assert "needs a letter" in await table.error("/join name:-")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")
    nul = await table.ok("/undo reason:a\x00b")  # a NUL is read as a space
    assert "Undid hand 1" in nul.text
    text = (await table.ok("/history")).text
    assert "(reason: a b)" in text


async def test_the_same_hand_twice_in_a_row_is_flagged_with_an_undo_at_hand(table: Table):
    await table.ok(NEW)
    line = "/hand winner:alice seen:bob maal:alice=3 bob=1"
    first = await table.ok(line)
    assert "same as" not in first.text
    second = await table.ok(line)
    assert "This is the same as hand 1. If it was sent twice, /undo takes this one back." \
        in second.text
    assert second.question is not None and second.question.choices[0].label == "Yes, undo"
    other = await table.ok("/hand winner:bob seen:alice maal:alice=3 bob=1")
    assert "same as" not in other.text


async def test_examples_in_replies_use_the_tables_names(table: Table):
    started = await table.ok("/newgame marriage players:ram sita hari")
    assert "/hand winner:ram seen:sita maal:ram=10 sita=5" in started.text
    assert "winner:ram" in (await table.ok("/help hand")).text


async def test_counting_maal_with_no_game_uses_the_chats_last_maal_table(table: Table):
    # the default table: a marriage (jhiplu tiplu poplu) is 10, a second tiplu 3 more
    line = "/maal tiplu:8H cards:8H 8H 9H 7H 8D"
    assert "= 13" in (await table.ok(line)).text
    await table.ok(NEW)
    await table.ok("/setmaal tiplu:4 9")  # this table pays 4 for one tiplu, 9 for two
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")  # kept: it has a hand
    await table.ok("/endgame")
    # with no game open, the chat's last table still counts: the marriage 7H 8H 9H is 10,
    # the other 8H one tiplu, which this table pays 4 for: 14
    assert "marriage 10 + tiplu 4 = 14" in (await table.ok(line)).text


async def test_a_player_sitting_out_is_named_as_such(table: Table):
    await table.ok("/newgame marriage players:ram sita bikram")
    await table.ok("/sitout bikram")
    assert "bikram is sitting out: /back bikram" in await table.error(
        "/hand winner:ram seen:bikram maal:ram=1")


@pytest.mark.parametrize(("line", "start"), [
    ("/ron winner:alice from:bob han:3 fu:30",
     "/ron is for Riichi mahjong: start one with /newgame riichi players:alice bob carol"),
    ("/bid 3 4 2 3",
     "/bid is for Call Break: start one with /newgame callbreak players:alice bob carol "
     "dave"),
    ("/round side:A table:100",  # several games have /round: each is offered
     "/round is for Tranca, Call Break, Points, Dhumbal: start one with /newgame tranca "
     "players:alice bob   /newgame callbreak players:alice bob carol dave   "
     "/newgame points players:alice bob   /newgame dhumbal players:alice bob")])
async def test_a_games_command_before_any_game_says_how_to_start_that_game(
        table: Table, line: str, start: str):
    said = await table.error(line)
    assert said == f"No game is open here. {start}"
    # the game it offers starts as offered
    await table.ok(start.split("start one with ")[1].split("   ")[0])
    await table.ok("/endgame")


async def test_undoing_a_hand_counted_from_cards_names_it_in_one_line(table: Table):
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok("/hand winner:alice seen:bob tiplu:8H cards:alice=8H 9H 7H bob=9H")
    undone = await table.ok("/undo reason:typo")
    # 8H 9H 7H with tiplu 8H is a marriage (10); 9H is poplu (2): said when recorded, not
    # inside the brackets of the undo
    assert undone.text.splitlines()[0] == (
        "Undid hand 1 (alice won; seen bob; unseen carol (maal murdered); maal alice 10, "
        "bob 2; tiplu 8H).")
    assert "marriage 10 = 10" not in undone.text


@pytest.mark.parametrize(("line", "meant"), [
    ("/settle", "/endgame"),  # not /setmaal, the nearest spelling
    ("/standings", "/board"),  # not /settings
    ("/pay bob 5 to:alice", "/paid"),  # not /players
    ("/debts", "/ledger"),
    ("/hnad", "/hand"),  # a typo still finds the nearest command
])
async def test_an_unknown_command_points_to_the_one_meant(table: Table, line: str, meant: str):
    await table.ok("/newgame marriage players:alice bob carol")
    error = await table.error(line)
    assert f"Did you mean {meant}?" in error, error
