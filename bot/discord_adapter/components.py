"""A core Question as Discord components: a select (pick one, or tick several then Done),
buttons (confirm, the board's actions, open a form) and a form (modal) for typed answers.

Every component carries the question's sealed token in its custom_id, and so does a form:
they are read from their ids alone, so they keep working after a restart, in another
process, after a view would have timed out, and for two people at once. Ids: `mb:s:TOKEN`
(a select: pick one), `mb:t:TOKEN` (a select: tick several, e.g. who has seen),
`mb:b:TOKEN|VALUE` (a button), `mb:m:TOKEN` (a form). A form's fields are `=NAME` (that
player's value) or `*` (every `name=value` pair, typed in one field).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Iterator
from typing import Any, Protocol

import discord
from discord import ui

from bot.core import flows
from bot.core.flows import Ask, Question
from bot.core.i18n import Tr


class Answering(Protocol):
    """What a component's tap asks of the adapter (bot/discord_adapter/adapter.py, which
    imports this module)."""

    async def guarded(self, interaction: discord.Interaction,
                      running: Awaitable[None]) -> None: ...

    async def answer(self, interaction: discord.Interaction, token: str, value: str,
                     defer_after: float | None = None) -> None: ...

    async def open_form(self, interaction: discord.Interaction, token: str,
                        title: str) -> None: ...

    async def open_next_form(self, interaction: discord.Interaction, token: str) -> None: ...


MAX_SELECT = 25
MAX_FORM_FIELDS = 5  # Discord's most for a modal
MAX_TITLE = 45  # a modal's title and a field's label
FORM = re.compile(r"mb:m:(?P<token>[^|]+)")
PLAYER_FIELD, PAIRS_FIELD = "=", "*"


def adapter_of(interaction: discord.Interaction) -> Answering:
    return interaction.client.adapter  # type: ignore[attr-defined]


def submitted(values: list[str], many: bool) -> str:
    """What a select's submission answers. Discord sends a select's whole selection every
    time, not the change: ticking two at once sends both, and reopening it with one ticked
    sends that one again with the new. So a tick-several select answers `s<mask>`, exactly
    these. (A tick-several select sent before this reading was `mb:s:`: its values are
    `t<seat>`, which a pick-one select never has.)"""
    if many or (values and all(v[:1] == "t" and v[1:].isdecimal() for v in values)):
        return flows.chosen(values)
    return values[0] if values else ""


class FlowSelect(ui.DynamicItem[ui.Select], template=r"mb:(?P<kind>[st]):(?P<token>[^|]+)"):
    def __init__(self, token: str, question: Question | None = None,
                 tr: Tr | None = None, *, many: bool = False) -> None:
        """A select for `question`, in the language of `tr` (discord.py also rebuilds one
        from its custom_id alone, to dispatch a pick: then the token and `many` matter)."""
        self.token = token
        self.many = question.ask == Ask.TOGGLE if question is not None else many
        render = tr.render if tr is not None else str
        options = [discord.SelectOption(label=render(c.label)[:100], value=c.value,
                                        default=c.chosen)
                   for c in (question.choices if question else ())
                   if c.value != flows.DONE][:MAX_SELECT]
        super().__init__(ui.Select(
            custom_id=f"mb:{'t' if self.many else 's'}:{token}",
            placeholder=render(question.text if question else "")[:150] or None,
            min_values=0 if self.many else 1,
            max_values=max(1, len(options)) if self.many else 1,
            options=options or [discord.SelectOption(label="-", value="-")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> FlowSelect:
        return cls(match["token"], many=match["kind"] == "t")

    async def callback(self, interaction: discord.Interaction) -> None:
        value = submitted(list(self.item.values), self.many)
        adapter = adapter_of(interaction)
        await adapter.guarded(interaction, adapter.answer(interaction, self.token, value))


class FlowButton(ui.DynamicItem[ui.Button],
                 template=r"mb:b:(?P<token>[^|]+)\|(?P<value>[A-Za-z0-9]+)"):
    def __init__(self, token: str, value: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        self.token, self.value, self.label = token, value, label
        super().__init__(ui.Button(label=label[:80], style=style,
                                   custom_id=f"mb:b:{token}|{value}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: Any) -> FlowButton:
        return cls(match["token"], match["value"], getattr(item, "label", None) or "-")

    async def callback(self, interaction: discord.Interaction) -> None:
        adapter = adapter_of(interaction)
        if self.value == flows.OPEN:  # a form: it must be the first answer, at once
            running = adapter.open_form(interaction, self.token, self.label)
        elif self.value == flows.NEXT:  # the next hand, whole, on one form
            running = adapter.open_next_form(interaction, self.token)
        else:
            running = adapter.answer(interaction, self.token, self.value)
        await adapter.guarded(interaction, running)


DYNAMIC_ITEMS = (FlowSelect, FlowButton)


class Form(ui.Modal):
    """A form, sent and forgotten: discord.py keeps a sent modal by its custom_id, one at a
    time and only in this process (two people with the same form open: the second replaced
    the first; a restart: both lost), so a Form is stopped before it is sent, and its submit
    is read from the ids alone (`form_answer`)."""

    def __init__(self, custom_id: str, title: str) -> None:
        super().__init__(title=clip(title, MAX_TITLE) or "-", custom_id=custom_id)

    def forgotten(self) -> Form:
        self.stop()
        return self


def player_form(token: str, question: Question, tr: Tr) -> Form:
    """A field for each person who still owes a value (five a form). None is required:
    each player may send their own, as they may by typing."""
    form = Form(f"mb:m:{token}",
                tr.render(question.choices[0].label) if question.choices else "-")
    for name in question.fields[:MAX_FORM_FIELDS]:
        form.add_item(ui.TextInput(label=name[:MAX_TITLE], placeholder="0", max_length=4,
                                   required=False, custom_id=f"{PLAYER_FIELD}{name}"))
    return form.forgotten()


def pairs_form(token: str, title: str, tr: Tr) -> Form:
    """One field for every `name=value` pair: for when who still owes one can't be read
    in time (the form can't wait: Discord wants it as the first answer, within 3 s)."""
    form = Form(f"mb:m:{token}", title)
    form.add_item(ui.TextInput(
        # TRANSLATORS: the one field of the maal form when the names can't be read in
        # time; at most 45 characters
        label=tr("Each player: name=number")[:MAX_TITLE],
        # TRANSLATORS: an example in that field; keep the name=number shape
        placeholder=tr("ram=5 sita=3")[:100],
        style=discord.TextStyle.paragraph, max_length=500, required=True,
        custom_id=PAIRS_FIELD))
    return form.forgotten()


def form_answer(data: dict[str, Any]) -> tuple[str, str] | None:
    """(token, answer) of a form's submit (its raw data), or None if it isn't one of ours.
    The answer is `name=value` pairs, as someone would type them."""
    found = FORM.fullmatch(str(data.get("custom_id", "")))
    if found is None:
        return None
    pairs = []
    for field in _fields(data.get("components") or []):
        custom_id, value = str(field.get("custom_id", "")), str(field.get("value") or "")
        value = " ".join(value.split())
        if custom_id.startswith(PLAYER_FIELD) and value:
            pairs.append(f"{custom_id[len(PLAYER_FIELD):]}={value}")
        elif custom_id == PAIRS_FIELD and value:
            pairs.append(value)
    return found["token"], " ".join(pairs)


def _fields(components: list[Any]) -> Iterator[dict[str, Any]]:
    """The text inputs of a submit."""
    return (field for field in answered(components)
            if field.get("type") == discord.ComponentType.text_input.value)


def answered(components: list[Any]) -> Iterator[dict[str, Any]]:
    """What a submit says of each field that takes an answer (it has a custom_id): in
    action rows, or in labels (Discord's newer kind), in the form's order."""
    for component in components:
        if not isinstance(component, dict):
            continue
        yield from answered(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            yield from answered([component["component"]])
        if "custom_id" in component:
            yield component


def clip(text: str, limit: int) -> str:
    """Text within one of Discord's limits (a title, a label, a description), cut with …"""
    return text if len(text) <= limit else text[:limit - 1] + "…"


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
