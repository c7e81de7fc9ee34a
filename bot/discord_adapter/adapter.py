"""The Discord adapter: slash commands and components in, core Commands out.

The channel is the session key (`discord:CHANNEL`); people are `discord:USER`; the
interaction id is the origin id, so a redelivered interaction records nothing twice. Errors
are ephemeral; no reply pings anybody; a command the core takes long over is deferred.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import logging
import re
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.core.command import Actor, Command, Reply
from bot.core.games import get_game
from bot.core.service import Service, Snapshot
from bot.discord_adapter import components as ui
from bot.discord_adapter.options import (
    BOOL,
    CHOICE,
    COMMANDS,
    FILE,
    INT,
    MEMBER,
    Option,
    SlashCommand,
)
from bot.discord_adapter.render import NO_PINGS, message_parts

log = logging.getLogger(__name__)
DEFER_AFTER = 2.0  # seconds; Discord wants an answer within 3
MAX_FILE_BYTES = 5_000_000
_MENTION = re.compile(r"<@!?(\d+)>")


def chat_key(channel_id: int | None) -> str:
    return f"discord:{channel_id}"


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
        for spec in COMMANDS:
            self.tree.add_command(self.adapter.build(spec))
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
        await self.client.close()
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

    def build(self, spec: SlashCommand) -> app_commands.Command[Any, Any, Any] | app_commands.Group:
        if not spec.subcommands:
            return self.build_command(spec, spec.name)
        group = app_commands.Group(name=spec.name, description=spec.description)
        for sub in spec.subcommands:
            group.add_command(self.build_command(sub, spec.name))
        return group

    def build_command(self, spec: SlashCommand,
                      core_name: str) -> app_commands.Command[Any, Any, Any]:
        """A slash command whose typed options are `spec`'s; it runs core command
        `core_name` (a subcommand runs its group's command)."""
        adapter = self

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            await adapter.on_slash(interaction, spec, values, core_name)

        params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
        for option in sorted(spec.options, key=lambda o: not o.required):
            params.append(inspect.Parameter(
                option.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(option),
                default=inspect.Parameter.empty if option.required else None))
        callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        if spec.options:
            callback = app_commands.describe(
                **{o.name: o.description for o in spec.options})(callback)
        command = app_commands.Command(name=spec.name, description=spec.description,
                                       callback=callback)
        for option in spec.options:
            if option.autocomplete:
                command.autocomplete(option.name)(_complete_player_names)
        return command

    async def on_slash(self, interaction: discord.Interaction, spec: SlashCommand,
                       values: dict[str, Any], core_name: str | None = None) -> None:
        files = [v for o in spec.options if o.kind == FILE and (v := values.pop(o.name, None))]
        attachment = None
        if files:
            if files[0].size > MAX_FILE_BYTES:
                await self.send(interaction, Reply.error("That file is too large to import."))
                return
            attachment = await files[0].read()
        options, mentions = await self._core_options(interaction, spec, values)
        command = Command(chat=chat_key(interaction.channel_id), actor=actor_of(interaction),
                          name=core_name or spec.name, options=options,
                          origin_id=f"discord:{interaction.id}", mentions=mentions,
                          attachment=attachment)
        if spec.game is not None:
            snapshot = await self.service.snapshot(command.chat)
            if snapshot is not None and snapshot.game.key != spec.game:
                await self.send(interaction, Reply.error(
                    f"This channel is playing {snapshot.game.title}: use "
                    f"/rules {snapshot.game.key}."))
                return
        if command.name == "hand" and set(options) <= {"winner"}:
            await self._hand_flow(interaction, command)
        elif command.name in ("undo", "endgame"):
            await self.ask_confirmation(interaction, spec.name, interaction.user.id)
        else:
            await self._answer(interaction, command)

    async def _core_options(self, interaction: discord.Interaction, spec: SlashCommand,
                            values: dict[str, Any]) -> tuple[dict[str, str], dict[str, Actor]]:
        options: dict[str, str] = {}
        mentions: dict[str, Actor] = {}
        by_name = {o.name: o for o in spec.options}
        for name, value in values.items():
            if value is None:
                continue
            option = by_name[name]
            if option.kind == MEMBER:
                token = f"<@{value.id}>"
                mentions[token] = Actor(id=f"discord:{value.id}", name=value.display_name,
                                        handles=(value.name,))
                text = token
            elif option.kind == BOOL:
                text = "yes" if value else "no"
            else:
                text = str(value)
                for match in _MENTION.finditer(text):
                    mentions[match.group(0)] = await self._mentioned(interaction,
                                                                     int(match.group(1)))
            key = option.core_key
            if key in options and text != options[key]:
                options[key] = f"{options[key]} {text}"  # winner and winner_name both given
            else:
                options[key] = text
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
        if isinstance(error, app_commands.TransformerError):
            text = f"That doesn't fit this command: {error}"[:1900]
        elif isinstance(error, app_commands.CommandSignatureMismatch |
                        app_commands.CommandNotFound):
            # Discord's copy of the commands is older than ours (they sync at start).
            text = ("This command has just changed. Reload Discord (Ctrl+R) and try again; "
                    "nothing was recorded.")
        else:
            self.errors += 1
            log.error("discord: command failed", exc_info=error,
                      extra={"chat": chat_key(interaction.channel_id),
                             "origin": f"discord:{interaction.id}"})
            text = "Something went wrong on my side and nothing was recorded."
        await self.send(interaction, Reply.error(text))

    # --- answering -----------------------------------------------------------------------

    async def _answer(self, interaction: discord.Interaction, command: Command,
                      *, edit: bool = False) -> Reply:
        """Run a command; defer if the core takes long; errors only to the person."""
        task = asyncio.ensure_future(self.service.handle(command))
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            if edit:
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True)
        reply = await task
        if reply.duplicate:
            log.info("discord: duplicate %s ignored", command.origin_id)
            return reply
        await self.send(interaction, reply, edit=edit)
        return reply

    async def send(self, interaction: discord.Interaction, reply: Reply, *,
                   view: discord.ui.View | None = None, edit: bool = False) -> None:
        content, embeds = message_parts(reply)
        if view is None and reply.ok and reply.board is not None \
                and not reply.board.get("ended"):
            view = (ui.maal_view(interaction.user.id) if reply.board.get("waiting_for")
                    else ui.board_view(interaction.user.id,
                                       next_hand=get_game(reply.board["game"]).seen_flow))
        response = interaction.response
        if not reply.ok:
            if response.is_done():
                await interaction.followup.send(content or "", ephemeral=True,
                                                allowed_mentions=NO_PINGS)
            else:
                await response.send_message(content, ephemeral=True,
                                            allowed_mentions=NO_PINGS)
            return
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if reply.file is not None:
            # a chart shows inside an embed; an export comes as a plain attachment
            extra["file"] = discord.File(io.BytesIO(reply.file.data), filename=reply.file.name)
            if reply.file.kind == "image":
                embeds = [discord.Embed(description=content or None).set_image(
                    url=f"attachment://{reply.file.name}")]
                content = None
        if edit:
            if response.is_done():
                await interaction.edit_original_response(content=content, embeds=embeds,
                                                         allowed_mentions=NO_PINGS, **extra)
            else:
                await response.edit_message(content=content, embeds=embeds,
                                            view=view, allowed_mentions=NO_PINGS)
        elif response.is_done():
            await interaction.followup.send(content or "", embeds=embeds,
                                            allowed_mentions=NO_PINGS, **extra)
        else:
            await response.send_message(content, embeds=embeds, allowed_mentions=NO_PINGS,
                                        **extra)

    # --- flows ---------------------------------------------------------------------------

    async def _hand_flow(self, interaction: discord.Interaction, command: Command) -> None:
        if "winner" not in command.options:
            await self.start_hand_flow(interaction, interaction.user.id)
            return
        snapshot = await self.service.snapshot(command.chat)
        if snapshot is None or snapshot.session.pending is not None \
                or not snapshot.game.seen_flow:
            await self._answer(interaction, command)  # the core says what is wrong
            return
        try:
            winner = snapshot.session.roster.resolve(command.options["winner"],
                                                     command.mentions)
        except Exception as error:  # UserError: not a player
            await self.send(interaction, Reply.error(getattr(error, "message", str(error))))
            return
        players = list(snapshot.session.roster)
        await interaction.response.send_message(
            f"{winner.name} won. Who else has seen? Pick them, then Done.",
            view=ui.seen_view(interaction.user.id, players, winner.seat, 1 << winner.seat),
            allowed_mentions=NO_PINGS)

    async def start_hand_flow(self, interaction: discord.Interaction, starter: int) -> None:
        snapshot = await self.service.snapshot(chat_key(interaction.channel_id))
        if snapshot is None or snapshot.session.pending is not None \
                or len(snapshot.session.players) < snapshot.game.min_players \
                or not snapshot.game.seen_flow:
            await self._answer(interaction, Command(
                chat=chat_key(interaction.channel_id), actor=actor_of(interaction),
                name="hand", options={}, origin_id=f"discord:{interaction.id}"))
            return
        players = list(snapshot.session.roster)
        await interaction.response.send_message(
            f"Hand {snapshot.session.hand_count + 1}: who won?",
            view=ui.winner_view(starter, players), allowed_mentions=NO_PINGS)

    async def _still_open(self, interaction: discord.Interaction) -> Snapshot | None:
        """The chat's game for a button press; None (and the person told) if it is gone."""
        snapshot = await self.service.snapshot(chat_key(interaction.channel_id))
        if snapshot is None:
            await self.send(interaction, Reply.error("No game is open here any more."))
        return snapshot

    async def winner_chosen(self, interaction: discord.Interaction, starter: int,
                            winner: int) -> None:
        snapshot = await self._still_open(interaction)
        if snapshot is None:
            return
        players = list(snapshot.session.roster)
        name = next((p.name for p in players if p.seat == winner), "?")
        await interaction.response.edit_message(
            content=f"{name} won. Who else has seen? Pick them, then Done.",
            view=ui.seen_view(starter, players, winner, 1 << winner))

    async def seen_chosen(self, interaction: discord.Interaction, starter: int, winner: int,
                          mask: int) -> None:
        snapshot = await self._still_open(interaction)
        if snapshot is None:
            return
        players = list(snapshot.session.roster)
        await interaction.response.edit_message(
            view=ui.seen_view(starter, players, winner, mask | 1 << winner))

    async def seen_done(self, interaction: discord.Interaction, starter: int, winner: int,
                        mask: int) -> None:
        snapshot = await self._still_open(interaction)
        if snapshot is None:
            return
        roster = snapshot.session.roster
        seen = [p.name for p in roster if mask >> p.seat & 1 and p.seat != winner]
        try:
            winner_name = roster.by_seat(winner).name
        except KeyError:
            await self.send(interaction, Reply.error("That player is no longer seated."))
            return
        message_id = interaction.message.id if interaction.message else interaction.id
        await self._answer(interaction, Command(
            chat=chat_key(interaction.channel_id), actor=actor_of(interaction), name="hand",
            options={"winner": winner_name, "seen": " ".join(seen)},
            origin_id=f"discord:{message_id}:hand"), edit=True)

    async def open_maal_modal(self, interaction: discord.Interaction, starter: int) -> None:
        snapshot = await self.service.snapshot(chat_key(interaction.channel_id))
        if snapshot is None or snapshot.session.pending is None:
            await self.send(interaction, Reply.error("No hand is waiting for maal."))
            return
        session, game = snapshot.session, snapshot.game
        rules = game.rulebook.complete(session.rules)
        waiting = [session.roster.by_seat(s)
                   for s in game.waiting_for(session.pending["entry"], rules)]
        await interaction.response.send_modal(ui.MaalModal(session.hand_count + 1, waiting))

    async def maal_submitted(self, interaction: discord.Interaction, pairs: str) -> None:
        await self._answer(interaction, Command(
            chat=chat_key(interaction.channel_id), actor=actor_of(interaction), name="maal",
            options={"": pairs}, origin_id=f"discord:{interaction.id}"),
            edit=interaction.message is not None)

    async def ask_confirmation(self, interaction: discord.Interaction, kind: str,
                               starter: int) -> None:
        snapshot = await self.service.snapshot(chat_key(interaction.channel_id))
        command = Command(chat=chat_key(interaction.channel_id), actor=actor_of(interaction),
                          name=kind, options={}, origin_id=f"discord:{interaction.id}")
        if snapshot is None:
            await self._answer(interaction, command)
            return
        session = snapshot.session
        if kind == "undo":
            if session.pending is not None:
                question, no = "Drop the hand that is waiting for maal?", 0
            elif snapshot.last_hand is not None:
                no = snapshot.last_hand.no
                question = f"Undo hand {no} ({snapshot.last_hand.summary})?"
            else:
                await self._answer(interaction, command)
                return
            view = ui.confirm_view("cu", starter, no)
        else:
            question = (f"End the game after {session.hand_count} hands? Standings and who "
                        "pays whom follow; the game is archived.")
            view = ui.confirm_view("ce", starter, session.hand_count)
        await interaction.response.send_message(question[:2000], view=view,
                                                allowed_mentions=NO_PINGS)

    async def confirmed(self, interaction: discord.Interaction, kind: str, no: int) -> None:
        if kind == "cx":
            await interaction.response.edit_message(content="Cancelled; nothing changed.",
                                                    view=None)
            return
        snapshot = await self.service.snapshot(chat_key(interaction.channel_id))
        current = 0
        if snapshot is not None:
            session = snapshot.session
            current = session.hand_count if kind == "ce" else (
                0 if session.pending is not None else session.hand_count)
        if snapshot is not None and current != no:
            await interaction.response.edit_message(
                content="The table changed since this was asked; nothing was done. "
                        "Ask again.", view=None)
            return
        message_id = interaction.message.id if interaction.message else interaction.id
        await self._answer(interaction, Command(
            chat=chat_key(interaction.channel_id), actor=actor_of(interaction),
            name="undo" if kind == "cu" else "endgame", options={},
            origin_id=f"discord:{message_id}:confirm"), edit=True)


def _annotation(option: Option) -> Any:
    if option.kind == MEMBER:
        return discord.Member
    if option.kind == INT:
        return app_commands.Range[int, option.low, option.high]
    if option.kind == BOOL:
        return bool
    if option.kind == FILE:
        return discord.Attachment
    if option.kind == CHOICE:
        return Literal[option.choices]  # type: ignore[valid-type]
    return app_commands.Range[str, 1, 1000]


async def _complete_player_names(interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
    adapter: DiscordAdapter = interaction.client.adapter  # type: ignore[attr-defined]
    snapshot = await adapter.service.snapshot(chat_key(interaction.channel_id))
    if snapshot is None:
        return []
    wanted = current.lower().lstrip("@")
    return [app_commands.Choice(name=p.name, value=p.name) for p in snapshot.session.players
            if p.name.lower().startswith(wanted)][:25]
