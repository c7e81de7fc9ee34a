"""One chat's slow command does not hold another chat up: a chart is drawn after its
transaction, and commands that only read take no write lock."""

from __future__ import annotations

import asyncio
import threading

import bot.core.chart as chart
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from tests.conftest import Table

HOST = Actor("test:host", "host", is_admin=True, by_name=True)


def command(chat: str, line: str) -> Command:
    parsed = parse_command_text(line)
    return Command(chat, HOST, parsed.name, parsed.options)


async def test_a_chart_being_drawn_holds_no_other_chat(table: Table, monkeypatch):
    service = table.service
    for chat in ("a", "b"):
        await service.handle(command(chat, "/newgame players:alice bob"))
        await service.handle(command(chat, "/hand winner:alice seen:bob maal:alice=1 bob=0"))
    drawing, release = threading.Event(), threading.Event()
    real = chart.render_chart

    def slow(*args: object, **kw: object) -> bytes:  # a chart of 10,000 hands, say
        drawing.set()
        release.wait(10)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(chart, "render_chart", slow)
    pending = asyncio.ensure_future(service.handle(command("a", "/chart")))
    await asyncio.to_thread(drawing.wait, 10)
    assert drawing.is_set() and not pending.done()
    # while chat a's chart is being drawn, chat b reads and writes
    board = await asyncio.wait_for(service.handle(command("b", "/board")), 5)
    hand = await asyncio.wait_for(service.handle(command(
        "b", "/hand winner:bob seen:alice maal:alice=0 bob=1")), 5)
    assert board.ok and hand.ok and "Hand 2" in hand.text
    assert not pending.done()
    release.set()
    drawn = await pending
    assert drawn.file is not None and drawn.file.kind == "image"
