"""Forgetting a person (their account and username out of every chat, their seats guests)
and a whole chat, through the core, on both backends. The platforms' own tests (Telegram,
Discord) play it through the buttons; here, without buttons, it is done at once.

Marriage (../shared/rules/marriage.md; n players, P the sum of maal: the exchange is
n*s_i - P, a seen loser pays the winner 3): HAND with alice and bob seen, maal 3 and 4,
P = 7, n = 2: alice 2*3 - 7 + 3 = +2, bob 2*4 - 7 - 3 = -2. At 10 Rs a point: +20, -20.
"""

from __future__ import annotations

from sqlalchemy import select

from bot.core.command import Actor, Command, Reply
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import SqlStore
from bot.storage.chats.forget import FORGOTTEN
from bot.storage.engine.tables import (
    chat_settings,
    hands,
    inbox,
    origins,
    payments,
    rule_sets,
    seasons,
    sessions,
)
from bot.storage.transaction.inbox import Inbox

ALICE = Actor("telegram:101", "Alice Smith", is_admin=True, handles=("alice",))
BOB = Actor("telegram:102", "Bob")
HAND = "/hand winner:{w} seen:{a} {b} maal:{a}=3 {b}=4"
CHAT, OTHER = "telegram:-1001", "telegram:-1002"


class Person:
    """Commands sent by an account, with mentions of accounts as Telegram resolves them."""

    def __init__(self, service: Service, chat: str) -> None:
        self.service, self.chat, self.n = service, chat, 0

    async def __call__(self, who: Actor, line: str, **mentions: Actor) -> Reply:
        self.n += 1
        parsed = parse_command_text(line)
        reply = await self.service.handle(Command(
            self.chat, who, parsed.name, parsed.options, origin_id=f"{self.chat}:{self.n}",
            mentions={f"<@{k}>": v for k, v in mentions.items()}))
        assert reply.ok, reply.text
        return reply


async def rows(store: SqlStore) -> list[str]:
    """Every stored row, as text."""
    found = []
    async with store.engine.connect() as conn:
        for table in (sessions, hands, payments, seasons, chat_settings, origins, inbox):
            found += [str(tuple(row)) for row in await conn.execute(select(table))]
    return found


async def a_night(service: Service, chat: str, guest_alice: bool = False) -> Person:
    """Alice (an account) and Bob play a game at 10 Rs; Alice wins; Bob pays her; a season.
    With `guest_alice`, another night has a guest typed as alice (not her account)."""
    say = Person(service, chat)
    await say(ALICE, "/season start name:Autumn")
    await say(ALICE, "/newgame players:<@a> <@b>", a=ALICE, b=BOB)
    await say(ALICE, "/rules rate:10 currency:Rs")
    await say(ALICE, HAND.format(w="Alice_Smith", a="Alice_Smith", b="Bob"))
    await say(ALICE, "/endgame")
    await say(ALICE, "/paid <@b> 5 to:<@a>", a=ALICE, b=BOB)
    if guest_alice:  # alice the guest wins 20 Rs from bob
        await say(BOB, "/newgame players:Alice_Smith <@b>", b=BOB)
        await say(BOB, "/rules rate:10 currency:Rs")
        await say(BOB, HAND.format(w="Alice_Smith", a="Alice_Smith", b="Bob"))
        await say(BOB, "/endgame")
    return say


async def test_a_person_forgotten_leaves_no_account_and_everyone_else_whole(service: Service):
    say = await a_night(service, CHAT)
    other = await a_night(service, OTHER)
    ledger = (await say(BOB, "/ledger")).text
    # bob lost 20, paid 5: -15 Rs; alice +15
    assert "Bob -15 Rs" in ledger and "Alice_Smith +15 Rs" in ledger
    await Inbox(service.store.engine, 7).store([(1, "-1001", {"message": {  # type: ignore[attr-defined]
        "from": {"id": 101, "is_bot": False, "first_name": "Alice"}}})])
    await Inbox(service.store.engine, 7).finish(1)  # type: ignore[attr-defined]
    done = await service.store.forget_person(ALICE.id, "alice")
    assert (done.chats, done.seats) == (2, 2)
    stored = await rows(service.store)  # type: ignore[arg-type]
    assert not [r for r in stored if "telegram:101" in r or "'alice'" in r
                or "Alice Smith" in r or "'id': 101" in r]
    # the others' ledger and stats are as they were; alice is a guest now
    assert (await say(BOB, "/ledger")).text == ledger
    assert (await other(BOB, "/ledger")).text == ledger
    stats = (await say(BOB, "/stats")).text
    assert "Alice_Smith" in stats and "Bob" in stats
    # nobody is the game's starter or a payment's recorder any more: forgetting twice finds
    # nothing more
    async with service.store.engine.connect() as conn:  # type: ignore[attr-defined]
        starters = set((await conn.execute(select(sessions.c.created_by))).scalars())
    assert starters == {FORGOTTEN}
    assert (await service.store.forget_person(ALICE.id, "alice")).chats == 0


async def test_a_forgotten_seat_never_takes_another_guests_name(service: Service):
    """A guest typed as Alice_Smith (someone else) played here too: the forgotten account
    becomes Alice_Smith2, and the guest's money stays the guest's."""
    say = await a_night(service, CHAT, guest_alice=True)
    # the account: +20 - 5 paid = +15; the guest: +20; bob: -20 + 5 - 20 = -35
    before = (await say(BOB, "/ledger")).text  # two people of one name, apart
    assert "Alice_Smith +20 Rs" in before and "Alice_Smith +15 Rs" in before
    await service.store.forget_person(ALICE.id, "alice")
    after = (await say(BOB, "/ledger")).text
    assert "Bob -35 Rs" in after
    assert "Alice_Smith +20 Rs" in after and "Alice_Smith2 +15 Rs" in after


async def test_a_chat_forgotten_is_deleted_and_its_topics_with_it(service: Service):
    await a_night(service, CHAT)
    await a_night(service, CHAT + ":7")  # a forum topic of it
    keep = await a_night(service, OTHER)
    before = (await keep(BOB, "/ledger")).text
    done = await service.store.forget_chat(CHAT)
    assert (done.games, done.payments, done.seasons) == (2, 2, 2)
    stored = await rows(service.store)  # type: ignore[arg-type]
    assert not [r for r in stored if CHAT in r]
    async with service.store.engine.connect() as conn:  # its games' rules went too
        assert (await conn.execute(select(rule_sets.c.session_id))).scalars().all() == [3]
    assert (await keep(BOB, "/ledger")).text == before
    # the chat starts again from nothing
    say = Person(service, CHAT)
    say.n = 100
    assert "empty" in (await say(BOB, "/ledger")).text
    await say(BOB, "/newgame players:<@b> dev", b=BOB)
    assert (await say(BOB, "/board")).board.hand_count == 0  # type: ignore[union-attr]


async def test_without_buttons_forget_is_done_at_once_and_says_what(service: Service):
    """The console has no buttons to ask with: /forget is done when typed."""
    host = Actor("console:host", "host", is_admin=True)
    say = Person(service, CHAT)
    await say(host, "/newgame players:asha bikash")
    reply = await say(host, "/forget")
    assert reply.text == ("Forgotten: your account is out of 1 chat. You had no seat, so "
                          "every score stays as it was.")
    assert (await say(host, "/forget")).text == "I had nothing of yours to forget."
    assert (await say(host, "/board")).board.players == ["asha", "bikash"]  # type: ignore[union-attr]


async def test_a_game_closed_with_no_hand_is_no_game_the_chat_forgets(service: Service):
    say = await a_night(service, CHAT)
    await say(ALICE, "/newgame players:<@a> <@b>", a=ALICE, b=BOB)
    await say(ALICE, "/endgame")  # no hand: closed, never one of the chat's games
    done = await service.store.forget_chat(CHAT)
    assert (done.games, done.payments, done.seasons) == (1, 1, 1)
    assert not [r for r in await rows(service.store) if CHAT in r]  # its row goes too
