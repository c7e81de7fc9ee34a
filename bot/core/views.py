"""A table as a page reads it: one read transaction, the same Call a command gets, so a page
shows what the commands would say (bot/core/pad.py, bot/core/scoreboard.py). A page changes
the table only by sending a command; the one write a page's read may make is what a
command's read would (a club's summaries of games that had none: bot/web/club.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from bot.core import i18n, permissions
from bot.core.command import Actor, Command
from bot.core.command_table import CommandTable
from bot.core.handlers.call import Call
from bot.core.pages import WebSide
from bot.core.session import Store

T = TypeVar("T")
VIEWER = Actor("web:viewer", "viewer")  # who reads a page: nobody at the table


class Reads(Protocol):
    """What a view needs of the service (bot/core/service.py's Service is one)."""

    store: Store
    table: CommandTable
    board_rows: int
    web: WebSide | None


async def read_view(service: Reads, chat: str, locale: str | None,
                    build: Callable[[Call], Awaitable[T]], actor: Actor = VIEWER,
                    write: bool = False) -> T:
    """`build` the page from chat `chat` as it is now, in the chat's language (else the
    reader's `locale`), as `actor` would see it. `write`: in a writer's transaction, for
    a page that must first write what the commands would (a club's page: the summaries of
    games that have none)."""
    async with service.store.transaction(chat, write=write) as tx:
        await tx.prefetch(None)
        settings = await tx.settings()
        session = await tx.open_session()
        table = service.table
        game = table.games[session.game] if session is not None else table.default_game
        tr = i18n.translator(i18n.choose(settings.language, locale), game.key)
        spec = table.core["board"]
        call = Call(tx, table, Command(chat, actor, "board", locale=locale), spec, session,
                    game, settings, permissions.roles_of(actor, session), service.board_rows,
                    tr, web=service.web)
        return await build(call)
