"""A tap on a button, or a typed answer to a question the bot asked.

Its token is unsealed here (a token of another chat, or forged, is refused); what the answer
becomes is decided in bot/core/handlers/flow_answers.py. A tap that may become a command
(`become`) looks at the table and runs the command in one writer's transaction, through
the router: the same checks and storage as a typed command, and nothing can change between
the look and the command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import replace
from typing import Protocol

from bot.core import i18n
from bot.core.command import Actor, Command, Reply
from bot.core.command_table import CommandTable
from bot.core.flows import Token, unseal
from bot.core.handlers import flow_answers as answers
from bot.core.handlers.call import Outcome
from bot.core.handlers.flow_answers import AdminCheck, Snapshot
from bot.core.session import ChatSettings, ChatTransaction, Store


class Router(answers.Runner, Protocol):
    """The service as a tap uses it (bot/core/service/__init__.py's Service is one): its
    store, table and secret, a command's time limit, and a command run in a transaction
    already open. Said here, so this module does not import the router that uses it."""

    store: Store
    table: CommandTable
    secret: bytes

    async def language(self, chat: str, locale: str | None) -> str: ...

    async def guarded(self, work: Callable[[], Awaitable[Reply]],
                      command: Command) -> Reply: ...

    async def run_in(self, tx: ChatTransaction, command: Command,
                     settings: ChatSettings) -> Outcome: ...


def token(router: Router, chat: str, data: str) -> Token | None:
    return unseal(data, chat, router.secret)


async def answer(router: Router, chat: str, actor: Actor, data: str, value: str,
                 origin: str | None, admin: AdminCheck | None, locale: str | None) -> Reply:
    """A tap or a typed answer to a question the bot asked in `chat` (`data`: the sealed
    token it rode on); `locale`: the sender's platform language, as on a Command."""
    unsealed = token(router, chat, data)
    if unsealed is None:
        language = await router.language(chat, locale)
        return Reply.error(i18n.translator(language).text(answers.INVALID), language)
    tap = answers.Tap(router, chat, actor, origin, admin, locale)
    return await router.guarded(lambda: answers.answer(tap, unsealed, value),
                                Command(chat, actor, "answer", locale=locale))


async def become(router: Router, chat: str, actor: Actor, names: Collection[str] | None,
                 origin: str | None, decide: answers.Decide, admin: AdminCheck | None,
                 locale: str | None) -> tuple[Reply, Command | None]:
    """A tap that may become one of the commands `names` (None: the one a waiting hand
    asks for, in any game), with the origin `origin`: one writer's transaction. `decide`
    looks at the table as that transaction reads it and gives the answer itself (a stale
    tap, say) or the command, run in the same transaction. The reply, and the command
    run if one was."""
    if names is None:
        names = {g.waiting_command for g in router.table.games.values()} - {""}
    table = router.table
    if admin is not None and not actor.is_admin \
            and any(table.knows(n) and table.asks_admin(n) for n in names):
        actor = replace(actor, is_admin=await admin())  # asked before the chat's turn
    ran: list[Command] = []

    async def run() -> Reply:
        async with router.store.transaction(chat) as tx:
            await tx.prefetch(origin)  # the look and the command: one round trip
            settings = await tx.settings()
            # a chat moved away has nothing open here, as a separate look would find
            seen = None if settings.moved_to else await look(tx, table, settings)
            decided = await decide(seen, settings)
            if isinstance(decided, Reply):
                return decided
            command = replace(decided, actor=actor)
            ran.append(command)
            outcome = await router.run_in(tx, command, settings)
        reply = await outcome.finished()
        reply.posts.extend(outcome.posts)  # (posted by the service, as a command's)
        return reply

    reply = await router.guarded(run, Command(chat, actor, "answer", origin_id=origin,
                                              locale=locale))
    return reply, ran[0] if ran else None


async def snapshot(store: Store, table: CommandTable, chat: str) -> Snapshot | None:
    """Read only: a tap's look before it becomes a command, which checks again."""
    async with store.transaction(chat, write=False) as tx:
        return await look(tx, table, await tx.settings())


async def look(tx: ChatTransaction, table: CommandTable,
               settings: ChatSettings) -> Snapshot | None:
    session = await tx.open_session()
    if session is None:
        return None
    assert session.id is not None
    last = await tx.hand(session.id, session.hand_count) if session.hand_count else None
    return Snapshot(session, table.games[session.game], last, settings)
