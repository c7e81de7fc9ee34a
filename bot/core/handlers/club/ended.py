"""A game ended at a club table: counted in the club (its summary kept, in the order games
end: one club's ends take turns) and each member's new rating said under /endgame."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.club.book import Club
from bot.core.club.figures import ClubFigures, member_of
from bot.core.club.kept import money_book
from bot.core.club.summary import summarize
from bot.core.command import Reply
from bot.core.handlers.call import Call
from bot.core.handlers.club import tournaments
from bot.core.handlers.club.common import book, kept
from bot.core.session import SessionState
from bot.core.stats import handle_accounts


@dataclass
class Counting:
    """A club's figures as they stood before the game ends (its committed games)."""

    club: Club
    figures: ClubFigures


async def before_end(call: Call) -> Counting | None:
    """Before the game is saved as ended: the club's turn taken and its figures read (a
    game saved first would be read as one of them). None: the chat is in no club."""
    clubs = book(call)
    club = await clubs.club_of(call.command.chat)
    if club is None:
        return None
    await clubs.lock(club.id)  # the club's games are counted in the order they end
    return Counting(club, await kept(call).figures(clubs, club))


async def club_lines(call: Call, counting: Counting | None, session: SessionState
                     ) -> tuple[list[str], list[tuple[str, Reply]]]:
    """The game counted in its club and its tournaments, the club's lines for /endgame
    (none where the chat is in no club, or nothing moved), and what it posts to the club's
    other tables (a tournament's round closed: its standings)."""
    if counting is None or session.id is None:
        return [], []
    clubs, club, figures = book(call), counting.club, counting.figures
    hands = await call.tx.all_hands(session.id)
    # who an @username seat is: only a seat typed so needs the chat's other games read
    typed = any(p.handle and not p.user_id for p in session.players)
    accounts = handle_accounts(await call.tx.chat_sessions()) if typed else {}
    summary = summarize(session, hands, call.settings.links, accounts,
                        money_book(session, hands))
    if summary is None:
        return [], []
    moves = figures.preview(summary)
    before = figures.cursor
    row = await clubs.add_summary(summary)
    if row is not None:
        cache = kept(call)
        clubs.after_commit(lambda: cache.added(club.id, before, row, summary))
    ended = await tournaments.game_ended(call, club, figures, session, summary)
    if not moves:
        return ended.lines, ended.posts
    tr = call.tr
    names = {member_of(seat.key, summary.chat, figures.persons): seat.name
             for seat in summary.seats}
    shown = ", ".join(
        tr("{name} {rating} ({change})", name=names.get(m.member, m.member),
           rating=tr.number(round(m.shown_after, 1), 1),
           change=("+" if m.shown_after >= m.shown_before else "-")
           + tr.number(round(abs(m.shown_after - m.shown_before), 1), 1))
        for m in moves)
    return [tr("{club} ratings: {ratings}.", club=club.name, ratings=shown),
            *ended.lines], ended.posts
