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
from bot.core.i18n import Msg, Text, _
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
    """A backup that can't be restored here (a ValueError, so the core can report it).
    `message` is lazy text: /import shows it in the language of the chat's answer."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.message = message


def check_backup(data: Any) -> None:
    """Raise RestoreError naming the first thing wrong, or return when all of it is sound."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT \
            or data.get("version") not in READS:
        raise RestoreError(_("this is not a Maalbot export (format {format}, version {versions})",
                             format=FORMAT, versions=", ".join(map(str, READS))))
    found = data.get("sessions")
    if not isinstance(found, list) or len(found) > MAX_SESSIONS:
        raise RestoreError(_("`sessions` must be a list of at most {n} sessions",
                             n=f"{MAX_SESSIONS:,}"))
    open_sessions = 0
    hand_total = 0
    for i, session in enumerate(found, 1):
        where = _("session {no}", no=i)
        _check_session(session, where)
        open_sessions += session["status"] == OPEN
        hand_total += len(session["hands"])
        if hand_total > MAX_HANDS:
            raise RestoreError(_("more than {n} hands in all", n=f"{MAX_HANDS:,}"))
    if open_sessions > 1:
        raise RestoreError(_("more than one open game: a chat has one at a time"))
    _only(data, TOP_KEYS, _("the file"))
    paid = data.get("payments")
    if paid is not None:
        if not isinstance(paid, list) or len(paid) > MAX_PAYMENTS:
            raise RestoreError(_("`payments` must be a list of at most {n}", n=f"{MAX_PAYMENTS:,}"))
        people, money = _people(found), _money_places(found)
        for i, payment in enumerate(paid, 1):
            _check_payment(payment, _("payment {no}", no=i), people, money)
    held = data.get("seasons")
    if held is not None:
        if not isinstance(held, list) or len(held) > MAX_SEASONS:
            raise RestoreError(_("`seasons` must be a list of at most {n}", n=f"{MAX_SEASONS:,}"))
        for i, season in enumerate(held, 1):
            _check_season(season, _("season {no}", no=i))
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
                money = hand_money(_numbers(hand["deltas"], _("a hand")), hand["rules"],
                                   game.point_places) \
                    if isinstance(hand["rules"], Mapping) else None
                if money is not None:
                    currency, amounts = money
                    places[currency] = max(places.get(currency, 2),
                                           money_places(amounts.values()))
        except (InvalidOperation, TypeError, ValueError):
            raise RestoreError(_("session {session}: a rate is not a number",
                                 session=session['id'])) from None
    return places


def _check_seasons(held: list[Mapping[str, Any]]) -> None:
    """One after another: each ends after it starts and before the next starts, only the
    last may be open, and no two share a name."""
    names: set[str] = set()
    previous_end: datetime | None = None
    for i, season in enumerate(held, 1):
        where = _("season {no} ({name})", no=i, name=season["name"])
        key = season_key(season["name"])
        if key in names:
            raise RestoreError(_("{where}: two seasons share the name", where=where))
        names.add(key)
        started = _moment(season["started_at"])
        ended = _moment(season.get("ended_at"))
        if ended is None and i != len(held):
            raise RestoreError(_("{where} is open but not the last: only the last season may be "
                                 "open", where=where))
        if ended is not None and ended < started:
            raise RestoreError(_("{where} ends before it starts", where=where))
        if previous_end is not None and started < previous_end:
            raise RestoreError(_("{where} starts before the season before it ends", where=where))
        previous_end = ended


def _check_season(season: Any, where: Text) -> None:
    if not isinstance(season, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(season, SEASON_KEYS, where)
    for key in ("name", "started_by", "started_by_name"):
        if key not in season:
            raise RestoreError(_("{where} has no `{key}`", where=where, key=key))
        _kind(season, key, str, where)
    try:
        name = season_name(season["name"])
    except UserError as error:
        raise RestoreError(_("{where}: {why}", where=where, why=error.message)) from None
    if name != season["name"]:
        raise RestoreError(_("{where}: the name `{name}` is not in its plain form (one space "
                             "between words, NFKC)", where=where, name=name))
    _date(season.get("started_at"), _field(where, "started_at"))
    _date(season.get("ended_at"), _field(where, "ended_at"), optional=True)


def _check_payment(payment: Any, where: Text, people: set[str],
                   places: Mapping[str, int]) -> None:
    if not isinstance(payment, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(payment, PAYMENT_KEYS, where)
    for key in ("payer", "payer_name", "payee", "payee_name", "amount", "currency",
                "recorded_by", "recorded_by_name"):
        if key not in payment:
            raise RestoreError(_("{where} has no `{key}`", where=where, key=key))
        _kind(payment, key, str, where)
    currency = payment["currency"]
    if currency not in places:
        played: Text = ", ".join(f"`{c}`" for c in sorted(places)) or _("no currency")
        raise RestoreError(_("{where}: the games were played for {played}, not `{currency}`",
                             where=where, played=played, currency=currency[:10]))
    try:
        amount = Decimal(payment["amount"])
    except InvalidOperation:
        raise RestoreError(_("{where}: the amount is not a number", where=where)) from None
    if not amount.is_finite() or amount <= 0:
        raise RestoreError(_("{where}: the amount must be more than 0", where=where))
    if amount > MAX_AMOUNT:
        raise RestoreError(_("{where}: the amount is more than {amount}", where=where,
                             amount=f"{MAX_AMOUNT:,}"))
    decimals = amount_decimals(amount)
    if decimals > places[currency]:
        raise RestoreError(_("{where}: the amount has {decimals} decimals; at most {places} in "
                             "`{currency}`", where=where, decimals=decimals,
                             places=places[currency], currency=currency))
    for role in ("payer", "payee"):
        if payment[role] not in people:
            raise RestoreError(_("{where}: the payer `{person}` sits at none of the file's "
                                 "games", where=where, person=payment[role][:40])
                               if role == "payer" else
                               _("{where}: the payee `{person}` sits at none of the file's "
                                 "games", where=where, person=payment[role][:40]))
        name = payment[f"{role}_name"]
        if not name or name != unicodedata.normalize("NFKC", name.strip()) \
                or len(name) > 100:
            raise RestoreError(_("{where}: the payer's name `{name}` is empty or not in its "
                                 "plain form", where=where, name=name[:40])
                               if role == "payer" else
                               _("{where}: the payee's name `{name}` is empty or not in its "
                                 "plain form", where=where, name=name[:40]))
    if payment["payer"] == payment["payee"]:
        raise RestoreError(_("{where}: the payer and the payee are the same person", where=where))
    _date(payment.get("created_at"), _field(where, "created_at"))
    _date(payment.get("voided_at"), _field(where, "voided_at"), optional=True)


def _check_session(session: Any, where: Text) -> None:
    if not isinstance(session, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(session, SESSION_KEYS, where)
    for key in ("id", "game", "status", "players", "rules", "totals", "hand_count",
                "created_by", "created_at", "hands"):
        if key not in session:
            raise RestoreError(_("{where} has no `{key}`", where=where, key=key))
    game = GAMES.get(session["game"]) if isinstance(session["game"], str) else None
    if game is None:
        raise RestoreError(_("{where}: unknown game `{game}`; games: {games}", where=where,
                             game=str(session["game"])[:30], games=", ".join(GAMES)))
    # the game's title is data text of its catalogue: a message, shown translated
    where = _("{where} ({game})", where=where, game=Msg(game.title))
    _kind(session, "id", int, where)
    _kind(session, "hand_count", int, where)
    _kind(session, "rules", Mapping, where)
    _kind(session, "totals", Mapping, where)
    _kind(session, "hands", list, where)
    _kind(session, "created_by", str, where)
    _date(session.get("created_at"), _field(where, "created_at"))
    _date(session.get("ended_at"), _field(where, "ended_at"), optional=True)
    if session["status"] not in (OPEN, ENDED):
        raise RestoreError(_("{where}: status is {open} or {ended}", where=where, open=OPEN,
                             ended=ENDED))
    seats = _check_players(session["players"], where)
    # a game's board columns: its players' seats, or Tranca's sides (1, 2, 3)
    columns = seats if game.player_columns else {1, 2, 3}
    totals = _numbers(session["totals"], _field(where, "totals"))
    if not set(totals) <= columns:
        raise RestoreError(_("{where}: totals for a column that is not at the table", where=where))
    live: dict[int, dict[int, int]] = {}
    for j, hand in enumerate(session["hands"], 1):
        no, deltas = _check_hand(hand, _("{where}, hand entry {no}", where=where, no=j),
                                 columns, game.zero_sum)
        if hand.get("voided_at") is None:
            if no in live:
                raise RestoreError(_("{where}: hand {no} is live twice", where=where, no=no))
            live[no] = deltas
    if sorted(live) != list(range(1, len(live) + 1)) or len(live) != session["hand_count"]:
        raise RestoreError(_("{where}: the live hands are not numbered 1 to hand_count ({count})",
                             where=where, count=session['hand_count']))
    sums: dict[int, int] = {}
    for deltas in live.values():
        for column, points in deltas.items():
            sums[column] = sums.get(column, 0) + points
    if any(sums.get(c, 0) != totals.get(c, 0) for c in set(sums) | set(totals)):
        raise RestoreError(_("{where}: the totals are not the sum of the hands", where=where))


def _check_players(players: Any, where: Text) -> set[int]:
    if not isinstance(players, list) or not players:
        raise RestoreError(_("{where}: players must be a list", where=where))
    seats: set[int] = set()
    names: set[str] = set()
    for player in players:
        if not isinstance(player, Mapping):
            raise RestoreError(_("{where}: a player is not an object", where=where))
        _only(player, PLAYER_KEYS, _("{where}, a player", where=where))
        if not isinstance(player.get("seat"), int) or not isinstance(player.get("name"), str):
            raise RestoreError(_("{where}: a player needs a seat number and a name", where=where))
        # a seat named by an @username keeps it whole (up to 32 characters)
        username = str(player.get("handle") or "") == player["name"].lower()
        try:
            name = check_name(player["name"], username=username)
        except UserError as error:
            raise RestoreError(_("{where}: {why}", where=where, why=error.message)) from None
        if name != player["name"]:
            raise RestoreError(_("{where}: the name `{typed}` is not in its plain form ({name})",
                                 where=where, typed=player['name'][:30], name=name))
        for key, kind in (("user_id", str), ("handle", str)):
            if player.get(key) is not None and not isinstance(player[key], kind):
                raise RestoreError(_("{where}: a player's `{key}` has the wrong type", where=where,
                                     key=key))
        if player["seat"] in seats or name.casefold() in names:
            raise RestoreError(_("{where}: two players share seat {seat} or the name {name}",
                                 where=where, seat=player['seat'], name=name))
        seats.add(player["seat"])
        names.add(name.casefold())
    return seats


def _check_hand(hand: Any, where: Text, seats: set[int],
                zero_sum: bool) -> tuple[int, dict[int, int]]:
    if not isinstance(hand, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(hand, HAND_KEYS | {"session_id"}, where)
    for key in ("id", "no", "players", "inputs", "rules", "deltas", "summary",
                "recorded_by", "recorded_by_name", "created_at"):
        if key not in hand:
            raise RestoreError(_("{where} has no `{key}`", where=where, key=key))
    _kind(hand, "no", int, where)
    _kind(hand, "id", int, where)
    _kind(hand, "summary", str, where)  # kept text: read back (or shown as stored) later
    _date(hand.get("created_at"), _field(where, "created_at"))
    _date(hand.get("voided_at"), _field(where, "voided_at"), optional=True)
    deltas = _numbers(hand["deltas"], _field(where, "deltas"))
    if not set(deltas) <= seats:
        raise RestoreError(_("{where}: points for a column that is not at the table", where=where))
    if zero_sum and sum(deltas.values()) != 0:
        raise RestoreError(_("{where}: the points don't add up to zero", where=where))
    return hand["no"], deltas


def _numbers(values: Any, where: Text) -> dict[int, int]:
    if not isinstance(values, Mapping):
        raise RestoreError(_("{where} must map columns to points", where=where))
    out = {}
    for key, value in values.items():
        if not str(key).isdecimal() or isinstance(value, bool) or not isinstance(value, int):
            raise RestoreError(_("{where}: `{key}` must be a column number with whole points",
                                 where=where, key=str(key)[:10]))
        out[int(key)] = value
    return out


def _only(data: Mapping[str, Any], allowed: set[str], where: Text) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise RestoreError(_("{where} has an unknown key `{key}`", where=where,
                             key=str(extra[0])[:30]))


def _kind(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
          where: Text) -> None:
    if not isinstance(data[key], kind) or isinstance(data[key], bool):
        raise RestoreError(_("{where}: `{key}` has the wrong type", where=where, key=key))


def _moment(value: Any) -> datetime | None:
    """A checked date as a moment (a date with no zone read as UTC), or None."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _field(where: Text, key: str) -> Msg:
    """Where in the file: "session 2 (Nepali Marriage): created_at"."""
    return _("{where}: {key}", where=where, key=key)


def _date(value: Any, where: Text, optional: bool = False) -> None:
    if value is None and optional:
        return
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RestoreError(_("{where} is not a date", where=where)) from None
