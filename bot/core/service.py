"""The one entry point: a Command in, a Reply out.

The service keeps what every command shares and nothing else: the chat's transaction, the
origin ids that make a redelivered message a no-op, routing through the command table,
option checks against the command's spec, and the permission its spec declares. Handlers live
in bot/core/handlers/, one module per concern. Bad input raises UserError and the
transaction rolls back, so it changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from bot.core import i18n, permissions
from bot.core.assembly.built import TABLE
from bot.core.command import Actor, Command, Reply
from bot.core.command_table import CommandTable
from bot.core.commands.options import normalise
from bot.core.commands.spec import CommandSpec, Needs
from bot.core.errors import UserError
from bot.core.examples import EXAMPLE_NAMES
from bot.core.flows import Ask, Token, unseal
from bot.core.games.base import Game
from bot.core.grammar import clip
from bot.core.handlers import flow_answers as answers
from bot.core.handlers import hands
from bot.core.handlers.board_commands import board_reply
from bot.core.handlers.call import LIMIT, NO_GAME, Call, Outcome
from bot.core.handlers.flow_answers import Snapshot
from bot.core.i18n import Msg, Text, _
from bot.core.pages import WebSide
from bot.core.session import (
    LIVE,
    OPEN,
    ChatSettings,
    ChatTransaction,
    DuplicateOrigin,
    SessionState,
    Store,
    WaitingHand,
)

log = logging.getLogger(__name__)
BOARD_ROWS = 10
AdminCheck = Callable[[], Awaitable[bool]]
FAILED = _("Something went wrong on my side and nothing was recorded. Please try again in a "
           "moment.")
SLOW = _("That took too long, so I stopped; nothing was recorded. Please try again in a "
         "moment.")
NOT_SURE = _("Something went wrong on my side and I can't tell whether that was recorded: "
             "look at /board before sending it again.")
RECORDED = _("(The connection dropped as this was saved; it was recorded.)")
ALREADY = _("Already recorded.")
COMMAND_SECONDS = 20.0  # a command that takes longer is given up (and rolled back)
CHECK_SECONDS = 5.0  # how long to look for whether a failed command was recorded
MAX_MOVES = 3  # a chat moved on again (never seen on Telegram, whose supergroups stay put)
# The task whose command is under a time limit already (a task made meanwhile copies the
# context, not the limit: it is another task)
TIMED: ContextVar[asyncio.Task[Any] | None] = ContextVar("timed", default=None)


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

    # --- commands ------------------------------------------------------------------------

    async def handle(self, command: Command, admin: AdminCheck | None = None) -> Reply:
        """Run a command. `admin` tells whether the sender is a chat admin; it is asked only
        when the command's permission can depend on it."""
        started = time.perf_counter()
        reply = await self._safely(self._handle, command, admin)
        log.info("command", extra={
            "chat": command.chat, "command": command.name, "origin": command.origin_id,
            "actor": command.actor.id, "ok": reply.ok, "duplicate": reply.duplicate,
            "ms": round((time.perf_counter() - started) * 1000, 2)})
        return reply

    def knows(self, name: str) -> bool:
        return self.table.knows(name)

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
            outcome = await self._chosen(tx, command, settings)
        return await self._finished(outcome)

    async def _chosen(self, tx: ChatTransaction, command: Command,
                      settings: ChatSettings) -> Outcome:
        # The one place a command's language is chosen; it travels with it from here.
        language = i18n.choose(settings.language, command.locale)
        try:
            return await self._in_chat(tx, command, settings, language)
        except UserError as error:
            error.language = language  # type: ignore[attr-defined]
            raise

    @staticmethod
    async def _finished(outcome: Outcome) -> Reply:
        if outcome.later is not None:  # slow work (a chart) after the chat's turn is over
            reply = await outcome.later()
            reply.language = outcome.reply.language
            return reply
        return outcome.reply

    async def _in_chat(self, tx: ChatTransaction, command: Command, settings: ChatSettings,
                       language: str) -> Outcome:
        name = command.name.lower()
        if command.origin_id is not None:
            previous = await tx.origin_reply(command.origin_id)
            if previous is not None:
                reply = self._earlier(previous, command, language)
                reply.duplicate = True
                return Outcome(reply)
        session = await tx.open_session()
        game = self.table.games[session.game] if session else self.table.default_game
        if command.game is not None and session is not None and command.game != game.key:
            raise UserError(_("This chat is playing {game}: use /{command} {key}.",
                              game=Msg(game.title), command=name, key=game.key))
        spec = self._route(name, game, session)
        tr = i18n.translator(language, game.key)
        options = normalise(spec, command.options,
                            session.roster.names() if session is not None else (), tr)
        command = replace(command, options=options)
        call = Call(tx, self.table, command, spec, session, game, settings,
                    permissions.roles_of(command.actor, session), self.board_rows, tr,
                    self.store, self.web)
        waiting = session.pending if session is not None else None
        asked = session.hand_count + 1 if session is not None else 0  # the waiting hand's no
        outcome = await self._run(call)
        if waiting is not None and waiting.prompts and session is not None \
                and (session.pending is not waiting or session.status != OPEN):
            await self._keep_answered(tx, session.id, asked, waiting)
        # the answer's language: the command's, or the one /settings language: just chose
        outcome.reply.language = call.tr.language
        if outcome.changed and command.buttons and settings.board == LIVE:
            live_board(outcome.reply)
        if outcome.changed and command.origin_id is not None:
            await tx.record_origin(command.origin_id, outcome.reply.to_json())
        return outcome

    @staticmethod
    async def _keep_answered(tx: ChatTransaction, session: int | None, hand: int,
                             waiting: WaitingHand) -> None:
        """A hand asked for by prompts stopped waiting: its prompts are kept (the last such
        hand's), so a reply to one that comes too late is told what became of it."""
        settings = await tx.settings()  # as the command left them
        settings.answered = {"session": session, "hand": hand,
                             "prompts": list(waiting.prompts)}
        await tx.save_settings(settings)

    def _route(self, name: str, game: Game, session: SessionState | None) -> CommandSpec:
        spec = self.table.lookup(name, game)
        if spec is not None:
            if spec.needs == Needs.GAME and session is None:
                raise UserError(NO_GAME)
            return spec
        games = self.table.games_with(name)
        elsewhere = [Msg(g.title) for g in games]
        if elsewhere and session is not None:
            raise UserError(_("/{command} is for {games}; this chat is playing {game}. See "
                              "/help.", command=name, games=i18n.join(elsewhere, ", "),
                              game=Msg(game.title)))
        if elsewhere:  # /ron before any game: the game it belongs to, not Marriage
            raise UserError(_("No game is open here. /{command} is for {games}: start one "
                              "with {examples}", command=name,
                              games=i18n.join(elsewhere, ", "),
                              examples="   ".join(map(starting, games))))
        raise UserError(unknown_command(name, self.table.names()))

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

    # --- answers to the bot's questions --------------------------------------------------

    def token(self, chat: str, data: str) -> Token | None:
        return unseal(data, chat, self.secret)

    async def answer(self, chat: str, actor: Actor, data: str, value: str,
                     origin: str | None = None, admin: AdminCheck | None = None,
                     locale: str | None = None) -> Reply:
        """A tap or a typed answer to a question the bot asked in `chat` (`data`: the sealed
        token it rode on); `locale`: the sender's platform language, as on a Command."""
        token = self.token(chat, data)
        if token is None:
            language = await self.language(chat, locale)
            return Reply.error(i18n.translator(language).text(answers.INVALID), language)

        async def run(_c: object, _a: object) -> Reply:
            return await answers.answer(answers.Tap(self, chat, actor, origin, admin, locale),
                                        token, value)

        return await self._safely(run, Command(chat, actor, "answer", locale=locale), None)

    async def become(self, chat: str, actor: Actor, names: Collection[str] | None,
                     origin: str | None, decide: answers.Decide,
                     admin: AdminCheck | None = None, locale: str | None = None) -> Reply:
        """A tap that may become one of the commands `names` (None: the one a waiting hand
        asks for, in any game), with the origin `origin`: one writer's transaction.
        `decide` looks at the table as that transaction reads it and gives the answer
        itself (a stale tap, say) or the command, run in the same transaction: nothing
        can change between the look and the command."""
        started = time.perf_counter()
        if names is None:
            names = {g.waiting_command for g in self.table.games.values()} - {""}
        if admin is not None and not actor.is_admin \
                and any(self.knows(n) and self.table.asks_admin(n) for n in names):
            actor = replace(actor, is_admin=await admin())  # asked before the chat's turn
        ran: list[Command] = []

        async def run(_c: object, _a: object) -> Reply:
            async with self.store.transaction(chat) as tx:
                await tx.prefetch(origin)  # the look and the command: one round trip
                settings = await tx.settings()
                # a chat moved away has nothing open here, as a separate look would find
                look = None if settings.moved_to else await self._look(tx, settings)
                decided = await decide(look, settings)
                if isinstance(decided, Reply):
                    return decided
                command = replace(decided, actor=actor)
                ran.append(command)
                outcome = await self._chosen(tx, command, settings)
            return await self._finished(outcome)

        reply = await self._safely(run, Command(chat, actor, "answer", origin_id=origin,
                                                locale=locale), None)
        if ran:
            log.info("command", extra={
                "chat": chat, "command": ran[0].name, "origin": ran[0].origin_id,
                "actor": actor.id, "ok": reply.ok, "duplicate": reply.duplicate,
                "ms": round((time.perf_counter() - started) * 1000, 2)})
        return reply

    async def move_chat(self, old: str, new: str) -> bool:
        """A chat's key changed (a Telegram group upgraded to a supergroup): everything of
        it moves, once however many processes are told. True if it moved now."""
        return await self.store.move_chat(old, new)

    async def language(self, chat: str, locale: str | None) -> str:
        """The language to answer in outside a command (a line that doesn't parse, a button
        that is no longer valid): the chat's setting, else the person's own. A chat that
        can't be read right now gets the person's."""
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                async with self.store.transaction(chat, write=False) as tx:
                    settings = await tx.settings()
        except Exception:
            log.warning("could not read the language of %s", chat, exc_info=True)
            return i18n.choose(None, locale)
        return i18n.choose(settings.language, locale)

    async def note_prompt(self, chat: str, ref: str) -> None:
        """A platform sent the question of a waiting hand as message `ref`: a reply to it is
        an answer (Telegram's maal prompt)."""
        async with self.store.transaction(chat) as tx:
            session = await tx.open_session()
            if session is not None and session.pending is not None:
                session.pending.prompts = [*session.pending.prompts[-9:], ref]
                await tx.save_session(session)

    async def prompt_token(self, chat: str, ref: str) -> str | None:
        """The sealed token of the waiting hand whose prompt is message `ref`, if any."""
        snapshot = await self.snapshot(chat)
        if snapshot is None or snapshot.session.pending is None \
                or ref not in snapshot.session.pending.prompts:
            return None
        session = snapshot.session
        assert session.id is not None
        from bot.core.flows import Step, seal

        return seal(Token(Step.INPUT, 0, (session.id, session.hand_count + 1)), chat,
                    self.secret)

    async def late_answer(self, chat: str, ref: str, locale: str | None) -> Reply | None:
        """A reply to prompt `ref` of the last hand that stopped waiting: what became of
        that hand (scored, undone, its game ended). None for any other message."""
        async with self.store.transaction(chat, write=False) as tx:
            settings = await tx.settings()
            answered = settings.answered or {}
            if ref not in answered.get("prompts", ()):
                return None
            session = await tx.session(int(answered["session"]))
        game = self.table.games.get(session.game) if session is not None else None
        tr = i18n.translator(i18n.choose(settings.language, locale),
                             game.key if game is not None else None)
        return Reply.error(tr.render(answers.done_with(session, game, int(answered["hand"]))),
                           tr.language)

    async def publish_board(self, chat: str, session_id: int,
                            edit: Callable[[Reply, str | None], Awaitable[str | None]]) -> None:
        """Bring a game's live board up to date: `edit` shows the board as it is now in the
        message `ref` (or a new one) and returns where it is. One process at a time, with
        the current board, so the last edit always shows the last change."""
        async with self.store.board_lock(chat):
            async with self.store.transaction(chat, write=False) as tx:
                session = await tx.session(session_id)
                if session is None:
                    return
                settings = await tx.settings()
                game = self.table.games[session.game]
                # Everyone sees the live board: the chat's language, or English.
                tr = i18n.translator(i18n.choose(settings.language, None), game.key)
                call = Call(tx, self.table, Command(chat, Actor("bot", "bot"), "board"),
                            self.table.core["board"], session, game, settings,
                            permissions.roles_of(Actor("bot", "bot"), session),
                            self.board_rows, tr, web=self.web)
                board = await board_reply(call, session, "")
                board.language = tr.language  # its buttons, rendered by the platform
            ref = await edit(board, session.board_ref)
            if ref != session.board_ref:
                async with self.store.transaction(chat) as tx:
                    await tx.set_board_ref(session_id, ref)

    async def snapshot(self, chat: str) -> Snapshot | None:
        """Read only: a tap's look before it becomes a command, which checks again."""
        async with self.store.transaction(chat, write=False) as tx:
            return await self._look(tx, await tx.settings())

    async def _look(self, tx: ChatTransaction, settings: ChatSettings) -> Snapshot | None:
        session = await tx.open_session()
        if session is None:
            return None
        assert session.id is not None
        last = await tx.hand(session.id, session.hand_count) if session.hand_count else None
        return Snapshot(session, self.table.games[session.game], last, settings)

    async def language_of(self, chat: str) -> str:
        """The chat's language setting (auto unless one was chosen)."""
        async with self.store.transaction(chat, write=False) as tx:
            return (await tx.settings()).language

    # --- failures ------------------------------------------------------------------------

    async def _safely(self, run: Callable[..., Awaitable[Reply]], command: Command | None,
                      admin: AdminCheck | None) -> Reply:
        task = asyncio.current_task()
        if TIMED.get() is task:
            # already timed: the command a tap became runs within the tap's limit (its
            # expiry is the tap's to answer), not a second one of its own
            return await self._answered(run, command, admin)
        try:
            async with asyncio.timeout(self.command_seconds) as limit:
                kept = LIMIT.set((limit, self.command_seconds))  # moved on by long work
                timed = TIMED.set(task)
                try:
                    return await self._answered(run, command, admin)
                finally:
                    TIMED.reset(timed)
                    LIMIT.reset(kept)
        except TimeoutError as error:
            return await self._failure(error, command)

    async def _answered(self, run: Callable[..., Awaitable[Reply]], command: Command | None,
                        admin: AdminCheck | None) -> Reply:
        """The reply to `command`, whatever happens in it (its time limit aside)."""
        try:
            return await run(command, admin)
        except UserError as error:
            language = getattr(error, "language", None) or i18n.choose(
                None, command.locale if command else None)
            return Reply.error(i18n.translator(language).render(error.message), language)
        except DuplicateOrigin:
            # Another process handled the same update at the same moment; give its answer.
            assert command is not None and command.origin_id is not None
            previous = await self.store.origin_reply(command.origin_id)
            reply = self._earlier(previous or {"pruned": True}, command)
            reply.duplicate = True
            return reply
        except Exception as error:
            return await self._failure(error, command)

    async def _failure(self, error: Exception, command: Command | None) -> Reply:
        """A bug, the database went away, or it took too long. Whether the change was
        committed is known only by its origin id: say only what is known."""
        slow = isinstance(error, TimeoutError)
        explain = getattr(self.store, "problem", None)
        known: Text | None = explain(error) if explain is not None else None
        # a failure the host must mend is one line (the traceback with LOG_LEVEL=DEBUG)
        log.log(logging.WARNING if slow else logging.ERROR,
                "command failed: chat=%s command=%s origin=%s%s",
                command.chat if command else "?", command.name if command else "?",
                command.origin_id if command else "?",
                f": {type(error).__name__}: {str(error)[:200]}" if known else "",
                exc_info=not slow and (known is None or log.isEnabledFor(logging.DEBUG)))
        if known is not None and getattr(error, "message", None) is known:
            return self._failed(command, known)  # found before anything was written
        return await self._after_failure(command, slow, known)

    def _earlier(self, previous: Mapping[str, Any], command: Command | None,
                 language: str | None = None) -> Reply:
        """The reply kept for a command done before; once its platform can no longer deliver
        it again, that reply is gone (bot/storage/retention.py): "Already recorded." then."""
        if previous.get("pruned"):
            language = language or self._language(command)
            previous = {"ok": True, "language": language,
                        "text": i18n.translator(language).render(ALREADY)}
        return Reply.from_json(previous)

    @staticmethod
    def _language(command: Command | None) -> str:
        """The language of an answer given without the chat's settings (they could not be
        read): the sender's own."""
        return i18n.choose(None, command.locale if command else None)

    def _say(self, command: Command | None, text: Text) -> str:
        return i18n.translator(self._language(command)).render(text)

    def _failed(self, command: Command | None, text: Text) -> Reply:
        return Reply.error(self._say(command, text), self._language(command))

    async def _after_failure(self, command: Command | None, slow: bool,
                             known: Text | None = None) -> Reply:
        """`known`: the database's own failure, said when nothing was recorded."""
        if command is None or command.origin_id is None:
            return self._failed(command, NOT_SURE)
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                previous = await self.store.origin_reply(command.origin_id)
        except Exception:
            log.warning("could not check origin %s after a failure", command.origin_id,
                        exc_info=True)
            return self._failed(command, NOT_SURE)
        if previous is None:
            return self._failed(command, known or (SLOW if slow else FAILED))
        reply = self._earlier(previous, command)
        if reply.ok:  # in the language the kept answer is in
            recorded = i18n.translator(reply.language).render(RECORDED)
            reply.text = f"{reply.text}\n{recorded}"
        return reply


def live_board(reply: Reply) -> None:
    """The board lives in a message of its own, edited in place: the reply to the command
    keeps its short line and whatever asks something of the sender now."""
    if reply.board is None:
        return
    reply.publish = _session_of(reply)
    if reply.brief is None or reply.board.ended:
        return  # /endgame's standings are the answer; the live board is only closed
    reply.text, reply.table = reply.brief, None
    reply.pad = None  # the scorepad's button is on the board
    if reply.question is not None and reply.question.ask in (Ask.ACTIONS, Ask.TYPE) \
            and not reply.question.prompt_now:
        reply.question = None  # the next hand, undo and "enter maal" live on the board


def _session_of(reply: Reply) -> int | None:
    board = reply.board
    return board.session if board is not None else None


def starting(game: Game) -> str:
    """"/newgame riichi players:alice bob carol": the game started at its smallest table."""
    names = EXAMPLE_NAMES[0][:max(game.min_players, 2)]
    return f"/newgame {game.key} players:{' '.join(names)}"


# what people at a table type for a command, where the nearest spelling would mislead
# (/settle is no /setmaal, /standings no /settings, /pay no /players)
MEANT = {
    "settle": "endgame", "settleup": "endgame", "settle_up": "endgame", "finish": "endgame",
    "score": "board", "scores": "board", "standings": "board",
    "total": "board", "totals": "board", "table": "board",
    "pay": "paid", "payment": "paid",
    "owe": "ledger", "owes": "ledger", "owed": "ledger", "debt": "ledger", "debts": "ledger",
    "balance": "ledger", "balances": "ledger",
    "cancel": "undo", "log": "history", "leaderboard": "stats",
    "language": "settings", "lang": "settings", "leave": "sitout",
}


def unknown_command(name: str, known: list[str]) -> Msg:
    import difflib

    meant = MEANT.get(name.lower())
    close = [meant] if meant in known else difflib.get_close_matches(name, known, n=1,
                                                                     cutoff=0.6)
    if close:
        return _("I don't know /{command}. Did you mean /{close}? See /help.",
                 command=clip(name), close=close[0])
    return _("I don't know /{command}. Try /help for the commands.", command=clip(name))


def known_commands() -> set[str]:
    """Every command name the bot answers, in any game."""
    return set(TABLE.names())
