"""The scoreboard page as data: the table's game as the board shows it, every hand with what
became of it, the running totals a chart is drawn from, and a second view of the finished
games, the ledger and the season. Built in one read transaction (bot/core/views.py) by the
same code the commands use; the page (bot/web/static/board.js) only lays it out."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from bot.core import points as pts
from bot.core import summaries
from bot.core.errors import UserError
from bot.core.games.base import Placing
from bot.core.handlers import ledger_commands, season_commands
from bot.core.handlers.board_commands import board_reply, money_of
from bot.core.handlers.call import Call
from bot.core.i18n import Tr
from bot.core.i18n.words import count, placeholders
from bot.core.money import format_money, money_places
from bot.core.session import OPEN, HandRecord, SessionState

FINISHED_SHOWN = 12  # the newest finished games listed


async def scoreboard_view(call: Call) -> dict[str, Any]:
    tr = call.tr
    data: dict[str, Any] = {"language": tr.language, "words": words(tr)}
    try:
        session = await call.chosen_session()
    except UserError as error:
        data["game"] = None
        data["note"] = tr.render(error.message)
    else:
        data["game"] = await game_view(call, session)
    data["more"] = await more_view(call)
    return data


async def game_view(call: Call, session: SessionState) -> dict[str, Any]:
    """The game: its heading and status as the board says them, the columns with their
    totals and money, every hand (undone and edited ones marked) and the running totals."""
    tr = call.tr
    game = call.table.games[session.game]
    assert session.id is not None
    places = game.point_places
    board = await board_reply(call, session, "")
    columns = game.columns(session.roster, session.game_state)
    legend = dict(game.chart_columns(session.roster, session.game_state))
    log = await call.tx.history(session.id)
    live = sorted((h for h in log if h.voided_at is None), key=lambda h: h.no)
    rules = game.rulebook.complete(session.rules)
    goal = game.goal(rules, session.game_state)
    # each column's place as the game ranks it (Riichi: by the final result, uma and oka in)
    placings = game.placings(session.totals, rules, session.game_state, session.roster)
    view = board.board.to_json() if board.board is not None else {}
    money = {} if game.money_at_end else await money_of(call, session)
    return {
        "key": game.key,
        "title": tr.text(game.title),
        "open": session.status == OPEN,
        "heading": board.text,
        "columns": [{"key": key, "label": label, "legend": legend.get(key, label),
                     "total": pts.show(session.totals.get(key, 0), places, tr=tr),
                     "value": pts.as_json(session.totals.get(key, 0), places),
                     **placed(placings.get(key), game.ranked_by == "results", tr)}
                    for key, label in columns],
        # per currency played for, each hand at its own rate, as the board writes it
        "money": {currency or tr("money"): {
            label: format_money(amounts.get(key, Decimal(0)),
                                places=money_places(amounts.values()), signed=True, tr=tr)
            for key, label in columns} for currency, amounts in money.items()},
        "transfers": view.get("transfers", []),
        "hands": [hand_row(call, hand, columns, places) for hand in log],
        "running": running(live, columns, places),
        "numbers": [0, *(h.no for h in live)],
        "goal": None if goal is None else {"value": goal[0], "label": tr.render(goal[1])},
        "count": tr.render(count(game.hand_word, session.hand_count)),
        "hand_word": tr.render(placeholders(game.hand_word)["Hand"]),
    }


def placed(placing: Placing | None, with_result: bool, tr: Tr) -> dict[str, Any]:
    if placing is None:
        return {}
    found: dict[str, Any] = {"place": placing.place}
    if with_result:  # a game settled on its final results: the result as /endgame says it
        found["result"] = pts.show_value(placing.result, 1, tr=tr)
    return found


def hand_row(call: Call, hand: HandRecord, columns: list[tuple[int, str]],
             places: int) -> dict[str, Any]:
    game = call.table.games[call.session.game] if call.session else call.game
    state = ""
    if hand.voided_at is not None and hand.void is not None:
        state = "edited" if hand.void.edited else "undone"
    roster = call.session.roster if call.session is not None else None
    summary = ""
    if roster is not None:
        summary = call.tr.render(summaries.shown(game, roster, hand)).splitlines()[0]
    return {"no": hand.no, "state": state, "summary": summary,
            "cells": [pts.show(hand.deltas[key], places, tr=call.tr) if key in hand.deltas
                      else "" for key, _label in columns]}


def running(hands: list[HandRecord], columns: list[tuple[int, str]],
            places: int) -> list[list[int | float]]:
    """Each column's total after each live hand, from 0: the chart's lines."""
    lines = []
    for key, _label in columns:
        total, line = 0, [0]
        for hand in hands:
            total += hand.deltas.get(key, 0)
            line.append(total)
        lines.append([pts.as_json(value, places) for value in line])
    return lines


async def more_view(call: Call) -> dict[str, Any]:
    """The second view: the finished games, the ledger and the season, as /board N,
    /ledger and /season say them."""
    tr = call.tr
    finished = []
    games = await call.tx.chat_sessions()
    for number, past in enumerate(games, 1):
        if past.status == OPEN:
            continue
        game = call.table.games[past.game]
        columns = game.columns(past.roster, past.game_state)
        ranked = sorted(columns, key=lambda c: -past.totals.get(c[0], 0))
        when = tr.date(past.ended_at.astimezone(call.settings.zone)) if past.ended_at else ""
        finished.append({
            "number": number, "title": tr.text(game.title), "when": when,
            "count": tr.render(count(game.hand_word, past.hand_count)),
            "totals": [[label, pts.show(past.totals.get(key, 0), game.point_places, tr=tr)]
                       for key, label in ranked]})
    return {"finished": finished[::-1][:FINISHED_SHOWN],
            "ledger": await _said(call, "ledger", ledger_commands.ledger),
            "season": await _said(call, "season", season_commands.season)}


async def _said(call: Call, name: str, run: Any) -> str:
    """What a read command answers at this table, as its text and table."""
    asked = replace(call, spec=call.table.core[name],
                    command=replace(call.command, name=name, options={}))
    try:
        reply = (await run(asked)).reply
    except UserError as error:
        return call.tr.render(error.message)
    return "\n".join(part for part in (reply.text, reply.table or "") if part)


def words(tr: Tr) -> dict[str, str]:
    return {
        "standings": tr("Standings"), "hands": tr("History"), "chart": tr("Chart"),
        "finished": tr("Finished games"), "ledger": tr("Ledger"), "season": tr("Season"),
        "undone": tr("undone"), "edited": tr("replaced by an edit"), "more": tr("More"),
        "back": tr("This game"), "live": tr("Live"), "offline": tr("Reconnecting…"),
        "total": tr("Total"), "none": tr("No finished games yet."),
        "result": tr("Result"),
    }
