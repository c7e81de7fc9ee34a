"""A backup or export checked whole before it touches anything: its shape, its games and
players, every hand's numbers, and the totals against the hands. An import that would leave a
chat unusable is refused with what is wrong, and nothing is written."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from bot.core.errors import UserError
from bot.core.games import GAMES
from bot.core.ledger import MAX_AMOUNT, amount_decimals
from bot.core.money import hand_money, money_places
from bot.core.players import Player, check_name
from bot.core.seasons import season_key, season_name
from bot.core.session import ENDED, OPEN
from bot.storage.tables import hands, payments, seasons, sessions

FORMAT = "maalbot-backup"
# 2: marriage_rummy points are tenths (migration 7); 1 is scaled on restore. 3: the chat's
# ledger (its payments) may come along; 1 and 2 have none and read as before.
VERSION = 3
READS = (1, 2, 3)
SESSION_KEYS = {c.name for c in sessions.columns} | {"hands"}
HAND_KEYS = {c.name for c in hands.columns}
PLAYER_KEYS = set(Player.__dataclass_fields__)
PAYMENT_KEYS = {c.name for c in payments.columns} - {"chat"}
# what /export adds for people to read (the balances): recomputed, never imported
SEASON_KEYS = {c.name for c in seasons.columns} - {"chat"}
TOP_KEYS = {"format", "version", "chat", "sessions", "payments", "seasons", "balances"}
MAX_SEASONS = 10_000
MAX_PAYMENTS = 1_000_000
MAX_SESSIONS, MAX_HANDS = 10_000, 1_000_000


class RestoreError(ValueError):
    """A backup that can't be restored here (a ValueError, so the core can report it)."""


def check_backup(data: Any) -> None:
    """Raise RestoreError naming the first thing wrong, or return when all of it is sound."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT \
            or data.get("version") not in READS:
        raise RestoreError(f"this is not a Maalbot export (format {FORMAT}, version "
                           f"{' or '.join(map(str, READS))})")
    found = data.get("sessions")
    if not isinstance(found, list) or len(found) > MAX_SESSIONS:
        raise RestoreError("`sessions` must be a list of at most "
                           f"{MAX_SESSIONS:,} sessions")
    open_sessions = 0
    hand_total = 0
    for i, session in enumerate(found, 1):
        where = f"session {i}"
        _check_session(session, where)
        open_sessions += session["status"] == OPEN
        hand_total += len(session["hands"])
        if hand_total > MAX_HANDS:
            raise RestoreError(f"more than {MAX_HANDS:,} hands in all")
    if open_sessions > 1:
        raise RestoreError("more than one open game: a chat has one at a time")
    _only(data, TOP_KEYS, "the file")
    paid = data.get("payments")
    if paid is not None:
        if not isinstance(paid, list) or len(paid) > MAX_PAYMENTS:
            raise RestoreError(f"`payments` must be a list of at most {MAX_PAYMENTS:,}")
        people, money = _people(found), _money_places(found)
        for i, payment in enumerate(paid, 1):
            _check_payment(payment, f"payment {i}", people, money)
    held = data.get("seasons")
    if held is not None:
        if not isinstance(held, list) or len(held) > MAX_SEASONS:
            raise RestoreError(f"`seasons` must be a list of at most {MAX_SEASONS:,}")
        for i, season in enumerate(held, 1):
            _check_season(season, f"season {i}")
        _check_seasons(held)


def _people(sessions: list[Mapping[str, Any]]) -> set[str]:
    """Every person the file's games seat, keyed as the ledger keys them before links: an
    account by its id, a guest by `name:` and the name."""
    found: set[str] = set()
    for session in sessions:
        for player in session["players"]:
            found.add(player.get("user_id") or f"name:{player['name'].lower()}")
    return found


def _money_places(sessions: list[Mapping[str, Any]]) -> dict[str, int]:
    """currency -> the decimals a payment in it may have, as /paid allows: cents, or finer
    where the file's hands made finer amounts. Every currency the games were played for."""
    places: dict[str, int] = {}
    for session in sessions:
        game = GAMES[session["game"]]
        rules = game.rulebook.complete(session["rules"])
        try:
            if rules.get("currency") or Decimal(str(rules.get("rate", "1"))) != 1:
                places.setdefault(str(rules.get("currency") or ""), 2)
            for hand in session["hands"]:
                money = hand_money(_numbers(hand["deltas"], "a hand"), hand["rules"],
                                   game.point_places) \
                    if isinstance(hand["rules"], Mapping) else None
                if money is not None:
                    currency, amounts = money
                    places[currency] = max(places.get(currency, 2),
                                           money_places(amounts.values()))
        except (InvalidOperation, TypeError, ValueError):
            raise RestoreError(f"session {session['id']}: a rate is not a number") from None
    return places


def _check_seasons(held: list[Mapping[str, Any]]) -> None:
    """One after another: each ends after it starts and before the next starts, only the
    last may be open, and no two share a name."""
    names: set[str] = set()
    previous_end: datetime | None = None
    for i, season in enumerate(held, 1):
        where = f"season {i} ({season['name']})"
        key = season_key(season["name"])
        if key in names:
            raise RestoreError(f"{where}: two seasons share the name")
        names.add(key)
        started = _moment(season["started_at"])
        ended = _moment(season.get("ended_at"))
        if ended is None and i != len(held):
            raise RestoreError(f"{where} is open but not the last: only the last season "
                               "may be open")
        if ended is not None and ended < started:
            raise RestoreError(f"{where} ends before it starts")
        if previous_end is not None and started < previous_end:
            raise RestoreError(f"{where} starts before the season before it ends")
        previous_end = ended


def _check_season(season: Any, where: str) -> None:
    if not isinstance(season, Mapping):
        raise RestoreError(f"{where} is not an object")
    _only(season, SEASON_KEYS, where)
    for key in ("name", "started_by", "started_by_name"):
        if key not in season:
            raise RestoreError(f"{where} has no `{key}`")
        _kind(season, key, str, where)
    try:
        name = season_name(season["name"])
    except UserError as error:
        raise RestoreError(f"{where}: {error.message}") from None
    if name != season["name"]:
        raise RestoreError(f"{where}: the name `{name}` is not in its plain form (one "
                           "space between words, NFKC)")
    _date(season.get("started_at"), f"{where}: started_at")
    _date(season.get("ended_at"), f"{where}: ended_at", optional=True)


def _check_payment(payment: Any, where: str, people: set[str],
                   places: Mapping[str, int]) -> None:
    if not isinstance(payment, Mapping):
        raise RestoreError(f"{where} is not an object")
    _only(payment, PAYMENT_KEYS, where)
    for key in ("payer", "payer_name", "payee", "payee_name", "amount", "currency",
                "recorded_by", "recorded_by_name"):
        if key not in payment:
            raise RestoreError(f"{where} has no `{key}`")
        _kind(payment, key, str, where)
    currency = payment["currency"]
    if currency not in places:
        played = ", ".join(f"`{c}`" for c in sorted(places)) or "no currency"
        raise RestoreError(f"{where}: the games were played for {played}, not "
                           f"`{currency[:10]}`")
    try:
        amount = Decimal(payment["amount"])
    except InvalidOperation:
        raise RestoreError(f"{where}: the amount is not a number") from None
    if not amount.is_finite() or amount <= 0:
        raise RestoreError(f"{where}: the amount must be more than 0")
    if amount > MAX_AMOUNT:
        raise RestoreError(f"{where}: the amount is more than {MAX_AMOUNT:,}")
    decimals = amount_decimals(amount)
    if decimals > places[currency]:
        raise RestoreError(f"{where}: the amount has {decimals} decimals; at most "
                           f"{places[currency]} in `{currency}`")
    for role in ("payer", "payee"):
        if payment[role] not in people:
            raise RestoreError(f"{where}: the {role} `{payment[role][:40]}` sits at none "
                               "of the file's games")
        name = payment[f"{role}_name"]
        if not name or name != unicodedata.normalize("NFKC", name.strip()) \
                or len(name) > 100:
            raise RestoreError(f"{where}: the {role}'s name `{name[:40]}` is empty or not "
                               "in its plain form")
    if payment["payer"] == payment["payee"]:
        raise RestoreError(f"{where}: the payer and the payee are the same person")
    _date(payment.get("created_at"), f"{where}: created_at")
    _date(payment.get("voided_at"), f"{where}: voided_at", optional=True)


def _check_session(session: Any, where: str) -> None:
    if not isinstance(session, Mapping):
        raise RestoreError(f"{where} is not an object")
    _only(session, SESSION_KEYS, where)
    for key in ("id", "game", "status", "players", "rules", "totals", "hand_count",
                "created_by", "created_at", "hands"):
        if key not in session:
            raise RestoreError(f"{where} has no `{key}`")
    game = GAMES.get(session["game"]) if isinstance(session["game"], str) else None
    if game is None:
        raise RestoreError(f"{where}: unknown game `{str(session['game'])[:30]}`; games: "
                           + ", ".join(GAMES))
    where = f"{where} ({game.title})"
    _kind(session, "id", int, where)
    _kind(session, "hand_count", int, where)
    _kind(session, "rules", Mapping, where)
    _kind(session, "totals", Mapping, where)
    _kind(session, "hands", list, where)
    _kind(session, "created_by", str, where)
    _date(session.get("created_at"), f"{where}: created_at")
    _date(session.get("ended_at"), f"{where}: ended_at", optional=True)
    if session["status"] not in (OPEN, ENDED):
        raise RestoreError(f"{where}: status is {OPEN} or {ENDED}")
    seats = _check_players(session["players"], where)
    # a game's board columns: its players' seats, or Tranca's sides (1, 2, 3)
    columns = seats if game.player_columns else {1, 2, 3}
    totals = _numbers(session["totals"], f"{where}: totals")
    if not set(totals) <= columns:
        raise RestoreError(f"{where}: totals for a column that is not at the table")
    live: dict[int, dict[int, int]] = {}
    for j, hand in enumerate(session["hands"], 1):
        no, deltas = _check_hand(hand, f"{where}, hand entry {j}", columns, game.zero_sum)
        if hand.get("voided_at") is None:
            if no in live:
                raise RestoreError(f"{where}: hand {no} is live twice")
            live[no] = deltas
    if sorted(live) != list(range(1, len(live) + 1)) or len(live) != session["hand_count"]:
        raise RestoreError(f"{where}: the live hands are not numbered 1 to hand_count "
                           f"({session['hand_count']})")
    sums: dict[int, int] = {}
    for deltas in live.values():
        for column, points in deltas.items():
            sums[column] = sums.get(column, 0) + points
    if any(sums.get(c, 0) != totals.get(c, 0) for c in set(sums) | set(totals)):
        raise RestoreError(f"{where}: the totals are not the sum of the hands")


def _check_players(players: Any, where: str) -> set[int]:
    if not isinstance(players, list) or not players:
        raise RestoreError(f"{where}: players must be a list")
    seats: set[int] = set()
    names: set[str] = set()
    for player in players:
        if not isinstance(player, Mapping):
            raise RestoreError(f"{where}: a player is not an object")
        _only(player, PLAYER_KEYS, f"{where}, a player")
        if not isinstance(player.get("seat"), int) or not isinstance(player.get("name"), str):
            raise RestoreError(f"{where}: a player needs a seat number and a name")
        try:
            name = check_name(player["name"])
        except UserError as error:
            raise RestoreError(f"{where}: {error.message}") from None
        if name != player["name"]:
            raise RestoreError(f"{where}: the name `{player['name'][:30]}` is not in its "
                               f"plain form ({name})")
        for key, kind in (("user_id", str), ("handle", str)):
            if player.get(key) is not None and not isinstance(player[key], kind):
                raise RestoreError(f"{where}: a player's `{key}` has the wrong type")
        if player["seat"] in seats or name.casefold() in names:
            raise RestoreError(f"{where}: two players share seat {player['seat']} or the "
                               f"name {name}")
        seats.add(player["seat"])
        names.add(name.casefold())
    return seats


def _check_hand(hand: Any, where: str, seats: set[int],
                zero_sum: bool) -> tuple[int, dict[int, int]]:
    if not isinstance(hand, Mapping):
        raise RestoreError(f"{where} is not an object")
    _only(hand, HAND_KEYS | {"session_id"}, where)
    for key in ("id", "no", "players", "inputs", "rules", "deltas", "summary",
                "recorded_by", "recorded_by_name", "created_at"):
        if key not in hand:
            raise RestoreError(f"{where} has no `{key}`")
    _kind(hand, "no", int, where)
    _kind(hand, "id", int, where)
    _date(hand.get("created_at"), f"{where}: created_at")
    _date(hand.get("voided_at"), f"{where}: voided_at", optional=True)
    deltas = _numbers(hand["deltas"], f"{where}: deltas")
    if not set(deltas) <= seats:
        raise RestoreError(f"{where}: points for a column that is not at the table")
    if zero_sum and sum(deltas.values()) != 0:
        raise RestoreError(f"{where}: the points don't add up to zero")
    return hand["no"], deltas


def _numbers(values: Any, where: str) -> dict[int, int]:
    if not isinstance(values, Mapping):
        raise RestoreError(f"{where} must map columns to points")
    out = {}
    for key, value in values.items():
        if not str(key).isdecimal() or isinstance(value, bool) or not isinstance(value, int):
            raise RestoreError(f"{where}: `{str(key)[:10]}` must be a column number with "
                               "whole points")
        out[int(key)] = value
    return out


def _only(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise RestoreError(f"{where} has an unknown key `{str(extra[0])[:30]}`")


def _kind(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
          where: str) -> None:
    if not isinstance(data[key], kind) or isinstance(data[key], bool):
        raise RestoreError(f"{where}: `{key}` has the wrong type")


def _moment(value: Any) -> datetime | None:
    """A checked date as a moment (a date with no zone read as UTC), or None."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _date(value: Any, where: str, optional: bool = False) -> None:
    if value is None and optional:
        return
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RestoreError(f"{where} is not a date") from None
