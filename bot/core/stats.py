"""/stats: per player across every session of a chat, game by game, never adding the
points of different games together.

A player is followed by their platform account; a guest by name, unless /link joined the
name to an account. A game's points are the sum of its hands; a finished game also gives
each player a place and a final result (Riichi's uma and oka), and Tranca credits a side's
points and wins to each of its players."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal

from babel.numbers import format_percent

from bot.core import points as pts
from bot.core import rates
from bot.core.games import get_game
from bot.core.games.base import Game
from bot.core.i18n import Tr
from bot.core.i18n.words import count
from bot.core.money import (
    against_average,
    format_money,
    hand_money,
    money_places,
    money_shown,
)
from bot.core.session import ENDED, HandRecord, SessionState


@dataclass
class PlayerStats:
    """One person in one game."""

    key: str
    name: str
    sessions: set[int] = field(default_factory=set)
    hands: int = 0
    wins: int = 0  # hands won (for Tranca, whose rounds nobody wins, unused)
    maal: list[int] = field(default_factory=list)
    # Points as people read them: a game's deltas are in units of 10^-point_places (Call
    # Break keeps tenths), so they are summed as values, never as raw units.
    points: Decimal = Decimal(0)
    money: dict[str, Decimal] = field(default_factory=dict)  # currency -> amount
    nights: dict[int, Decimal] = field(default_factory=dict)  # session -> points that night
    dates: dict[int, datetime] = field(default_factory=dict)
    best_hand: Decimal | None = None
    # finished games
    places: Counter[int] = field(default_factory=Counter)
    results: Decimal = Decimal(0)  # the sum of final results (Riichi: with uma and oka)
    games_won: int = 0
    busts: int = 0
    sides: Counter[str] = field(default_factory=Counter)  # Tranca: who they played with
    # points (and hands) per (rate, currency) played for money: where money and points
    # rank people differently, this says why
    by_rate: dict[tuple[str, str], tuple[Decimal, int]] = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return sum(self.places.values())

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def average_place(self) -> float:
        return sum(p * n for p, n in self.places.items()) / self.finished

    def best_and_worst(self) -> tuple[tuple[int, Decimal], tuple[int, Decimal]] | None:
        if not self.nights:
            return None
        ordered = sorted(self.nights.items(), key=lambda kv: kv[1])
        return ordered[-1], ordered[0]


class Table(dict[str, dict[str, PlayerStats]]):
    """A game's stats key (the game, and the name a table gave it: Game.stats_key) ->
    person key -> their stats in it; `games` holds the game each key is, as played."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.games: dict[str, Game] = {}

    def game(self, key: str) -> Game:
        return self.games.get(key) or get_game(key)


def handle_accounts(sessions: Iterable[SessionState]) -> dict[str, str]:
    """Who a guest seat is by account: "@alice" -> the account that sat down here with the
    username alice (an account's seat keeps its username), and "name:alice" -> that account
    too where a seat typed as @alice went by the name alice (so everything played under that
    name stays one person, now the account). A username or name two accounts have had
    joins neither; seats from before accounts kept their username join nothing."""
    sessions = list(sessions)
    found: dict[str, str | None] = {}

    def note(key: str, account: str) -> None:
        if found.setdefault(key, account) != account:
            found[key] = None

    for session in sessions:
        for player in session.players:
            if player.user_id and player.handle:
                note("@" + player.handle.lower(), player.user_id)
    by_handle = {key: account for key, account in found.items() if account}
    for session in sessions:
        for player in session.players:
            if not player.user_id and player.handle:
                account = by_handle.get("@" + player.handle.lower())
                if account:
                    note(f"name:{player.name.lower()}", account)
    return {key: account for key, account in found.items() if account}


def identity(user_id: str | None, name: str, links: Mapping[str, Mapping[str, str]],
             handle: str | None = None,
             accounts: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(key, display name): the account if there is one, the account whose @username a
    seat was typed as (`accounts`: handle_accounts), a linked account, the account a guest
    name went to by its @username seat, or the name."""
    accounts = accounts or {}
    if user_id:
        return user_id, name
    account = accounts.get("@" + handle.lower()) if handle else None
    if account:
        return account, name
    link = links.get(name.lower())
    if link:
        return link["id"], link["name"]
    key = f"name:{name.lower()}"
    return accounts.get(key, key), name


def compute(played: Iterable[tuple[SessionState, list[HandRecord]]],
            links: Mapping[str, Mapping[str, str]],
            since: datetime | None, accounts: Mapping[str, str] | None = None) -> Table:
    """`accounts`: handle_accounts of the chat's sessions (by default those played)."""
    played = list(played)
    if accounts is None:
        accounts = handle_accounts(session for session, _ in played)
    table = Table()
    for session, hands in played:
        game = get_game(session.game).for_session(session.rules, session.game_state)
        hands = [h for h in hands if since is None or h.created_at is None
                 or h.created_at >= since]
        if not hands:
            continue
        table.games.setdefault(game.stats_key, game)
        _add_session(table.setdefault(game.stats_key, {}), game, session, hands, links,
                     accounts)
    kept = Table({key: rows for key, rows in table.items() if rows})
    kept.games = {key: table.games[key] for key in kept}
    return kept


def _add_session(rows: dict[str, PlayerStats], game: Game, session: SessionState,
                 hands: list[HandRecord], links: Mapping[str, Mapping[str, str]],
                 accounts: Mapping[str, str]) -> None:
    seats = {p.seat: p for p in session.players}
    members = game.column_players(session.roster, session.game_state)
    night = session.id or 0

    def row_of(seat: int) -> PlayerStats:
        player = seats[seat]
        key, name = identity(player.user_id, player.name, links, player.handle, accounts)
        row = rows.setdefault(key, PlayerStats(key, name))
        row.name = name
        row.sessions.add(night)
        if session.created_at is not None:
            row.dates[night] = session.created_at
        return row

    for hand in hands:
        winners = set(game.winners(hand))
        maal = hand.inputs.get("maal") if isinstance(hand.inputs.get("maal"), dict) else {}
        money = None if game.money_at_end else hand_money(hand.deltas, hand.rules,
                                                          game.point_places)
        if money is not None and game.money_against_average:  # Call Break: hand by hand
            money = money[0], against_average(money[1], hand.deltas, game.money_sign)
        rate = rates.rate_of(hand.rules) if money is not None else None
        for column, delta in hand.deltas.items():
            points = pts.value(delta, game.point_places)
            for seat in members.get(column, []):
                if seat not in seats or (game.player_columns and seat not in hand.players):
                    continue
                row = row_of(seat)
                row.hands += 1
                row.wins += seat in winners
                if str(seat) in maal:
                    row.maal.append(int(maal[str(seat)]))
                row.points += points
                row.best_hand = points if row.best_hand is None else max(row.best_hand,
                                                                         points)
                row.nights[night] = row.nights.get(night, Decimal(0)) + points
                if money is not None:
                    currency, amounts = money
                    row.money[currency] = row.money.get(currency, Decimal(0)) \
                        + amounts.get(column, Decimal(0))
                if rate is not None:
                    made, count = row.by_rate.get(rate, (Decimal(0), 0))
                    row.by_rate[rate] = (made + points, count + 1)
    if session.status != ENDED:
        return  # places and final results only for a game that is over
    names = {p.seat: p.name for p in session.players}
    rules = game.rulebook.complete(session.rules)
    placings = game.placings(session.totals, rules, session.game_state, session.roster)
    paid = game.money_at_end and money_shown(rules)  # Riichi: the results at the end's rate
    currency, rate = str(rules.get("currency") or ""), Decimal(str(rules.get("rate", "1")))
    for column, placing in placings.items():
        side = members.get(column, [])
        for seat in side:
            if seat not in seats:
                continue
            row = row_of(seat)
            row.places[placing.place] += 1
            row.results += placing.result
            row.games_won += placing.winner
            row.busts += placing.bust
            if paid:
                row.money[currency] = row.money.get(currency, Decimal(0)) \
                    + placing.result * rate
            partners = "+".join(names[s] for s in side if s != seat)
            if partners:
                row.sides[partners] += 1


# --- showing them: in the language of `tr` (the command's), numbers as it writes them ----


def counted(word: str, n: int, tr: Tr) -> str:
    """"3 hands", "1 round" (the game's word, words.count) with n written as `tr` writes
    numbers (1,234; 1.234)."""
    message = count(word, n)
    return tr.render(replace(message, values={**message.values, "n": tr.number(n)}))


def result(amount: Decimal, tr: Tr) -> str:
    """A final result (Riichi's, with uma and oka): always signed, one decimal (+0.0)."""
    return ("-" if amount < 0 else "+") + tr.number(abs(amount), 1)


def percent(share: float, tr: Tr) -> str:
    """50%, in `tr`'s way."""
    return format_percent(share, format="#,##0%", locale=tr.locale)


def ordinal(place: int, tr: Tr) -> str:
    """1st, 2nd, 3rd, 4th, as `tr`'s language writes a place (English rules pick which
    message; a language with one form translates all four the same)."""
    ending = {1: 1, 2: 2, 3: 3}.get(place if place < 20 else place % 10, 4)
    if ending == 1:
        # TRANSLATORS: a place in a game: 1st, 21st ({place} is the number)
        return tr("{place}st", place=place)
    if ending == 2:
        # TRANSLATORS: a place in a game: 2nd, 22nd
        return tr("{place}nd", place=place)
    if ending == 3:
        # TRANSLATORS: a place in a game: 3rd, 23rd
        return tr("{place}rd", place=place)
    # TRANSLATORS: a place in a game: 4th, 11th, 12th
    return tr("{place}th", place=place)


def _places(row: PlayerStats, tr: Tr) -> str:
    """"average place 1.50, 1st 1 · 2nd 1"."""
    spread = " · ".join(f"{ordinal(p, tr)} {tr.number(n)}"
                        for p, n in sorted(row.places.items()))
    return tr("average place {average}, {spread}",
              average=tr.number(row.average_place, 2), spread=spread)


def _money(row: PlayerStats, tr: Tr, places: Mapping[str, int] | None = None) -> list[str]:
    """Each currency's money, signed; `places`: one number of decimals for a whole table
    (else each amount's own)."""
    return [format_money(amount, currency, (places or {}).get(currency), signed=True, tr=tr)
            for currency, amount in sorted(row.money.items())]


def money_places_of(rows: Iterable[PlayerStats]) -> dict[str, int]:
    """One number of decimals per currency for a whole table."""
    amounts: dict[str, list[Decimal]] = {}
    for row in rows:
        for currency, amount in row.money.items():
            amounts.setdefault(currency, []).append(amount)
    return {currency: money_places(values) for currency, values in amounts.items()}


def _ranking(game: Game, rows: Iterable[PlayerStats]) -> list[PlayerStats]:
    if game.ranked_by == "results":
        ranked = [r for r in rows if r.finished]
        return sorted(ranked, key=lambda r: (-r.results, r.average_place, r.name.lower()))
    if game.ranked_by == "wins":  # then the better points: the fewer where lowest wins
        sign = 1 if game.lowest_wins else -1
        return sorted(rows, key=lambda r: (-r.games_won, sign * r.points, r.name.lower()))
    return sorted(rows, key=lambda r: (-r.points, r.name.lower()))


def games(n: int, tr: Tr) -> str:
    return tr.plural("{n} game", "{n} games", n)


def wins(n: int, tr: Tr) -> str:
    return tr.plural("{n} win", "{n} wins", n)


def _heading(game: Game, rows: Mapping[str, PlayerStats], tr: Tr) -> str:
    nights = set().union(*(r.sessions for r in rows.values()))
    return tr("{game} ({games}):", game=tr.text(game.title), games=games(len(nights), tr))


def leaderboard(table: Table, tr: Tr) -> list[str]:
    """A ranking per game, each by what that game is won by."""
    lines: list[str] = []
    for key, rows in table.items():
        game = table.game(key)
        ranked = _ranking(game, rows.values())
        if not ranked:
            continue
        lines.append(_heading(game, rows, tr))
        money = money_places_of(ranked)
        for i, row in enumerate(ranked, 1):
            lines.append(f"{tr.number(i)}. {row.name} {_standing(game, row, money, tr)}")
        note = _rank_note(game, ranked, tr)
        if note:
            lines.append(note)
    return lines


def _rank_note(game: Game, ranked: list[PlayerStats], tr: Tr) -> str | None:
    """Why money ranks these people differently from points (rates changed), where the
    game was played in one currency and by points (not Riichi's results, Tranca's wins)."""
    currencies = {c for row in ranked for c in row.money}
    if game.ranked_by != "points" or len(currencies) != 1:
        return None
    currency = next(iter(currencies))
    return rates.ranked_differently(
        [(row.name, row.points, row.money.get(currency, Decimal(0)),
          {rate: pts.show_value(made, game.point_places, tr=tr)
           for rate, (made, _count) in row.by_rate.items() if rate[1] == currency})
         for row in ranked], tr)


def _standing(game: Game, row: PlayerStats, money: Mapping[str, int], tr: Tr) -> str:
    places = game.point_places
    if game.ranked_by == "results":
        return tr("{result} ({games}, {details})", result=result(row.results, tr),
                  games=games(row.finished, tr),
                  details=", ".join([_places(row, tr), *_money(row, tr, money)]))
    if game.ranked_by == "wins":
        return tr("{wins} in {games} ({hands}, {points} points)",
                  wins=wins(row.games_won, tr), games=games(row.finished, tr),
                  hands=counted(game.hand_word, row.hands, tr),
                  points=pts.show_value(row.points, places, tr=tr))
    extra = [counted(game.hand_word, row.hands, tr), wins(row.wins, tr),
             *_money(row, tr, money)]
    return f"{pts.show_value(row.points, places, tr=tr)} ({', '.join(extra)})"


def describe(table: Table, key: str, when: str, tr: Tr) -> list[str]:
    """One person's stats in every game they played (`when`: the period, as shown)."""
    lines: list[str] = []
    for game_key, rows in table.items():
        row = rows.get(key)
        if row is None:
            continue
        game = table.game(game_key)
        if not lines:
            lines.append(f"{row.name} ({when}):")
        lines += _describe_game(game, row, tr)
    return lines


def _describe_game(game: Game, row: PlayerStats, tr: Tr) -> list[str]:
    places = game.point_places
    title, played = tr.text(game.title), games(len(row.sessions), tr)
    hands = counted(game.hand_word, row.hands, tr)
    if game.ranked_by != "wins":
        head = tr("{game}: {games}, {hands}, {wins} ({rate})", game=title, games=played,
                  hands=hands, wins=wins(row.wins, tr), rate=percent(row.win_rate, tr))
    else:
        head = tr("{game}: {games}, {hands}", game=title, games=played, hands=hands)
    lines = [head]
    if row.maal:
        lines.append("  " + tr("average maal {maal}", maal=tr.number(
            sum(row.maal) / len(row.maal), 1)))
    if game.ranked_by == "results":
        if row.finished:
            final, spread = result(row.results, tr), _places(row, tr)
            lines.append("  " + (tr("final results {result}, {places}, {busts}",
                                    result=final, places=spread,
                                    busts=tr.plural("{n} bust", "{n} busts", row.busts))
                                 if row.busts else
                                 tr("final results {result}, {places}", result=final,
                                    places=spread)))
        paid = ", ".join(_money(row, tr))
        if paid:
            lines.append("  " + tr("money {money} (the final results at each game's rate)",
                                   money=paid))
        if row.best_hand is not None and row.best_hand > 0:
            lines.append("  " + tr("best hand {points}",
                                   points=pts.show_value(row.best_hand, places, tr=tr)))
        return lines
    if game.ranked_by == "wins":
        finished = tr.plural("{n} finished game", "{n} finished games", row.finished)
        net = pts.show_value(row.points, places, tr=tr)
        lines.append("  " + (tr("{wins} in {games}; {points} points", wins=wins(
            row.games_won, tr), games=finished, points=net) if game.player_columns else
            tr("{wins} in {games}; {points} points for their sides",
               wins=wins(row.games_won, tr), games=finished, points=net)))
        if row.sides:
            lines.append("  " + tr("played with {partners}", partners=", ".join(
                f"{who} ({tr.number(n)})" for who, n in row.sides.most_common())))
        return lines
    money = ", ".join(_money(row, tr))
    net = pts.show_value(row.points, places, tr=tr)
    lines.append("  " + (tr("net {points} points ({money} where played for money)",
                            points=net, money=money) if money else
                         tr("net {points} points", points=net)))
    if len(row.by_rate) > 1:  # which hands were played at which rate
        lines.append("  " + tr("by rate: {parts}", parts=", ".join(
            tr("{points} at {rate} ({hands})",
               points=pts.show_value(made, places, tr=tr), rate=rates.show_rate(rate, tr),
               hands=counted(game.hand_word, n, tr))
            for rate, (made, n) in row.by_rate.items())))
    extremes = row.best_and_worst()
    if extremes and len(row.nights) > 1:
        (best, best_points), (worst, worst_points) = extremes

        def day(session: int) -> str:
            return tr.date(row.dates[session]) if session in row.dates else "?"
        lines.append("  " + tr("best game {best_day} {best}; worst game {worst_day} {worst}",
                               best_day=day(best), best=pts.show_value(best_points, places, tr=tr),
                               worst_day=day(worst),
                               worst=pts.show_value(worst_points, places, tr=tr)))
    return lines
