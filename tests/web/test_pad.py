"""The scorepad's server, against the real Telegram adapter and its fake Bot API, on both
databases: the group's button opens it, the person is who Telegram's init data says, a hand
sent is the typed command (its checks, its permissions, its words), posted to the group, and
recorded once however often it is sent."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

from bot.core.command import Actor, Command
from bot.telegram_adapter.places import chat_key
from bot.web import initdata
from tests.telegram_helpers import ALICE, BOB, GROUP, STRANGER
from tests.web.conftest import MINIAPP, Web
from tests.web.webapp import init_data, webapp_user

NEW = "/newgame marriage players:@alice bob @carol"
# The worked example of shared/rules/marriage.md: maal 10, 2 and 0, the first wins with
# dublees, the second has seen, the third has not: +41, -14, -27
EXAMPLE = {"winner": "alice", "seen": "bob", "maal": "alice=10 bob=2 carol=0",
           "dublee": "yes"}
AS_ALICE = webapp_user(ALICE["id"], "Alice", "alice")


async def pad_token(web: Web, chat_id: int = GROUP) -> str:
    """The startapp of the Scorepad button the group was shown."""
    assert web.tg is not None
    sent = await web.tg.fake.wait_until(lambda: next(
        (p for p in web.tg.fake.sent("sendMessage", chat_id)
         for row in (p.get("reply_markup") or {}).get("inline_keyboard", [])
         for button in row if "url" in button), None))
    urls = [b["url"] for row in sent["reply_markup"]["inline_keyboard"] for b in row
            if "url" in b]
    link = urlsplit(urls[0])
    assert (link.scheme, link.netloc) == ("https", "t.me")
    assert link.path == f"/{web.tg.fake.chat(chat_id) and 'MaalTestBot'}/{MINIAPP}"
    query = parse_qs(link.query)
    assert query["mode"] == ["compact"]
    return query["startapp"][0]


async def totals(web: Web, chat_id: int = GROUP) -> dict:
    reply = await web.server.service.handle(Command(chat_key(chat_id),
                                                    Actor("test:reader", "reader"), "board"))
    assert reply.board is not None
    return reply.board.totals


async def started(web: Web) -> str:
    assert web.tg is not None
    await web.tg.say(ALICE, NEW)
    return await pad_token(web)


def signed(user: dict, token: str, **kw) -> str:
    return init_data(user, "123456:TEST-TOKEN", token, **kw)


async def test_the_pad_shows_the_tables_players_in_seat_order_and_its_game(web: Web):
    token = await started(web)
    status, state = await web.post("/pad/api/state", {"init_data": signed(AS_ALICE, token)})
    assert status == 200, state
    assert state["open"] and state["game"] == "marriage"
    assert [p["name"] for p in state["players"]] == ["alice", "bob", "carol"]
    hand = state["forms"][0]
    assert hand["command"] == "hand"
    controls = {c["label"]: c["control"] for c in hand["controls"]}
    assert controls["winner"] == "player" and controls["seen"] == "players"
    assert controls["maal"] == "each" and controls["dublee"] == "bool"
    assert state["you"] == "Alice"


async def test_a_hand_from_the_pad_is_recorded_once_and_posted_to_the_group(web: Web):
    assert web.tg is not None
    token = await started(web)
    before = len(web.tg.fake.sent("sendMessage", GROUP))
    body = {"init_data": signed(AS_ALICE, token), "command": "hand", "options": EXAMPLE,
            "submit": "hand-one-0001"}
    status, answer = await web.post("/pad/api/send", body)
    assert status == 200 and answer["ok"] and not answer["duplicate"], answer
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    # the group sees the hand as if it had been typed, and its live board catches up
    posted = await web.tg.said("Hand 1")
    assert "alice" in posted["text"]
    board = await web.tg.live_board()
    assert "+41" in board["text"] and "-27" in board["text"]
    # the same tap again (a retry, a double tap): recorded once, posted once
    status, again = await web.post("/pad/api/send", body)
    assert status == 200 and again["duplicate"]
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    hands = [p for p in web.tg.fake.sent("sendMessage", GROUP)[before:]
             if "Hand 1" in p.get("text", "")]
    assert len(hands) == 1


async def test_a_refused_hand_is_said_in_the_persons_language_and_changes_nothing(web: Web):
    token = await started(web)
    nepali = webapp_user(ALICE["id"], "Alice", "alice", "ne")
    status, answer = await web.post("/pad/api/send", {
        "init_data": signed(nepali, token), "command": "hand",
        "options": {"winner": "zed", "seen": "bob"}, "submit": "refused-0001"})
    assert status == 422 and not answer["ok"]
    assert any("\u0900" <= c <= "\u097f" for c in answer["error"]), answer["error"]
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}


async def test_a_member_who_is_not_playing_records_nothing_and_an_admin_may(web: Web):
    assert web.tg is not None
    admin = webapp_user(150, "Dev", "dev")  # a chat admin who is not playing
    web.tg.fake.admins[GROUP] = [150]
    token = await started(web)
    stranger = webapp_user(STRANGER["id"], "Mallory", "mallory")
    body = {"init_data": signed(stranger, token), "command": "hand", "options": EXAMPLE,
            "submit": "stranger-0001"}
    status, answer = await web.post("/pad/api/send", body)
    assert status == 422 and not answer["ok"]
    assert "chat admin" in answer["error"]
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}
    body.update(init_data=signed(admin, token), submit="admin-0001")
    status, answer = await web.post("/pad/api/send", body)
    assert status == 200 and answer["ok"], answer
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}


async def test_forged_stale_and_other_tables_init_data_record_nothing(web: Web):
    assert web.tg is not None
    token = await started(web)
    await web.tg.say(ALICE, NEW, chat_id=-1009999)  # another group, another table
    other = await pad_token(web, -1009999)
    assert other != token

    def send(raw: str, **extra) -> dict:
        return {"init_data": raw, "command": "hand", "options": EXAMPLE,
                "submit": f"try-{time.monotonic_ns()}", **extra}

    forged = signed(AS_ALICE, token).replace("Alice", "Bob")
    status, answer = await web.post("/pad/api/send", send(forged))
    assert status == 401 and answer["error"]
    stale = signed(AS_ALICE, token, auth_date=int(time.time()) - initdata.MAX_AGE - 60)
    status, answer = await web.post("/pad/api/send", send(stale))
    assert status == 401 and answer["error"]
    another_bot = init_data(AS_ALICE, "999:OTHER-BOT", token)
    status, _ = await web.post("/pad/api/send", send(another_bot))
    assert status == 401
    # signed for the other group's table, sent as this table's pad
    status, answer = await web.post("/pad/api/send", send(signed(AS_ALICE, other),
                                                          table=token))
    assert status == 403 and answer["error"]
    # no init data at all (a browser outside Telegram)
    status, _ = await web.post("/pad/api/send", {"table": token, "command": "hand",
                                                 "options": EXAMPLE, "submit": "no-init-01"})
    assert status == 401
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}
    assert await totals(web, -1009999) == {"alice": 0, "bob": 0, "carol": 0}


async def test_a_replaced_link_opens_nothing(web: Web):
    assert web.tg is not None
    token = await started(web)
    web.tg.fake.admins[GROUP] = [ALICE["id"]]
    await web.tg.say(ALICE, "/scorepad new")
    await web.tg.said("old one opens nothing")
    status, answer = await web.post("/pad/api/state", {"init_data": signed(AS_ALICE, token)})
    assert status == 404 and answer["error"]
    made_up = "A" * 43
    status, _ = await web.post("/pad/api/state", {"init_data": signed(AS_ALICE, made_up)})
    assert status == 404


async def test_only_a_players_own_may_replace_the_link(web: Web):
    assert web.tg is not None
    token = await started(web)
    await web.tg.say(BOB, "/scorepad new")  # not an admin
    await web.tg.said("chat admin")
    status, _ = await web.post("/pad/api/state", {"init_data": signed(AS_ALICE, token)})
    assert status == 200


async def test_the_pad_sends_results_only(web: Web):
    token = await started(web)
    for name, options in [("forget", {"": "chat"}), ("endgame", {}),
                          ("newgame", {"": "riichi"})]:
        status, answer = await web.post("/pad/api/send", {
            "init_data": signed(AS_ALICE, token), "command": name, "options": options,
            "submit": f"not-a-result-{name}"})
        assert status == 400 and answer["error"] == "The scorepad sends results only.", name
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}


async def test_undo_on_the_pad_asks_first_and_takes_its_permission(web: Web):
    assert web.tg is not None
    token = await started(web)
    hand = {"init_data": signed(AS_ALICE, token), "command": "hand", "options": EXAMPLE,
            "submit": "undo-hand-0001"}
    assert (await web.post("/pad/api/send", hand))[0] == 200
    await web.tg.said("Hand 1")
    before = len(web.tg.fake.sent("sendMessage", GROUP))
    # bob, who did not record it, may not
    bob = webapp_user(BOB["id"], "Bob", "bob")
    status, refused = await web.post("/pad/api/send", {
        "init_data": signed(bob, token), "command": "undo", "options": {},
        "submit": "undo-bob-0001"})
    assert status == 422 and "recorded" in refused["error"]
    # alice is asked first; nothing is undone, nothing said in the group
    ask = {"init_data": signed(AS_ALICE, token), "command": "undo", "options": {},
           "submit": "undo-ask-0001"}
    status, asked = await web.post("/pad/api/send", ask)
    assert status == 200 and asked["confirm"]["text"].startswith("Undo hand 1"), asked
    assert await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    # a Yes for another state of the table is stale: refused
    stale = {**asked["confirm"]["expect"], "version": asked["confirm"]["expect"]["version"] - 1}
    status, refused = await web.post("/pad/api/send", {**ask, "expect": stale,
                                                       "submit": "undo-stale-0001"})
    assert status == 422 and await totals(web) == {"alice": 41, "bob": -14, "carol": -27}
    status, done = await web.post("/pad/api/send", {
        **ask, "expect": asked["confirm"]["expect"], "submit": "undo-yes-0001"})
    assert status == 200 and done["ok"] and "confirm" not in done, done
    assert await totals(web) == {"alice": 0, "bob": 0, "carol": 0}
    await web.tg.fake.wait_until(lambda: len(web.tg.fake.sent("sendMessage", GROUP)) > before)
    said = [p["text"] for p in web.tg.fake.sent("sendMessage", GROUP)[before:]]
    assert not any(text.startswith("Undo hand 1") for text in said)  # the question stays


async def test_a_refusal_says_what_it_is_about_for_the_pad_to_show_beside_it(web: Web):
    token = await started(web)
    # carol has maal but is not seen, where an unseen player's maal is murdered
    status, answer = await web.post("/pad/api/send", {
        "init_data": signed(AS_ALICE, token), "command": "hand",
        "options": {"winner": "alice", "seen": "bob", "maal": "alice=3 bob=2 carol=4"},
        "submit": "about-0001"})
    assert status == 422 and "/hand winner:alice" in answer["error"]  # the chat's form
    assert answer["about"] == {"options": ["seen", "maal"], "players": ["carol"],
                               "said": "Tick seen, or clear the maal."}
    # a number that is no number: beside the control it was typed in
    status, answer = await web.post("/pad/api/send", {
        "init_data": signed(AS_ALICE, token), "command": "hand",
        "options": {"winner": "alice", "dublee": "maybe"}, "submit": "about-0002"})
    assert status == 422 and answer["about"]["options"] == ["dublee"]


async def test_the_pads_own_refusals_are_in_the_persons_language(web: Web):
    token = await started(web)
    nepali = webapp_user(ALICE["id"], "Alice", "alice", "ne")
    for extra in ({"options": "winner:alice", "submit": "language-0001"},
                  {"options": {}, "submit": "short"}):
        status, answer = await web.post("/pad/api/send", {
            "init_data": signed(nepali, token), "command": "hand", **extra})
        assert status == 400
        assert any("\u0900" <= c <= "\u097f" for c in answer["error"]), answer["error"]
    async with web.http.post(web.base + "/pad/api/send", json=[1, 2],
                             headers={"Accept-Language": "pt-BR"}) as response:
        assert response.status == 400
        said = (await response.json())["error"]
    from bot.core.i18n import translator
    from bot.web.posts import NOT_AN_OBJECT

    english = translator("en").render(NOT_AN_OBJECT)
    assert said == translator("pt-BR").render(NOT_AN_OBJECT) != english


async def test_every_page_answers_with_the_headers_of_a_capability_link(web: Web):
    token = await started(web)
    for path, frames in [("/pad", "https://web.telegram.org"), ("/static/pad.js", "'none'"),
                         ("/s/" + "B" * 43, "'none'")]:
        async with web.http.get(web.base + path) as response:
            headers = response.headers
            assert headers["Referrer-Policy"] == "no-referrer", path
            assert headers["X-Robots-Tag"].startswith("noindex"), path
            policy = headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and f"frame-ancestors {frames}" in policy
            scripts = policy.split("script-src ")[1].split(";")[0].split()
            assert set(scripts) <= {"'self'", "https://telegram.org"}, path
    assert token


async def test_a_pad_hand_with_only_its_winner_is_that_hand_not_the_taps(web: Web):
    # nobody else ticked as seen, no maal yet: the hand as typed, waiting for the winner's
    # maal; never "who else has seen?", the chat's tap flow, which the pad can't answer
    token = await started(web)
    status, answer = await web.post("/pad/api/send", {
        "init_data": signed(AS_ALICE, token), "command": "hand",
        "options": {"winner": "alice"}, "submit": "winner-only-01"})
    assert status == 200 and answer["ok"], answer
    assert "waits for the maal of alice" in answer["text"], answer["text"]


async def test_a_game_of_sides_has_a_row_for_each_side(web: Web):
    """Points with teams: a round is each side's points (A=12 B=5), so the pad's rows are
    the sides, named as /round takes them and shown with their players."""
    assert web.tg is not None
    await web.tg.say(ALICE, "/newgame points teams:@alice+bob carol+dave")
    token = await pad_token(web)
    status, state = await web.post("/pad/api/state", {"init_data": signed(AS_ALICE, token)})
    assert status == 200, state
    assert state["players"] == [
        {"name": "A", "label": "A: alice+bob", "playing": True},
        {"name": "B", "label": "B: carol+dave", "playing": True}]
    status, answer = await web.post("/pad/api/send", {
        "init_data": signed(AS_ALICE, token), "command": "round",
        "options": {"points": "A=12 B=5"}, "submit": "sides-round-1"})
    assert status == 200 and answer["ok"], answer
    assert await totals(web) == {"A": 12, "B": 5}
