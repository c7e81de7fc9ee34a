"""A tap on the bot's buttons (bot/core/handlers/flows.py): what it only reads it reads in a
read transaction (no chat lock, no write lock on SQLite), and the command it becomes runs
within the tap's one time limit, not a second one of its own (issue 27)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.core.command import Actor, Command, Reply
from bot.core.flows import DONE, seal
from bot.core.grammar import parse_command_text
from bot.core.handlers.call import LIMIT
from bot.core.service import Service
from bot.storage import SqlStore

CHAT = "telegram:-7"
HOST = Actor("telegram:1", "Hana", is_admin=True)


async def say(service: Service, line: str) -> Reply:
    parsed = parse_command_text(line)
    return await service.handle(Command(CHAT, HOST, parsed.name, parsed.options,
                                        origin_id=f"o:{line}", buttons=True))


async def tap(service: Service, reply: Reply, value: str, origin: str) -> Reply:
    assert reply.question is not None
    return await service.answer(CHAT, HOST, seal(reply.question.token, CHAT, service.secret),
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
    # the snapshot read, then the /hand written: one limit over both
    assert [write for write, _limit in seen_transactions] == [False, True]
    limits = {id(limit) for _write, limit in seen_transactions}
    assert len(limits) == 1 and seen_transactions[0][1] is not None
