"""A core Question as Discord components: a select (pick one, or several then Done),
buttons (confirm, the board's actions, open a form) and a modal for typed answers.

Every component carries the question's sealed token in its custom_id, so they are
DynamicItems: they keep working after a restart and in another process. Ids:
`mb:s:TOKEN` (a select), `mb:b:TOKEN|VALUE` (a button), `mb:m:TOKEN` (a modal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.core import flows
from bot.core.flows import Ask, Question
from bot.core.i18n import Tr

if TYPE_CHECKING:
    from bot.discord_adapter.adapter import DiscordAdapter

MAX_SELECT = 25
MAX_MODAL_INPUTS = 5


def adapter_of(interaction: discord.Interaction) -> DiscordAdapter:
    return interaction.client.adapter  # type: ignore[attr-defined]


class FlowSelect(ui.DynamicItem[ui.Select], template=r"mb:s:(?P<token>[^|]+)"):
    def __init__(self, token: str, question: Question | None = None,
                 tr: Tr | None = None) -> None:
        """A select for `question`, in the language of `tr` (discord.py also rebuilds one
        from its custom_id alone, to dispatch a pick: then only the token matters)."""
        self.token = token
        render = tr.render if tr is not None else str
        options = [discord.SelectOption(label=render(c.label)[:100], value=c.value,
                                        default=c.chosen)
                   for c in (question.choices if question else ())
                   if c.value != flows.DONE][:MAX_SELECT]
        many = question is not None and question.ask == Ask.TOGGLE
        super().__init__(ui.Select(
            custom_id=f"mb:s:{token}",
            placeholder=render(question.text if question else "")[:150],
            min_values=0 if many else 1, max_values=max(1, len(options)) if many else 1,
            options=options or [discord.SelectOption(label="-", value="-")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> FlowSelect:
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        many = self.item.max_values > 1 or self.item.min_values == 0
        value = flows.chosen(values) if many else (values[0] if values else "")
        await adapter_of(interaction).answer(interaction, self.token, value)


class FlowButton(ui.DynamicItem[ui.Button],
                 template=r"mb:b:(?P<token>[^|]+)\|(?P<value>[A-Za-z0-9]+)"):
    def __init__(self, token: str, value: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        self.token, self.value = token, value
        super().__init__(ui.Button(label=label[:80], style=style,
                                   custom_id=f"mb:b:{token}|{value}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> FlowButton:
        return cls(match["token"], match["value"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).answer(interaction, self.token, self.value)


class InputModal(ui.Modal):
    """A typed answer: one field per person who still owes one (five a form); the answer is
    `name=value` pairs, as someone would type them."""

    def __init__(self, token: str, question: Question, tr: Tr) -> None:
        super().__init__(
            title=tr.render(question.choices[0].label)[:45] if question.choices else "-",
            timeout=600, custom_id=f"mb:m:{token}")
        self.token = token
        self.inputs: list[tuple[str, ui.TextInput[InputModal]]] = []
        for name in question.fields[:MAX_MODAL_INPUTS]:
            field: ui.TextInput[InputModal] = ui.TextInput(
                label=name[:45], placeholder="0", max_length=4, required=True)
            self.inputs.append((name, field))
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        pairs = " ".join(f"{name}={field.value.strip()}" for name, field in self.inputs)
        await adapter_of(interaction).answer(interaction, self.token, pairs)


DYNAMIC_ITEMS = (FlowSelect, FlowButton)


def view_for(question: Question, token: str, tr: Tr) -> ui.View:
    """The question's components, labelled in the language of `tr` (the reply's)."""
    view = ui.View(timeout=None)
    if question.ask in (Ask.PICK, Ask.TOGGLE):
        view.add_item(FlowSelect(token, question, tr))
        done = next((c for c in question.choices if c.value == flows.DONE), None)
        if done is not None:
            view.add_item(FlowButton(token, done.value, tr.render(done.label)))
        return view
    for choice in question.choices:
        style = discord.ButtonStyle.danger if choice.danger else (
            discord.ButtonStyle.secondary if choice.value in (flows.NO, flows.UNDO)
            else discord.ButtonStyle.primary)
        view.add_item(FlowButton(token, choice.value, tr.render(choice.label), style))
    return view
