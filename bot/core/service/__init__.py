"""The one entry point: a Command in, a Reply out.

The service is the router: the chat's transaction, the origin ids that make a redelivered
message a no-op, routing through the command table, option checks against the command's
spec, and the permission its spec declares. Handlers live in bot/core/handlers/, one module
per concern. Bad input raises UserError and the transaction rolls back, so it changes
nothing. Beside it, each in a module of its own: the time limit and what a failure is
answered (failures.py), where a command goes or why it can't (routes.py), taps and typed
answers to the bot's questions (taps.py), the prompts of a waiting hand (prompts.py), and
the live board (live.py).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import replace
from datetime import datetime

from bot.core import i18n, pages, permissions
from bot.core.assembly.built import TABLE
from bot.core.club.kept import ClubsKept
from bot.core.command import Actor, Command, Reply
from bot.core.command_table import CommandTable
from bot.core.commands.options import normalise
from bot.core.errors import UserError
from bot.core.flows import Token
from bot.core.games.base import Game
from bot.core.handlers import flow_answers as answers
from bot.core.handlers import hands
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.flow_answers import AdminCheck, Snapshot
from bot.core.i18n import Msg, _
from bot.core.pages import WebSide
from bot.core.service import failures, live, posts, prompts, routes, taps, timers
from bot.core.session import LIVE, ChatSettings, ChatTransaction, SessionState, Store

log = logging.getLogger(__name__)
BOARD_ROWS = 10
COMMAND_SECONDS = 20.0  # a command that takes longer is given up (and rolled back)
MAX_MOVES = 3  # a chat moved on again (never seen on Telegram, whose supergroups stay put)


class ChatMoved(Exception):
    """The chat's records moved to another key (`chat`) since the command was sent."""

    def __init__(self, chat: str) -> None:
        super().__init__(chat)
        self.chat = chat


class Service:
    def __init__(self, store: Store, board_rows: int = BOARD_ROWS,
                 table: CommandTable = TABLE, secret: bytes | None = None,
                 command_seconds: float = COMMAND_SECONDS, web: WebSide | None = None) -> None:
        self.store = store
        self.web = web  # the web pages it serves, if any (set once the server listens)
        self.command_seconds = command_seconds
        self.board_rows = board_rows
        self.table = table
        # Seals button data (bot/core/flows.py). Processes that share buttons (after a
        # restart, behind one bot) must share it: the runner derives it from the settings.
        self.secret = secret or secrets.token_bytes(32)
        self.clubs = ClubsKept()  # the clubs' figures, kept between commands
        self.posts = posts.Posts()  # to other chats than a command's (posts.py)

    # --- commands ------------------------------------------------------------------------

    async def handle(self, command: Command, admin: AdminCheck | None = None) -> Reply:
        """Run a command. `admin` tells whether the sender is a chat admin; it is asked only
        when the command's permission can depend on it."""
        started = time.perf_counter()
        reply = await self.guarded(lambda: self._handle(command, admin), command)
        if reply.duplicate and pages.marked(reply.text):  # another process's, kept marked
            reply.text = await self._revealed(command.chat, reply.text)
        _logged(command, reply, started)
        self.posts.later(reply)
        return reply

    async def _revealed(self, chat: str, text: str) -> str:
        """A kept reply's links as they are now (bot/core/pages.py): the chat's nonces."""
        async with self.store.transaction(chat, write=False) as tx:
            settings = await tx.settings()
        return pages.reveal(text, pages.current_tokens(self.web, settings.pages))

    async def tick(self, now: datetime | None = None) -> int:
        """The clubs' tournament timers: the posts due by `now` sent (timers.py)."""
        return await timers.tick(self.store, self.posts, now)

    def knows(self, name: str) -> bool:
        return self.table.knows(name)

    async def guarded(self, work: Callable[[], Awaitable[Reply]], command: Command) -> Reply:
        """`work`, the running of `command`, under the command's time limit, answered
        whatever happens in it (failures.py)."""
        return await failures.guarded(self.store, self.command_seconds, work, command)

    async def _handle(self, command: Command, admin: AdminCheck | None,
                      hops: int = 0) -> Reply:
        try:
            return await self._handle_here(command, admin)
        except ChatMoved as moved:
            # a Telegram group upgraded to a supergroup: its records are under the new id
            if hops >= MAX_MOVES:
                raise
            return await self._handle(replace(command, chat=moved.chat), admin, hops + 1)

    async def _handle_here(self, command: Command, admin: AdminCheck | None) -> Reply:
        name = command.name.lower()
        if admin is not None and not command.actor.is_admin and self.knows(name) \
                and self.table.asks_admin(name):
            command = replace(command, actor=replace(command.actor, is_admin=await admin()))
        write = not (self.knows(name) and self.table.read_only(name))
        async with self.store.transaction(command.chat, write=write) as tx:
            await tx.prefetch(command.origin_id)  # what follows is read in one round trip
            settings = await tx.settings()
            if settings.moved_to:
                raise ChatMoved(settings.moved_to)  # (nothing was written: it rolls back)
            outcome = await self.run_in(tx, command, settings)
        # slow work (a chart) after the chat's turn; then other chats' commands it left
        return await posts.follow(outcome, await outcome.finished(), lambda then: self.guarded(
            lambda: self._handle(then, None), then))

    async def run_in(self, tx: ChatTransaction, command: Command,
                     settings: ChatSettings) -> Outcome:
        """`command` in the chat's transaction `tx`, open and read (its `settings`)."""
        # The one place a command's language is chosen; it travels with it from here.
        language = i18n.choose(settings.language, command.locale)
        try:
            return await self._in_chat(tx, command, settings, language)
        except UserError as error:
            error.language = language  # type: ignore[attr-defined]
            raise

    async def _in_chat(self, tx: ChatTransaction, command: Command, settings: ChatSettings,
                       language: str) -> Outcome:
        name = command.name.lower()
        if command.origin_id is not None:
            previous = await tx.origin_reply(command.origin_id)
            if previous is not None:
                # its links as they are now (a link is never kept: bot/core/pages.py)
                previous = pages.reveal(previous, pages.current_tokens(self.web,
                                                                       settings.pages))
                reply = failures.earlier(previous, command, language)
                reply.duplicate = True
                return Outcome(reply)
        session = await tx.open_session()
        game = self.table.games[session.game] if session else self.table.default_game
        if command.game is not None and session is not None and command.game != game.key:
            raise UserError(_("This chat is playing {game}: use /{command} {key}.",
                              game=Msg(game.title), command=name, key=game.key))
        spec = routes.route(self.table, name, game, session)
        tr = i18n.translator(language, game.key)
        options = normalise(spec, command.options,
                            session.roster.names() if session is not None else (), tr,
                            _fitted(game, spec.name, session))
        command = replace(command, options=options)
        call = Call(tx, self.table, command, spec, session, game, settings,
                    permissions.roles_of(command.actor, session), self.board_rows, tr,
                    self.store, self.web, self.clubs)
        waiting = session.pending if session is not None else None
        asked = session.hand_count + 1 if session is not None else 0  # the waiting hand's no
        outcome = await self._run(call)
        await prompts.stopped_waiting(tx, session, asked, waiting)
        # the answer's language: the command's, or the one /settings language: just chose
        outcome.reply.language = call.tr.language
        if outcome.changed and command.buttons and settings.board == LIVE:
            live.live_board(outcome.reply)
        if outcome.changed and command.origin_id is not None:
            kept = outcome.kept if outcome.kept is not None else outcome.reply
            await tx.record_origin(command.origin_id, pages.conceal(kept.to_json()))
        return outcome

    async def _run(self, call: Call) -> Outcome:
        spec, command = call.spec, call.command
        if command.buttons and spec.flow:
            started = answers.start_hand(call)
            if started is not None:
                self._check(call)
                return started
        if spec.play is not None:  # a game's command: checked where it changes something
            return await hands.play(call)
        if not (spec.free_view and not command.options):
            self._check(call)
        assert spec.run is not None
        return await spec.run(call)

    @staticmethod
    def _check(call: Call) -> None:
        if call.spec.may in permissions.UP_FRONT:
            session = call.session
            permissions.check(call.spec.may, call.roles,
                              _("use /{command} here", command=call.spec.name),
                              hand_count=session.hand_count if session else 0,
                              waiting=session is not None and session.pending is not None)

    # --- answers to the bot's questions (taps.py, prompts.py) ----------------------------

    def token(self, chat: str, data: str) -> Token | None:
        return taps.token(self, chat, data)

    async def answer(self, chat: str, actor: Actor, data: str, value: str,
                     origin: str | None = None, admin: AdminCheck | None = None,
                     locale: str | None = None) -> Reply:
        """A tap or a typed answer to a question the bot asked in `chat` (`data`: the sealed
        token it rode on); `locale`: the sender's platform language, as on a Command."""
        return await taps.answer(self, chat, actor, data, value, origin, admin, locale)

    async def become(self, chat: str, actor: Actor, names: Collection[str] | None,
                     origin: str | None, decide: answers.Decide,
                     admin: AdminCheck | None = None, locale: str | None = None) -> Reply:
        """A tap that may become one of the commands `names`, in one writer's transaction
        with its look at the table (taps.py)."""
        started = time.perf_counter()
        reply, ran = await taps.become(self, chat, actor, names, origin, decide, admin,
                                       locale)
        if ran is not None:
            _logged(ran, reply, started)
        self.posts.later(reply)
        return reply

    async def snapshot(self, chat: str) -> Snapshot | None:
        """Read only: a tap's look before it becomes a command, which checks again."""
        return await taps.snapshot(self.store, self.table, chat)

    async def note_prompt(self, chat: str, ref: str) -> None:
        """A platform sent the question of a waiting hand as message `ref`: a reply to it is
        an answer (Telegram's maal prompt)."""
        await prompts.note(self.store, chat, ref)

    async def prompt_token(self, chat: str, ref: str) -> str | None:
        """The sealed token of the waiting hand whose prompt is message `ref`, if any."""
        return await prompts.token(self.store, self.secret, chat, ref)

    async def late_answer(self, chat: str, ref: str, locale: str | None) -> Reply | None:
        """A reply to a prompt of a hand that stopped waiting: what became of that hand.
        None for any other message."""
        return await prompts.late_answer(self.store, self.table, chat, ref, locale)

    # --- the chat --------------------------------------------------------------------------

    async def publish_board(self, chat: str, session_id: int, edit: live.Edit) -> None:
        """Bring a game's live board up to date in its message (live.py)."""
        await live.publish(self.store, self.table, self.board_rows, chat, session_id, edit,
                           self.web)

    async def move_chat(self, old: str, new: str) -> bool:
        """A chat's key changed (a Telegram group upgraded to a supergroup): everything of
        it moves, once however many processes are told. True if it moved now."""
        return await self.store.move_chat(old, new)

    async def language(self, chat: str, locale: str | None) -> str:
        """The language to answer in outside a command (a line that doesn't parse, a button
        that is no longer valid): the chat's setting, else the person's own. A chat that
        can't be read right now gets the person's."""
        try:
            async with asyncio.timeout(failures.CHECK_SECONDS):
                async with self.store.transaction(chat, write=False) as tx:
                    settings = await tx.settings()
        except Exception:
            log.warning("could not read the language of %s", chat, exc_info=True)
            return i18n.choose(None, locale)
        return i18n.choose(settings.language, locale)

    async def language_of(self, chat: str) -> str:
        """The chat's language setting (auto unless one was chosen)."""
        async with self.store.transaction(chat, write=False) as tx:
            return (await tx.settings()).language


def _logged(command: Command, reply: Reply, started: float) -> None:
    log.info("command", extra={
        "chat": command.chat, "command": command.name, "origin": command.origin_id,
        "actor": command.actor.id, "ok": reply.ok, "duplicate": reply.duplicate,
        "ms": round((time.perf_counter() - started) * 1000, 2)})


def known_commands() -> set[str]:
    """Every command name the bot answers, in any game."""
    return set(TABLE.names())


def _fitted(game: Game, command: str, session: SessionState | None
            ) -> Callable[[str], str] | None:
    """How a usage is made to run at the table of `session` (its game's fit_usage)."""
    if session is None:
        return None
    rules = game.rulebook.complete(session.rules)
    return lambda usage: game.fit_usage(command, usage, rules, session.roster,
                                        session.game_state)
