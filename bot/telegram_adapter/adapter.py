"""The Telegram adapter: updates in, core Commands out, Replies rendered as HTML.

Commands are read from the text, so `/cmd` and `/cmd@ThisBot` work and `/cmd@OtherBot` is
left alone; it works with privacy mode on (commands and replies to the bot are all it needs).
The chat id is the session key; people are their numeric user id (`telegram:ID`), shown by
name. Origin ids are `telegram:CHAT:MESSAGE`, so a redelivered update records nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from html import escape
from typing import TypeVar

from telegram import (
    BotCommand,
    BotCommandScopeChat,
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
from bot.core.flows import Ask, seal
from bot.core.grammar import is_command, parse_command_text
from bot.core.i18n import DEFAULT, LANGUAGES, Tr, _, choose, translator
from bot.core.i18n.words import placeholders
from bot.core.service import Service
from bot.storage.inbox import Inbox
from bot.telegram_adapter import keyboards as kb
from bot.telegram_adapter.intake import Intake, delivery
from bot.telegram_adapter.ratelimit import ChatRateLimiter
from bot.telegram_adapter.render import reply_chunks

log = logging.getLogger(__name__)
T = TypeVar("T")

ADMIN_CACHE_SECONDS = 60
PUBLISH_AFTER = 1.0  # seconds: changes within this are one edit of the live board
SEND_ATTEMPTS = 4
ANONYMOUS_ADMIN_ID = 1087968824  # "GroupAnonymousBot": an admin posting as the group
MAX_DOCUMENT_BYTES = 20_000_000  # the most a bot may download from Telegram (getFile)
# Telegram's language_code is ISO 639-1 (two letters): a menu per language we speak, shown
# to people whose app is in it; everyone else gets the default one, in English.
MENU_LANGUAGES = {language.split("-")[0].lower(): language for language in LANGUAGES
                  if language != DEFAULT}
MAX_MENU_DESCRIPTION = 256


def chat_key(chat_id: int) -> str:
    """The core's session key for a Telegram chat."""
    return f"telegram:{chat_id}"


def person_tr(user: User | None) -> Tr:
    """For what the adapter says when the chat can't be asked (a button that failed): the
    person's own language, where we have it."""
    return translator(choose(None, user.language_code if user is not None else None))


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
            .rate_limiter(rate_limiter or ChatRateLimiter())
            .updater(None)  # updates come in through our durable intake, not PTB's Updater
            .build()
        )
        self._admins: dict[int, tuple[float, set[int]]] = {}
        self.errors = 0  # updates that failed in our code (for tests and health)
        self.intake: Intake | None = None
        self._publishing: dict[int, asyncio.Task[None]] = {}  # a chat's live-board update
        self._due: dict[int, int] = {}  # chat -> the session whose board is due an update
        self.app.add_handler(MessageHandler(
            filters.UpdateType.MESSAGE & (filters.TEXT | filters.CAPTION), self._on_message))
        self.app.add_handler(MessageHandler(
            filters.UpdateType.EDITED_MESSAGE & filters.TEXT, self._on_edited))
        self.app.add_handler(CallbackQueryHandler(self._on_tap))
        self.app.add_error_handler(self._on_error)

    # --- running -------------------------------------------------------------------------

    async def start(self) -> None:
        await self.app.initialize()
        for code, language in [(None, DEFAULT), *MENU_LANGUAGES.items()]:
            commands = self._menu(None, translator(language))
            await self._retry(lambda commands=commands, code=code:
                              self.app.bot.set_my_commands(commands, language_code=code))
        await self.app.start()  # the handlers; updates come in through the intake
        allowed = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.CALLBACK_QUERY]
        store = self.service.store
        self.intake = Intake(self.app, Inbox(store.engine, self.app.bot.id),  # type: ignore[attr-defined]
                             allowed, self.poll_timeout)
        if self.webhook_url:
            await self._retry(lambda: self.app.bot.set_webhook(
                self.webhook_url or "", secret_token=self.webhook_secret,
                allowed_updates=allowed))
            await self.intake.start_webhook(self.webhook_listen, self.webhook_port,
                                            self.webhook_secret)
        else:
            await self._retry(lambda: self.app.bot.delete_webhook())
            await self.intake.start_polling()
        log.info("telegram: running as @%s (%s)", self.app.bot.username,
                 "webhook" if self.webhook_url else "polling")

    async def stop(self) -> None:
        """Stop fetching, let the updates in hand finish, then close (also after a start
        that failed half-way)."""
        if self.intake is not None:
            await self.intake.stop()
        pending = [task for task in self._publishing.values() if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=10)
        if self.app.running:
            await self.app.stop()
        try:
            await self.app.shutdown()
        except RuntimeError:  # never initialized: nothing to shut
            await self.app.bot.shutdown()

    # --- messages ------------------------------------------------------------------------

    async def _on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None:
            return
        text = message.text or message.caption or ""
        user = message.from_user
        if not is_command(text):
            await self._maybe_answer(message, text)
            return
        rewritten, mentions = _rewrite_mentions(message, text)
        try:
            parsed = parse_command_text(rewritten)
        except UserError as error:
            await self._send(message, _error_reply(error, await self._tr(message, user)))
            return
        addressed = parsed.addressee is not None
        if addressed and parsed.addressee.lower() != (self.app.bot.username or "").lower():
            return  # a command for another bot
        private = message.chat.type == ChatType.PRIVATE
        if not self.service.knows(parsed.name) and not (addressed or private):
            return  # maybe another bot's command: stay quiet in groups
        try:
            attachment = await self._document(message)
        except UserError as error:
            await self._send(message, _error_reply(error, await self._tr(message, user)))
            return
        command = Command(
            chat=chat_key(message.chat_id), actor=self._actor_for(user, False),
            name=parsed.name, options=parsed.options, origin_id=self._origin(message),
            mentions=mentions, attachment=attachment, buttons=True,
            locale=user.language_code, replied=self._replied(message))
        reply = await self.service.handle(command, self._admin_check(message, user))
        await self._deliver(message, reply)

    async def _maybe_answer(self, message: Message, text: str) -> None:
        """A reply to one of the bot's prompts (the maal for a waiting hand) is its answer;
        anything else that is not a command is none of our business."""
        original = message.reply_to_message
        if original is None or original.from_user is None \
                or original.from_user.id != self.app.bot.id:
            return
        chat = chat_key(message.chat_id)
        token = await self.service.prompt_token(chat, str(original.message_id))
        if token is None:
            return
        user = message.from_user
        assert user is not None
        reply = await self.service.answer(chat, self._actor_for(user, False), token,
                                          text.strip(), self._origin(message),
                                          self._admin_check(message, user),
                                          locale=user.language_code)
        await self._deliver(message, reply)

    async def _document(self, message: Message) -> bytes | None:
        """The file sent with a command (an /import), if any and not too large."""
        document = message.document
        if document is None:
            return None
        if (document.file_size or 0) > MAX_DOCUMENT_BYTES:
            raise UserError(_("That file is over {megabytes} MB, the most a bot can fetch "
                              "from Telegram; /export sends big games compressed (.json.gz).",
                              megabytes=MAX_DOCUMENT_BYTES // 1_000_000))
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
        if mine and self.service.knows(parsed.name):
            tr = await self._tr(message, message.from_user)
            await self._send(message, Reply(
                tr("I don't re-read edited messages, so nothing changed. Send the command "
                   "again, or correct a recorded hand with /edit hand:N."),
                language=tr.language))

    async def _deliver(self, message: Message, reply: Reply) -> None:
        """A reply to `message`: the text, its buttons, a prompt to reply to, the menu."""
        handling = delivery.get()
        if reply.duplicate and not (handling and handling.redelivery):
            log.info("telegram: duplicate of message %s ignored", message.message_id)
            return  # (handled again from the inbox, its answer was never sent: send it now)
        question = reply.question
        prompt = question is not None and question.ask == Ask.TYPE and question.prompt_now
        await self._send(message, reply, markup=None if prompt else self._markup(message,
                                                                              reply))
        if prompt:
            await self._prompt(message, reply)
        if reply.menu is not None:
            await self._chat_menu(message.chat_id, reply.menu)
        if reply.publish is not None:
            self._publish(message.chat_id, reply.publish)

    # --- the live board ------------------------------------------------------------------

    def _publish(self, chat_id: int, session_id: int) -> None:
        """Bring the chat's live board up to date, soon: a burst of changes is one edit
        (Telegram limits how often a message may be edited)."""
        self._due[chat_id] = session_id
        running = self._publishing.get(chat_id)
        if running is None or running.done():
            self._publishing[chat_id] = asyncio.create_task(self._publish_soon(chat_id))

    async def _publish_soon(self, chat_id: int) -> None:
        while chat_id in self._due:
            await asyncio.sleep(PUBLISH_AFTER)
            session_id = self._due.pop(chat_id)
            try:
                await self.service.publish_board(
                    chat_key(chat_id), session_id,
                    lambda board, ref: self._show_board(chat_id, board, ref))
            except Exception:
                log.exception("telegram: the live board of %s was not updated", chat_id)

    async def _show_board(self, chat_id: int, board: Reply, ref: str | None) -> str | None:
        """The board in its message `ref` (edited), or in a new one, pinned where the bot
        may pin; a finished game's board is left as it is, unpinned. Returns where it is."""
        text = reply_chunks(board)[0]
        markup = None if board.board is not None and board.board.ended else self._markup_for(
            chat_id, board)
        if ref is not None:
            try:
                await self._retry(lambda: self.app.bot.edit_message_text(
                    text, chat_id=chat_id, message_id=int(ref), parse_mode=ParseMode.HTML,
                    reply_markup=markup))
            except BadRequest as error:
                reason = str(error).lower()
                if "not modified" not in reason:
                    if "not found" not in reason and "can't be edited" not in reason:
                        raise
                    ref = None  # deleted, or too old to edit: a new one below
        if board.board is not None and board.board.ended:
            if ref is not None:
                with contextlib.suppress(BadRequest, Forbidden):
                    await self._retry(lambda: self.app.bot.unpin_chat_message(
                        chat_id, message_id=int(ref)))
            return None
        if ref is None:
            sent = await self._retry(lambda: self.app.bot.send_message(
                chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup))
            ref = str(sent.message_id)
            with contextlib.suppress(BadRequest, Forbidden):  # pinning needs an admin's right
                await self._retry(lambda: self.app.bot.pin_chat_message(
                    chat_id, sent.message_id, disable_notification=True))
        return ref

    def _markup(self, message: Message, reply: Reply) -> InlineKeyboardMarkup | None:
        return self._markup_for(message.chat_id, reply)

    def _markup_for(self, chat_id: int, reply: Reply) -> InlineKeyboardMarkup | None:
        if reply.question is None or not reply.question.choices:
            return None
        token = seal(reply.question.token, chat_key(chat_id), self.service.secret)
        return kb.markup_for(reply.question, token, translator(reply.language))

    async def _prompt(self, message: Message, reply: Reply) -> None:
        """Ask for a typed answer in a message people reply to; the core remembers it."""
        question = reply.question
        assert question is not None
        tr = translator(reply.language)
        text, example = tr.render(question.text), tr.render(question.example)
        sent = await self._retry(lambda: message.chat.send_message(
            escape(text, quote=False), parse_mode=ParseMode.HTML,
            reply_markup=ForceReply(selective=False,
                                    input_field_placeholder=example[:64] or None)))
        await self.service.note_prompt(chat_key(message.chat_id), str(sent.message_id))

    def _menu(self, game: str | None, tr: Tr) -> list[BotCommand]:
        """The command menu in the language of `tr`: one game's commands (their help in
        that game's words, a Tranca "round"), or every game's."""
        table = self.service.table
        chosen = table.games.get(game) if game else None
        words = placeholders(chosen.hand_word if chosen is not None else "hand")
        return [BotCommand(name, _menu_text(tr.text(summary, **words) if summary else name))
                for name, summary in table.menu(chosen)]

    async def _chat_menu(self, chat_id: int, game: str) -> None:
        """The chat's menu follows its game: /ron and /tsumo in a Riichi group, not /maal.
        A chat's menu outranks the default one in every language (Telegram looks for the
        chat's menu in the person's language, then the chat's, then the default in theirs),
        so it is set in each language too, or a Hindi speaker would see the English one."""
        scope = BotCommandScopeChat(chat_id)
        # everyone else sees the chat's menu in the chat's language, if it has set one
        default = await self.service.language(chat_key(chat_id), None)
        try:
            for code, language in [(None, default), *MENU_LANGUAGES.items()]:
                if game:
                    commands = self._menu(game, translator(language))
                    await self._retry(lambda commands=commands, code=code:
                                      self.app.bot.set_my_commands(commands, scope=scope,
                                                                   language_code=code))
                else:
                    await self._retry(lambda code=code: self.app.bot.delete_my_commands(
                        scope=scope, language_code=code))
        except (BadRequest, Forbidden) as error:
            log.warning("telegram: chat menu not set: %s", error)

    # --- taps ----------------------------------------------------------------------------

    async def _on_tap(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        notice = ""
        try:
            notice = await self._handle_tap(query)
        except Exception:
            log.exception("telegram: button failed")
            notice = person_tr(query.from_user)("Something went wrong; nothing was recorded.")
        finally:
            # Always answer, or the button spins on the person's screen.
            await self._retry(lambda: query.answer(notice[:200] or None,
                                                   show_alert=bool(notice)))

    async def _handle_tap(self, query: CallbackQuery) -> str:
        message = query.message
        presser = query.from_user
        if not isinstance(message, Message):
            return person_tr(presser)("This button is no longer valid.")  # no chat to ask
        token, value = kb.split(query.data or "")
        reply = await self.service.answer(
            chat_key(message.chat_id), self._actor_for(presser, False), token, value,
            self._origin(message), self._admin_check(message, presser),
            locale=presser.language_code)
        if reply.duplicate:
            return ""
        if not reply.ok and not reply.in_place:
            return reply.text  # an alert for the presser only
        if reply.in_place:
            prompt = reply.question is not None and reply.question.ask == Ask.TYPE \
                and reply.question.prompt_now
            await self._edit(message, reply, None if prompt else self._markup(message, reply))
            if prompt:
                await self._prompt(message, reply)
            if reply.menu is not None:
                await self._chat_menu(message.chat_id, reply.menu)
            if reply.publish is not None:
                self._publish(message.chat_id, reply.publish)
        else:
            await self._deliver(message, reply)
        return ""

    # --- people --------------------------------------------------------------------------

    def _admin_check(self, message: Message, user: User) -> Callable[[], Awaitable[bool]]:
        """Asked by the core only when a permission can depend on it."""
        return lambda: self._is_admin(message, user)

    async def _tr(self, message: Message, user: User | None) -> Tr:
        """For what the adapter says itself about a message: the chat's language if it has
        set one, else the sender's."""
        return translator(await self.service.language(
            chat_key(message.chat_id), user.language_code if user is not None else None))

    def _replied(self, message: Message) -> Actor | None:
        """The person whose message this one replies to (/seat bob in reply to Bob): a
        person, never a bot (the bot's own prompt included)."""
        original = message.reply_to_message
        if original is None or original.sender_chat is not None:  # a channel, the group
            return None
        # in a forum topic every message "replies" to the topic's first message: no answer
        if original.forum_topic_created is not None or (
                message.is_topic_message and original.message_id == message.message_thread_id):
            return None
        sender = original.from_user
        if sender is None or sender.is_bot:
            return None
        return self._actor_for(sender, False)

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
            if reply.table:  # a table and its picture (a season's ranking): both, in turn
                await self._send(message, dataclasses.replace(reply, file=None), markup)
                reply = dataclasses.replace(reply, text=reply.text.splitlines()[0])
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
                    handling = delivery.get()
                    if handling is not None:
                        handling.failed = True  # the inbox tries the update again later
                    raise
                await asyncio.sleep(float(error.retry_after if isinstance(
                    error.retry_after, int | float) else error.retry_after.total_seconds()))
            except NetworkError as error:
                if isinstance(error, BadRequest) or attempt == SEND_ATTEMPTS - 1:
                    handling = delivery.get()
                    if handling is not None and not isinstance(error, BadRequest):
                        handling.failed = True  # the inbox tries the update again later
                    raise
                log.warning("telegram: %s; retrying in %.1fs", error, delay)
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        self.errors += 1
        log.error("telegram: update failed: %s", context.error, exc_info=context.error)


def _error_reply(error: UserError, tr: Tr) -> Reply:
    return Reply.error(tr.render(error.message), tr.language)


def _menu_text(text: str) -> str:
    """A menu entry's description within Telegram's 1 to 256 characters."""
    text = " ".join(text.split()) or "-"
    return text if len(text) <= MAX_MENU_DESCRIPTION else text[:MAX_MENU_DESCRIPTION - 1] + "…"


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

