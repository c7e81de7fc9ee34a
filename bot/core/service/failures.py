"""A command's time limit, and what a person is told when it fails or came before.

Every command and tap runs under one time limit (`guarded`). Whatever goes wrong in it is
answered, never raised to the platform: bad input with its message; the same update handled
by another process with that process's answer; a bug, a database gone away or a command too
slow with only what is known, read from the command's origin id (recorded or not).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

from bot.core import i18n
from bot.core.bidi import shown
from bot.core.command import Command, Reply
from bot.core.errors import UserError
from bot.core.handlers.call import LIMIT
from bot.core.i18n import Text, _
from bot.core.session import DuplicateOrigin, Store

log = logging.getLogger(__name__)
FAILED = _("Something went wrong on my side and nothing was recorded. Please try again in a "
           "moment.")
SLOW = _("That took too long, so I stopped; nothing was recorded. Please try again in a "
         "moment.")
NOT_SURE = _("Something went wrong on my side and I can't tell whether that was recorded: "
             "look at /board before sending it again.")
RECORDED = _("(The connection dropped as this was saved; it was recorded.)")
ALREADY = _("Already recorded.")
CHECK_SECONDS = 5.0  # how long to look for whether a failed command was recorded
# The task whose command is under a time limit already (a task made meanwhile copies the
# context, not the limit: it is another task)
TIMED: ContextVar[asyncio.Task[Any] | None] = ContextVar("timed", default=None)
Work = Callable[[], Awaitable[Reply]]


async def guarded(store: Store, seconds: float, work: Work, command: Command) -> Reply:
    """The reply of `work`, the running of `command`, within `seconds`: whatever happens."""
    task = asyncio.current_task()
    if TIMED.get() is task:
        # already timed: the command a tap became runs within the tap's limit (its
        # expiry is the tap's to answer), not a second one of its own
        return await _answered(store, work, command)
    try:
        async with asyncio.timeout(seconds) as limit:
            kept = LIMIT.set((limit, seconds))  # moved on by long work
            timed = TIMED.set(task)
            try:
                return await _answered(store, work, command)
            finally:
                TIMED.reset(timed)
                LIMIT.reset(kept)
    except TimeoutError as error:
        return await _failure(store, error, command)


async def _answered(store: Store, work: Work, command: Command) -> Reply:
    """The reply to `command`, whatever happens in it (its time limit aside)."""
    try:
        return await work()
    except UserError as error:
        language = getattr(error, "language", None) or _language(command)
        # a refusal never echoes a bidirectional control of what was typed (bidi.py)
        tr = i18n.translator(language)
        text = shown(tr.render(error.message))
        about = error.about
        return Reply.error(text, language, None if about is None else {
            "options": list(about.options), "players": list(about.players),
            "said": shown(tr.render(about.said)) if about.said else text})
    except DuplicateOrigin:
        # Another process handled the same update at the same moment; give its answer.
        assert command.origin_id is not None
        previous = await store.origin_reply(command.origin_id)
        reply = earlier(previous or {"pruned": True}, command)
        reply.duplicate = True
        return reply
    except Exception as error:
        return await _failure(store, error, command)


async def _failure(store: Store, error: Exception, command: Command) -> Reply:
    """A bug, the database went away, or it took too long. Whether the change was
    committed is known only by its origin id: say only what is known."""
    slow = isinstance(error, TimeoutError)
    explain = getattr(store, "problem", None)
    known: Text | None = explain(error) if explain is not None else None
    # a failure the host must mend is one line (the traceback with LOG_LEVEL=DEBUG)
    log.log(logging.WARNING if slow else logging.ERROR,
            "command failed: chat=%s command=%s origin=%s%s",
            command.chat, command.name, command.origin_id,
            f": {type(error).__name__}: {str(error)[:200]}" if known else "",
            exc_info=not slow and (known is None or log.isEnabledFor(logging.DEBUG)))
    if known is not None and getattr(error, "message", None) is known:
        return _failed(command, known)  # found before anything was written
    return await _after_failure(store, command, slow, known)


async def _after_failure(store: Store, command: Command, slow: bool,
                         known: Text | None = None) -> Reply:
    """`known`: the database's own failure, said when nothing was recorded."""
    if command.origin_id is None:
        return _failed(command, NOT_SURE)
    try:
        async with asyncio.timeout(CHECK_SECONDS):
            previous = await store.origin_reply(command.origin_id)
    except Exception:
        log.warning("could not check origin %s after a failure", command.origin_id,
                    exc_info=True)
        return _failed(command, NOT_SURE)
    if previous is None:
        return _failed(command, known or (SLOW if slow else FAILED))
    reply = earlier(previous, command)
    if reply.ok:  # in the language the kept answer is in
        recorded = i18n.translator(reply.language).render(RECORDED)
        reply.text = f"{reply.text}\n{recorded}"
    return reply


def earlier(previous: Mapping[str, Any], command: Command,
            language: str | None = None) -> Reply:
    """The reply kept for a command done before; once its platform can no longer deliver
    it again, that reply is gone (bot/storage/transaction/retention.py): "Already recorded."
    then."""
    if previous.get("pruned"):
        language = language or _language(command)
        previous = {"ok": True, "language": language,
                    "text": i18n.translator(language).render(ALREADY)}
    return Reply.from_json(previous)


def _language(command: Command) -> str:
    """The language of an answer given without the chat's settings (they could not be
    read): the sender's own."""
    return i18n.choose(None, command.locale)


def _failed(command: Command, text: Text) -> Reply:
    language = _language(command)
    return Reply.error(i18n.translator(language).render(text), language)
