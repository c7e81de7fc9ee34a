"""/board, and the board every change answers with."""

from __future__ import annotations

from decimal import Decimal

from bot.core import flows
from bot.core.board import board_view, render_table
from bot.core.command import Reply
from bot.core.games.base import Game
from bot.core.handlers import pages
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import Msg, Tr
from bot.core.i18n.words import count, numbered, placeholders
from bot.core.money import MoneyBook, book_add, money_of_book
from bot.core.session import DROPPED, OPEN, SessionState


async def board(call: Call) -> Outcome:
    return Outcome(await board_reply(call, await call.chosen_session(), ""))


async def money_of(call: Call, session: SessionState) -> dict[str, dict[int, Decimal]]:
    """The session's money per currency, hand by hand at each hand's rate (Call Break's:
    each score less the table's average). A session from before this was kept gets it from
    its hands, once (saved with its next change)."""
    game = call.game_of(session)
    if session.money is None:
        assert session.id is not None
        book: MoneyBook = {}
        for hand in await call.tx.all_hands(session.id):
            book_add(book, hand.deltas, hand.rules, game.point_places)
        session.money = book
    return money_of_book(session.money, average_columns(game, session), game.money_sign)


def average_columns(game: Game, session: SessionState) -> list[int] | None:
    """The columns whose average a game's money is taken against, or None."""
    if not game.money_against_average:
        return None
    return [key for key, _label in game.columns(session.roster, session.game_state)]


def waiting_names(game: Game, session: SessionState) -> list[str]:
    assert session.pending is not None
    rules = game.rulebook.complete(session.rules)
    return [session.roster.by_seat(s).name
            for s in game.waiting_for(session.pending.entry, rules)]


async def _kept_in(call: Call, session: SessionState) -> str:
    """Where every hand of an ended game is read: /history and its number in the chat."""
    games = await call.tx.chat_sessions()
    number = next((i for i, past in enumerate(games, 1) if past.id == session.id), None)
    return f"/history {number}" if number is not None else "/history last"


async def board_reply(call: Call, session: SessionState, head: str, *,
                      wait_began: bool = False) -> Reply:
    """The board with `head` above it (the default: the game and its hand count), and the
    question that goes with it: what a waiting hand needs, or the next hand and undo."""
    game = call.game_of(session)
    assert session.id is not None
    hands = await call.tx.last_hands(session.id, call.board_rows)
    rules = game.rulebook.complete(session.rules)
    columns = game.columns(session.roster, session.game_state)
    places = game.point_places
    money = {} if game.money_at_end else await money_of(call, session)
    tr = call.tr
    ended = session.status != OPEN
    # closed with no hand recorded: not kept, so no table of it (its live board says so)
    dropped = session.status == DROPPED
    kept_in = await _kept_in(call, session) if ended and session.hand_count > len(hands) \
        else ""
    table = None if dropped else render_table(columns, hands, session.totals, money,
                                              session.hand_count, places, tr=tr,
                                              kept_in=kept_in)
    heading = {"game": Msg(game.title), "count": count(game.hand_word, session.hand_count)}
    lines = [head] if head else [
        dropped_line(tr, game) if dropped else
        tr("{game}: {count} (finished)", **heading) if ended else
        tr("{game}: {count}", **heading)]
    status = None if dropped else game.status(session.totals, rules, session.game_state,
                                              session.roster, ended=ended)
    if status:
        lines.append(call.tr.render(status))
    waiting = None
    question = None if ended else flows.board_actions(tr, session.id,
                                                      next_hand=game.seen_flow)
    if session.pending is not None:
        note = tr.render(game.pending_note(session.pending.entry, session.roster, rules))
        if note:
            lines.append(waiting_line(tr, game, session, note))
        waiting = waiting_names(game, session)
        if waiting and game.waiting_input:
            question = flows.needed_input(tr, session.id, session.hand_count + 1,
                                          game.waiting_input, game.hand_word, waiting,
                                          prompt_now=wait_began)
    view = board_view(game.key, columns, hands, session.totals, rules, session.hand_count,
                      money, waiting, places)
    view.ended = ended
    view.session = session.id
    if game.money_at_end:  # paid on the final results, nothing hand by hand
        view.money, view.moneys = {}, {}
    reply = Reply("\n".join(lines), table=table, board=view, question=question,
                  brief=head or None, language=tr.language)
    if not ended:
        reply.pad = pages.pad_token(call)
    return reply


def dropped_line(tr: Tr, game: Game) -> str:
    """A game ended with no hand recorded, closed without being kept: what /endgame says,
    and its live board then."""
    return tr("{game} closed: no {hand} was recorded, so nothing was kept or settled.",
              game=Msg(game.title), **placeholders(game.hand_word))


def waiting_line(tr: Tr, game: Game, session: SessionState, note: str) -> str:
    """"Hand 4 waiting for maal from bob (...)": the waiting hand, and the game's note on
    it (already in the language of `call`)."""
    # TRANSLATORS: {entry} is "Hand 4" (Round 4 ...), {note} the game's words on what the
    # hand waits for ("waiting for maal from bob")
    return tr("{entry} {note}.", entry=numbered(game.hand_word, session.hand_count + 1),
              note=note)
