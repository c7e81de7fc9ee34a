"""Buttons, selects and the maal modal. State rides in custom_id, so the components are
DynamicItems: they keep working after a restart (registered with add_dynamic_items).

Custom ids: `mb:KIND:STARTER[:ARGS]`; only STARTER or someone who can manage the server or
channel may press.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.core.players import Player

if TYPE_CHECKING:
    from bot.discord_adapter.adapter import DiscordAdapter

MAX_MODAL_INPUTS = 5
NOT_YOURS = ("Only the person who started this, or someone who can manage the server or "
             "channel, can use these.")


def adapter_of(interaction: discord.Interaction) -> DiscordAdapter:
    return interaction.client.adapter  # type: ignore[attr-defined]


def may_press(interaction: discord.Interaction, starter: int) -> bool:
    perms = interaction.permissions
    return interaction.user.id == starter or perms.administrator or perms.manage_guild \
        or perms.manage_channels


class _Guarded:
    """interaction_check for every component: refuse others with an ephemeral note."""

    starter: int

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if may_press(interaction, self.starter):
            return True
        await interaction.response.send_message(NOT_YOURS, ephemeral=True)
        return False


def _player_options(players: list[Player], chosen: int = 0) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=p.name[:100], value=str(p.seat),
                                 default=bool(chosen >> p.seat & 1)) for p in players][:25]


class WinnerSelect(_Guarded, ui.DynamicItem[ui.Select], template=r"mb:win:(?P<starter>\d+)"):
    def __init__(self, starter: int, players: list[Player] | None = None) -> None:
        self.starter = starter
        super().__init__(ui.Select(custom_id=f"mb:win:{starter}", placeholder="Who won?",
                                   options=_player_options(players or [])
                                   or [discord.SelectOption(label="-", value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> WinnerSelect:
        return cls(int(match["starter"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).winner_chosen(interaction, self.starter,
                                                    int(self.item.values[0]))


class SeenSelect(_Guarded, ui.DynamicItem[ui.Select],
                 template=r"mb:seen:(?P<starter>\d+):(?P<winner>\d+)"):
    def __init__(self, starter: int, winner: int, players: list[Player] | None = None,
                 chosen: int = 0) -> None:
        self.starter, self.winner = starter, winner
        others = [p for p in players or [] if p.seat != winner]
        super().__init__(ui.Select(
            custom_id=f"mb:seen:{starter}:{winner}", placeholder="Who else has seen?",
            min_values=0, max_values=max(1, len(others)),
            options=_player_options(others, chosen) or [discord.SelectOption(label="-",
                                                                             value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> SeenSelect:
        return cls(int(match["starter"]), int(match["winner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        mask = sum(1 << int(v) for v in self.item.values)
        await adapter_of(interaction).seen_chosen(interaction, self.starter, self.winner, mask)


class SeenDone(_Guarded, ui.DynamicItem[ui.Button],
               template=r"mb:done:(?P<starter>\d+):(?P<winner>\d+):(?P<mask>\d+)"):
    def __init__(self, starter: int, winner: int, mask: int) -> None:
        self.starter, self.winner, self.mask = starter, winner, mask
        super().__init__(ui.Button(label="Done", style=discord.ButtonStyle.primary,
                                   custom_id=f"mb:done:{starter}:{winner}:{mask}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> SeenDone:
        return cls(int(match["starter"]), int(match["winner"]), int(match["mask"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).seen_done(interaction, self.starter, self.winner,
                                                self.mask)


class EnterMaal(_Guarded, ui.DynamicItem[ui.Button], template=r"mb:maal:(?P<starter>\d+)"):
    def __init__(self, starter: int) -> None:
        self.starter = starter
        super().__init__(ui.Button(label="Enter maal", style=discord.ButtonStyle.primary,
                                   custom_id=f"mb:maal:{starter}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> EnterMaal:
        return cls(int(match["starter"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).open_maal_modal(interaction, self.starter)


class BoardButton(_Guarded, ui.DynamicItem[ui.Button],
                  template=r"mb:(?P<kind>undo|next):(?P<starter>\d+)"):
    def __init__(self, kind: str, starter: int) -> None:
        self.kind, self.starter = kind, starter
        label = "Undo" if kind == "undo" else "Next hand"
        style = discord.ButtonStyle.secondary if kind == "undo" else discord.ButtonStyle.primary
        super().__init__(ui.Button(label=label, style=style, custom_id=f"mb:{kind}:{starter}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> BoardButton:
        return cls(match["kind"], int(match["starter"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        adapter = adapter_of(interaction)
        if self.kind == "undo":
            await adapter.ask_confirmation(interaction, "undo", interaction.user.id)
        else:
            await adapter.start_hand_flow(interaction, interaction.user.id)


class Confirm(_Guarded, ui.DynamicItem[ui.Button],
              template=r"mb:(?P<kind>cu|ce|cx):(?P<starter>\d+):(?P<no>\d+)"):
    """Yes (undo hand NO / end the game) or No. NO pins what was asked about."""

    def __init__(self, kind: str, starter: int, no: int) -> None:
        self.kind, self.starter, self.no = kind, starter, no
        label = {"cu": "Yes, undo", "ce": "Yes, end it", "cx": "No, keep it"}[kind]
        style = discord.ButtonStyle.danger if kind != "cx" else discord.ButtonStyle.secondary
        super().__init__(ui.Button(label=label, style=style,
                                   custom_id=f"mb:{kind}:{starter}:{no}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> Confirm:
        return cls(match["kind"], int(match["starter"]), int(match["no"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).confirmed(interaction, self.kind, self.no)


class MaalModal(ui.Modal):
    """Up to five maal values; the hand is scored when the last one arrives."""

    def __init__(self, hand_no: int, players: list[Player]) -> None:
        super().__init__(title=f"Maal for hand {hand_no}"[:45], timeout=600)
        self.players = players[:MAX_MODAL_INPUTS]
        self.inputs: list[ui.TextInput[MaalModal]] = []
        for player in self.players:
            field: ui.TextInput[MaalModal] = ui.TextInput(
                label=player.name[:45], custom_id=f"seat{player.seat}", placeholder="0",
                max_length=4, required=True)
            self.inputs.append(field)
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        pairs = " ".join(f"{p.name}={field.value.strip()}"
                         for p, field in zip(self.players, self.inputs, strict=True))
        await adapter_of(interaction).maal_submitted(interaction, pairs)


DYNAMIC_ITEMS = (WinnerSelect, SeenSelect, SeenDone, EnterMaal, BoardButton, Confirm)


def board_view(starter: int, next_hand: bool = True) -> ui.View:
    view = ui.View(timeout=None)
    if next_hand:  # the button flow exists for games entered by winner and seen players
        view.add_item(BoardButton("next", starter))
    view.add_item(BoardButton("undo", starter))
    return view


def winner_view(starter: int, players: list[Player]) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(WinnerSelect(starter, players))
    return view


def seen_view(starter: int, players: list[Player], winner: int, mask: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(SeenSelect(starter, winner, players, mask))
    view.add_item(SeenDone(starter, winner, mask))
    return view


def maal_view(starter: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(EnterMaal(starter))
    return view


def confirm_view(kind: str, starter: int, no: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(Confirm(kind, starter, no))
    view.add_item(Confirm("cx", starter, no))
    return view
