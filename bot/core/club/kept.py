"""A process's clubs' figures, kept between commands and brought up to date from the
database, which is the truth (several processes each keep their own). A club's figures are
built again from its first game whenever its epoch changed (a table joined or left,
accounts linked, a person forgotten, an import, a season) or a game arrives out of order;
else only the games added since are counted in. Figures built from what this transaction
wrote itself are kept only once it has committed."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.core.club.book import Club, ClubBook
from bot.core.club.figures import ClubFigures
from bot.core.club.summary import GameSummary, summarize
from bot.core.games import get_game
from bot.core.money import MoneyBook, book_add
from bot.core.session import ENDED
from bot.core.stats import handle_accounts

CLUBS_KEPT = 64  # clubs whose figures a process keeps


class ClubsKept:
    def __init__(self) -> None:
        self._kept: OrderedDict[int, ClubFigures] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    def drop(self, club_id: int) -> None:
        self._kept.pop(club_id, None)

    def fresh(self, club: Club) -> bool:
        """Whether the figures kept of `club` are of its epoch: brought up to date, they
        only read the games added since (a build from the first game may write the
        summaries of games that have none: `fill`)."""
        kept = self._kept.get(club.id)
        return kept is not None and kept.epoch == club.epoch

    def _keep(self, figures: ClubFigures) -> None:
        self._kept[figures.club_id] = figures
        self._kept.move_to_end(figures.club_id)
        while len(self._kept) > CLUBS_KEPT:
            self._kept.popitem(last=False)

    async def figures(self, book: ClubBook, club: Club) -> ClubFigures:
        """The club's figures as its committed games stand (and what this transaction
        summarised of games that had no summary yet)."""
        lock = self._locks.setdefault(club.id, asyncio.Lock())
        async with lock:
            kept = self._kept.get(club.id)
            if kept is not None and kept.epoch == club.epoch:
                new = await book.summaries(club.id, kept.cursor)
                if all(kept.in_order(s) and (i == 0 or new[i - 1][1].ended_at <= s.ended_at)
                       for i, (_row, s) in enumerate(new)):
                    for row, summary in new:
                        kept.add(row, summary)
                    self._kept.move_to_end(club.id)
                    return kept
            return await self._build(book, club)

    async def _build(self, book: ClubBook, club: Club) -> ClubFigures:
        wrote = await fill(book, club.id)
        figures = ClubFigures(club.id, club.epoch, await book.persons(),
                              await book.seasons(club.id))
        async for chunk in book.in_order(club.id):
            for row, summary in chunk:
                figures.add(row, summary)
        if wrote:
            book.after_commit(lambda: self._keep(figures))
        else:
            self._keep(figures)
        return figures

    def added(self, club_id: int, before: int, row: int, summary: GameSummary) -> None:
        """A game this process ended, committed: counted in where the kept figures are
        those it was previewed against."""
        kept = self._kept.get(club_id)
        if kept is not None and kept.cursor == before and kept.in_order(summary):
            kept.add(row, summary)


async def fill(book: ClubBook, club_id: int) -> int:
    """Summaries written for the club's finished games that have none (a table that
    joined with games played before, an import, games ended before clubs were kept).
    Returns how many."""
    missing = await book.unsummarised(club_id)
    written = 0
    for chat, wanted in missing.items():
        sessions, settings = await book.chat_games(chat)
        accounts = handle_accounts(sessions)
        for session in sessions:
            if session.id not in wanted or session.status != ENDED:
                continue
            hands = await book.hands_of(session.id)
            summary = summarize(session, hands, settings.links, accounts,
                                money_book(session, hands))
            if summary is not None and await book.add_summary(summary) is not None:
                written += 1
    return written


def money_book(session, hands) -> MoneyBook:  # type: ignore[no-untyped-def]
    """A session's money book: kept with it, or (a session from before it was kept) from
    its hands."""
    if session.money is not None:
        return session.money
    book: MoneyBook = {}
    places = get_game(session.game).point_places
    for hand in hands:
        book_add(book, hand.deltas, hand.rules, places)
    return book
