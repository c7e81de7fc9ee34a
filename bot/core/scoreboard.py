"""The scoreboard page as data: the table's game as the board shows it, every hand in hand
order with what became of it (undone, replaced by an edit) and who won or fouled in it, the
running totals a chart is drawn from, the last hand, and a second view of the finished
games, the ledger and the season as tables, with no command in them a page can't run.
Built in one read transaction (bot/core/views.py) by the same code the commands use; the
page (bot/web/static/board.js) only lays it out."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from bot.core import points as pts
from bot.core import seasons, stats, summaries
from bot.core.errors import UserError
from bot.core.games.base import Game, Placing
from bot.core.handlers import ledger_commands
from bot.core.handlers.board_commands import board_reply, money_of
from bot.core.handlers.call import Call
from bot.core.i18n import Tr
from bot.core.i18n.words import count, numbered, placeholders
from bot.core.ledger import settle, signed
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
    # in hand order, a hand replaced by an edit just before what replaced it
    log = sorted(await call.tx.history(session.id),
                 key=lambda h: (h.no, h.voided_at is None, h.id or 0))
    live = [h for h in log if h.voided_at is None]
    rules = game.rulebook.complete(session.rules)
    goal = game.goal(rules, session.game_state)
    # each column's place as the game ranks it (Riichi: by the final result, uma and oka in)
    placings = game.placings(session.totals, rules, session.game_state, session.roster)
    view = board.board.to_json() if board.board is not None else {}
    money = {} if game.money_at_end else await money_of(call, session)
    seats = game.column_players(session.roster, session.game_state)
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
        "hands": [hand_row(call, hand, columns, places, seats) for hand in log],
        "running": running(live, columns, places),
        "numbers": [0, *(h.no for h in live)],
        "goal": None if goal is None else {"value": goal[0], "label": tr.render(goal[1])},
        "count": tr.render(count(game.hand_word, session.hand_count)),
        "hand_word": tr.render(placeholders(game.hand_word)["Hand"]),
        "last": last_hand(call, game, session, live[-1]) if live else None,
    }


def placed(placing: Placing | None, with_result: bool, tr: Tr) -> dict[str, Any]:
    if placing is None:
        return {}
    found: dict[str, Any] = {"place": placing.place}
    if with_result:  # a game settled on its final results: the result as /endgame says it
        found["result"] = pts.show_value(placing.result, 1, tr=tr)
    return found


def hand_row(call: Call, hand: HandRecord, columns: list[tuple[int, str]],
             places: int, seats: dict[int, list[int]] | None = None) -> dict[str, Any]:
    """One hand as the history shows it: its cells, what became of it, and by column who
    won it and who fouled in it (a misdeal: fouls and no winner)."""
    game = call.table.games[call.session.game] if call.session else call.game
    state = ""
    if hand.voided_at is not None and hand.void is not None:
        state = "edited" if hand.void.edited else "undone"
    roster = call.session.roster if call.session is not None else None
    summary = ""
    if roster is not None:
        summary = call.tr.render(summaries.shown(game, roster, hand)).splitlines()[0]
    seats = seats or {key: [key] for key, _label in columns}
    won, fouled = set(game.winners(hand)), set(game.fouled(hand))
    return {"no": hand.no, "state": state, "summary": summary,
            "cells": [pts.show(hand.deltas[key], places, tr=call.tr) if key in hand.deltas
                      else "" for key, _label in columns],
            "won": [i for i, (key, _l) in enumerate(columns) if won & set(seats.get(key, ()))],
            "fouled": [i for i, (key, _l) in enumerate(columns)
                       if fouled & set(seats.get(key, ()))],
            "misdeal": bool(fouled) and not won}


def last_hand(call: Call, game: Game, session: SessionState,
              hand: HandRecord) -> dict[str, Any]:
    """The last hand as a TV shows it under the standings: its number and what it was."""
    said = call.tr.render(summaries.shown(game, session.roster, hand)).splitlines()
    return {"no": hand.no, "title": call.tr.render(numbered(game.hand_word, hand.no)),
            "summary": said[0] if said else ""}


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
    """The second view: the finished games, the ledger and the season, as tables."""
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
            "ledger": await ledger_view(call), "season": await season_view(call)}


async def ledger_view(call: Call) -> dict[str, Any]:
    """Who owes whom across the chat's games and payments, a table a currency: each
    person's balance, and the fewest transfers that settle it."""
    tr = call.tr
    book = await ledger_commands.load(call)
    tables = []
    for currency, balances in sorted(book.balances().items()):
        row = {k: v for k, v in balances.items() if v}
        places = book.decimals(currency)
        tables.append({
            "currency": currency or tr("money"),
            "rows": [[book.name(k), signed(row[k], currency, places, tr)]
                     for k in sorted(row, key=lambda k: (-row[k], book.name(k).lower()))],
            "settle": [[book.name(payer), book.name(payee),
                        format_money(amount, currency, places, tr=tr)]
                       for payer, payee, amount in settle(row)]})
    return {"tables": tables, "note": "" if tables else tr("Nothing owed yet.")}


async def season_view(call: Call) -> dict[str, Any]:
    """The open season, else the last: its name and days, and each game's ranking as
    /stats season ranks it, a table each."""
    tr = call.tr
    found = await call.tx.seasons()
    if not found:
        return {"title": "", "rankings": [], "note": tr("No season yet.")}
    chosen = found[-1]
    every = await call.tx.chat_sessions()
    played = []
    for past in every:
        if chosen.holds(past):
            assert past.id is not None
            played.append((past, await call.tx.all_hands(past.id)))
    table = stats.compute(played, call.settings.links, None, stats.handle_accounts(every))
    zone = call.settings.zone
    start = tr.date(chosen.started_at.astimezone(zone)) if chosen.started_at else "?"
    span = tr("{start} to {end}", start=start,
              end=tr.date(chosen.ended_at.astimezone(zone))) if chosen.ended_at \
        else tr("{start} to now", start=start)
    return {"title": tr("Season {name}", name=chosen.name), "span": span,
            "rankings": [{"game": tr.text(r.game.title), "by": r.by, "header": r.header,
                          "rows": r.rows} for r in seasons.rankings(table, tr) if r.rows],
            "note": "" if table else tr("No games in it yet.")}


def words(tr: Tr) -> dict[str, str]:
    return {
        "standings": tr("Standings"), "hands": tr("History"), "chart": tr("Chart"),
        "finished": tr("Finished games"), "ledger": tr("Ledger"), "season": tr("Season"),
        "undone": tr("undone"), "edited": tr("replaced by an edit"), "more": tr("More"),
        "back": tr("This game"), "live": tr("Live"), "offline": tr("Reconnecting…"),
        "total": tr("Total"), "none": tr("No finished games yet."),
        "result": tr("Result"), "finished_game": tr("Finished"),
        "won": tr("won"), "foul": tr("foul"), "misdeal": tr("misdeal"),
        "owes": tr("Balance"), "settle": tr("To settle"), "pays": tr("pays"),
        "hand": tr("Hand"),
    }
