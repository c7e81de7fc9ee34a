"""The live board: a game's board in a message of its own, edited after every change.

A command's reply on a platform with a live board keeps its short line (`live_board`), and
names the game whose board to bring up to date; the platform then calls `publish`, which
shows the board as it is at that moment.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core import i18n, permissions
from bot.core.command import Actor, Command, Reply
from bot.core.command_table import CommandTable
from bot.core.flows import Ask
from bot.core.handlers.board_commands import board_reply
from bot.core.handlers.call import Call
from bot.core.pages import WebSide
from bot.core.session import Store

Edit = Callable[[Reply, str | None], Awaitable[str | None]]
BOT = Actor("bot", "bot")


async def publish(store: Store, table: CommandTable, rows: int, chat: str, session_id: int,
                  edit: Edit, web: WebSide | None = None) -> None:
    """Bring a game's live board up to date: `edit` shows the board as it is now in the
    message `ref` (or a new one) and returns where it is. One process at a time, with
    the current board, so the last edit always shows the last change."""
    async with store.board_lock(chat):
        async with store.transaction(chat, write=False) as tx:
            session = await tx.session(session_id)
            if session is None:
                return
            settings = await tx.settings()
            game = table.games[session.game]
            # Everyone sees the live board: the chat's language, or English.
            tr = i18n.translator(i18n.choose(settings.language, None), game.key)
            call = Call(tx, table, Command(chat, BOT, "board"), table.core["board"], session,
                        game, settings, permissions.roles_of(BOT, session), rows, tr, web=web)
            board = await board_reply(call, session, "")
            board.language = tr.language  # its buttons, rendered by the platform
        ref = await edit(board, session.board_ref)
        if ref != session.board_ref:
            async with store.transaction(chat) as tx:
                await tx.set_board_ref(session_id, ref)


def live_board(reply: Reply) -> None:
    """The board lives in a message of its own, edited in place: the reply to the command
    keeps its short line and whatever asks something of the sender now."""
    board = reply.board
    if board is None:
        return
    reply.publish = board.session
    if reply.brief is None or board.ended:
        return  # /endgame's standings are the answer; the live board is only closed
    reply.text, reply.table = reply.brief, None
    reply.pad = None  # the scorepad's button is on the board
    if reply.question is not None and reply.question.ask in (Ask.ACTIONS, Ask.TYPE) \
            and not reply.question.prompt_now:
        reply.question = None  # the next hand, undo and "enter maal" live on the board
