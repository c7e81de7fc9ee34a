"""/board, and the board every change answers with."""

from __future__ import annotations

from bot.core import flows, i18n
from bot.core.board import board_view, render_table
from bot.core.command import Reply
from bot.core.games.base import Game
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import t
from bot.core.session import SessionState


async def board(call: Call) -> Outcome:
    return Outcome(await board_reply(call, call.open_session(), ""))


def waiting_names(game: Game, session: SessionState) -> list[str]:
    assert session.pending is not None
    rules = game.rulebook.complete(session.rules)
    return [session.roster.by_seat(s).name
            for s in game.waiting_for(session.pending.entry, rules)]


async def board_reply(call: Call, session: SessionState, head: str, *,
                      wait_began: bool = False) -> Reply:
    """The board with `head` above it (the default: the game and its hand count), and the
    question that goes with it: what a waiting hand needs, or the next hand and undo."""
    game = call.table.games[session.game]
    assert session.id is not None
    hands = await call.tx.last_hands(session.id, call.board_rows)
    rules = game.rulebook.complete(session.rules)
    columns = game.columns(session.roster, session.game_state)
    places = game.point_places
    table = render_table(columns, hands, session.totals, rules, session.hand_count, places)
    lines = [head] if head else [t("board_head", title=game.title, count=i18n.plural(
        session.hand_count, game.hand_word))]
    status = game.status(session.totals, rules, session.game_state, session.roster)
    if status:
        lines.append(status)
    waiting = None
    question = flows.board_actions(session.id, next_hand=game.seen_flow)
    if session.pending is not None:
        note = game.pending_note(session.pending.entry, session.roster, rules)
        if note:
            lines.append(f"{t(game.hand_word).capitalize()} {session.hand_count + 1} {note}.")
        waiting = waiting_names(game, session)
        if waiting and game.waiting_input:
            question = flows.needed_input(session.id, session.hand_count + 1,
                                          game.waiting_input, game.hand_word, waiting,
                                          prompt_now=wait_began)
    view = board_view(game.key, columns, hands, session.totals, rules, session.hand_count,
                      waiting, places)
    return Reply("\n".join(lines), table=table, board=view, question=question)
