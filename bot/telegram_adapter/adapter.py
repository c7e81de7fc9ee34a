"""The Telegram adapter: updates in, core Commands out, Replies rendered as HTML.

Commands are read from the text, so `/cmd` and `/cmd@ThisBot` work and `/cmd@OtherBot` is
left alone; it works with privacy mode on (commands and replies to the bot are all it needs).
The chat id is the session key; people are their numeric user id (`telegram:ID`), shown by
name. Origin ids are `telegram:CHAT:MESSAGE`, so a redelivered update records nothing twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from html import escape
from typing import TypeVar

from telegram import (
    BotCommand,
    CallbackQuery,
    ForceReply,
    InlineKeyboardMarkup,
    Message,
    MessageEntity,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.core.command import Actor, Command, Reply
from bot.core.errors import UserError
from bot.core.games import GAMES
from bot.core.grammar import is_command, parse_command_text
from bot.core.help import command_menu
from bot.core.service import Service, known_commands
from bot.telegram_adapter import keyboards as kb
from bot.telegram_adapter.keyboards import Tap
from bot.telegram_adapter.render import reply_chunks

log = logging.getLogger(__name__)
T = TypeVar("T")

MAAL_PROMPT = "Maal for the hand"  # a reply to a message starting so is a /maal
ADMIN_CACHE_SECONDS = 60
SEND_ATTEMPTS = 4
ANONYMOUS_ADMIN_ID = 1087968824
MAX_DOCUMENT_BYTES = 5_000_000  # "GroupAnonymousBot": an admin posting as the group


def chat_key(chat_id: int) -> str:
    """The core's session key for a Telegram chat."""
    return f"telegram:{chat_id}"


class TelegramAdapter:
    def __init__(
        self,
        service: Service,
        token: str,
        api_url: str = "https://api.telegram.org",
        *,
        webhook_url: str | None = None,
        webhook_listen: str = "0.0.0.0",
        webhook_port: int = 8443,
        webhook_secret: str | None = None,
        poll_timeout: int = 10,
        rate_limiter: BaseRateLimiter | None = None,
    ) -> None:
        self.service = service
        self.webhook_url = webhook_url
        self.webhook_listen = webhook_listen
        self.webhook_port = webhook_port
        # Several processes behind one webhook must agree on the secret: derive it from the
        # token unless one is given.
        self.webhook_secret = webhook_secret or hashlib.sha256(
            f"maalbot:{token}".encode()).hexdigest()[:48]
        self.poll_timeout = poll_timeout
        api = api_url.rstrip("/")
        self.app: Application = (
            ApplicationBuilder()
            .token(token)
            .base_url(f"{api}/bot")
            .base_file_url(f"{api}/file/bot")
            .rate_limiter(rate_limiter or AIORateLimiter(max_retries=3))
            .build()
        )
        self._admins: dict[int, tuple[float, set[int]]] = {}
        self.errors = 0  # updates that failed in our code (for tests and health)
        self.app.add_handler(MessageHandler(
            filters.UpdateType.MESSAGE & (filters.TEXT | filters.CAPTION), self._on_message))
        self.app.add_handler(MessageHandler(
            filters.UpdateType.EDITED_MESSAGE & filters.TEXT, self._on_edited))
        self.app.add_handler(CallbackQueryHandler(self._on_tap))
        self.app.add_error_handler(self._on_error)

    # --- running -------------------------------------------------------------------------

    async def start(self) -> None:
        await self.app.initialize()
        menu = [BotCommand(name, summary[:256]) for name, summary in
                command_menu(list(GAMES.values()))]
        await self._retry(lambda: self.app.bot.set_my_commands(menu))
        await self.app.start()
        assert self.app.updater is not None
        allowed = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.CALLBACK_QUERY]
        if self.webhook_url:
            await self.app.updater.start_webhook(
                listen=self.webhook_listen, port=self.webhook_port,
                url_path="telegram", webhook_url=self.webhook_url,
                secret_token=self.webhook_secret, allowed_updates=allowed,
            )
        else:
            await self.app.updater.start_polling(
                timeout=self.poll_timeout, allowed_updates=allowed, poll_interval=0,
            )
        log.info("telegram: running as @%s (%s)", self.app.bot.username,
                 "webhook" if self.webhook_url else "polling")

    async def stop(self) -> None:
        """Stop fetching, let the update in hand finish, then close."""
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    # --- messages ------------------------------------------------------------------------

    async def _on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None:
            return
        text = message.text or message.caption or ""
        if not is_command(text):
            if self._is_maal_prompt_reply(message):
                await self._run(message, Command(
                    chat=chat_key(message.chat_id), actor=await self._actor(message, False),
                    name="maal", options={"": text.strip()},
                    origin_id=self._origin(message)))
            return
        rewritten, mentions = _rewrite_mentions(message, text)
        try:
            parsed = parse_command_text(rewritten)
        except UserError as error:
            await self._send(message, Reply.error(error.message))
            return
        addressed = parsed.addressee is not None
        if addressed and parsed.addressee.lower() != (self.app.bot.username or "").lower():
            return  # a command for another bot
        private = message.chat.type == ChatType.PRIVATE
        if parsed.name not in known_commands() and not (addressed or private):
            return  # maybe another bot's command: stay quiet in groups
        needs_admin = parsed.name in ("undo", "edit", "endgame")
        command = Command(
            chat=chat_key(message.chat_id), actor=await self._actor(message, needs_admin),
            name=parsed.name, options=parsed.options, origin_id=self._origin(message),
            mentions=mentions, attachment=await self._document(message),
        )
        if parsed.name == "hand" and not parsed.options:
            await self._start_hand_flow(message, command)
        elif parsed.name in ("undo", "endgame") and not parsed.options.keys() - {"reason"}:
            await self._ask_confirmation(message, command)
        else:
            await self._run(message, command)

    async def _document(self, message: Message) -> bytes | None:
        """The file sent with a command (an /import), if any and not too large."""
        document = message.document
        if document is None:
            return None
        if (document.file_size or 0) > MAX_DOCUMENT_BYTES:
            return None
        file = await self._retry(lambda: document.get_file())
        return bytes(await self._retry(lambda: file.download_as_bytearray()))

    async def _on_edited(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.edited_message
        if message is None or not is_command(message.text or ""):
            return
        try:
            parsed = parse_command_text(message.text or "")
        except UserError:
            return
        mine = parsed.addressee is None or parsed.addressee.lower() == (
            self.app.bot.username or "").lower()
        if mine and parsed.name in known_commands():
            await self._send(message, Reply(
                "I don't re-read edited messages, so nothing changed. Send the command again, "
                "or correct a recorded hand with /edit hand:N."))

    async def _run(self, message: Message, command: Command) -> Reply:
        reply = await self.service.handle(command)
        if reply.duplicate:
            log.info("telegram: duplicate %s ignored", command.origin_id)
            return reply
        await self._send(message, reply)
        if command.name == "hand" and reply.ok and reply.board \
                and reply.board.get("waiting_for"):
            await self._prompt_maal(message, reply.board["waiting_for"])  # once, as it starts
        return reply

    # --- tap flows -----------------------------------------------------------------------

    async def _start_hand_flow(self, message: Message, command: Command) -> None:
        snapshot = await self.service.snapshot(command.chat)
        if snapshot is None or snapshot.session.pending is not None \
                or len(snapshot.session.players) < snapshot.game.min_players \
                or not snapshot.game.seen_flow:
            await self._run(message, command)  # the core explains what is wrong
            return
        players = snapshot.session.players
        starter = message.from_user.id  # type: ignore[union-attr]
        await self._send(message, Reply(f"Hand {snapshot.session.hand_count + 1}: who won?"),
                         markup=kb.winner_keyboard(starter, players))

    async def _ask_confirmation(self, message: Message, command: Command) -> None:
        snapshot = await self.service.snapshot(command.chat)
        if snapshot is None:
            await self._run(message, command)
            return
        session = snapshot.session
        starter = message.from_user.id  # type: ignore[union-attr]
        if command.name == "undo":
            if session.pending is not None:
                question = "Drop the hand that is waiting for maal?"
            elif snapshot.last_hand is not None:
                question = f"Undo hand {snapshot.last_hand.no} ({snapshot.last_hand.summary})?"
            else:
                await self._run(message, command)
                return
            markup = kb.confirm_keyboard(starter, kb.CONFIRM_UNDO, "Yes, undo")
        else:
            question = (f"End the game after {session.hand_count} hands? "
                        "Standings and who pays whom follow; the game is archived.")
            markup = kb.confirm_keyboard(starter, kb.CONFIRM_END, "Yes, end it")
        await self._send(message, Reply(question), markup=markup)

    async def _on_tap(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        answer = ""
        try:
            answer = await self._handle_tap(query)
        except Exception:
            log.exception("telegram: button failed")
            answer = "Something went wrong; nothing was recorded."
        finally:
            # Always answer, or the button spins on the person's screen.
            await self._retry(lambda: query.answer(answer[:200] or None,
                                                   show_alert=bool(answer)))

    async def _handle_tap(self, query: CallbackQuery) -> str:
        tap = Tap.decode(query.data or "")
        message = query.message
        if tap is None or not isinstance(message, Message):
            return "This button is no longer valid."
        chat_id = message.chat_id
        presser = query.from_user
        if presser.id != tap.starter and not await self._is_admin(message, presser):
            return "Only the person who started this, or a chat admin, can use these buttons."
        actor = self._actor_for(presser, is_admin=await self._is_admin(message, presser))
        if tap.kind in (kb.CANCEL, kb.CONFIRM_NO):
            await self._edit(message, Reply("Cancelled; nothing changed."))
            return ""
        if tap.kind in (kb.CONFIRM_UNDO, kb.CONFIRM_END):
            original = message.reply_to_message
            options = {}
            if original is not None and original.text and is_command(original.text):
                options = parse_command_text(original.text).options
            name = "undo" if tap.kind == kb.CONFIRM_UNDO else "endgame"
            reply = await self.service.handle(Command(
                chat=chat_key(chat_id), actor=actor, name=name, options=options,
                origin_id=f"telegram:{chat_id}:{message.message_id}:confirm"))
            if not reply.duplicate:
                await self._edit(message, reply)
            return ""
        snapshot = await self.service.snapshot(chat_key(chat_id))
        if snapshot is None:
            await self._edit(message, Reply.error("No game is open here any more."))
            return ""
        roster = snapshot.session.roster
        players = list(roster)
        seats = {p.seat for p in players}
        if tap.kind == kb.PICK_WINNER and tap.args[0] in seats:
            winner = tap.args[0]
            await self._edit(message, Reply(
                f"{roster.by_seat(winner).name} won. Who else has seen? Tap to mark, then "
                "Done."), markup=kb.seen_keyboard(tap.starter, players, winner, 1 << winner))
            return ""
        toggle_ok = len(tap.args) == 3 and {tap.args[0], tap.args[2]} <= seats
        if tap.kind == kb.TOGGLE_SEEN and toggle_ok:
            winner, mask, seat = tap.args
            mask ^= 1 << seat
            await self._edit(message, Reply(
                f"{roster.by_seat(winner).name} won. Who else has seen? Tap to mark, then "
                "Done."), markup=kb.seen_keyboard(tap.starter, players, winner, mask))
            return ""
        if tap.kind == kb.SEEN_DONE and len(tap.args) == 2 and tap.args[0] in seats:
            winner, mask = tap.args
            seen = [p.name for p in players if mask >> p.seat & 1 and p.seat != winner]
            reply = await self.service.handle(Command(
                chat=chat_key(chat_id), actor=actor, name="hand",
                options={"winner": roster.by_seat(winner).name, "seen": " ".join(seen)},
                origin_id=f"telegram:{chat_id}:{message.message_id}:hand"))
            if reply.duplicate:
                return ""
            await self._edit(message, reply)
            if reply.ok and reply.board and reply.board.get("waiting_for"):
                await self._prompt_maal(message, reply.board["waiting_for"])
            return ""
        await self._edit(message, Reply.error("The table changed since this was asked; "
                                              "start again with /hand."))
        return ""

    async def _prompt_maal(self, message: Message, waiting_for: list[str]) -> None:
        names = ", ".join(waiting_for)
        example = " ".join(f"{n}=5" for n in waiting_for[:3])
        text = (f"{MAAL_PROMPT}: reply to this message. Each player can send their own "
                f"number, or anyone sends {example}. Still needed: {names}.")
        await self._retry(lambda: message.chat.send_message(
            escape(text, quote=False), parse_mode=ParseMode.HTML,
            reply_markup=ForceReply(selective=False, input_field_placeholder=example[:64])))

    def _is_maal_prompt_reply(self, message: Message) -> bool:
        original = message.reply_to_message
        return (original is not None and original.from_user is not None
                and original.from_user.id == self.app.bot.id
                and (original.text or "").startswith(MAAL_PROMPT))

    # --- people --------------------------------------------------------------------------

    async def _actor(self, message: Message, needs_admin: bool) -> Actor:
        user = message.from_user
        assert user is not None
        is_admin = needs_admin and await self._is_admin(message, user)
        return self._actor_for(user, is_admin)

    @staticmethod
    def _actor_for(user: User, is_admin: bool) -> Actor:
        return Actor(id=f"telegram:{user.id}", name=user.full_name or str(user.id),
                     is_admin=is_admin, handles=(user.username,) if user.username else ())

    async def _is_admin(self, message: Message, user: User) -> bool:
        chat = message.chat
        if chat.type == ChatType.PRIVATE:
            return True
        if user.id == ANONYMOUS_ADMIN_ID and message.sender_chat is not None \
                and message.sender_chat.id == chat.id:
            return True
        cached = self._admins.get(chat.id)
        if cached is None or time.monotonic() - cached[0] > ADMIN_CACHE_SECONDS:
            try:
                members = await self._retry(lambda: chat.get_administrators())
                cached = (time.monotonic(), {m.user.id for m in members})
            except (BadRequest, Forbidden):
                cached = (time.monotonic(), set())
            self._admins[chat.id] = cached
        return user.id in cached[1]

    @staticmethod
    def _origin(message: Message) -> str:
        return f"telegram:{message.chat_id}:{message.message_id}"

    # --- sending -------------------------------------------------------------------------

    async def _send(self, message: Message, reply: Reply,
                    markup: InlineKeyboardMarkup | None = None) -> None:
        if reply.file is not None:
            await self._send_file(message, reply)
            return
        chunks = reply_chunks(reply)
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            await self._retry(lambda chunk=chunk, last=last: message.chat.send_message(
                chunk, parse_mode=ParseMode.HTML,
                reply_parameters=ReplyParameters(message.message_id,
                                                 allow_sending_without_reply=True),
                reply_markup=markup if last else None))

    async def _send_file(self, message: Message, reply: Reply) -> None:
        """A chart as a photo, an export as a document; the text as the caption."""
        assert reply.file is not None
        caption = escape(reply.text, quote=False)[:1000]
        file = reply.file
        if file.kind == "image":
            await self._retry(lambda: message.chat.send_photo(
                file.data, caption=caption, parse_mode=ParseMode.HTML,
                filename=file.name))
        else:
            await self._retry(lambda: message.chat.send_document(
                file.data, filename=file.name, caption=caption, parse_mode=ParseMode.HTML))

    async def _edit(self, message: Message, reply: Reply,
                    markup: InlineKeyboardMarkup | None = None) -> None:
        chunks = reply_chunks(reply)
        await self._retry(lambda: message.edit_text(chunks[0], parse_mode=ParseMode.HTML,
                                                    reply_markup=markup))
        for chunk in chunks[1:]:
            await self._retry(lambda chunk=chunk: message.chat.send_message(
                chunk, parse_mode=ParseMode.HTML))

    @staticmethod
    async def _retry(call: Callable[[], Awaitable[T]]) -> T:
        """Retry a network failure; 429s are retried by the rate limiter before this sees them."""
        delay = 0.5
        for attempt in range(SEND_ATTEMPTS):
            try:
                return await call()
            except RetryAfter as error:
                if attempt == SEND_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(float(error.retry_after if isinstance(
                    error.retry_after, int | float) else error.retry_after.total_seconds()))
            except NetworkError as error:
                if isinstance(error, BadRequest) or attempt == SEND_ATTEMPTS - 1:
                    raise
                log.warning("telegram: %s; retrying in %.1fs", error, delay)
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        self.errors += 1
        log.error("telegram: update failed: %s", context.error, exc_info=context.error)


def _boundary(encoded: bytes, offset: int) -> bool:
    """Is `offset` (in UTF-16 bytes) between characters, not inside a surrogate pair?"""
    try:
        encoded[:offset].decode("utf-16-le")
    except UnicodeDecodeError:
        return False
    return True


def _rewrite_mentions(message: Message, text: str) -> tuple[str, dict[str, Actor]]:
    """Replace mentions of people without a @username ("text_mention", which may contain
    spaces) by `<@ID>` tokens the grammar can carry, and say who each token is."""
    entities = [e for e in (message.entities or message.caption_entities or ())
                if e.type == MessageEntity.TEXT_MENTION and e.user is not None]
    if not entities:
        return text, {}
    encoded = text.encode("utf-16-le")
    mentions: dict[str, Actor] = {}
    out: list[bytes] = []
    position = 0
    for entity in sorted(entities, key=lambda e: e.offset):
        user = entity.user
        assert user is not None
        start, end = entity.offset * 2, (entity.offset + entity.length) * 2
        if start < position or end > len(encoded) or not (
                _boundary(encoded, start) and _boundary(encoded, end)):
            continue  # an entity that does not fit the text: leave the text as it is
        token = f"<@{user.id}>"
        mentions[token] = Actor(id=f"telegram:{user.id}", name=user.full_name,
                                handles=(user.username,) if user.username else ())
        out += [encoded[position:start], token.encode("utf-16-le")]
        position = end
    out.append(encoded[position:])
    return b"".join(out).decode("utf-16-le"), mentions

