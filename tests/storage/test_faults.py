"""What the bot says when the database fails under it, through a proxy in front of
PostgreSQL that cuts, stalls or swallows the answer to a COMMIT (tests/fakes/tcp_proxy.py).
The bot says only what it knows: recorded, not recorded, or not sure (see /board)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import pytest

from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.core.service.failures import FAILED, NOT_SURE, RECORDED, SLOW
from bot.storage import SqlStore, open_store
from tests.conftest import POSTGRES_URL, _make_schema, _postgres_reachable
from tests.fakes.tcp_proxy import FaultyProxy

HOST = Actor("test:host", "host", is_admin=True, by_name=True)
HAND = "/hand winner:alice seen:bob maal:alice=3 bob=1"


@pytest.fixture
async def proxied() -> AsyncIterator[tuple[FaultyProxy, SqlStore]]:
    problem = await _postgres_reachable()
    if problem:
        pytest.skip(problem)
    async with behind_a_proxy() as pair:
        yield pair


@asynccontextmanager
async def behind_a_proxy() -> AsyncIterator[tuple[FaultyProxy, SqlStore]]:
    target = urlsplit(POSTGRES_URL)
    proxy = FaultyProxy(target.hostname or "127.0.0.1", target.port or 5432)
    port = await proxy.start()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    await _make_schema(False, schema)
    user = f"{target.username}@" if target.username else ""
    store = await open_store(f"postgresql://{user}127.0.0.1:{port}{target.path}"
                             f"?search_path={schema}")
    try:
        yield proxy, store
    finally:
        await store.close()
        await proxy.stop()
        await _make_schema(True, schema)


def command(line: str, origin: str | None) -> Command:
    parsed = parse_command_text(line)
    return Command("faults", HOST, parsed.name, parsed.options, origin_id=origin)


async def hand_count(service: Service) -> int:
    board = await service.handle(command("/board", None))
    assert board.board is not None, board.text
    return board.board.hand_count


async def test_a_lost_commit_answer_is_reported_as_recorded_and_never_doubled(proxied):
    proxy, store = proxied
    service = Service(store)
    assert (await service.handle(command("/newgame players:alice bob", "o-1"))).ok
    proxy.drop_commits = 1  # the server commits the hand; its answer never arrives
    reply = await service.handle(command(HAND, "o-2"))
    assert proxy.dropped == 1
    assert reply.ok and str(RECORDED) in reply.text and "Hand 1" in reply.text
    again = await service.handle(command(HAND, "o-2"))  # the same message, sent again
    assert again.duplicate
    assert await hand_count(service) == 1


async def test_a_failure_before_the_commit_says_nothing_was_recorded(proxied):
    proxy, store = proxied
    service = Service(store)
    assert (await service.handle(command("/newgame players:alice bob", "o-1"))).ok
    proxy.cut()  # every pooled connection dies; the next command reconnects
    assert (await service.handle(command(HAND, "o-2"))).ok
    proxy.stalled.set()  # the database stops answering
    stalled = Service(store, command_seconds=1.0)
    reply = await stalled.handle(command(HAND, "o-3"))
    # it gave up; whether it checked the origin id (not recorded) or could not reach the
    # database to check (not sure), it never claims more than it knows
    assert not reply.ok and reply.text in (str(SLOW), str(NOT_SURE), str(FAILED))
    proxy.stalled.clear()
    proxy.cut()
    assert await hand_count(service) == 1
