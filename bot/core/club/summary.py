"""A finished game as the club counts it (`GameSummary`): each seat's person (as its table
keys them, `bot/core/stats.py` identity), place, points, final result, hands won, best
hand and the money the game left owed, worked out once from the game and its hands by the
same code as /stats and the chat's ledger. Pure, and kept as JSON beside the game
(bot/storage/transaction/clubs.py): the club reads these, never the hands again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from bot.core import points as pts
from bot.core.games import get_game
from bot.core.i18n import translator
from bot.core.i18n.text import Text, encode
from bot.core.ledger import by_person, owed_by_column
from bot.core.money import MoneyBook
from bot.core.session import ENDED, HandRecord, SessionState
from bot.core.stats import PlayerStats, _add_session, identity
from bot.core.summaries import shown


@dataclass(slots=True)  # not frozen: a club reads tens of thousands at a time
class SeatResult:
    """One person in one finished game."""

    key: str  # as their table keys them: an account ("telegram:12"), or "name:<guest>"
    name: str
    side: int  # the board column they scored in (Tranca: their side): a team when rated
    place: int  # 1 is first; tied totals share the better place
    points: Decimal  # the sum of their hands, as people read points
    result: Decimal  # the final result /stats adds up (Riichi: with uma and oka)
    won: bool  # won the game (first place; Tranca: their side won the race)
    hands: int
    hand_wins: int
    best: Decimal | None  # their biggest hand won, as the game measures a hand
    best_label: str  # that hand as the game names it (stored text: "yakuman x1"), or ""
    money: Mapping[str, Decimal]  # currency -> what the game left them owed (+), owing (-)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "name": self.name, "side": self.side,
                                "place": self.place, "points": str(self.points),
                                "result": str(self.result), "won": self.won,
                                "hands": self.hands, "hand_wins": self.hand_wins}
        if self.best is not None:
            data["best"] = str(self.best)
        if self.best_label:
            data["best_label"] = self.best_label
        if self.money:
            data["money"] = {c: str(a) for c, a in self.money.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatResult:
        best = data.get("best")
        return cls(str(data["key"]), str(data["name"]), int(data["side"]), int(data["place"]),
                   Decimal(data["points"]), Decimal(data["result"]), bool(data["won"]),
                   int(data["hands"]), int(data["hand_wins"]),
                   Decimal(best) if best is not None else None,
                   str(data.get("best_label") or ""),
                   {str(c): Decimal(a) for c, a in (data.get("money") or {}).items()})


@dataclass(slots=True)
class GameSummary:
    """A finished game of a table, as every club figure reads it."""

    session_id: int
    chat: str
    game: str  # what /stats keeps it under (Game.stats_key: a points game by its name)
    title: str  # the game as the table played it ("Nepali Marriage", "Uno"), a msgid
    ranked_by: str  # "points", "results" (Riichi) or "wins" (Tranca): Game.ranked_by
    lowest_wins: bool
    point_places: int
    ended_at: datetime
    seats: tuple[SeatResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {"session": self.session_id, "chat": self.chat, "game": self.game,
                "title": self.title, "ranked_by": self.ranked_by,
                "lowest_wins": self.lowest_wins, "point_places": self.point_places,
                "ended_at": self.ended_at.isoformat(),
                "seats": [seat.to_json() for seat in self.seats]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSummary:
        ended = datetime.fromisoformat(str(data["ended_at"]))
        return cls(int(data["session"]), str(data["chat"]), str(data["game"]),
                   str(data["title"]), str(data["ranked_by"]), bool(data["lowest_wins"]),
                   int(data["point_places"]),
                   ended if ended.tzinfo else ended.replace(tzinfo=UTC),
                   tuple(SeatResult.from_json(s) for s in data["seats"]))


def summarize(session: SessionState, hands: Iterable[HandRecord],
              links: Mapping[str, Mapping[str, str]], accounts: Mapping[str, str],
              book: MoneyBook | None) -> GameSummary | None:
    """The club's view of a finished game (None for one not finished or with no hand).
    `links` and `accounts`: who the table's guests are (its /link's, and the accounts its
    @username seats went to: stats.handle_accounts over the chat's games); `book`: the
    game's money book (session.money, or derived from its hands)."""
    hands = list(hands)
    if session.status != ENDED or not hands or session.id is None:
        return None
    game = get_game(session.game).for_session(session.rules, session.game_state)
    rules = game.rulebook.complete(session.rules)
    rows: dict[str, PlayerStats] = {}
    _add_session(rows, game, session, hands, links, accounts)
    seats = {p.seat: p for p in session.players}
    key_of = {seat: identity(p.user_id, p.name, links, p.handle, accounts)[0]
              for seat, p in seats.items()}
    side_of = {seat: column for column, members in
               game.column_players(session.roster, session.game_state).items()
               for seat in members}
    placings = game.placings(session.totals, rules, session.game_state, session.roster)
    owed = owed_by_column(game, session, rules, book or {})
    money = by_person(game, session, owed, key_of) if owed is not None else {}
    best: dict[str, tuple[Decimal, Text]] = {}
    for hand in hands:
        def said(hand: HandRecord = hand) -> str:
            return translator("en").render(shown(game, session.roster, hand))

        for seat, size, label in game.hand_records(hand, session.roster, said):
            key = key_of.get(seat)
            if key is not None and (key not in best or size > best[key][0]):
                best[key] = (size, label)
    results = []
    for seat in sorted(seats):
        key = key_of[seat]
        row, side = rows.get(key), side_of.get(seat)
        if row is None or side is None or side not in placings:
            continue  # seated, never dealt in: no place to count
        placing = placings[side]
        size, label = best.get(key, (None, ""))
        results.append(SeatResult(
            key, row.name, side, placing.place, row.points, placing.result, placing.winner,
            row.hands, row.wins, size, encode(label) if label else "",
            {c: amounts[key] for c, amounts in sorted(money.items()) if key in amounts}))
    assert session.ended_at is not None
    return GameSummary(session.id, session.chat, game.stats_key, game.title, game.ranked_by,
                       game.lowest_wins, game.point_places, session.ended_at, tuple(results))


def points_of(summary: GameSummary, seat: SeatResult) -> str:
    """A seat's points as the game writes them (no sign for zero)."""
    return pts.show_value(seat.points, summary.point_places)
