"""The Discord adapter: slash commands and components in, core Commands out.

The command tree is derived from the core's command table (bot/discord_adapter/tree.py);
questions the core asks are rendered as components (components.py). The channel is the
session key (`discord:CHANNEL`); people are `discord:USER`; the interaction id is the origin
id, so a redelivered interaction records nothing twice. Errors are ephemeral; no reply pings
anybody; a command the core takes long over is deferred.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import logging
import re
from collections.abc import Awaitable
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.core.command import Actor, Command, Reply
from bot.core.commands.spec import Kind
from bot.core.flows import Ask, seal
from bot.core.i18n import Tr, _, choose, translator
from bot.core.service import Service
from bot.discord_adapter import components as ui
from bot.discord_adapter.locales import SlashTranslator, description_str, name_str
from bot.discord_adapter.render import NO_PINGS, message_parts, more_messages
from bot.discord_adapter.tree import SlashCommand, SlashOption, slash_commands

log = logging.getLogger(__name__)
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # a scorer needs no voice
DEFER_AFTER = 2.0  # seconds; Discord wants an answer within 3
PUBLISH_AFTER = 0.5  # seconds: changes within this are one edit of the live board
MAX_FILE_BYTES = 25_000_000  # Discord's attachment limit for bots
_MENTION = re.compile(r"<@!?(\d+)>")


def chat_key(channel_id: int | None) -> str:
    return f"discord:{channel_id}"


def locale_of(interaction: discord.Interaction) -> str | None:
    """The person's Discord language ("pt-BR", "hi", "en-US")."""
    locale = interaction.locale
    return None if locale is None else str(getattr(locale, "value", locale))


def person_tr(interaction: discord.Interaction) -> Tr:
    """For what the adapter says before the core has chosen a language: the person's."""
    return translator(choose(None, locale_of(interaction)))


def actor_of(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    perms = interaction.permissions
    return Actor(id=f"discord:{user.id}", name=user.display_name,
                 is_admin=perms.administrator or perms.manage_guild or perms.manage_channels,
                 handles=(user.name,))


class _MaalSetup:
    """Our adapter and command tree on a discord.py client, set up when it logs in."""

    def __init__(self, adapter: DiscordAdapter, **options: Any) -> None:
        super().__init__(intents=discord.Intents(guilds=True),  # type: ignore[call-arg]
                         allowed_mentions=NO_PINGS, **options)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(self)  # type: ignore[arg-type]

    async def setup_hook(self) -> None:
        self.tree.on_error = self.adapter.on_command_error  # type: ignore[method-assign]
        self.add_dynamic_items(*ui.DYNAMIC_ITEMS)  # type: ignore[attr-defined]
        commands = slash_commands(self.adapter.service.table)
        for command in commands:
            self.tree.add_command(self.adapter.build(command))
        # names and descriptions in Hindi and Portuguese, given to Discord at sync
        await self.tree.set_translator(SlashTranslator(commands))
        await self.adapter.sync()


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
            guild = discord.Object(self.test_guild)
            tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
        else:
            synced = await tree.sync()
        log.info("discord: %d commands synced", len(synced))

    # --- slash commands ------------------------------------------------------------------

    def build(self, command: SlashCommand) -> app_commands.Command[Any, Any, Any] \
            | app_commands.Group:
        if not command.subcommands:
            return self._command(command, (command.name,))
        group = app_commands.Group(name=name_str((command.name,), command.name),
                                   description=description_str(command.description,
                                                               command.text, command.name))
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
                p: description_str(o.description, o.text, path[0]) for p, o in names.items()
            })(callback)
        built = app_commands.Command(
            name=name_str(path, command.name) if len(path) == 1 else command.name,
            description=description_str(command.description, command.text, path[0]),
            callback=callback)
        for param, option in names.items():
            if option.autocomplete:
                built.autocomplete(param)(_complete_player_names)
        return built

    async def on_slash(self, interaction: discord.Interaction, command: SlashCommand,
                       values: dict[SlashOption, Any]) -> None:
        attachment = None
        files = [v for o, v in values.items() if o.kind == Kind.FILE and v is not None]
        if files:
            if files[0].size > MAX_FILE_BYTES:
                tr = person_tr(interaction)
                await self.send(interaction, Reply.error(tr.render(_(
                    "That file is over {megabytes} MB; /export sends big games compressed "
                    "(.json.gz).", megabytes=MAX_FILE_BYTES // 1_000_000)), tr.language))
                return
            attachment = await files[0].read()
        options, mentions = await self._core_options(interaction, values)
        core = Command(chat=chat_key(interaction.channel_id), actor=actor_of(interaction),
                       name=command.command, options=options,
                       origin_id=f"discord:{interaction.id}", mentions=mentions,
                       attachment=attachment, buttons=True, game=command.game,
                       locale=locale_of(interaction))
        await self._respond(interaction, self.service.handle(core))

    async def _core_options(self, interaction: discord.Interaction,
                            values: dict[SlashOption, Any]
                            ) -> tuple[dict[str, str], dict[str, Actor]]:
        options: dict[str, str] = {}
        mentions: dict[str, Actor] = {}
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
                for match in _MENTION.finditer(text):
                    mentions[match.group(0)] = await self._mentioned(interaction,
                                                                     int(match.group(1)))
            options[option.key] = text
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
            log.error("discord: command failed", exc_info=error,
                      extra={"chat": chat_key(interaction.channel_id),
                             "origin": f"discord:{interaction.id}"})
            text = tr("Something went wrong on my side and nothing was recorded.")
        await self.send(interaction, Reply.error(text, tr.language))

    # --- answers to the bot's questions --------------------------------------------------

    async def answer(self, interaction: discord.Interaction, token: str, value: str) -> None:
        """A component or a modal answered: the core says what it becomes."""
        message = interaction.message
        modal = interaction.type == discord.InteractionType.modal_submit
        origin = f"discord:{interaction.id}" if modal or message is None \
            else f"discord:{message.id}"
        running = self.service.answer(chat_key(interaction.channel_id), actor_of(interaction),
                                      token, value, origin,
                                      locale=locale_of(interaction))
        await self._respond(interaction, running, tap=not modal or message is not None)

    # --- answering -----------------------------------------------------------------------

    async def _respond(self, interaction: discord.Interaction, running: Awaitable[Reply],
                       tap: bool = False) -> None:
        """Wait for the core; defer if it takes long; then answer."""
        task = asyncio.ensure_future(running)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            if tap:
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True)
        reply = await task
        if reply.duplicate:
            if tap:  # a second press of a button already acted on: a new interaction
                tr = translator(reply.language)
                await self.send(interaction, Reply.error(
                    tr("That was already done; nothing changed."), tr.language))
            else:  # the same interaction delivered again: it was answered the first time
                log.info("discord: duplicate interaction %s ignored", interaction.id)
            return
        question = reply.question
        if question is not None and question.ask == Ask.TYPE and reply.board is None \
                and tap and not interaction.response.is_done():
            token = seal(question.token, chat_key(interaction.channel_id),
                         self.service.secret)
            await interaction.response.send_modal(
                ui.InputModal(token, question, translator(reply.language)))
            return
        await self.send(interaction, reply, edit=tap and reply.in_place)
        if reply.publish is not None and interaction.channel_id is not None:
            self._publish(interaction.channel_id, reply.publish)

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

    async def send(self, interaction: discord.Interaction, reply: Reply, *,
                   edit: bool = False) -> None:
        content, embeds = message_parts(reply)
        response = interaction.response
        if not reply.ok:
            if response.is_done():
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
    """The table's seats (guests too), completing the last name typed."""
    adapter: DiscordAdapter = interaction.client.adapter  # type: ignore[attr-defined]
    snapshot = await adapter.service.snapshot(chat_key(interaction.channel_id))
    if snapshot is None:
        return []
    head, _, last = current.rpartition(" ")
    wanted = last.lower().lstrip("@")
    prefix = f"{head} " if head else ""
    return [app_commands.Choice(name=(prefix + p.name)[:100], value=(prefix + p.name)[:100])
            for p in snapshot.session.players if p.name.lower().startswith(wanted)][:25]
