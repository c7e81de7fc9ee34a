"""The Discord adapter: slash commands and components in, core Commands out.

The command tree is derived from the core's command table (bot/discord_adapter/tree.py);
questions the core asks are rendered as components (components.py). The channel is the
session key (`discord:CHANNEL`); people are `discord:USER`; the interaction id is the origin
id, so a redelivered interaction records nothing twice. Errors are ephemeral; no reply pings
anybody; a command the core takes long over is deferred.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.core import flows
from bot.core.command import Actor, Command, Reply
from bot.core.commands.spec import Kind
from bot.core.errors import UserError
from bot.core.flows import Ask, seal
from bot.core.i18n import Tr, _, choose, translator
from bot.core.pad import pad_commands
from bot.core.pad import rows as pad_rows
from bot.core.service import Service
from bot.discord_adapter import components as ui
from bot.discord_adapter import forms
from bot.discord_adapter.locales import SlashTranslator, description_str, name_str
from bot.discord_adapter.render import NO_PINGS, message_parts, more_messages
from bot.discord_adapter.tree import SlashCommand, SlashOption, slash_commands

log = logging.getLogger(__name__)
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # a scorer needs no voice
# Discord wants an answer within 3 s of the interaction's creation, which was before it
# reached us and before our answer reaches Discord: these leave a second and a half for the
# gateway, the answer's own round trip and a busy host (2 s left too little on a loaded one)
DEFER_AFTER = 1.5  # seconds; then "thinking...", and the answer follows
FORM_WAIT = 1.5  # seconds a form waits for who still owes a value; then it asks for pairs
COMPLETE_WAIT = 1.5  # seconds autocomplete waits for the table; then it offers nothing
PUBLISH_AFTER = 0.5  # seconds: changes within this are one edit of the live board
MAX_FILE_BYTES = 25_000_000  # Discord's attachment limit for bots
# People mentioned in one command's text options, each looked up (a round trip to Discord
# for anyone not cached): more than any table seats. Without a cap, one command typed full
# of <@id>s spent hundreds of lookups of the bot's rate limit before anything was checked.
MAX_MENTIONED = 25
MAX_CHOICE = 100  # characters of an autocomplete choice's name and value
_MENTION = re.compile(r"<@!?(\d+)>")
# Discord takes no more answers to an interaction: too late for the first (10062 Unknown
# interaction), or its token's 15 minutes are over (401: 50027 Invalid Webhook Token; 404:
# 10015 Unknown Webhook)
_GONE = {10062, 10015, 50027}


def chat_key(channel_id: int | None) -> str:
    return f"discord:{channel_id}"


def locale_of(interaction: discord.Interaction) -> str | None:
    """The person's Discord language ("pt-BR", "hi", "en-US")."""
    locale = interaction.locale
    return None if locale is None else str(getattr(locale, "value", locale))


def person_tr(interaction: discord.Interaction) -> Tr:
    """For what the adapter says before the core has chosen a language: the person's."""
    return translator(choose(None, locale_of(interaction)))


def token_gone(error: BaseException) -> bool:
    return isinstance(error, discord.HTTPException) and (error.code in _GONE
                                                         or error.status == 401)


def may_post(interaction: discord.Interaction) -> bool:
    """May the bot post its own messages (the live board) in the interaction's channel?
    `app_permissions` says, for each interaction; answering the interaction needs none."""
    may = interaction.app_permissions
    thread = isinstance(interaction.channel, discord.Thread)
    return may.view_channel and (may.send_messages_in_threads if thread
                                 else may.send_messages)


def _typed_mentions(values: dict[Any, Any]) -> set[int]:
    """The people mentioned (<@id>) in a slash command's text options."""
    return {int(m.group(1)) for option, value in values.items()
            if value is not None and option.kind not in (Kind.FILE, Kind.MEMBER, Kind.BOOL)
            for m in _MENTION.finditer(str(value))}


def actor_of(interaction: discord.Interaction) -> Actor:
    """The person: an admin where they can manage the server or channel, and in a DM with
    the bot, whose one person they are (Discord gives no permissions there), as in a
    private chat on Telegram. A group DM (`private_channel`) is not a DM with the bot."""
    user = interaction.user
    perms = interaction.permissions
    in_dm = interaction.guild_id is None and bool(interaction.context.dm_channel)
    return Actor(id=f"discord:{user.id}", name=user.display_name,
                 is_admin=in_dm or perms.administrator or perms.manage_guild
                 or perms.manage_channels,
                 handles=(user.name,))


# Where the commands may be used: a server's channels and a DM with the bot, the bot
# installed to the server (a game's live board is a message the bot posts in the channel).
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True)
INSTALLS = app_commands.AppInstallationType(guild=True)


class _Declared:
    """A command that says where it may be used by `contexts` alone: discord.py also sends
    `dm_permission`, which Discord has deprecated for them."""

    def to_dict(self, tree: app_commands.CommandTree[Any]) -> dict[str, Any]:
        payload: dict[str, Any] = super().to_dict(tree)  # type: ignore[misc]
        payload.pop("dm_permission", None)
        return payload


class SlashGroup(_Declared, app_commands.Group):
    pass


class Slash(_Declared, app_commands.Command[Any, Any, Any]):
    pass


class _MaalSetup:
    """Our adapter and command tree on a discord.py client, set up when it logs in."""

    def __init__(self, adapter: DiscordAdapter, **options: Any) -> None:
        super().__init__(intents=discord.Intents(guilds=True),  # type: ignore[call-arg]
                         allowed_mentions=NO_PINGS, **options)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(  # type: ignore[arg-type]
            self, allowed_contexts=CONTEXTS, allowed_installs=INSTALLS)

    async def setup_hook(self) -> None:
        self.tree.on_error = self.adapter.on_command_error  # type: ignore[method-assign]
        self.add_dynamic_items(*ui.DYNAMIC_ITEMS)  # type: ignore[attr-defined]
        commands = slash_commands(self.adapter.service.table)
        for command in commands:
            self.tree.add_command(self.adapter.build(command))
        # names and descriptions in Hindi and Portuguese, given to Discord at sync
        await self.tree.set_translator(SlashTranslator(commands))
        await self.adapter.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A form's submit, read from its ids (components.Form: discord.py keeps none)."""
        if interaction.type == discord.InteractionType.modal_submit:
            data = dict(interaction.data or {})
            found = ui.form_answer(data)
            if found is not None:
                await self.adapter.guarded(interaction, self.adapter.answer(interaction,
                                                                            *found))
            whole = forms.submitted(data)
            if whole is not None:
                await self.adapter.guarded(interaction, self.adapter.submit_form(interaction,
                                                                                 *whole))


class MaalClient(_MaalSetup, discord.Client):
    """One gateway connection."""


class ShardedMaalClient(_MaalSetup, discord.AutoShardedClient):
    """Several shards in this process; other processes run the other shard ids."""


class DiscordAdapter:
    def __init__(self, service: Service, token: str, *, api_url: str | None = None,
                 gateway_url: str | None = None, test_guild: int | None = None,
                 shard_count: int | None = None, shard_ids: list[int] | None = None) -> None:
        if api_url:
            discord.http.Route.BASE = f"{api_url.rstrip('/')}/api/v10"
        if gateway_url:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        self.service = service
        self.token = token
        self.test_guild = test_guild
        self.client: MaalClient | ShardedMaalClient = (
            ShardedMaalClient(self, shard_count=shard_count, shard_ids=shard_ids)
            if shard_count else MaalClient(self))
        self._task: asyncio.Task[None] | None = None
        self._publishing: dict[int, asyncio.Task[None]] = {}  # a channel's live-board update
        self._stopping = False
        self._due: dict[int, int] = {}  # channel -> the session whose board is due an update
        self._unposted: set[int] = set()  # channels the bot may not post in (said once)
        self._late: set[asyncio.Task[Any]] = set()  # answers that came too late for a form
        # commands that open the whole hand on a form when nothing is typed with them
        self._forms = {spec.name for game in service.table.games.values()
                       for spec in pad_commands(game)}
        self.errors = 0  # failures that were ours, not the person's (for tests and health)

    # --- running -------------------------------------------------------------------------

    async def login(self) -> None:
        """Log in and sync the commands (no gateway yet)."""
        await self.client.login(self.token)

    async def start(self) -> None:
        await self.login()
        self._task = asyncio.create_task(self.client.connect(reconnect=True))
        log.info("discord: connecting as %s", self.client.user)

    async def stop(self) -> None:
        # An interaction still being answered would start its board's edit after the wait
        # below, on a closed client: from here on none is started
        self._stopping = True
        pending = [task for task in self._publishing.values() if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=10)
        await self.client.close()  # closes its HTTP session too, even if login failed
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 10)
            except Exception:
                log.debug("discord: gateway task ended", exc_info=True)

    async def sync(self) -> None:
        tree = self.client.tree
        if self.test_guild:
            # the test server's copy shows at once; the global one (of an earlier run
            # without DISCORD_TEST_GUILD) is cleared, or every command would show twice
            guild = discord.Object(self.test_guild)
            tree.copy_global_to(guild=guild)
            tree.clear_commands(guild=None)
            synced = await tree.sync(guild=guild)
            await tree.sync()
        else:
            synced = await tree.sync()
        log.info("discord: %d commands synced", len(synced))

    # --- slash commands ------------------------------------------------------------------

    def build(self, command: SlashCommand) -> app_commands.Command[Any, Any, Any] \
            | app_commands.Group:
        if not command.subcommands:
            return self._command(command, (command.name,))
        group = SlashGroup(name=name_str((command.name,), command.name),
                           description=description_str(command.description, command.text,
                                                       command.name))
        for sub in command.subcommands:
            group.add_command(self._command(sub, (command.name, sub.name)))
        return group

    def _command(self, command: SlashCommand, path: tuple[str, ...]
                 ) -> app_commands.Command[Any, Any, Any]:
        """A slash command with `command`'s typed options (Python parameters p0, p1 ...
        renamed to the options' names, which may be Python keywords such as `from`). Names
        and descriptions are locale_str: `path` says which command it is in the tree."""
        adapter = self
        names = {f"p{i}": o for i, o in enumerate(command.options)}

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            await adapter.on_slash(interaction, command,
                                   {names[k]: v for k, v in values.items()})

        params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
        for param, option in names.items():
            params.append(inspect.Parameter(
                param, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(option),
                default=inspect.Parameter.empty if option.required else None))
        callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        if names:
            callback = app_commands.rename(**{
                p: name_str((*path, f"{o.name}:"), o.name) for p, o in names.items()
            })(callback)
            callback = app_commands.describe(**{
                p: description_str(o.description, o.text, path[0], o.limit)
                for p, o in names.items()
            })(callback)
        built = Slash(
            name=name_str(path, command.name),
            description=description_str(command.description, command.text, path[0]),
            callback=callback)
        for param, option in names.items():
            if option.autocomplete:
                built.autocomplete(param)(_complete_player_names)
        return built

    async def on_slash(self, interaction: discord.Interaction, command: SlashCommand,
                       values: dict[SlashOption, Any]) -> None:
        if command.command in self._forms and all(v is None for v in values.values()):
            # nothing typed: the whole hand on one form (or the command's own answer)
            await self.open_whole_form(
                interaction, command.command, command.game,
                otherwise=lambda wait: self._typed(interaction, command, values, wait))
            return
        await self._typed(interaction, command, values)

    async def _typed(self, interaction: discord.Interaction, command: SlashCommand,
                     values: dict[SlashOption, Any], defer_after: float | None = None) -> None:
        """The command as typed; `defer_after`: the seconds left before it must defer
        (None: DEFER_AFTER)."""
        files = [v for o, v in values.items() if o.kind == Kind.FILE and v is not None]
        if files and files[0].size > MAX_FILE_BYTES:
            tr = person_tr(interaction)
            await self._attempt(interaction, self.send(interaction, Reply.error(tr.render(_(
                "That file is over {megabytes} MB; /export sends big games compressed "
                "(.json.gz).", megabytes=MAX_FILE_BYTES // 1_000_000)), tr.language)))
            return

        async def run() -> Reply:
            # reading the file and looking up the people mentioned take round trips (ten
            # mentions, ten lookups): inside the time after which the answer is deferred
            if len(_typed_mentions(values)) > MAX_MENTIONED:
                tr = person_tr(interaction)
                return Reply.error(tr("That names more than {limit} people; nothing was "
                                      "done.", limit=MAX_MENTIONED), tr.language)
            attachment = await files[0].read() if files else None
            options, mentions = await self._core_options(interaction, values)
            core = Command(chat=chat_key(interaction.channel_id),
                           actor=actor_of(interaction), name=command.command,
                           options=options, origin_id=f"discord:{interaction.id}",
                           mentions=mentions, attachment=attachment, buttons=True,
                           game=command.game, locale=locale_of(interaction),
                           progress=_progress(interaction) if attachment else None,
                           chat_name=chat_name(interaction), private=True)
            return await self.service.handle(core)

        await self._respond(interaction, run(), defer_after=defer_after)

    async def _core_options(self, interaction: discord.Interaction,
                            values: dict[SlashOption, Any]
                            ) -> tuple[dict[str, str], dict[str, Actor]]:
        options: dict[str, str] = {}
        mentions: dict[str, Actor] = {}
        typed: dict[str, int] = {}  # "<@123>" in a text option -> the person, to look up
        for option, value in values.items():
            if value is None or option.kind == Kind.FILE:
                continue
            if option.kind == Kind.MEMBER:
                token = f"<@{value.id}>"
                mentions[token] = Actor(id=f"discord:{value.id}", name=value.display_name,
                                        handles=(value.name,))
                text = token
            elif option.kind == Kind.BOOL:
                text = "yes" if value else "no"
            else:
                text = str(value)
                typed.update((m.group(0), int(m.group(1))) for m in _MENTION.finditer(text))
            options[option.key] = text
        # looked up all at once: ten in turn were ten round trips
        people = await asyncio.gather(*(self._mentioned(interaction, who)
                                        for who in typed.values()))
        mentions.update(zip(typed, people, strict=True))
        return options, mentions

    async def _mentioned(self, interaction: discord.Interaction, user_id: int) -> Actor:
        person: discord.abc.User | None = None
        if interaction.guild is not None:
            person = interaction.guild.get_member(user_id)
        person = person or self.client.get_user(user_id)
        if person is None:
            try:
                person = await self.client.fetch_user(user_id)
            except discord.HTTPException:
                return Actor(id=f"discord:{user_id}", name=f"player{str(user_id)[-4:]}")
        return Actor(id=f"discord:{user_id}", name=person.display_name, handles=(person.name,))

    async def on_command_error(self, interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
        """A value Discord let through that the option can't take, or a bug: always answer."""
        tr = person_tr(interaction)
        cause = getattr(error, "original", error)
        if token_gone(cause):
            self._gone(interaction, cause)  # nothing can be said with that token any more
            return
        if isinstance(error, app_commands.TransformerError):
            # TRANSLATORS: {problem} is discord.py's own explanation, in English
            text = tr("That doesn't fit this command: {problem}", problem=str(error))[:1900]
        elif isinstance(error, app_commands.CommandSignatureMismatch |
                        app_commands.CommandNotFound):
            # Discord's copy of the commands is older than ours (they sync at start).
            text = tr("This command has just changed. Reload Discord (Ctrl+R) and try again; "
                      "nothing was recorded.")
        else:
            self.errors += 1
            log.error("discord: command failed", exc_info=cause,
                      extra={"chat": chat_key(interaction.channel_id),
                             "origin": f"discord:{interaction.id}"})
            text = tr("Something went wrong on my side and nothing was recorded.")
        await self._attempt(interaction, self.send(interaction, Reply.error(text, tr.language)))

    async def guarded(self, interaction: discord.Interaction,
                      running: Awaitable[None]) -> None:
        """A component or a form answered: a bug still gets the person an answer (and the
        log a traceback), as a slash command's does."""
        try:
            await running
        except Exception as error:
            await self.on_command_error(interaction, _Failed(error))

    # --- answers to the bot's questions --------------------------------------------------

    async def answer(self, interaction: discord.Interaction, token: str, value: str,
                     defer_after: float | None = None) -> None:
        """A component or a form answered: the core says what it becomes."""
        modal = interaction.type == discord.InteractionType.modal_submit
        running = self.service.answer(chat_key(interaction.channel_id), actor_of(interaction),
                                      token, value, self._tap_origin(interaction),
                                      locale=locale_of(interaction))
        await self._respond(interaction, running,
                            tap=not modal or interaction.message is not None,
                            defer_after=defer_after)

    # --- the whole hand on one form (forms.py) --------------------------------------------

    async def open_whole_form(self, interaction: discord.Interaction, name: str | None,
                              game: str | None = None, session: int | None = None, *,
                              otherwise: Callable[[float], Awaitable[None]]) -> None:
        """A form for the whole hand: the command `name` (None: the game's recording one)
        of the game open in the channel (`game`, `session`: only if it is that one). It
        must be the first answer, within 3 s, and its players come from the table: read
        within FORM_WAIT, else a form of one field for the whole command typed (or, with
        no `name` to type, `otherwise`). Where the table has no such form, `otherwise`
        answers, given the seconds left before it must defer."""
        started = time.monotonic()
        chat = chat_key(interaction.channel_id)
        looking = asyncio.ensure_future(self.service.snapshot(chat))
        done, _ = await asyncio.wait({looking}, timeout=FORM_WAIT)
        if not done or looking.exception() is not None:
            if not done:
                self._late.add(looking)  # only read: dropped when it comes
                looking.add_done_callback(_drop_late(self._late))
            log.info("discord: the form of %s opened before the table was read", chat,
                     exc_info=looking.exception() if done else None)
            if name is None:
                await otherwise(_left(started))
                return
            form = forms.typed_form(name, self._usage(name, game), person_tr(interaction))
            await self._attempt(interaction, interaction.response.send_modal(form))
            return
        look = looking.result()
        spec = forms.form_spec(look, name, game, session) if look is not None else None
        if look is None or spec is None:
            await otherwise(_left(started))
            return
        setting = look.settings.language if look.settings is not None else None
        tr = translator(choose(setting, locale_of(interaction)), look.game.key)
        refused = forms.refusal(look, spec, actor_of(interaction), tr)
        if refused is not None:
            await self._attempt(interaction, self.send(interaction,
                                                       Reply.error(refused, tr.language)))
            return
        # the pad's rows: the players who play, or in a game of sides each side (A)
        played = look.game.for_session(look.session.rules, look.session.game_state)
        rows = [r for r in pad_rows(played, look.session) if r["playing"]]
        form = forms.whole_form(spec, look.game, [r["name"] for r in rows], tr,
                                look.session.hand_count + 1,
                                {r["name"]: r["label"] for r in rows if "label" in r})
        await self._attempt(interaction, interaction.response.send_modal(form))

    async def open_next_form(self, interaction: discord.Interaction, token: str) -> None:
        """"Next hand" under a board: the form of that board's game, else what the tap
        answers (a board of a game since ended starts nothing)."""
        found = self.service.token(chat_key(interaction.channel_id), token)

        async def tapped(wait: float) -> None:
            await self.answer(interaction, token, flows.NEXT, defer_after=wait)

        if found is None or found.step != flows.Step.BOARD or len(found.args) != 1:
            await self.answer(interaction, token, flows.NEXT)
            return
        await self.open_whole_form(interaction, None, session=found.args[0],
                                   otherwise=tapped)

    async def submit_form(self, interaction: discord.Interaction, name: str,
                          fields: dict[str, str], rest: str) -> None:
        """A whole-hand form sent: the command a person would type, run as typed (the same
        checks and permissions, this person's, and refusals in their language). Its origin
        is the submit's own id: a submit delivered twice is recorded once."""
        chat, locale = chat_key(interaction.channel_id), locale_of(interaction)

        async def run() -> Reply:
            try:
                options = forms.options_of(fields, rest)
            except UserError as error:
                language = await self.service.language(chat, locale)
                return Reply.error(translator(language).render(error.message), language)
            return await self.service.handle(Command(
                chat=chat, actor=actor_of(interaction), name=name, options=options,
                origin_id=f"discord:{interaction.id}", buttons=True, form=True,
                locale=locale))

        await self._respond(interaction, run())

    def _usage(self, name: str, game: str | None) -> str:
        variants = self.service.table.variants(name)
        spec = variants.get(game) if game is not None else None
        spec = spec or next(iter(variants.values()), None)
        return spec.usage if spec is not None else ""

    @staticmethod
    def _tap_origin(interaction: discord.Interaction) -> str:
        """A tap on a message's button is that message's (a second tap is a duplicate); a
        form's submit is its own."""
        message = interaction.message
        modal = interaction.type == discord.InteractionType.modal_submit
        return f"discord:{interaction.id}" if modal or message is None \
            else f"discord:{message.id}"

    async def open_form(self, interaction: discord.Interaction, token: str,
                        title: str) -> None:
        """"Enter maal" tapped: a form is the only answer that can't follow a defer, so it
        goes out within FORM_WAIT whatever the database does: a field for each person who
        still owes a value if the core says who in time, else one field for every pair."""
        running = asyncio.ensure_future(self.service.answer(
            chat_key(interaction.channel_id), actor_of(interaction), token, flows.OPEN,
            self._tap_origin(interaction), locale=locale_of(interaction)))
        done, _ = await asyncio.wait({running}, timeout=FORM_WAIT)
        if not done:
            log.info("discord: the form of %s opened before the table was read",
                     chat_key(interaction.channel_id))
            self._late.add(running)  # only read: its answer is dropped when it comes
            running.add_done_callback(_drop_late(self._late))
            form = ui.pairs_form(token, title, person_tr(interaction))
        else:
            reply = running.result()
            question = reply.question
            if not reply.ok or question is None or question.ask != Ask.TYPE:
                await self._attempt(interaction, self.send(interaction, reply))
                return
            form = ui.player_form(token, question, translator(reply.language))
        await self._attempt(interaction, interaction.response.send_modal(form))

    # --- answering -----------------------------------------------------------------------

    async def _respond(self, interaction: discord.Interaction, running: Awaitable[Reply],
                       tap: bool = False, defer_after: float | None = None) -> None:
        """Wait for the core; defer if it takes long (after `defer_after` seconds, None:
        DEFER_AFTER); then answer. Whatever happens to the interaction's token, the change
        the core made shows on the live board."""
        task = asyncio.ensure_future(self._with_board(interaction, running))
        alive = True
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER if defer_after is None
                                     else defer_after)
        if not done and not interaction.response.is_done():
            alive = await self._attempt(interaction,
                                        interaction.response.defer(thinking=not tap))
        reply = await task
        if alive:
            await self._attempt(interaction, self._answer(interaction, reply, tap))
        if reply.publish is not None and interaction.channel_id is not None:
            self._publish(interaction.channel_id, reply.publish)

    async def _answer(self, interaction: discord.Interaction, reply: Reply, tap: bool) -> None:
        if reply.duplicate:
            if tap:  # a second press of a button already acted on: a new interaction
                tr = translator(reply.language)
                await self.send(interaction, Reply.error(
                    tr("That was already done; nothing changed."), tr.language))
            else:  # the same interaction delivered again: it was answered the first time
                log.info("discord: duplicate interaction %s ignored", interaction.id)
            return
        await self.send(interaction, reply, edit=tap and reply.in_place)

    async def _attempt(self, interaction: discord.Interaction, sending: Awaitable[Any]) -> bool:
        """Send something with the interaction's token; False (said once in the log) if
        Discord takes nothing more with it."""
        try:
            await sending
        except discord.HTTPException as error:
            if not token_gone(error):
                raise
            self._gone(interaction, error)
            return False
        return True

    @staticmethod
    def _gone(interaction: discord.Interaction, error: discord.HTTPException) -> None:
        log.warning("discord: interaction %s of %s can't be answered any more (%s %s: %s)",
                    interaction.id, chat_key(interaction.channel_id), error.status,
                    error.code, error.text)

    async def _with_board(self, interaction: discord.Interaction,
                          running: Awaitable[Reply]) -> Reply:
        """The core's reply; where the bot may not post the live board (no Send Messages
        or View Channel), the reply to a change carries the board instead."""
        reply = await running
        channel_id = interaction.channel_id
        if reply.publish is None or channel_id is None:
            return reply
        if may_post(interaction):
            self._unposted.discard(channel_id)
            return reply
        reply.publish = None
        if reply.board is None or reply.board.ended:
            return reply  # the final standings are the reply already
        if channel_id not in self._unposted:
            self._unposted.add(channel_id)
            log.warning("discord: may not post in %s (app_permissions %s): the board comes "
                        "with each reply", chat_key(channel_id),
                        interaction.app_permissions.value)
        board = await self.service.handle(Command(
            chat_key(channel_id), actor_of(interaction), "board", buttons=True,
            locale=locale_of(interaction)))
        if not board.ok:
            return reply
        return carrying(reply, board)

    # --- posts no interaction asked for (bot/core/service/posts.py) ----------------------

    async def post(self, chat: str, reply: Reply) -> None:
        """A reply for a channel of the bot's own accord (a club's tournament: a round's
        standings, a game begun at this table), with its buttons; the live board brought
        up to date as after a typed command."""
        channel_id = int(chat.split(":", 1)[1])
        channel = self.client.get_partial_messageable(channel_id)
        content, embeds = message_parts(reply)
        view: Any = discord.utils.MISSING
        if reply.question is not None:
            view = ui.view_for(reply.question, seal(reply.question.token, chat,
                                                    self.service.secret),
                               translator(reply.language))
        await channel.send(content, embeds=embeds, view=view, allowed_mentions=NO_PINGS)
        for more in more_messages(reply):
            await channel.send(embeds=more, allowed_mentions=NO_PINGS)
        if reply.publish is not None:
            self._publish(channel_id, reply.publish)

    # --- the live board ------------------------------------------------------------------

    def _publish(self, channel_id: int, session_id: int) -> None:
        """Bring the channel's live board up to date (a burst of changes is one edit)."""
        if self._stopping:
            return  # the client is closing: the board catches up with the chat's next change
        self._due[channel_id] = session_id
        running = self._publishing.get(channel_id)
        if running is None or running.done():
            self._publishing[channel_id] = asyncio.create_task(self._publish_soon(channel_id))

    async def _publish_soon(self, channel_id: int) -> None:
        while channel_id in self._due:
            await asyncio.sleep(PUBLISH_AFTER)
            session_id = self._due.pop(channel_id)
            try:
                await self.service.publish_board(
                    chat_key(channel_id), session_id,
                    lambda board, ref: self._show_board(channel_id, board, ref))
            except discord.HTTPException as error:  # Discord's answer: a line says it
                log.warning("discord: the live board of %s was not updated (%s %s: %s)",
                            chat_key(channel_id), error.status, error.code, error.text)
            except Exception:
                log.exception("discord: the live board of %s was not updated", channel_id)

    async def _show_board(self, channel_id: int, board: Reply, ref: str | None) -> str | None:
        """The board embed in its message `ref` (edited), or in a new one; a finished game's
        board keeps its last standings and loses its buttons. Returns where it is."""
        channel = self.client.get_partial_messageable(channel_id)
        content, embeds = message_parts(board)
        ended = board.board is not None and board.board.ended
        view: discord.ui.View | None = None
        if board.question is not None and not ended:
            view = ui.view_for(board.question, seal(board.question.token, chat_key(channel_id),
                                                    self.service.secret),
                               translator(board.language))
        if ref is not None:
            try:
                await channel.get_partial_message(int(ref)).edit(
                    content=content, embeds=embeds, view=view, allowed_mentions=NO_PINGS)
                return None if ended else ref
            except discord.NotFound:
                ref = None  # deleted: a new one below
        if ended:
            return None
        sent = await channel.send(content, embeds=embeds, view=view or discord.utils.MISSING,
                                  allowed_mentions=NO_PINGS)
        return str(sent.id)

    @staticmethod
    async def _drop_thinking(interaction: discord.Interaction) -> None:
        """Before an error that follows "thinking...": Discord makes the first followup
        that message, seen by the whole channel whatever the followup's flags (a deferred
        answer keeps the defer's visibility). Deleted, the error that follows is a message
        of its own, for the person alone, as an error answered at once is."""
        # already gone (dismissed): the followup is a message of its own anyway
        with contextlib.suppress(discord.NotFound):
            await interaction.delete_original_response()

    async def send(self, interaction: discord.Interaction, reply: Reply, *,
                   edit: bool = False) -> None:
        content, embeds = message_parts(reply)
        response = interaction.response
        if not reply.ok or reply.private:  # an error, or a line for its sender alone
            if response.is_done():
                if response.type == discord.InteractionResponseType.deferred_channel_message:
                    await self._drop_thinking(interaction)
                await interaction.followup.send(content or "", ephemeral=True,
                                                allowed_mentions=NO_PINGS)
            else:
                await response.send_message(content, ephemeral=True,
                                            allowed_mentions=NO_PINGS)
            return
        view = discord.utils.MISSING
        if reply.question is not None:
            token = seal(reply.question.token, chat_key(interaction.channel_id),
                         self.service.secret)
            view = ui.view_for(reply.question, token, translator(reply.language))
        elif edit:
            view = None  # the question answered: its buttons go
        extra: dict[str, Any] = {}
        if reply.file is not None:
            # a chart shows inside an embed; an export comes as a plain attachment
            extra["file"] = discord.File(io.BytesIO(reply.file.data), filename=reply.file.name)
            if reply.file.kind == "image":  # in the embed, under a table if there is one
                embed = embeds[0] if embeds else discord.Embed(description=content or None)
                embeds = [embed.set_image(url=f"attachment://{reply.file.name}")]
                content = None
        if edit:
            if response.is_done():
                await interaction.edit_original_response(
                    content=content, embeds=embeds, view=view, allowed_mentions=NO_PINGS,
                    **({"attachments": [extra["file"]]} if "file" in extra else {}))
            else:
                await response.edit_message(content=content, embeds=embeds, view=view,
                                            allowed_mentions=NO_PINGS, **(
                                                {"attachments": [extra["file"]]}
                                                if "file" in extra else {}))
            return
        if view is not discord.utils.MISSING and view is not None:
            extra["view"] = view
        if response.is_done():
            await interaction.followup.send(content or "", embeds=embeds,
                                            allowed_mentions=NO_PINGS, **extra)
        else:
            await response.send_message(content, embeds=embeds, allowed_mentions=NO_PINGS,
                                        **extra)
        for more in more_messages(reply):  # a long text, whole: the rest follows
            await interaction.followup.send(embeds=more, allowed_mentions=NO_PINGS)


def _annotation(option: SlashOption) -> Any:
    if option.kind == Kind.MEMBER:
        return discord.Member
    if option.kind == Kind.INT:
        return app_commands.Range[int, option.low, option.high]
    if option.kind == Kind.BOOL:
        return bool
    if option.kind == Kind.FILE:
        return discord.Attachment
    if option.choices:
        return Literal[option.choices]  # type: ignore[valid-type]
    return app_commands.Range[str, 1, 1000]


async def _complete_player_names(interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
    """The table's seats (guests too), completing the last name typed. Discord shows
    choices only if they come within 3 s: a table that can't be read by COMPLETE_WAIT offers
    none (the name can still be typed). Answered here, so a late answer is a line in the
    log, not discord.py's traceback at every keystroke."""
    adapter: DiscordAdapter = interaction.client.adapter  # type: ignore[attr-defined]
    chat = chat_key(interaction.channel_id)
    choices: list[app_commands.Choice[str]] = []
    try:
        snapshot = await asyncio.wait_for(adapter.service.snapshot(chat), COMPLETE_WAIT)
    except Exception as error:  # too slow, or the database is away: type the name
        log.warning("discord: no names to offer in %s (%s)", chat,
                    type(error).__name__ if isinstance(error, TimeoutError) else error)
    else:
        if snapshot is not None:
            choices = player_choices(current, [p.name for p in snapshot.session.players])
    if not await adapter._attempt(interaction, interaction.response.autocomplete(choices)):
        # discord.py answers an autocomplete that isn't done itself: with the same dead
        # interaction again, and a traceback. It is done: nothing can be said with it.
        interaction.response._response_type = discord.InteractionResponseType.autocomplete_result
    return []


def player_choices(current: str, names: list[str]) -> list[app_commands.Choice[str]]:
    """The names that complete the last word of `current`, each after the words before it.
    A choice is at most 100 characters: one that would be longer is not offered (cut, it
    would drop the name it offers)."""
    head, _, last = current.rpartition(" ")
    wanted = last.lower().lstrip("@")
    prefix = f"{head} " if head else ""
    offered = [prefix + name for name in names if name.lower().startswith(wanted)]
    return [app_commands.Choice(name=text, value=text) for text in offered
            if len(text) <= MAX_CHOICE][:25]


def carrying(reply: Reply, board: Reply) -> Reply:
    """The reply to a change with the board under it (totals and buttons): for a channel
    where the live board can't be posted."""
    return Reply(f"{reply.text}\n{board.text}" if reply.text else board.text,
                 table=board.table, board=board.board,
                 question=reply.question or board.question, in_place=reply.in_place,
                 file=reply.file, language=reply.language)


class _Failed(app_commands.AppCommandError):
    """A component's or a form's answer failed (as CommandInvokeError for a command)."""

    def __init__(self, original: Exception) -> None:
        super().__init__(str(original))
        self.original = original
        self.__cause__ = original


def _left(started: float) -> float:
    """The seconds left before an answer begun at `started` must defer (a tenth at least:
    what could not be read in time defers at once)."""
    return max(0.1, DEFER_AFTER - (time.monotonic() - started))


def _drop_late(pending: set[asyncio.Task[Any]]) -> Any:
    def dropped(task: asyncio.Task[Any]) -> None:
        pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("discord: a late answer failed: %s", task.exception())
    return dropped


def _progress(interaction: discord.Interaction) -> Callable[[str], Awaitable[None]]:
    """How far a big /import has got, in the deferred answer ("thinking...") until the
    reply replaces it. Only a line to look at: one that can't be shown changes nothing."""

    async def say(line: str) -> None:
        if not interaction.response.is_done():
            return  # not deferred yet: nothing to edit
        try:
            await interaction.edit_original_response(content=line)
        except discord.HTTPException as error:
            log.warning("discord: progress not shown: %s", error)

    return say


def chat_name(interaction: discord.Interaction) -> str:
    """"#friday (Maal Club)": the channel, and its server, as a club lists its tables."""
    channel = getattr(interaction.channel, "name", None) or str(interaction.channel_id)
    guild = interaction.guild.name if interaction.guild is not None else ""
    return f"#{channel} ({guild})" if guild else f"#{channel}"
