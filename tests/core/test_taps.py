"""A tap on the bot's buttons (bot/core/handlers/flow_answers.py): one that only changes
the question is one read transaction (no chat lock, no write lock on SQLite); one that
becomes a command is one write transaction, its look at the table and the command together,
under the tap's one time limit (issue 27)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.core.command import Actor, Command, Reply
from bot.core.flows import DONE, OPEN, Step, seal
from bot.core.grammar import parse_command_text
from bot.core.handlers.call import LIMIT
from bot.core.service import Service
from bot.storage import SqlStore

CHAT = "telegram:-7"
HOST = Actor("telegram:1", "Hana", is_admin=True)
BOB = Actor("telegram:2", "Bob")
CAROL = Actor("telegram:3", "Carol")


async def say(service: Service, line: str) -> Reply:
    parsed = parse_command_text(line)
    return await service.handle(Command(CHAT, HOST, parsed.name, parsed.options,
                                        origin_id=f"o:{line}", buttons=True))


async def tap(service: Service, reply: Reply, value: str, origin: str,
              who: Actor = HOST) -> Reply:
    assert reply.question is not None
    return await service.answer(CHAT, who, seal(reply.question.token, CHAT, service.secret),
                                value, origin=origin)


@pytest.fixture
def seen_transactions(store: SqlStore, monkeypatch: pytest.MonkeyPatch
                      ) -> list[tuple[bool, Any]]:
    """Each transaction of the store: (a writer's?, the time limit it runs under)."""
    seen: list[tuple[bool, Any]] = []
    opened = store.transaction

    @asynccontextmanager
    async def watched(chat: str, write: bool = True) -> AsyncIterator[Any]:
        limit = LIMIT.get()
        seen.append((write, limit[0] if limit is not None else None))
        async with opened(chat, write) as tx:
            yield tx

    monkeypatch.setattr(store, "transaction", watched)
    return seen


async def test_a_tap_that_only_changes_the_question_takes_one_read_transaction(
        service: Service, seen_transactions: list[tuple[bool, Any]]):
    await say(service, "/newgame marriage players:asha bikash chandra")
    asked = await say(service, "/hand")  # with buttons: who won?
    assert asked.question is not None
    seen_transactions.clear()
    picked = await tap(service, asked, "1", "tap-1")  # asha won: now, who has seen?
    assert picked.ok and picked.question is not None
    assert [write for write, _limit in seen_transactions] == [False]


async def test_the_command_a_tap_becomes_runs_within_the_taps_one_time_limit(
        service: Service, seen_transactions: list[tuple[bool, Any]]):
    await say(service, "/newgame marriage players:asha bikash chandra")
    asked = await say(service, "/hand")
    picked = await tap(service, asked, "1", "tap-1")
    seen_transactions.clear()
    done = await tap(service, picked, DONE, "tap-2")  # /hand winner:asha, maal still to come
    assert done.ok
    # the look at the table and the /hand written: one writer's transaction, under the limit
    assert [write for write, _limit in seen_transactions] == [True]
    assert seen_transactions[0][1] is not None


async def test_a_tap_that_becomes_a_command_is_one_write_transaction(
        service: Service, seen_transactions: list[tuple[bool, Any]]):
    await say(service, "/newgame marriage players:asha bikash chandra")
    asked = await say(service, "/hand")
    picked = await tap(service, asked, "1", "tap-1")  # asha won
    marked = await tap(service, picked, "t2", "tap-2")  # bikash has seen too
    assert [write for write, _limit in seen_transactions[-2:]] == [False, False]
    seen_transactions.clear()
    done = await tap(service, marked, DONE, "tap-3")  # /hand winner:asha seen:bikash
    assert done.ok and done.in_place
    assert [write for write, _limit in seen_transactions] == [True]
    # the hand waits for the maal of those who have seen: a typed answer is /maal
    assert done.question is not None and done.question.token.step == Step.INPUT
    seen_transactions.clear()
    form = await tap(service, done, OPEN, "tap-4")  # who still has to answer: only a look
    assert form.ok and [write for write, _limit in seen_transactions] == [False]
    seen_transactions.clear()
    recorded = await tap(service, done, "asha=10 bikash=5", "tap-5")
    assert recorded.ok
    assert [write for write, _limit in seen_transactions] == [True]
    snapshot = await service.snapshot(CHAT)
    assert snapshot is not None
    assert snapshot.session.hand_count == 1 and snapshot.session.pending is None


async def test_a_stale_done_is_refused_in_its_one_transaction_and_changes_nothing(
        service: Service, seen_transactions: list[tuple[bool, Any]]):
    await say(service, "/newgame marriage players:asha bikash chandra")
    asked = await say(service, "/hand")
    picked = await tap(service, asked, "1", "tap-1")
    assert (await tap(service, picked, DONE, "tap-2")).ok  # hand 1 now waits for maal
    before = await service.snapshot(CHAT)
    seen_transactions.clear()
    again = await tap(service, picked, DONE, "tap-3")  # the same question, tapped again
    assert not again.ok and again.in_place
    assert [write for write, _limit in seen_transactions] == [True]
    after = await service.snapshot(CHAT)
    assert before is not None and after is not None
    assert (after.session.hand_count, after.session.version) == (
        before.session.hand_count, before.session.version)
    assert after.session.pending == before.session.pending


async def test_a_redelivered_done_records_nothing_twice(service: Service):
    await say(service, "/newgame marriage players:asha bikash chandra")
    asked = await say(service, "/hand")
    picked = await tap(service, asked, "1", "tap-1")
    first = await tap(service, picked, DONE, "tap-2")
    assert first.ok
    before = await service.snapshot(CHAT)
    second = await tap(service, picked, DONE, "tap-2")  # the platform sent it again
    after = await service.snapshot(CHAT)
    assert before is not None and after is not None
    assert after.session.version == before.session.version
    assert second.in_place


async def test_a_seat_taken_or_given_by_a_tap_is_one_write_transaction(
        service: Service, seen_transactions: list[tuple[bool, Any]]):
    started = await say(service, "/newgame marriage players:hana bob carol")
    assert started.question is not None and started.question.token.step == Step.SIT
    seen_transactions.clear()
    sat = await tap(service, started, "2", "tap-1", who=BOB)  # "sit at bob": Bob's /join
    assert sat.ok and sat.text == "Bob sits at bob."
    assert [write for write, _limit in seen_transactions] == [True]
    await say(service, "/hand winner:hana seen:bob maal:hana=3 bob=1")
    parsed = parse_command_text("/join carol")  # after the first hand: the starter is asked
    asked = await service.handle(Command(CHAT, CAROL, parsed.name, parsed.options,
                                         buttons=True))
    assert asked.question is not None and asked.question.token.step == Step.CLAIM
    seen_transactions.clear()
    let = await tap(service, asked, "yes", "tap-2")  # the starter's /seat carol to Carol
    assert let.ok and let.in_place and let.text == "Carol sits at carol (seat 3)."
    assert [write for write, _limit in seen_transactions] == [True]
    seen_transactions.clear()
    again = await tap(service, asked, "yes", "tap-3")  # answered: refused, nothing changes
    assert not again.ok and "The table changed since this was asked" in again.text
    assert [write for write, _limit in seen_transactions] == [True]
