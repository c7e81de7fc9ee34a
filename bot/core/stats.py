"""/stats: per player across every session and game of a chat, and the chat's leaderboard.

A player is followed by their platform account; a guest by name, unless /link joined the
name to an account."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from bot.core import points as pts
from bot.core.games import get_game
from bot.core.money import format_money, money_shown
from bot.core.session import HandRecord, SessionState


@dataclass
class PlayerStats:
    key: str
    name: str
    sessions: set[int] = field(default_factory=set)
    hands: int = 0
    wins: int = 0
    maal: list[int] = field(default_factory=list)
    # Points as people read them: a game's deltas are in units of 10^-point_places (Call
    # Break keeps tenths), so they are summed as values, never as raw units.
    points: Decimal = Decimal(0)
    places: int = 0  # the most decimals of any game counted, for showing the sums
    money: Decimal = Decimal(0)
    nights: dict[int, Decimal] = field(default_factory=dict)  # session -> points that night
    dates: dict[int, datetime] = field(default_factory=dict)
    with_money: bool = False  # played for money (a rate or currency) at least once

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    def best_and_worst(self) -> tuple[tuple[int, Decimal], tuple[int, Decimal]] | None:
        if not self.nights:
            return None
        ordered = sorted(self.nights.items(), key=lambda kv: kv[1])
        return ordered[-1], ordered[0]


def identity(user_id: str | None, name: str,
             links: Mapping[str, Mapping[str, str]]) -> tuple[str, str]:
    """(key, display name): the account if there is one, a linked account, or the name."""
    link = links.get(name.lower())
    if user_id:
        return user_id, name
    if link:
        return link["id"], link["name"]
    return f"name:{name.lower()}", name


def _signed(points: Decimal, places: int) -> str:
    """+41 for whole-point games as before; +3.2 where a game keeps decimals."""
    return f"{points:+,.{places}f}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def compute(played: Iterable[tuple[SessionState, list[HandRecord]]],
            links: Mapping[str, Mapping[str, str]],
            since: datetime | None) -> dict[str, PlayerStats]:
    stats: dict[str, PlayerStats] = {}
    for session, hands in played:
        game = get_game(session.game)
        if not game.player_columns:
            continue  # Tranca scores sides, not players
        rules = game.rulebook.complete(session.rules)
        rate = Decimal(str(rules.get("rate", "1")))
        paid = money_shown(rules)
        seats = {p.seat: p for p in session.players}
        for hand in hands:
            if since is not None and hand.created_at is not None and hand.created_at < since:
                continue
            winners = set(game.winners(hand))
            maal = hand.inputs.get("maal") if isinstance(hand.inputs.get("maal"), dict) else {}
            for seat in hand.players:
                player = seats.get(seat)
                if player is None:
                    continue
                key, name = identity(player.user_id, player.name, links)
                row = stats.setdefault(key, PlayerStats(key, name))
                row.name = name
                row.sessions.add(session.id or 0)
                row.hands += 1
                row.wins += seat in winners
                if str(seat) in maal:
                    row.maal.append(int(maal[str(seat)]))
                points = pts.value(hand.deltas.get(seat, 0), game.point_places)
                row.points += points
                row.places = max(row.places, game.point_places)
                if paid:
                    row.money += points * rate
                    row.with_money = True
                row.nights[session.id or 0] = row.nights.get(session.id or 0, Decimal(0)) \
                    + points
                if session.created_at is not None:
                    row.dates[session.id or 0] = session.created_at
    return stats


def leaderboard(stats: Mapping[str, PlayerStats], currency: str) -> list[str]:
    ordered = sorted(stats.values(), key=lambda s: (-s.points, s.name.lower()))
    return [f"{i}. {s.name} {_signed(s.points, s.places)} ({_plural(s.hands, 'hand')}, "
            f"{_plural(s.wins, 'win')}"
            + (f", {format_money(s.money, currency)}" if s.with_money else "") + ")"
            for i, s in enumerate(ordered, 1)]


def describe(row: PlayerStats, currency: str, when: str) -> list[str]:
    lines = [f"{row.name} ({when}): {_plural(len(row.sessions), 'session')}, "
             f"{_plural(row.hands, 'hand')}, {_plural(row.wins, 'win')} "
             f"({row.win_rate:.0%})"]
    if row.maal:
        lines.append(f"average maal {sum(row.maal) / len(row.maal):.1f}")
    money = f" ({format_money(row.money, currency)} where played for money)" \
        if row.with_money else ""
    lines.append(f"net {_signed(row.points, row.places)} points{money}")
    extremes = row.best_and_worst()
    if extremes:
        (best, best_points), (worst, worst_points) = extremes
        def day(session: int) -> str:
            return row.dates[session].strftime("%d %b %Y") if session in row.dates else "?"
        lines.append(f"best night {day(best)} {_signed(best_points, row.places)}; worst night "
                     f"{day(worst)} {_signed(worst_points, row.places)}")
    return lines
