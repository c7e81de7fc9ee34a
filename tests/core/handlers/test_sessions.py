"""Seats people take themselves (issue 30): a seat typed by name is taken by its person
before the first hand and given by the starter or an admin after it, by a tap, a reply or a
mention; /join never makes a second seat of one name; the packs are checked at /newgame."""

from __future__ import annotations

import json

import pytest

from bot.core.command import Actor, Command, Reply
from bot.core.flows import Ask, Step, seal
from bot.core.grammar import parse_command_text
from bot.core.handlers.flow_answers import NOT_YOURS
from bot.core.service import Service
from tests.conftest import Table

CHAT = "telegram:-1001"
HOST = Actor("telegram:1", "Hana", handles=("hana",))  # starts the games
BOB = Actor("telegram:2", "Bob")  # no @username, like many people on Telegram
CAROL = Actor("telegram:3", "Carol", handles=("carol_k",))
MO = Actor("telegram:4", "Mo")
NEW = "/newgame marriage players:@hana bob carol"


async def say(service: Service, who: Actor, line: str, *, buttons: bool = True,
              mentions: dict[str, Actor] | None = None, replied: Actor | None = None,
              chat: str = CHAT) -> Reply:
    parsed = parse_command_text(line)
    return await service.handle(Command(chat, who, parsed.name, parsed.options,
                                        buttons=buttons, mentions=mentions or {},
                                        replied=replied))


async def tap(service: Service, who: Actor, reply: Reply, value: str,
              chat: str = CHAT) -> Reply:
    assert reply.question is not None
    return await service.answer(chat, who, seal(reply.question.token, chat, service.secret),
                                value, origin=f"{chat}:tap")


async def test_the_newgame_reply_has_a_sit_here_button_for_each_seat_typed_by_name(
        service: Service):
    started = await say(service, HOST, NEW)
    question = started.question
    assert question is not None and question.ask == Ask.SEATS
    assert question.token.step == Step.SIT and question.token.starter == 0  # anyone
    # @hana is her account's already; bob and carol are typed by name
    assert [(c.label, c.value) for c in question.choices] == [("Sit at bob", "2"),
                                                              ("Sit at carol", "3")]
    assert "Seats typed by name: tap yours below, or /join bob." in started.text
    # Bob taps his: before the first hand it is his at once, and the chat is told
    sat = await tap(service, BOB, started, "2")
    assert sat.ok and sat.text == "Bob sits at bob."
    assert not sat.in_place  # a message of its own: the /newgame message keeps its buttons
    # the seat is his account's: he records a hand as bob
    hand = await say(service, BOB, "/hand winner:bob seen:carol maal:bob=3 carol=1")
    assert hand.ok and "Hand 1: bob won" in hand.text
    # a tap on a seat someone holds says whose it is
    taken = await tap(service, MO, started, "2")
    assert not taken.ok and "bob is someone else's seat" in taken.text
    # the console has no buttons: no question
    console = await say(service, HOST, NEW, buttons=False, chat="console")
    assert console.question is None and "tap yours" not in console.text


async def test_join_takes_the_seat_of_ones_own_name_and_never_makes_a_second(
        service: Service):
    await say(service, HOST, NEW)
    sat = await say(service, BOB, "/join")  # Bob's display name folds to the seat bob
    assert sat.text == "Bob sits at bob."
    players = (await say(service, HOST, "/players")).text
    assert "Bob2" not in players and players.count("\n") == 3  # the heading and 3 seats
    again = await say(service, BOB, "/join name:carol")
    assert not again.ok and again.text == "You are already seated as bob."  # told where
    # another Bob: the seat of that name is someone's; no "Bob2"
    other = await say(service, Actor("telegram:9", "bob"), "/join")
    assert not other.ok and "bob is someone else's seat" in other.text
    assert "Bob2" not in (await say(service, HOST, "/players")).text


async def test_a_name_in_look_alike_letters_never_sits_beside_the_one_it_copies(
        service: Service):
    """ᴀᴄᴇ in Latin small capitals reads as ace: a second seat under it would let a
    stranger pass for ace when money is counted."""
    await say(service, HOST, "/newgame marriage players:ace bob cat")
    copy = await say(service, MO, "/join name:ᴀᴄᴇ")
    assert not copy.ok
    assert copy.text == ("`ᴀᴄᴇ` looks like ace, who is already at the table; pick a name "
                         "that reads differently.")
    cyrillic = await say(service, MO, "/join name:ЬоЬ")  # Cyrillic Ь and о
    assert not cyrillic.ok and "looks like bob" in cyrillic.text
    players = (await say(service, HOST, "/players")).text
    assert "ᴀᴄᴇ" not in players and players.count("\n") == 3  # the heading and 3 seats
    own = await say(service, MO, "/join name:mo")  # a name that reads differently sits
    assert own.ok and "seat 4" in own.text
    # named together at /newgame: refused the same way
    both = await say(service, HOST, "/newgame marriage players:ice ıce bob", chat="console")
    assert not both.ok and "`ıce` looks like ice" in both.text


async def test_after_the_first_hand_a_claim_waits_for_the_starters_tap(service: Service):
    await say(service, HOST, NEW)
    await say(service, HOST, "/hand winner:hana seen:bob maal:hana=3 bob=1")
    asked = await say(service, CAROL, "/join carol")
    assert asked.ok and asked.text.startswith("Carol asks to sit at carol.")
    question = asked.question
    assert question is not None and question.token.step == Step.CLAIM
    assert question.token.starter == 1  # the game's starter (or an admin) answers
    assert [c.label for c in question.choices] == ["Let them sit at carol", "No"]
    # Carol is not seated yet, and can't let herself in
    assert not (await say(service, CAROL, "/sitout")).ok
    mine = await tap(service, CAROL, asked, "yes")
    assert not mine.ok and mine.text == NOT_YOURS
    let = await tap(service, HOST, asked, "yes")
    assert let.ok and let.in_place and let.text == "Carol sits at carol (seat 3)."
    assert (await say(service, CAROL, "/sitout")).text.startswith("carol sits out")
    # the ask is answered: the same button again changes nothing
    stale = await tap(service, HOST, asked, "yes")
    assert not stale.ok or stale.duplicate


async def test_a_claim_tap_after_the_seat_went_elsewhere_is_refused(service: Service):
    await say(service, HOST, NEW)
    await say(service, HOST, "/hand winner:hana seen:bob maal:hana=3 bob=1")
    asked = await say(service, MO, "/join bob")  # Mo asks for bob's seat
    await say(service, HOST, "/seat bob", replied=BOB)  # the starter gives it to Bob
    stale = await tap(service, HOST, asked, "yes")
    assert not stale.ok and "The table changed since this was asked" in stale.text
    assert (await say(service, BOB, "/sitout")).ok  # still Bob's


async def test_seat_in_reply_to_a_message_gives_it_to_its_sender(service: Service):
    await say(service, HOST, NEW)
    given = await say(service, HOST, "/seat bob", replied=BOB)
    assert given.text == "Bob sits at bob (seat 2)."
    # a person already seated is moved; the seat left is a guest seat again
    moved = await say(service, HOST, "/seat carol", replied=BOB)
    assert moved.text == "Bob sits at carol (seat 3). bob is a guest seat again."
    players = (await say(service, HOST, "/players")).text
    assert "2. bob (guest)" in players and "3. carol" in players and "3. carol (" not in players
    # nothing to say who: told every way there is
    said = await say(service, HOST, "/seat bob")
    assert not said.ok and said.text == ("Say who gets bob: person:@username, a mention, or "
                                         "send /seat bob in reply to a message of theirs.")
    # only the starter or an admin gives seats
    assert "Only the person who started the game" in (
        await say(service, MO, "/seat bob", replied=MO)).text


async def test_seat_to_a_username_is_that_accounts_whoever_it_is(service: Service):
    await say(service, HOST, NEW)
    given = await say(service, HOST, "/seat carol person:@carol_k")
    assert given.text == "carol is @carol_k's seat now (seat 3)."
    # Carol's account has that username: the seat is hers from her first command
    assert (await say(service, CAROL, "/sitout")).text.startswith("carol sits out")
    # a username of 25 to 32 characters is a username too (the 24 is for typed names)
    long = "a_very_long_telegram_user_31"
    assert (await say(service, HOST, f"/seat bob person:@{long}")).ok
    assert "Say who gets bob" in (await say(service, HOST, "/seat bob person:bobby")).text
    # Telegram's usernames are 5 to 32 characters, from a letter: @bob is none
    assert "Say who gets bob" in (await say(service, HOST, "/seat bob person:@bob")).text
    assert "Say who gets bob" in (await say(service, HOST, f"/seat bob person:@{long}xxxxx")
                                  ).text


async def test_newgame_seats_any_valid_username_and_cuts_display_names_whole(
        service: Service):
    long = "a_very_long_telegram_username_32"  # 32 characters: Telegram's most
    started = await say(service, HOST, f"/newgame marriage players:@{long} bob")
    assert started.ok and f"Players: {long}, bob." in started.text
    assert "too long" in (await say(service, HOST, f"/newgame players:{long}",
                                    chat="telegram:-1002")).text  # typed: 24 at most
    # a person named by a mention without a username: their display name, cut between
    # letters as they are seen (स्ते is one, four code points)
    sita = Actor("telegram:7", "राम" * 7 + "नमस्ते")
    named = await say(service, HOST, "/newgame marriage players:<@7> bob",
                      mentions={"<@7>": sita}, chat="telegram:-1003")
    assert f"Players: {'राम' * 7}नम, bob." in named.text


async def test_a_mention_names_the_seat_typed_with_that_persons_name(service: Service):
    await say(service, HOST, "/newgame marriage players:@hana bob sita")
    sita = Actor("telegram:8", "Sita")
    hand = await say(service, HOST, "/hand winner:hana seen:<@8> maal:hana=1 sita=2",
                     mentions={"<@8>": sita})
    assert hand.ok and "seen sita" in hand.text
    # someone else's seat is never named by a mention of another person of that name
    await say(service, HOST, "/seat bob", replied=BOB)
    other = await say(service, HOST, "/hand winner:hana seen:<@9> maal:hana=1",
                      mentions={"<@9>": Actor("telegram:9", "bob")})
    assert not other.ok
    assert "bob is not the bob seated here: that seat is another account's." in other.text


async def test_the_packs_are_checked_when_the_game_starts_and_a_player_joins(
        service: Service):
    ten = " ".join("abcdefghij")
    started = await say(service, HOST, f"/newgame marriage_rummy players:{ten}")
    # 10 x 21 cards and the joker turned up = 211; 3 packs hold 156, 4 hold 208, 5 hold 260
    assert "10 players x 21 cards and the joker don't fit in 3 packs: /rules packs:5 " \
           "deals them." in started.text
    refused = await say(service, HOST, "/hand winner:a points:b=1 c=1 d=1 e=1 f=1 g=1 h=1 "
                                       "i=1 j=1")
    assert not refused.ok and "/rules packs:5" in refused.text
    await say(service, HOST, "/rules packs:5")
    assert (await say(service, HOST, "/hand winner:a points:b=1 c=1 d=1 e=1 f=1 g=1 h=1 "
                                     "i=1 j=1")).ok
    # Marriage: 7 players fit in 3 packs (7 x 21 + 1 = 148); an eighth (169) needs 4 (208)
    chat = "telegram:-1004"
    seven = " ".join("abcdefg")
    started = await say(service, HOST, f"/newgame marriage players:{seven}", chat=chat)
    assert "don't fit" not in started.text
    joined = await say(service, MO, "/join", chat=chat)
    assert joined.ok and ("8 players x 21 cards and the tiplu don't fit in 3 packs: /rules "
                          "packs:4 deals them.") in joined.text


async def test_a_person_given_another_seat_leaves_the_one_of_their_username(
        service: Service):
    await say(service, HOST, "/newgame marriage players:@carol_k bob", chat="telegram:-1005")
    moved = await say(service, HOST, "/seat bob person:<@3>", mentions={"<@3>": CAROL},
                      chat="telegram:-1005")
    assert moved.text == "Carol sits at bob (seat 2). carol_k is a guest seat again."
    assert (await say(service, CAROL, "/sitout", chat="telegram:-1005")).text.startswith(
        "bob sits out")


async def test_a_name_with_a_space_in_a_list_with_commas_is_refused_not_split(
        service: Service):
    # "mary jane" between commas is one person's name, and a name has no spaces: refused,
    # never two seats "mary" and "jane"
    refused = await say(service, HOST, "/newgame marriage players:mary jane, bob, carol",
                        buttons=False, chat="console")
    assert not refused.ok and refused.text.startswith("`mary jane` can't be a name")
    # commas alone, or spaces alone, are lists as ever
    for line in ("/newgame marriage players:ram, sita, hari",
                 "/newgame marriage players:ram sita hari"):
        started = await say(service, HOST, line, buttons=False, chat="console")
        assert "Players: ram, sita, hari." in started.text
        assert (await say(service, HOST, "/endgame", buttons=False, chat="console")).ok


# --- /endgame of a game with no hand: closed, never archived ------------------------------

# each game: how it starts, its title and word for a hand, one of its hands
GAMES = {
    "marriage": ("/newgame marriage players:ram sita hari", "Nepali Marriage", "hand",
                 "/hand winner:ram seen:sita maal:ram=3 sita=1"),
    "marriage_rummy": ("/newgame marriage_rummy players:ram sita hari", "Marriage rummy",
                       "hand", "/hand winner:ram points:sita=25 hari=7"),
    "tranca": ("/newgame tranca players:ram sita", "Tranca", "round",
               "/round side:A table:100 hand:10", "/round side:B table:50 hand:0"),
    "riichi": ("/newgame riichi players:ram sita hari gita", "Riichi mahjong", "result",
               "/ron winner:ram from:sita han:3 fu:30"),
    "callbreak": ("/newgame callbreak players:ram sita hari gita", "Call Break", "round",
                  "/round bids:ram=3 sita=4 hari=2 gita=3 tricks:ram=5 sita=2 hari=3 gita=3"),
}
KEPT = ("/newgame marriage players:alice bob carol", "/rules rate:10 currency:Rs",
        "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0", "/endgame")


def closed(title: str, word: str) -> str:
    """What the rule says /endgame of a game with no hand answers, in one line."""
    return f"{title} closed: no {word} was recorded, so nothing was kept or settled."


async def _looks(table: Table) -> list[str | None]:
    """Everything a chat shows of its finished games: their list, standings, money."""
    said = []
    for line in ("/board last", "/history last", "/stats", "/stats season", "/season",
                 "/ledger", "/ledger history"):
        reply = await table.ok(line)
        said += [reply.text, reply.table]
    return said


@pytest.mark.parametrize("undone", [False, True], ids=["none played", "every one undone"])
@pytest.mark.parametrize("key", list(GAMES))
async def test_a_game_ended_with_no_hand_is_closed_not_archived(
        table: Table, service: Service, key: str, undone: bool):
    start, title, word, *hand = GAMES[key]
    await table.ok("/season start name:Autumn")
    for line in KEPT:  # one finished game, played for money
        await table.ok(line)
    before = await _looks(table)
    await table.ok(start)
    await table.ok("/rules rate:2")  # seats and rules alone make nothing worth keeping
    if undone:
        for line in hand:
            await table.ok(line)
        await table.ok("/undo")
    assert (await table.ok("/endgame")).text == closed(title, word)
    # nothing of it anywhere: the chat has played one game, as before it
    assert await _looks(table) == before
    assert await table.error("/board 2") == (
        "There is no game `2`: this chat has played 1 game; give last or 1.")
    exported = await table.ok("/export all")
    assert [s["game"] for s in json.loads(exported.file.data)["sessions"]] == ["marriage"]
    imported = await service.handle(Command(
        "chat-2", Actor("test:host", "host", is_admin=True), "import", {}, "import-1",
        attachment=exported.file.data))
    assert imported.ok and imported.text.startswith("Imported 1 session.")
    # /undo right after is what it is after any /endgame: no game is open to undo in
    assert (await table.error("/undo")).startswith("No game is open here.")
    assert await _looks(table) == before
    # and the chat starts another at once
    assert (await table.ok(start)).text.startswith(f"New {title} game.")


async def _log_rows(service: Service, session_id: int) -> dict[str, int]:
    """How many rows the database holds of a game's log: its hands (undone ones too),
    their rule sets and its events."""
    from sqlalchemy import func, select

    from bot.storage.engine import tables

    counts = {}
    async with service.store.engine.connect() as conn:
        for table in (tables.hands, tables.rule_sets, tables.session_events):
            counts[table.name] = (await conn.execute(
                select(func.count()).where(table.c.session_id == session_id))).scalar_one()
    return counts


@pytest.mark.parametrize("key", list(GAMES))
async def test_the_undone_hands_of_a_game_closed_empty_are_not_kept(
        table: Table, service: Service, key: str):
    """Issue 38: a game whose every hand was undone, then ended, is closed and shown
    nowhere; its undone hands, their rules and its events went with it. The kept game's
    log stays whole."""
    start, _title, _word, *hand = GAMES[key]
    for line in KEPT:
        await table.ok(line)
    kept = (await table.ok("/board last")).board
    assert kept is not None
    await table.ok(start)
    snapshot = await service.snapshot(table.chat)
    assert snapshot is not None and snapshot.session.id is not None
    dropped = snapshot.session.id
    await table.ok("/rules rate:2")  # an event, and the hands' rules a set of their own
    for line in hand:
        await table.ok(line)
    await table.ok("/undo reason:wrong table")
    logged = await _log_rows(service, dropped)
    assert logged["hands"] >= 1 and logged["rule_sets"] >= 1 and logged["session_events"]
    kept_before = await _log_rows(service, kept.session)
    await table.ok("/endgame")
    assert await _log_rows(service, dropped) == {"hands": 0, "rule_sets": 0,
                                                 "session_events": 0}
    assert await _log_rows(service, kept.session) == kept_before


async def test_ending_a_game_with_no_hand_asks_so_and_a_stale_tap_keeps_a_later_hand(
        service: Service):
    chat = "telegram:-1010"
    await say(service, HOST, NEW, chat=chat)
    asked = await say(service, HOST, "/endgame", chat=chat)
    assert asked.question is not None
    assert asked.text == ("End the game? No hand was recorded: it closes without being "
                          "kept, with nothing to settle.")
    # a hand recorded meanwhile: the tap is refused, the game and its hand stay
    hand = "/hand winner:hana seen:bob maal:hana=3 bob=1"
    await say(service, HOST, hand, chat=chat)
    stale = await tap(service, HOST, asked, "yes", chat=chat)
    assert not stale.ok and stale.text == ("The table changed since this was asked; "
                                           "nothing was done. Ask again.")
    assert (await say(service, HOST, "/board", chat=chat)).text == "Nepali Marriage: 1 hand"
    # undone: asked again, the tap closes it, in place of the question
    await say(service, HOST, "/undo reason:typo", chat=chat)
    asked = await say(service, HOST, "/endgame", chat=chat)
    ended = await tap(service, HOST, asked, "yes", chat=chat)
    assert ended.ok and ended.text == closed("Nepali Marriage", "hand")
    assert ended.board is not None and ended.board.ended and ended.table is None
    # the same tap again is the same answer; the button tapped anew finds no game to end
    assert (await tap(service, HOST, asked, "yes", chat=chat)).duplicate
    assert asked.question is not None
    again = await service.answer(chat, HOST, seal(asked.question.token, chat, service.secret),
                                 "yes", origin=f"{chat}:another tap")
    assert not again.ok and again.text.startswith("No game is open here.")
    # a game left with one hand after an undo is archived as ever, its hand and all
    assert (await say(service, HOST, NEW, chat=chat)).ok
    for line in (hand, hand, "/undo reason:typo"):
        await say(service, HOST, line, buttons=False, chat=chat)
    end = await say(service, HOST, "/endgame", buttons=False, chat=chat)
    assert end.text.startswith("Game over after 1 hand.") and "archived" in end.text
    assert (await say(service, HOST, "/board 1", chat=chat)).text == \
        "Nepali Marriage: 1 hand (finished)"
