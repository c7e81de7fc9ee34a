"""The scorepad as data: a whole hand on one screen, described from the command table.

A page (bot/web/static/pad.js) lays out what this says and sends back the options a person
would type; it knows no rule and scores nothing. Each command of the game that records a
result (`CommandSpec.on_pad`) is a form, named by the command in the game's words ("Ron",
"Tsumo"); each option a control, chosen by its kind and called by its name as people say
it in the reader's language ("dublee route", never `dublee_route`), its help shown with it:

- a player (winner:) is a radio column, players (seen:) a checkbox column, and a number for
  each player (maal:, an Option marked `each`) a number box column, all on one row per
  seated player, in seat order: Marriage's whole hand reads across each player's row. The
  first three columns and every number are on the rows; the others (foul:, dublee_route:)
  are folded under them, on rows of their own (`places`), so a phone's width holds a name;
- a yes/no is a switch, a choice a row of buttons, a whole number a number box, anything
  else a line of text, under the rows;
- options with a topic (Marriage's cards, Riichi's tiles) are folded under it.

A hand sent is answered as the chat answers it (`answer`), with a refusal's About (which
options, which players: bot/core/errors.py) so the page shows it beside them, and /undo's
question (`confirm`) so the page asks before it undoes, as a tap does.

A form with room for only a few controls (Discord's modal holds five) shows some options a
control each and takes the rest typed in one field, as after the command (`few`).

A game added later gets its pad from its declarations alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.core.command import Reply
from bot.core.commands.spec import CommandSpec, Kind, Option, spec_text
from bot.core.examples import personal
from bot.core.flows import Ask
from bot.core.games.base import Game
from bot.core.handlers import pages
from bot.core.handlers.board_commands import board_reply
from bot.core.handlers.call import Call
from bot.core.i18n import Tr
from bot.core.session import OPEN

# The control each kind of option is shown as; kinds a form can't give are left out
CONTROLS = {Kind.PLAYER: "player", Kind.PLAYERS: "players", Kind.BOOL: "bool",
            Kind.CHOICE: "choice", Kind.INT: "int", Kind.TEXT: "text"}
ON_ROWS = ("player", "players", "each")  # a column on the players' rows
ROW_COLUMNS = 3  # the columns on the rows (and every number): the rest are folded under them
# What a pad sends besides its forms: /undo, asked first as a tap asks
ALSO = ("undo",)


def pad_commands(game: Game) -> list[CommandSpec]:
    """The game's commands a form records with, its recording command first."""
    specs = [s for s in game.commands if s.on_pad and s.play is not None and not s.hidden]
    return sorted(specs, key=lambda s: not s.records)


def few(spec: CommandSpec, room: int) -> tuple[list[Option], list[Option]]:
    """A form with room for `room` controls: the options shown a control each, and the rest,
    typed together in one more field (`key:value`, as after the command). Where all fit,
    each has its own. Else the command's `form_rows`, then its options without a topic in
    declared order, fill all but that last field: Marriage's /hand shows winner:, seen:,
    maal: and dublee:, and takes foul: and the cards typed."""
    options = [o for o in spec.options if control_kind(o) is not None]
    if len(options) <= room:
        return options, []
    first = [o for label in spec.form_rows if (o := spec.option(label)) in options]
    shown = list(dict.fromkeys([*first, *(o for o in options if not o.topic)]))[:room - 1]
    rest = [o for o in options if o not in shown]
    return shown, sorted(rest, key=lambda o: bool(o.topic))  # those of no topic first


def control_kind(option: Option) -> str | None:
    """The control an option is shown as (CONTROLS, or "each"); None: not on a form."""
    return "each" if option.each else CONTROLS.get(option.kind)


def said_as(name: str, tr: Tr) -> str:
    """An option's or a rule's name as people say it in the language of `tr`: the name
    Discord shows it by there (its catalogue's "dublee_route:"), in words ("dublee
    route", "rota dublee")."""
    shown = tr.gettext(f"{name}:").removesuffix(":") or name
    return shown.replace("_", " ").replace("-", " ")


def command_word(name: str, tr: Tr) -> str:
    """A command as a form's tab names it: the game's word, "Ron", "Tsumo", "Draw"."""
    word = tr.gettext(f"/{name}").lstrip("/") or name
    return word[:1].upper() + word[1:]


def places(spec: CommandSpec) -> dict[str, str]:
    """Where each option goes: "rows" (a column on the players' rows), "more" (a column
    on rows folded under them), "below" (a field under the rows) or its topic."""
    found: dict[str, str] = {}
    on_rows = 0
    for option in spec.options:
        kind = control_kind(option)
        if kind is None:
            continue
        if option.topic:
            found[option.key] = "topic"
        elif kind in ON_ROWS:
            on_rows += 1
            found[option.key] = "rows" if kind == "each" or on_rows <= ROW_COLUMNS else "more"
        else:
            found[option.key] = "below"
    return found


def control(option: Option, tr: Tr, game: Game, place: str,
            names: Sequence[str] = ()) -> dict[str, Any] | None:
    """One option as a control: what it is called (its name in words, `said_as`), what it
    takes, where it goes and its help in the reader's language, its examples with the
    table's own `names`."""
    kind = control_kind(option)
    if kind is None:
        return None
    data: dict[str, Any] = {"key": option.key, "label": said_as(option.label, tr),
                            "control": kind,
                            "help": personal(spec_text(tr, option.help, game), names),
                            "required": option.required, "place": place}
    if option.low is not None:
        data["low"], data["high"] = option.low, option.high
    if option.choices:
        data["choices"] = list(option.choices)
    if option.topic:
        data["topic"] = tr.text(option.topic)
    return data


def form(spec: CommandSpec, tr: Tr, game: Game, names: Sequence[str] = (),
         rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A command as a form: its name in words, what it does, its controls in declared
    order (their examples with the table's `names`), but those the table's `rules` leave
    nothing to do (Game.unused)."""
    if rules is not None:
        unused = game.unused(spec.name, rules)
        spec = replace(spec, options=tuple(o for o in spec.options if o.key not in unused))
    where = places(spec)
    controls = [c for o in spec.options
                if (c := control(o, tr, game, where.get(o.key, ""), names)) is not None]
    return {"command": spec.name, "name": command_word(spec.name, tr),
            "title": spec_text(tr, spec.summary, game),
            "usage": spec.usage.split("   ")[0], "controls": controls}


async def pad_view(call: Call) -> dict[str, Any]:
    """The pad for the table of `call`: its game's forms, its players in seat order and the
    standings as the board shows them, in the reader's language."""
    tr, session, game = call.tr, call.session, call.game
    data: dict[str, Any] = {"language": tr.language, "words": words(tr, game)}
    if session is None or session.status != OPEN:
        data["open"] = False
        data["note"] = tr("No game is open at this table. Start one in the chat with "
                          "/newgame.")
        return data
    assert session.id is not None
    rules = game.rulebook.complete(session.rules)
    board = await board_reply(call, session, "")
    data.update({
        "open": True,
        "game": game.key,
        "title": tr.text(game.title),
        "hand_word": game.hand_word,
        "players": rows(game, session),
        "status": board.text,
        "board": board.table or "",
        "standings": board.board.to_json() if board.board is not None else None,
        "rules": " · ".join(f"{said_as(key, tr)}: {tr.render(value)}"
                            for key, value in game.brief_rules(rules,
                                                               len(session.players))),
        "forms": [form(spec.for_game(game), tr, game, session.roster.names(), rules)
                  for spec in pad_commands(game)],
        "waiting": session.pending is not None,
        # what Undo takes back: the waiting hand, else the last one recorded
        "undo": tr("Drop the waiting {hand}", **call.words) if session.pending is not None
        else tr("Undo {hand} {no}", **call.words, no=session.hand_count)
        if session.hand_count else "",
    })
    if call.web is not None:
        data["scoreboard"] = pages.token(call, "board") is not None
    return data


def rows(game: Game, session: Any) -> list[dict[str, Any]]:
    """The pad's rows: what a number each is given for, as the board's columns are. The
    players in seat order; in a game of sides (points with teams:), the sides, each by its
    letter (what /round takes: A=12) and shown with its players (A: asha+chetan)."""
    if game.player_columns:
        return [{"name": p.name, "playing": not p.sitting_out}
                for p in session.roster.players]
    shown = dict(game.chart_columns(session.roster, session.game_state))
    return [{"name": letter, "label": shown.get(key, letter), "playing": True}
            for key, letter in game.columns(session.roster, session.game_state)]


def answer(reply: Reply) -> dict[str, Any]:
    """What the page is told of a command it sent: the reply's text, or its refusal with
    what it is about; /undo's question (with what to send back to answer it: the table as
    it was asked about, so a hand recorded meanwhile makes the Yes stale)."""
    question = reply.question
    if reply.ok and question is not None and question.ask == Ask.CONFIRM \
            and len(question.token.args) == 3 and len(question.choices) == 2:
        session, hand, version = question.token.args
        return {"ok": True, "duplicate": reply.duplicate, "confirm": {
            "text": question.text, "yes": question.choices[0].label,
            "no": question.choices[1].label,
            "expect": {"session": session, "hand": hand, "version": version}}}
    found: dict[str, Any] = {"ok": reply.ok, "duplicate": reply.duplicate,
                             ("text" if reply.ok else "error"): reply.text}
    if not reply.ok and reply.about is not None:
        found["about"] = reply.about
    return found


def asks(reply: Reply) -> bool:
    """Whether the reply is a question the pad answers (nothing was done yet)."""
    return "confirm" in answer(reply)


def words(tr: Tr, game: Game) -> dict[str, str]:
    """The pad's own words, in the reader's language."""
    return {
        "send": tr("Send"),
        "sending": tr("Sending…"),
        "sent": tr("Recorded."),
        "clear": tr("Clear"),
        "more": tr("More"),
        "player": tr("Player"),
        "side": tr("Side"),
        "standings": tr("Standings"),
        "retry": tr("Not sent: the connection dropped. Tap Send again; it is recorded once."),
        "closed": tr("Open the scorepad again from the group's button."),
        "sign": tr("Minus"),  # the ± beside a number that may be below zero
    }
