"""The first night at a real table on Telegram (issue 30), through the real
python-telegram-bot against the fake Bot API: seats taken by a tap and given by a reply, a
mention or a username; entries that can't go silently wrong; short waiting replies; /edit
for every game's result; the small things."""

from __future__ import annotations

import itertools

from bot.core.handlers.flow_answers import NOT_YOURS
from bot.telegram_adapter.keyboards import MAX_CALLBACK_BYTES
from tests.telegram_adapter.test_buttons import edit_of, message_of
from tests.telegram_helpers import ALICE, BOB, GROUP, STRANGER, Harness, person

NEW = "/newgame marriage players:@alice bob carol"
SITA = person(104, "Sita")  # no @username
LONG = person(105, "Long", "a_very_long_telegram_user_28")  # 28 characters
_chats = itertools.count(-1007000000000, -1)


async def answer(tg: Harness, who: dict, text: str, **kw) -> dict:
    return await tg.reply_to(await tg.say(who, text, **kw))


async def notice(tg: Harness, query: str) -> dict:
    """What the presser of a button was told (answerCallbackQuery)."""
    return await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("answerCallbackQuery")
         if p.get("callback_query_id") == query), None))


async def test_a_seat_is_taken_by_its_button_and_given_by_a_reply(tg: Harness):
    started = await answer(tg, ALICE, NEW)
    rows = started["reply_markup"]["inline_keyboard"]
    assert [[b["text"] for b in row] for row in rows] == [["Sit at bob", "Sit at carol"]]
    buttons = tg.buttons(started)
    assert all(len(d.encode()) <= MAX_CALLBACK_BYTES for d in buttons.values())
    # Bob has no @username: he taps his seat, and the chat is told
    await tg.tap(BOB, await message_of(tg, started), buttons["Sit at bob"])
    sat = await tg.said("Bob sits at bob.")
    assert sat["reply_parameters"]["message_id"] == tg.sent_message(started)["message_id"]
    hand = await answer(tg, BOB, "/hand winner:bob seen:alice maal:bob=3 alice=1")
    assert "Hand 1: bob won" in hand["text"]  # his own seat: he records as bob
    # Sita has no @username either: the starter gives her carol's seat by replying to her
    hello = (await tg.say(SITA, "hi, I'm playing carol's seat"))["message"]
    given = await answer(tg, ALICE, "/seat carol", reply_to=hello)
    assert given["text"] == "Sita sits at carol (seat 3)."
    assert (await answer(tg, SITA, "/sitout"))["text"].startswith("carol sits out")


async def test_once_hands_are_recorded_the_starter_lets_someone_sit(tg: Harness):
    await answer(tg, ALICE, NEW)
    await answer(tg, ALICE, "/hand winner:alice seen:bob maal:alice=3 bob=1")
    asked = await answer(tg, STRANGER, "/join carol")
    assert asked["text"].startswith("Mallory asks to sit at carol.")
    buttons = tg.buttons(asked)
    assert set(buttons) == {"Let them sit at carol", "No"}
    message = await message_of(tg, asked)
    await tg.tap(STRANGER, message, buttons["Let them sit at carol"], query_id="self")
    assert (await notice(tg, "self"))["text"] == NOT_YOURS  # an alert, for her alone
    await tg.tap(ALICE, message, buttons["Let them sit at carol"], query_id="starter")
    assert (await edit_of(tg, message))["text"] == "Mallory sits at carol (seat 3)."
    assert (await answer(tg, STRANGER, "/sitout"))["text"].startswith("carol sits out")


async def test_a_username_and_a_mention_name_their_seats(tg: Harness):
    chat = next(_chats)
    await answer(tg, ALICE, "/newgame marriage players:@alice bob sita", chat_id=chat)
    # any valid @username: 25 to 32 characters too
    given = await answer(tg, ALICE, f"/seat bob person:@{LONG['username']}", chat_id=chat)
    assert given["text"] == f"bob is @{LONG['username']}'s seat now (seat 2)."
    assert (await answer(tg, LONG, "/sitout", chat_id=chat))["text"].startswith(
        "bob sits out")
    await answer(tg, LONG, "/back", chat_id=chat)
    # seen:@Sita, picked from Telegram's mention list (a text mention: she has no username)
    # names the seat typed sita
    line = "/hand winner:alice seen:Sita maal:alice=1 sita=2"
    mention = {"type": "text_mention", "offset": line.index("Sita"), "length": 4,
               "user": SITA}
    hand = await answer(tg, ALICE, line, chat_id=chat, entities=[mention])
    assert "Hand 1: alice won; seen sita" in hand["text"]


async def test_a_waiting_hand_says_whose_maal_is_missing_in_one_syntax(tg: Harness):
    await answer(tg, ALICE, NEW)
    # maal given for carol, not named seen: refused with both lines
    refused = await answer(tg, ALICE, "/hand winner:alice seen:bob maal:alice=10 carol=4")
    assert refused["text"].startswith("⚠️ carol has maal but is not in seen:")
    assert "/hand winner:alice seen:bob carol maal:alice=10 carol=4" in refused["text"]
    waiting = await answer(tg, ALICE, "/hand winner:alice seen:bob maal:alice=10")
    assert waiting["text"] == "Hand 1 waits for the maal of bob: /maal bob=…"
    prompt = await tg.said("Hand 1 waits for the maal of bob: reply bob=…")
    assert prompt["reply_markup"]["force_reply"] is True
    prompt_message = await message_of(tg, prompt)
    # carol is unseen in this hand: her maal would count for nothing
    update = await tg.say(ALICE, "carol=4", reply_to=prompt_message)
    said = await tg.reply_to(update)
    assert said["text"].startswith("⚠️ carol is unseen in this hand")
    assert "Still needed: /maal bob=…" in said["text"]
    await tg.say(ALICE, "bob=2", reply_to=prompt_message)
    await tg.said("Hand 1: alice won")
    # the next waiting hand says only its own: not the earlier hand's summary, no board
    waiting = await answer(tg, ALICE, "/hand winner:bob seen:alice maal:bob=1")
    assert waiting["text"] == "Hand 2 waits for the maal of alice: /maal alice=…"


async def test_what_was_mistyped_is_corrected_with_edit_in_every_game(tg: Harness):
    rummy, tranca, callbreak = next(_chats), next(_chats), next(_chats)
    await answer(tg, ALICE, "/newgame marriage_rummy players:asha bikash chetan",
                 chat_id=rummy)
    await answer(tg, ALICE, "/hand winner:asha points:bikash=10 chetan=4", chat_id=rummy)
    # bikash surrendered on the first move: 2 in hand, x2 = -4; chetan -8; asha +12
    edited = await answer(tg, ALICE, "/edit hand:1 surrender:bikash", chat_id=rummy)
    assert "asha +12  bikash -4  chetan -8 (was asha +28  bikash -20  chetan -8)" in \
        edited["text"]
    await answer(tg, ALICE, "/newgame tranca players:ana ben", chat_id=tranca)
    await answer(tg, ALICE, "/round side:A table:300", chat_id=tranca)
    await answer(tg, ALICE, "/round side:B table:100", chat_id=tranca)
    # side A's table points were 400: +400 (nothing else given)
    edited = await answer(tg, ALICE, "/edit round:1 side:A table:400", chat_id=tranca)
    assert "A +400  B +100 (was A +300  B +100)" in edited["text"]
    await answer(tg, ALICE, "/newgame callbreak players:a b c d", chat_id=callbreak)
    await answer(tg, ALICE, "/round bids:3 3 3 3 tricks:4 3 3 3", chat_id=callbreak)
    # a took 3, d 4: bid 3 made exactly +3.0; d 3 with one over +3.1
    edited = await answer(tg, ALICE, "/edit round:1 tricks:3 3 3 4", chat_id=callbreak)
    assert "a +3.0  b +3.0  c +3.0  d +3.1 (was a +3.1  b +3.0  c +3.0  d +3.0)" in \
        edited["text"]


async def test_the_small_things(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    assert "pt-BR" in (await answer(tg, ALICE, "/settings language:pt"))["text"]
    await answer(tg, ALICE, "/settings language:en")
    await answer(tg, ALICE, "/newgame marriage_rummy players:asha bikash chetan")
    # asha 3 honours x 4 = 12: PART_A +24, -12, -12; PART_B -50, -20, +70: +94 -62 -32
    hand = await answer(tg, ALICE, "/hand winner:asha honours:asha=3 points:bikash=25 "
                                   "chetan=10")
    assert "asha +94  bikash -62  chetan -32" in hand["text"]
    await answer(tg, ALICE, "/undo reason:edited: typo")
    history = await answer(tg, ALICE, "/history")
    assert "(reason: edited: typo)" in history["text"]
    assert "replaced by an edit" not in history["text"]


async def test_an_invisible_letter_never_makes_a_seat_that_looks_like_another(tg: Harness):
    """"bob" with a grapheme joiner (or a Hangul filler) after it shows as "bob": typed, it
    is refused; in a display name it is dropped, so a bare /join of someone so named is a
    /join of bob (asked, once hands are recorded), never a second "bob" at the table."""
    chat = next(_chats)
    tg.fake.admins[chat] = []
    await answer(tg, ALICE, NEW, chat_id=chat)
    await answer(tg, ALICE, "/hand winner:alice seen:bob carol maal:alice=3 bob=1 carol=0",
                 chat_id=chat)
    for invisible in ("\u034f", "\u3164", "\ufe0f"):
        typed = await answer(tg, STRANGER, f"/join name:bob{invisible}", chat_id=chat)
        assert typed["text"].startswith("⚠️") and "can't be a name" in typed["text"]
    copied = person(106, "bob\u034f")  # a display name copied with a joiner after it
    asked = await answer(tg, copied, "/join", chat_id=chat)
    assert "asks to sit at bob." in asked["text"]
    players = await answer(tg, ALICE, "/players", chat_id=chat)
    assert "3 players" in players["text"] and "\u034f" not in players["text"]
