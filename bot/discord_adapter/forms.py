"""A whole hand on one Discord form: each result command of the chat's game as a modal,
generated from the command table as the scorepad is (bot/core/pad.py), and its submit read
back into the options a person would type.

A modal holds five components. Each option is a Label round a control chosen by its kind:
one seated player (winner:) a radio group, players (seen:) a checkbox group, a number for
each player (maal:) a text input of `name=value` pairs, a yes/no (dublee:) a checkbox, a
choice a radio group, a whole number or text a text input. The players offered are the open
game's seats that play (guests too), in seat order, by the names typed in commands; in a
game of sides (points with teams:), the sides, by the letter typed (A), as the scorepad
offers them (bot/core/pad.py's rows), each shown with its players. Where a
command has more than five options, four are shown and the rest are typed together in a
fifth field, as after the command (`pad.few`).

The form's custom_id names the command (`mb:f:hand`), each field its option (`o:winner`;
`o:` the words after the command) or the typed rest (`+`): a submit is read from them
alone, after a restart and in any process.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import ui

from bot.core import flows, permissions
from bot.core.actor import Actor
from bot.core.commands.spec import CommandSpec, Option, spec_text
from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.grammar import parse_options
from bot.core.handlers.flow_answers import Snapshot
from bot.core.i18n import Tr, _
from bot.core.i18n.words import numbered
from bot.core.pad import control_kind, few, pad_commands
from bot.discord_adapter.components import Form, answered, clip

ROOM = 5  # components on a modal, Discord's most
MAX_LABEL, MAX_DESCRIPTION, MAX_PLACEHOLDER, MAX_OPTION = 45, 100, 100, 100
MAX_VALUE = 1000  # characters typed in one field: a Riichi hand in tiles is 20 or so
RADIO = range(2, 11)  # a radio group offers 2 to 10 options
CHECKBOXES = range(1, 11)  # a checkbox group 1 to 10
FIELD, REST = "o:", "+"
WHOLE = re.compile(r"mb:f:(?P<command>[a-z][a-z0-9_]*)")
_RADIO, _CHECKBOXES, _SELECT, _CHECKBOX = (discord.ComponentType.radio_group.value,
                                           discord.ComponentType.checkbox_group.value,
                                           discord.ComponentType.string_select.value,
                                           discord.ComponentType.checkbox.value)


def form_spec(look: Snapshot, name: str | None, game: str | None = None,
              session: int | None = None) -> CommandSpec | None:
    """The command `name` as a form at this table (None: the game's recording command),
    or None where it is none here: the game has no such form, the table plays another game
    than the one asked about (or a game started since), or a hand waits for what its
    players still owe (the command itself says so, at once)."""
    played = look.game
    if (session is not None and look.session.id != session) \
            or (game is not None and played.key != game):
        return None
    specs = pad_commands(played)
    spec = specs[0] if name is None and specs else next(
        (s for s in specs if s.name == name), None)
    if spec is None or (spec.records and look.session.pending is not None
                        and played.waiting_command):
        return None
    return spec.for_game(played)


def refusal(look: Snapshot, spec: CommandSpec, actor: Actor, tr: Tr) -> str | None:
    """What the command would answer this person before anything is typed (a person not
    at the table), in the words the command itself uses; None: they may fill it in."""
    if spec.may not in permissions.UP_FRONT:
        return None
    session = look.session
    try:
        permissions.check(spec.may, permissions.roles_of(actor, session),
                          _("use /{command} here", command=spec.name),
                          hand_count=session.hand_count, waiting=session.pending is not None)
    except UserError as error:
        return tr.render(error.message)
    return None


def whole_form(spec: CommandSpec, game: Game, players: list[str], tr: Tr,
               entry_no: int, shown_as: Mapping[str, str] | None = None) -> Form:
    """The command as one form for a table of `players` (what the command takes for each:
    a name, or a side's letter, shown as `shown_as` says: "A: asha+bikash"), in the
    language of `tr`."""
    entry = tr.render(numbered(game.hand_word, entry_no))
    form = Form(f"mb:f:{spec.name}", f"/{spec.name} · {entry}")
    shown, rest = few(spec, ROOM)
    sides = " · ".join(shown_as[n] for n in players if n in shown_as) if shown_as else ""
    for option in shown:
        said = spec_text(tr, option.help, game)
        if sides and control_kind(option) in ("each", "player", "players"):
            said = sides  # who is on which side, where a side is typed by its letter
        form.add_item(ui.Label(
            text=clip(option.label, MAX_LABEL),
            component=_control(option, players, shown_as or {}),
            description=clip(said, MAX_DESCRIPTION) or None))
    if rest:
        labels = [o.label for o in rest]
        form.add_item(ui.Label(
            # TRANSLATORS: the last field of Discord's form for a hand, where the options
            # that have no field of their own are typed; at most 45 characters
            text=clip(tr("More, typed"), MAX_LABEL),
            # TRANSLATORS: under that field; {options} are option names: foul:, tiplu: ...
            description=clip(tr("As after /{command}: {options}", command=spec.name,
                                options=", ".join(f"{label}:" for label in labels)),
                             MAX_DESCRIPTION),
            component=_text(REST, " ".join(f"{label}:…" for label in labels), long=True)))
    return form.forgotten()


def typed_form(name: str, usage: str, tr: Tr) -> Form:
    """One field for the whole command as typed: for when the table can't be read in time
    (the form can't wait: Discord wants it as the first answer, within 3 s)."""
    form = Form(f"mb:f:{name}", f"/{name}")
    example = usage.split("   ")[0].removeprefix(f"/{name}").strip()
    form.add_item(ui.Label(
        # TRANSLATORS: the one field of Discord's form for a hand when the table can't be
        # read in time; {command} is /hand, /round ...; at most 45 characters
        text=clip(tr("The options, as after /{command}", command=name), MAX_LABEL),
        component=_text(REST, example, long=True, required=True)))
    return form.forgotten()


def _control(option: Option, players: list[str],
             shown_as: Mapping[str, str]) -> ui.Item[Any]:
    kind, custom_id = control_kind(option), FIELD + option.key
    if kind == "player" and len(players) in RADIO:
        return ui.RadioGroup(custom_id=custom_id, required=option.required,
                             options=[discord.RadioGroupOption(
                                 label=clip(shown_as.get(n, n), MAX_OPTION), value=n)
                                 for n in players])
    if kind == "choice" and len(option.choices) in RADIO:
        return ui.RadioGroup(custom_id=custom_id, required=option.required,
                             options=[discord.RadioGroupOption(label=c, value=c)
                                      for c in option.choices])
    if kind == "players" and len(players) in CHECKBOXES:
        # an empty group is an answer (nobody else has seen): Discord's default is one
        return ui.CheckboxGroup(custom_id=custom_id, required=option.required,
                                min_values=1 if option.required else 0,
                                max_values=len(players),
                                options=[discord.CheckboxGroupOption(
                                    label=clip(shown_as.get(n, n), MAX_OPTION), value=n)
                                    for n in players])
    if kind == "bool":
        return ui.Checkbox(custom_id=custom_id)
    if kind == "each":
        return _text(custom_id, flows.pairs(players), long=True, required=option.required)
    if kind == "int":
        return _text(custom_id, f"{option.low}–{option.high}", required=option.required)
    if kind in ("player", "players", "choice"):  # more than a group can offer: typed
        offered = players if kind != "choice" else list(option.choices)
        return _text(custom_id, " ".join(offered), required=option.required)
    return _text(custom_id, "", required=option.required)


def _text(custom_id: str, placeholder: str, *, long: bool = False,
          required: bool = False) -> ui.TextInput[Any]:
    return ui.TextInput(custom_id=custom_id, required=required, max_length=MAX_VALUE,
                        placeholder=clip(placeholder, MAX_PLACEHOLDER) or None,
                        style=discord.TextStyle.paragraph if long else discord.TextStyle.short)


def submitted(data: Mapping[str, Any]) -> tuple[str, dict[str, str], str] | None:
    """(the command, its options from the form's controls, the rest as typed) of a form's
    submit (its raw data), or None if it isn't one of these forms. What is left empty is
    left out, as a person leaves out what they don't type."""
    found = WHOLE.fullmatch(str(data.get("custom_id", "")))
    if found is None:
        return None
    options: dict[str, str] = {}
    rest = ""
    for field in answered(list(data.get("components") or [])):
        custom_id, said = str(field["custom_id"]), _said(field)
        if custom_id == REST:
            rest = said
        elif custom_id.startswith(FIELD) and said:
            options[custom_id[len(FIELD):]] = said
    return found["command"], options, rest


def _said(field: Mapping[str, Any]) -> str:
    """One field's answer as it would be typed: a player's name, names, yes, the text."""
    kind, value = field.get("type"), field.get("value")
    if kind in (_CHECKBOXES, _SELECT):
        return " ".join(str(v) for v in field.get("values") or [])
    if kind == _CHECKBOX:
        return "yes" if value is True else ""
    if kind == _RADIO:
        return str(value or "")
    return " ".join(str(value or "").split())  # a text input: its lines as one


def options_of(fields: dict[str, str], rest: str) -> dict[str, str]:
    """The command's options: the form's fields and what was typed in the last one. An
    option given in both is refused, as one typed twice is."""
    typed = parse_options(rest) if rest.strip() else {}
    for key in typed:
        if key in fields:
            raise UserError(_("`{key}` is given twice; give it once.",
                              key=key or clip(typed[key], 30)))
    return {**fields, **typed}
