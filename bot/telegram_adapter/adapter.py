"""The Telegram adapter: updates in, core Commands out, Replies rendered as HTML.

Commands are read from the text, so `/cmd` and `/cmd@ThisBot` work and `/cmd@OtherBot` is
left alone; it works with privacy mode on (commands and replies to the bot are all it needs).
The chat is the session key, a forum topic a table of its own (places.py); people are their
numeric user id (`telegram:ID`), shown by name. Origin ids are `telegram:CHAT:MESSAGE`, so a
redelivered update records nothing twice. What Telegram does to chats (an upgrade to a
supergroup, the bot kicked or muted) is met in outbox.py; the bot added to a group says how
to begin (welcome.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScopeChat,
    CallbackQuery,
    ChatMember,
    ChatMemberUpdated,
    ForceReply,
    InlineKeyboardMarkup,
    Message,
    MessageEntity,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.core.command import Actor, Command, Reply
from bot.core.errors import UserError
from bot.core.flows import Ask, seal
from bot.core.grammar import is_command, parse_command_text
from bot.core.handlers.club.accounts import START_LINK
from bot.core.i18n import DEFAULT, LANGUAGES, Tr, _, choose, translator
from bot.core.service import Service
from bot.core.session import LIVE
from bot.storage.transaction.inbox import Inbox
from bot.telegram_adapter import keyboards as kb
from bot.telegram_adapter import welcome
from bot.telegram_adapter.intake import Intake, delivery
from bot.telegram_adapter.outbox import Outbox
from bot.telegram_adapter.places import Place, chat_key, place_of
from bot.telegram_adapter.ratelimit import ChatRateLimiter
from bot.telegram_adapter.render import html, reply_chunks

__all__ = ["TelegramAdapter", "chat_key"]
log = logging.getLogger(__name__)

ADMIN_CACHE_SECONDS = 60
PUBLISH_AFTER = 1.0  # seconds: changes within this are one edit of the live board
ANONYMOUS_ADMIN_ID = 1087968824  # "GroupAnonymousBot": an admin posting as the group
MAX_DOCUMENT_BYTES = 20_000_000  # the most a bot may download from Telegram (getFile)
# Telegram's language_code is ISO 639-1 (two letters): a menu per language we speak, shown
# to people whose app is in it; everyone else gets the default one, in English.
MENU_LANGUAGES = {language.split("-")[0].lower(): language for language in LANGUAGES
                  if language != DEFAULT}
MAX_MENU_DESCRIPTION = 256
# the updates asked for: my_chat_member (added, kicked, muted) only comes if asked
ALLOWED_UPDATES = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.CALLBACK_QUERY,
                   Update.MY_CHAT_MEMBER]
IN_CHAT = (ChatMember.OWNER, ChatMember.ADMINISTRATOR, ChatMember.MEMBER)
AS_CHANNEL = _("Send commands as yourself, not as a channel: the scorebook knows people by "
               "their own account, and everyone posting as a channel looks the same to me.")


def person_tr(user: User | None) -> Tr:
    """For what the adapter says when the chat can't be asked (a button that failed): the
    person's own language, where we have it."""
    return translator(choose(None, user.language_code if user is not None else None))


def can_speak(member: ChatMember) -> bool:
    """Can the bot, as this member of a chat, send messages there?"""
    if member.status == ChatMember.RESTRICTED:
        return bool(getattr(member, "is_member", False)
                    and getattr(member, "can_send_messages", False))
    return member.status in IN_CHAT


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
        miniapp: str | None = None,
        webhook_shared: bool = False,
    ) -> None:
        self.service = service
        self.miniapp = miniapp  # the scorepad's Mini App short name (BotFather's /newapp)
        self.webhook_url = webhook_url
        self.webhook_listen = webhook_listen
        self.webhook_port = webhook_port
        # the web pages' server takes the webhook on their port (`webhook`), as a host with
        # one port needs; else a listener of its own on webhook_port
        self.webhook_shared = webhook_shared
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
        self.outbox = Outbox(self._chat_moved)
        self._publishing: dict[Place, asyncio.Task[None]] = {}  # a table's live-board update
        self._due: dict[Place, int] = {}  # table -> the session whose board is due an update
        self.app.add_handler(MessageHandler(
            filters.UpdateType.MESSAGE & filters.StatusUpdate.MIGRATE, self._on_migrate))
        self.app.add_handler(MessageHandler(
            filters.UpdateType.MESSAGE & (filters.TEXT | filters.CAPTION), self._on_message))
        self.app.add_handler(MessageHandler(
            filters.UpdateType.EDITED_MESSAGE & filters.TEXT, self._on_edited))
        self.app.add_handler(CallbackQueryHandler(self._on_tap))
        self.app.add_handler(ChatMemberHandler(self._on_member,
                                               ChatMemberHandler.MY_CHAT_MEMBER))
        self.app.add_error_handler(self._on_error)

    # --- running -------------------------------------------------------------------------

    async def start(self) -> None:
        await self.app.initialize()
        for code, language in [(None, DEFAULT), *MENU_LANGUAGES.items()]:
            commands = self._menu(None, translator(language))
            await self.outbox.retry(lambda commands=commands, code=code:
                                    self.app.bot.set_my_commands(commands, language_code=code))
        await self.app.start()  # the handlers; updates come in through the intake
        store = self.service.store
        self.intake = Intake(self.app, Inbox(store.engine, self.app.bot.id),  # type: ignore[attr-defined]
                             ALLOWED_UPDATES, self.poll_timeout)
        if self.webhook_url:
            await self.outbox.retry(lambda: self.app.bot.set_webhook(
                self.webhook_url or "", secret_token=self.webhook_secret,
                allowed_updates=ALLOWED_UPDATES))
            if self.webhook_shared:
                await self.intake.start_shared(self.webhook_secret)
            else:
                await self.intake.start_webhook(self.webhook_listen, self.webhook_port,
                                                self.webhook_secret, self.webhook_path)
        else:
            await self.outbox.retry(lambda: self.app.bot.delete_webhook())
            await self.intake.start_polling()
        log.info("telegram: running as @%s (%s)", self.app.bot.username,
                 "webhook" if self.webhook_url else "polling")

    @property
    def webhook_path(self) -> str:
        """The path of TELEGRAM_WEBHOOK_URL (e.g. /telegram/a-secret-path), where the
        webhook is taken; /telegram when it names none."""
        return urlsplit(self.webhook_url or "").path.rstrip("/") or "/telegram"

    async def webhook(self, request: web.Request) -> web.Response:
        """Telegram's POST, through the web pages' server; 503 until the bot takes
        updates (Telegram sends it again)."""
        if self.intake is None:
            return web.Response(status=503, text="Not taking updates yet.")
        return await self.intake.received(request)

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
        self.outbox.heard(message.chat_id)
        place = Place.of(message)
        text = message.text or message.caption or ""
        user = message.from_user
        if not is_command(text):
            await self._maybe_answer(message, place, text)
            return
        rewritten, mentions = _rewrite_mentions(message, text)
        try:
            parsed = parse_command_text(rewritten)
        except UserError as error:
            await self._send(place, _error_reply(error, await self._tr(place, user)),
                             message.message_id)
            return
        addressed = parsed.addressee is not None
        if addressed and parsed.addressee.lower() != (self.app.bot.username or "").lower():
            return  # a command for another bot
        private = message.chat.type == ChatType.PRIVATE
        if private and parsed.name.lower() == "start" and not parsed.options:
            await self._welcome(place, user, private=True)
            return
        if private and parsed.name.lower() == "start" \
                and parsed.options.get("", "").strip() == START_LINK:  # a group's button
            parsed = dataclasses.replace(parsed, name="account", options={"": "link"})
        if not self.service.knows(parsed.name) and not (addressed or private):
            return  # maybe another bot's command: stay quiet in groups
        if _as_channel(message):
            await self._refuse_channel(message, place, user)
            return
        try:
            attachment = await self._document(message)
        except UserError as error:
            await self._send(place, _error_reply(error, await self._tr(place, user)),
                             message.message_id)
            return
        command = Command(
            chat=place.key, actor=self._actor_for(user, False),
            name=parsed.name, options=parsed.options, origin_id=self._origin(message),
            mentions=mentions, attachment=attachment, buttons=True,
            locale=user.language_code, replied=self._replied(message),
            progress=_progress(message) if attachment else None,
            chat_name=message.chat.title or message.chat.full_name, private=private)
        reply = await self.service.handle(command, self._admin_check(message, user))
        await self._deliver(place, message.message_id, reply)

    async def _maybe_answer(self, message: Message, place: Place, text: str) -> None:
        """A reply to one of the bot's prompts (the maal for a waiting hand) is its answer;
        to one of the last finished hands', told it is too late; anything else that is not a
        command is none of our business."""
        original = message.reply_to_message
        if original is None or original.from_user is None \
                or original.from_user.id != self.app.bot.id:
            return
        token = await self.service.prompt_token(place.key, str(original.message_id))
        user = message.from_user
        assert user is not None
        if token is None:  # a prompt of a hand no longer waiting is told what became of it
            late = await self.service.late_answer(place.key, str(original.message_id),
                                                  user.language_code)
            if late is not None:
                await self._send(place, late, message.message_id)
            return
        if _as_channel(message):
            await self._refuse_channel(message, place, user)
            return
        reply = await self.service.answer(place.key, self._actor_for(user, False), token,
                                          text.strip(), self._origin(message),
                                          self._admin_check(message, user),
                                          locale=user.language_code)
        await self._deliver(place, message.message_id, reply)

    async def _refuse_channel(self, message: Message, place: Place, user: User) -> None:
        """A command sent as a channel: every person who posts as any channel is the same
        "Channel" account to the bot, so none of them can be anyone at the table. A channel
        post forwarded into its discussion group by Telegram is nobody's command: no word."""
        if message.is_automatic_forward:
            return
        await self._send(place, _error_reply(UserError(AS_CHANNEL), await self._tr(place, user)),
                         message.message_id)

    async def _document(self, message: Message) -> bytes | None:
        """The file sent with a command (an /import), if any and not too large."""
        document = message.document
        if document is None:
            return None
        if (document.file_size or 0) > MAX_DOCUMENT_BYTES:
            raise UserError(_("That file is over {megabytes} MB, the most a bot can fetch "
                              "from Telegram; /export sends big games compressed (.json.gz).",
                              megabytes=MAX_DOCUMENT_BYTES // 1_000_000))
        file = await self.outbox.retry(lambda: document.get_file())
        return bytes(await self.outbox.retry(lambda: file.download_as_bytearray()))

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
            place = Place.of(message)
            tr = await self._tr(place, message.from_user)
            await self._send(place, Reply(
                tr("I don't re-read edited messages, so nothing changed. Send the command "
                   "again, or correct a recorded hand with /edit hand:N."),
                language=tr.language), message.message_id)

    async def _deliver(self, place: Place, message_id: int | None, reply: Reply) -> None:
        """A reply to message `message_id` in `place`: the text, its buttons, a prompt to
        reply to, the menu, the live board."""
        handling = delivery.get()
        if reply.duplicate and not (handling and handling.redelivery):
            log.info("telegram: duplicate of message %s ignored", message_id)
            return  # (handled again from the inbox, its answer was never sent: send it now)
        question = reply.question
        prompt = question is not None and question.ask == Ask.TYPE and question.prompt_now
        await self._send(place, reply, message_id, buttons=not prompt)
        if prompt:
            await self._prompt(place, reply)
        if reply.menu is not None:
            await self._chat_menu(place, reply.menu)
        if reply.publish is not None:
            self._publish(place, reply.publish)

    # --- what Telegram does to chats -----------------------------------------------------

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group upgraded to a supergroup: migrate_to_chat_id in the old chat,
        migrate_from_chat_id in the new one. Either moves the chat, once."""
        message = update.message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self._chat_moved(message.chat_id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self._chat_moved(message.migrate_from_chat_id, message.chat_id)

    async def _chat_moved(self, old: int, new: int) -> None:
        """Everything of the chat goes to its new id (once, whichever process is told
        first); replies go there from now on, and the open game's board is posted there
        (its message was in the old chat)."""
        self.outbox.moves[old] = new
        self.outbox.heard(new)
        if not await self.service.move_chat(chat_key(old), chat_key(new)):
            return
        log.info("telegram: chat %s became supergroup %s; its records moved", old, new)
        snapshot = await self.service.snapshot(chat_key(new))
        if snapshot is not None and snapshot.session.id is not None \
                and snapshot.settings is not None and snapshot.settings.board == LIVE:
            self._publish(Place(new), snapshot.session.id)

    async def _on_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot's own membership changed: added (say how to begin), kicked, left or muted
        (noted: nothing is sent there until it can speak again)."""
        change: ChatMemberUpdated | None = update.my_chat_member
        if change is None:
            return
        chat, now = change.chat, change.new_chat_member
        if not can_speak(now):
            self.outbox.lost(chat.id, f"the bot is {now.status} there", status=True)
            return
        self.outbox.heard(chat.id, status=True)
        if chat.type != ChatType.PRIVATE and change.old_chat_member.status in (
                ChatMember.LEFT, ChatMember.BANNED):
            await self._welcome(Place(chat.id), change.from_user, private=False)

    async def _welcome(self, place: Place, user: User | None, private: bool) -> None:
        """How to begin, in the chat's language (or the person's, in a chat that has set
        none): for a group the bot was added to, or a private chat's /start."""
        tr = await self._tr(place, user)
        text = welcome.welcome(tr, self.service.table.games.values())
        markup = None
        if private:
            text += "\n\n" + welcome.add_me(tr)
            markup = welcome.add_me_button(tr, self.app.bot.username or "")
        await self.outbox.send(place, lambda p: self.app.bot.send_message(
            p.chat_id, html(text), parse_mode=ParseMode.HTML,
            message_thread_id=p.thread_id, reply_markup=markup))

    # --- the live board ------------------------------------------------------------------

    def _publish(self, place: Place, session_id: int) -> None:
        """Bring the table's live board up to date, soon: a burst of changes is one edit
        (Telegram limits how often a message may be edited)."""
        self._due[place] = session_id
        running = self._publishing.get(place)
        if running is None or running.done():
            self._publishing[place] = asyncio.create_task(self._publish_soon(place))

    async def _publish_soon(self, place: Place) -> None:
        while place in self._due:
            await asyncio.sleep(PUBLISH_AFTER)
            session_id = self._due.pop(place)
            try:
                await self.service.publish_board(
                    place.key, session_id,
                    lambda board, ref: self._show_board(place, board, ref))
            except Exception:
                log.exception("telegram: the live board of %s was not updated", place.key)

    async def _show_board(self, place: Place, board: Reply, ref: str | None) -> str | None:
        """The board in its message `ref` (edited), or in a new one in the table's chat or
        topic, pinned where the bot may pin; a finished game's board is left as it is,
        unpinned. Returns where it is."""
        text = reply_chunks(board)[0]
        ended = board.board is not None and board.board.ended
        if ref is not None:
            try:
                await self.outbox.send(place, lambda p: self.app.bot.edit_message_text(
                    text, chat_id=p.chat_id, message_id=int(ref), parse_mode=ParseMode.HTML,
                    reply_markup=None if ended else self._markup_for(p, board)))
            except BadRequest as error:
                reason = str(error).lower()
                if "not modified" not in reason:
                    if "not found" not in reason and "can't be edited" not in reason:
                        raise
                    ref = None  # deleted, or too old to edit: a new one below
        if ended:
            if ref is not None:
                with contextlib.suppress(BadRequest):
                    await self.outbox.send(place, lambda p: self.app.bot.unpin_chat_message(
                        p.chat_id, message_id=int(ref)))
            return None
        if ref is None:
            sent = await self.outbox.send(place, lambda p: self.app.bot.send_message(
                p.chat_id, text, parse_mode=ParseMode.HTML, message_thread_id=p.thread_id,
                reply_markup=self._markup_for(p, board)))
            if sent is None:
                return None  # the chat can't be reached: no board there
            ref = str(sent.message_id)
            with contextlib.suppress(BadRequest):  # pinning needs an admin's right
                await self.outbox.send(place, lambda p: self.app.bot.pin_chat_message(
                    p.chat_id, sent.message_id, disable_notification=True))
        return ref

    def _markup_for(self, place: Place, reply: Reply) -> InlineKeyboardMarkup | None:
        """The reply's question as buttons, sealed for the table they are shown in; and
        the scorepad's button where the reply offers it (a game begun, the board)."""
        tr = translator(reply.language)
        markup = None
        if reply.question is not None and reply.question.choices:
            token = seal(reply.question.token, place.key, self.service.secret)
            markup = kb.markup_for(reply.question, token, tr)
        if reply.pad is not None and self.miniapp and self.app.bot.username:
            markup = kb.with_pad(markup, kb.pad_link(self.app.bot.username, self.miniapp,
                                                     reply.pad), tr)
        if reply.start_private is not None and self.app.bot.username:
            markup = kb.with_private(markup, self.app.bot.username, reply.start_private, tr)
        return markup

    async def _prompt(self, place: Place, reply: Reply) -> None:
        """Ask for a typed answer in a message people reply to; the core remembers it."""
        question = reply.question
        assert question is not None
        tr = translator(reply.language)
        text, example = tr.render(question.text), tr.render(question.example)
        sent = await self.outbox.send(place, lambda p: self.app.bot.send_message(
            p.chat_id, html(text), parse_mode=ParseMode.HTML,
            message_thread_id=p.thread_id,
            reply_markup=ForceReply(selective=False,
                                    input_field_placeholder=example[:64] or None)))
        if sent is not None:
            await self.service.note_prompt(self.outbox.where(place).key, str(sent.message_id))

    def _menu(self, game: str | None, tr: Tr) -> list[BotCommand]:
        """The command menu in the language of `tr`: one game's commands (their help in
        that game's words, a Tranca "round"), or every game's."""
        table = self.service.table
        chosen = table.games.get(game) if game else None
        # translated from the declared text: its English, once rendered, is no msgid
        return [BotCommand(name, _menu_text(summary or name))
                for name, summary in table.menu(chosen, tr)]

    async def _chat_menu(self, place: Place, game: str) -> None:
        """The chat's menu follows its game: /ron and /tsumo in a Riichi group, not /maal.
        A chat's menu outranks the default one in every language (Telegram looks for the
        chat's menu in the person's language, then the chat's, then the default in theirs),
        so it is set in each language too, or a Hindi speaker would see the English one.
        Telegram keeps menus per chat, not per topic: a forum, whose topics may play
        different games, keeps the default menu of every game's commands."""
        place = self.outbox.where(place)
        if place.forum or place.chat_id in self.outbox.unreachable:
            return
        scope = BotCommandScopeChat(place.chat_id)
        # everyone else sees the chat's menu in the chat's language, if it has set one
        default = await self.service.language(place.key, None)
        try:
            for code, language in [(None, default), *MENU_LANGUAGES.items()]:
                if game:
                    commands = self._menu(game, translator(language))
                    await self.outbox.retry(lambda commands=commands, code=code:
                                            self.app.bot.set_my_commands(
                                                commands, scope=scope, language_code=code))
                else:
                    await self.outbox.retry(lambda code=code: self.app.bot.delete_my_commands(
                        scope=scope, language_code=code))
        except TelegramError as error:
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
            with contextlib.suppress(TelegramError):  # a query too old to answer: let it be
                await self.outbox.retry(lambda: query.answer(notice[:200] or None,
                                                             show_alert=bool(notice)))

    async def _handle_tap(self, query: CallbackQuery) -> str:
        message = query.message
        presser = query.from_user
        if not isinstance(message, Message):
            return person_tr(presser)("This button is no longer valid.")  # no chat to ask
        self.outbox.heard(message.chat_id)
        place = Place.of(message)
        token, value = kb.split(query.data or "")
        reply = await self.service.answer(
            place.key, self._actor_for(presser, False), token, value,
            self._origin(message), self._admin_check(message, presser),
            locale=presser.language_code)
        if reply.duplicate:
            return ""
        if not reply.ok and not reply.in_place:
            return reply.text  # an alert for the presser only
        if reply.in_place:
            prompt = reply.question is not None and reply.question.ask == Ask.TYPE \
                and reply.question.prompt_now
            await self._edit(place, message.message_id, reply, buttons=not prompt)
            if prompt:
                await self._prompt(place, reply)
            if reply.menu is not None:
                await self._chat_menu(place, reply.menu)
            if reply.publish is not None:
                self._publish(place, reply.publish)
        else:
            await self._deliver(place, message.message_id, reply)
        return ""

    # --- people --------------------------------------------------------------------------

    # --- the web side: a scorepad's hand, posted as if typed (bot/web/faces.py) ----------

    async def post(self, chat: str, reply: Reply) -> None:
        """What a hand sent from the scorepad answered, in its table's chat or topic, with
        the live board brought up to date: as if it had been typed there."""
        await self._deliver(place_of(chat), None, reply)

    async def is_admin(self, chat: str, actor: Actor) -> bool:
        platform, _, user = actor.id.partition(":")
        if platform != "telegram" or not user.lstrip("-").isdigit():
            return False
        place = place_of(chat)
        if place.chat_id > 0:  # a private chat: its one person
            return place.chat_id == int(user)
        return int(user) in await self._admins_of(place.chat_id)

    def _admin_check(self, message: Message, user: User) -> Callable[[], Awaitable[bool]]:
        """Asked by the core only when a permission can depend on it."""
        return lambda: self._is_admin(message, user)

    async def _tr(self, place: Place, user: User | None) -> Tr:
        """For what the adapter says itself: the table's language if it has set one, else
        the sender's."""
        return translator(await self.service.language(
            place.key, user.language_code if user is not None else None))

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
        return user.id in await self._admins_of(chat.id)

    async def _admins_of(self, chat_id: int) -> set[int]:
        cached = self._admins.get(chat_id)
        if cached is None or time.monotonic() - cached[0] > ADMIN_CACHE_SECONDS:
            try:
                members = await self.outbox.retry(
                    lambda: self.app.bot.get_chat_administrators(chat_id))
                cached = (time.monotonic(), {m.user.id for m in members})
            except TelegramError:  # not there any more, upgraded: nobody is, for now
                cached = (time.monotonic(), set())
            self._admins[chat_id] = cached
        return cached[1]

    @staticmethod
    def _origin(message: Message) -> str:
        return f"telegram:{message.chat_id}:{message.message_id}"

    # --- sending -------------------------------------------------------------------------

    async def _send(self, place: Place, reply: Reply, reply_to: int | None = None,
                    buttons: bool = False) -> None:
        """The reply in the table's chat or topic, quoting message `reply_to` (not in an
        upgraded group's new chat, where that message is not), with the reply's question
        as buttons if `buttons`."""
        if reply.file is not None:
            if reply.table:  # a table and its picture (a season's ranking): both, in turn
                await self._send(place, dataclasses.replace(reply, file=None), reply_to,
                                 buttons)
                reply = dataclasses.replace(reply, text=reply.text.splitlines()[0])
            await self._send_file(place, reply)
            return
        chunks = reply_chunks(reply)
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1

            def request(p: Place, chunk: str = chunk, last: bool = last) -> Awaitable[Message]:
                quote = ReplyParameters(reply_to, allow_sending_without_reply=True) \
                    if reply_to is not None and p.chat_id == place.chat_id else None
                return self.app.bot.send_message(
                    p.chat_id, chunk, parse_mode=ParseMode.HTML, message_thread_id=p.thread_id,
                    reply_parameters=quote,
                    reply_markup=self._markup_for(p, reply) if last and buttons else None)

            await self.outbox.send(place, request)

    async def _send_file(self, place: Place, reply: Reply) -> None:
        """A chart as a photo, an export as a document; the text as the caption."""
        assert reply.file is not None
        caption = html(reply.text)[:1000]
        file = reply.file
        if file.kind == "image":
            await self.outbox.send(place, lambda p: self.app.bot.send_photo(
                p.chat_id, file.data, caption=caption, parse_mode=ParseMode.HTML,
                filename=file.name, message_thread_id=p.thread_id))
        else:
            await self.outbox.send(place, lambda p: self.app.bot.send_document(
                p.chat_id, file.data, filename=file.name, caption=caption,
                parse_mode=ParseMode.HTML, message_thread_id=p.thread_id))

    async def _edit(self, place: Place, message_id: int, reply: Reply,
                    buttons: bool = False) -> None:
        """An answer to a tap, in place of the message that asked; what does not fit in one
        message follows in the same chat or topic."""
        chunks = reply_chunks(reply)
        await self.outbox.send(place, lambda p: self.app.bot.edit_message_text(
            chunks[0], chat_id=p.chat_id, message_id=message_id, parse_mode=ParseMode.HTML,
            reply_markup=self._markup_for(p, reply) if buttons else None))
        for chunk in chunks[1:]:
            await self.outbox.send(place, lambda p, chunk=chunk: self.app.bot.send_message(
                p.chat_id, chunk, parse_mode=ParseMode.HTML, message_thread_id=p.thread_id))

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        self.errors += 1
        log.error("telegram: update failed: %s", context.error, exc_info=context.error)


def _as_channel(message: Message) -> bool:
    """Sent as a channel (or forwarded from the linked one), not by a person: its from_user
    is Telegram's one "Channel" account, shared by everyone who posts as any channel. An
    admin posting anonymously, as the group itself, is no channel (an admin: _is_admin)."""
    sender = message.sender_chat
    return sender is not None and sender.id != message.chat_id


def _progress(message: Message) -> Callable[[str], Awaitable[None]]:
    """How far a big /import has got: one message in the chat, edited as it goes. Only a
    line to look at: one that can't be shown changes nothing."""
    shown: list[Message] = []

    async def say(line: str) -> None:
        try:
            if shown:
                await shown[0].edit_text(line)
            else:
                # a reply is sent in the message's forum topic, if it has one
                shown.append(await message.reply_text(line, do_quote=False))
        except TelegramError as error:
            log.warning("telegram: progress not shown: %s", error)

    return say


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

