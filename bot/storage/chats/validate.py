"""A backup or export checked whole before it touches anything: its shape, its games and
players, every hand's numbers, and the totals against the hands. An import that would leave a
chat unusable is refused with what is wrong, and nothing is written."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.games import GAMES
from bot.core.games.base import Game, PlayContext
from bot.core.grammar import clip
from bot.core.i18n import AUTO, LANGUAGES, Msg, Text, _
from bot.core.ledger import MAX_AMOUNT, amount_decimals
from bot.core.money import (
    MoneyBook,
    against_average,
    book_add,
    hand_money,
    money_places,
    money_rules,
)
from bot.core.players import Player, Roster, check_name
from bot.core.rules import RuleSpec
from bot.core.seasons import season_key, season_name
from bot.core.session import ENDED, LIVE, NEW_EACH, OPEN
from bot.storage.engine.tables import hand_rows, payments, seasons, sessions
from bot.storage.transaction.events import check_events
from bot.storage.transaction.migrations import RUMMY_SCALE

FORMAT = "maalbot-backup"
# 2: marriage_rummy points are tenths (migration 7); 1 is scaled on restore. 3: the chat's
# ledger (its payments) may come along; 1 and 2 have none and read as before. 4: each
# session's event log (`events`, migration 13); files before it have none. 5: the chat's
# settings (`settings`: timezone, language, board, links) may come along; before, none.
VERSION = 5
READS = (1, 2, 3, 4, 5)
SESSION_KEYS = {c.name for c in sessions.columns} | {"hands", "events"}
HAND_KEYS = {c.name for c in hand_rows.columns}  # as files carry them
PLAYER_KEYS = set(Player.__dataclass_fields__)
PAYMENT_KEYS = {c.name for c in payments.columns} - {"chat"}
# what /export adds for people to read (the balances): recomputed, never imported
SEASON_KEYS = {c.name for c in seasons.columns} - {"chat"}
TOP_KEYS = {"format", "version", "chat", "sessions", "payments", "seasons", "balances",
            "settings"}
SETTINGS_KEYS = {"timezone", "language", "board", "links"}  # never where the chat moved
MAX_LINKS = 10_000
MAX_SEASONS = 10_000
MAX_PAYMENTS = 1_000_000
MAX_SESSIONS, MAX_HANDS = 10_000, 1_000_000
CURRENCY = next(spec for spec in money_rules() if spec.key == "currency")
IMPORTER = Actor("import", "import")  # who a game's code is told acts, while a file is checked


class RestoreError(ValueError):
    """A backup that can't be restored here (a ValueError, so the core can report it).
    `message` is lazy text: /import shows it in the language of the chat's answer."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.message = message


# Bounds on what a file may hold, each far above what the bot writes, so that nothing read
# back can grow a reply, a total or a sum beyond what the bot handles:
# - points in one hand's column, in stored units (rummy's tenths): more than any game's
#   rules can give (Riichi's counted yakuman with honba, Tranca's table of 100,000 and its
#   bonuses) and small enough that MAX_HANDS such hands keep every total exact as a float
#   (the chart, under 2**53) and as a Decimal at any rate (28 digits);
MAX_HAND_POINTS = 10_000_000
MAX_PLAYERS = 64  # seats at one table
MAX_NAME = 100  # a display name (a recorder's, a payer's; players' are check_name's 24)
MAX_ID = 200  # a person's id, an origin id, a handle, a board's message
MAX_SUMMARY = 20_000  # a hand's summary as kept (its messages and values)
MAX_REASON = 2_000  # why a hand was undone or replaced, as kept
MAX_TIMEZONE = 64  # as /settings allows
MAX_VERSION = 2**31 - 1  # sessions.version is an INTEGER (32 bits on PostgreSQL)
# a game's own data (a hand's inputs, the game state, a waiting hand): a few levels, a few
# thousand values, short texts and numbers within 10^15
MAX_DEPTH, MAX_NODES, MAX_TEXT, MAX_NUMBER = 12, 10_000, 2_000, 10**15
STEP = 500  # hands checked between two looks at the clock (an import checks cooperatively)


@dataclass
class Derived:
    """What a session's hands make of it: written on import, whatever the file says."""

    totals: dict[int, int]
    hand_count: int
    money: MoneyBook


@dataclass
class Checked:
    """A file found sound: each session's derived fields, in the file's order, and the
    people its games seat (a payment keeps its recorder only if they are one of them)."""

    sessions: list[Derived] = field(default_factory=list)
    people: set[str] = field(default_factory=set)
    hands: int = 0  # checked so far
    counted: int = 0  # in the sessions whose own fields are checked
    # currency -> the decimals a payment in it may have, as /paid allows: cents, or finer
    # where the file's hands made finer amounts (kept only when the file has payments)
    places: dict[str, int] | None = None


def check_backup(data: Any) -> Checked:
    """Raise RestoreError naming the first thing wrong, or return what the hands make of
    the sessions when all of it is sound."""
    steps = checking(data)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def checking(data: Any) -> Generator[int, None, Checked]:
    """check_backup a step at a time: yields the hands checked so far every STEP hands, so
    an import of a big file lets other chats' commands run between steps."""
    found = data.get("sessions") if isinstance(data, Mapping) else None
    counts = [len(s["hands"]) if isinstance(s, Mapping) and isinstance(s.get("hands"), list)
              else 0 for s in found] if isinstance(found, list) else []
    checked, sessions = heads(data, counts)
    for session, check in zip(found, sessions, strict=True):
        for hand in session["hands"]:
            check.hand(hand)
            if checked.hands % STEP == 0:
                yield checked.hands
        checked.sessions.append(check.finish())
    yield from tail(data, checked)
    return checked


def heads(data: Any, counts: list[int]) -> tuple[Checked, list[SessionCheck]]:
    """The file checked but for its hands, its payments and its seasons: its format, and
    each session's own fields (`counts`: how many hands each has). Then each session's
    hands are checked in order (SessionCheck.hand), the session finished, and `tail`
    checks the rest. An import streams the hands here: they need not be in `data`."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT \
            or data.get("version") not in READS:
        raise RestoreError(_("this is not a Maalbot export (format {format}, version {versions})",
                             format=FORMAT, versions=", ".join(map(str, READS))))
    found = data.get("sessions")
    if not isinstance(found, list) or len(found) > MAX_SESSIONS:
        raise RestoreError(_("`sessions` must be a list of at most {n} sessions",
                             n=f"{MAX_SESSIONS:,}"))
    _only(data, TOP_KEYS, _("the file"))
    # the currencies' decimals are counted only for payments to be checked against them
    checked = Checked(places={} if data.get("payments") is not None else None)
    checks = [SessionCheck(session, i, checked, data["version"], count)
              for i, (session, count) in enumerate(zip(found, counts, strict=True), 1)]
    if sum(session["status"] == OPEN for session in found) > 1:
        raise RestoreError(_("more than one open game: a chat has one at a time"))
    return checked, checks


def tail(data: Mapping[str, Any], checked: Checked) -> Generator[int, None, None]:
    """The chat's settings, payments and seasons, once every session is checked. A person
    a guest is linked to counts as one the games seat (a payment they recorded stays
    theirs): /link (an admin's, as /import is) names any account, and the ledger and
    /stats count the guest's games as theirs."""
    if data.get("settings") is not None:
        _check_settings(data["settings"], _("the chat's settings"))
        checked.people |= {to["id"] for to in (data["settings"].get("links") or {}).values()}
    paid = data.get("payments")
    if paid is not None:
        if not isinstance(paid, list) or len(paid) > MAX_PAYMENTS:
            raise RestoreError(_("`payments` must be a list of at most {n}", n=f"{MAX_PAYMENTS:,}"))
        assert checked.places is not None
        for i, payment in enumerate(paid, 1):
            _check_payment(payment, _("payment {no}", no=i), checked.places)
            if i % STEP == 0:
                yield checked.hands
    held = data.get("seasons")
    if held is not None:
        if not isinstance(held, list) or len(held) > MAX_SEASONS:
            raise RestoreError(_("`seasons` must be a list of at most {n}", n=f"{MAX_SEASONS:,}"))
        for i, season in enumerate(held, 1):
            _check_season(season, _("season {no}", no=i))
        _check_seasons(held)


def _check_settings(settings: Any, where: Text) -> None:
    """Settings /settings and /link could have saved."""
    if not isinstance(settings, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(settings, SETTINGS_KEYS, where)
    _text(settings, "timezone", where, MAX_TIMEZONE, optional=True)
    timezone = settings.get("timezone")
    try:
        if timezone is not None:
            ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise RestoreError(_("{where}: `{key}` has the wrong type", where=where,
                             key="timezone")) from None
    for key, allowed in (("language", {AUTO, *LANGUAGES}), ("board", {LIVE, NEW_EACH})):
        if settings.get(key) is not None and settings[key] not in allowed:
            raise RestoreError(_("{where}: `{key}` has the wrong type", where=where, key=key))
    links = settings.get("links") or {}
    if not isinstance(links, Mapping) or len(links) > MAX_LINKS or not all(
            isinstance(name, str) and len(name) <= MAX_NAME and isinstance(to, Mapping)
            and set(to) == {"id", "name"} and isinstance(to["id"], str)
            and len(to["id"]) <= MAX_ID and isinstance(to["name"], str)
            and len(to["name"]) <= MAX_NAME for name, to in links.items()):
        raise RestoreError(_("{where}: `{key}` has the wrong type", where=where, key="links"))


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
        _text(season, key, where, MAX_NAME if key != "started_by" else MAX_ID)
    _text(season, "ended_by", where, MAX_ID, optional=True)
    try:
        name = season_name(season["name"])
    except UserError as error:
        raise RestoreError(_("{where}: {why}", where=where, why=error.message)) from None
    if name != season["name"]:
        raise RestoreError(_("{where}: the name `{name}` is not in its plain form (one space "
                             "between words, NFKC)", where=where, name=name))
    _date(season.get("started_at"), _field(where, "started_at"))
    _date(season.get("ended_at"), _field(where, "ended_at"), optional=True)


def _check_payment(payment: Any, where: Text, places: Mapping[str, int]) -> None:
    if not isinstance(payment, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(payment, PAYMENT_KEYS, where)
    for key in ("payer", "payer_name", "payee", "payee_name", "amount", "currency",
                "recorded_by", "recorded_by_name"):
        if key not in payment:
            raise RestoreError(_("{where} has no `{key}`", where=where, key=key))
        _text(payment, key, where, MAX_ID if key in ("payer", "payee", "recorded_by")
              else 40 if key == "amount" else MAX_NAME)
    _text(payment, "origin_id", where, MAX_ID, optional=True)
    _text(payment, "voided_by", where, MAX_ID, optional=True)
    # A currency /rules could have named. Not only one the file's games name: /paid takes
    # the currencies the chat's games named when it was made, and a game's currency may
    # have changed since, or the game been closed with no hand (and so be in no file)
    currency = payment["currency"]
    if not _rule_value(CURRENCY, currency):
        raise RestoreError(_("{where}: `{currency}` is not a currency /rules could name",
                             where=where, currency=clip(currency)))
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
    most = places.get(currency, 2)  # cents, or finer where the file's hands made finer
    if decimals > most:
        raise RestoreError(_("{where}: the amount has {decimals} decimals; at most {places} in "
                             "`{currency}`", where=where, decimals=decimals,
                             places=most, currency=currency))
    for role in ("payer", "payee"):
        # a person as the ledger keys them: an account, or a guest name as a seat has it.
        # Not only one the file's games seat: /paid takes whoever the ledger knew then, and
        # a seat may have gone to another account since, or its game closed with no hand
        if not _person_key(payment[role]):
            raise RestoreError(_("{where}: the payer `{person}` is no account and no guest "
                                 "name", where=where, person=payment[role][:40])
                               if role == "payer" else
                               _("{where}: the payee `{person}` is no account and no guest "
                                 "name", where=where, person=payment[role][:40]))
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


def _person_key(key: str) -> bool:
    """An account's id, or `name:` and a guest's name as a seat has it (plain, lowercase)."""
    if not key.startswith("name:"):
        return bool(key.strip()) and key == key.strip()
    try:
        return key[5:] == check_name(key[5:]).lower()
    except UserError:
        return False


class SessionCheck:
    """One session checked: its own fields when made, then its hands one at a time (in the
    file's order), then what they make of it (`finish`). Holds no hand: a session of a
    million hands is checked in a few megabytes."""

    def __init__(self, session: Any, no: int, checked: Checked, version: int,
                 count: int) -> None:
        where: Text = _("session {no}", no=no)
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
        _whole(session, "id", where)
        _whole(session, "hand_count", where, 0, MAX_HANDS)
        _whole(session, "version", where, 0, MAX_VERSION, optional=True)
        _kind(session, "totals", Mapping, where)
        _kind(session, "hands", list, where)
        _text(session, "created_by", where, MAX_ID)
        _text(session, "board_ref", where, MAX_ID, optional=True)
        _date(session.get("created_at"), _field(where, "created_at"))
        _date(session.get("ended_at"), _field(where, "ended_at"), optional=True)
        if session["status"] not in (OPEN, ENDED):
            raise RestoreError(_("{where}: status is {open} or {ended}", where=where,
                                 open=OPEN, ended=ENDED))
        self.rules = _check_rules(game, session["rules"], _field(where, "rules"))
        seats = _check_players(session["players"], where)
        checked.counted += count
        if checked.counted > MAX_HANDS:
            raise RestoreError(_("more than {n} hands in all", n=f"{MAX_HANDS:,}"))
        if session["hand_count"] > count:  # fewer hands than it says are live
            raise RestoreError(_("{where}: the live hands are not numbered 1 to hand_count "
                                 "({count})", where=where, count=session['hand_count']))
        # every person the games seat, keyed as the ledger keys them before links: an
        # account by its id, a guest by `name:` and the name
        checked.people |= {p.get("user_id") or f"name:{p['name'].lower()}"
                           for p in session["players"]}
        # a game's board columns: its players' seats, or Tranca's sides (1, 2, 3)
        self.columns = seats if game.player_columns else {1, 2, 3}
        self.seats = seats
        self.totals = _numbers(session["totals"], _field(where, "totals"),
                               MAX_HANDS * MAX_HAND_POINTS)
        if not set(self.totals) <= self.columns:
            raise RestoreError(_("{where}: totals for a column that is not at the table",
                                 where=where))
        # a version 1 file's rummy points were whole: what they make is kept in tenths now
        self.scale = RUMMY_SCALE if version == 1 and game.key == "marriage_rummy" else 1
        self.roster = Roster([Player.from_json(p) for p in session["players"]])
        self.states = _States(game, self.roster, where)
        self.session, self.game, self.where, self.checked = session, game, where, checked
        self.live = bytearray(session["hand_count"] + 1)  # 1 where hand no is live
        self.sums: dict[int, int] = {}
        self.book: MoneyBook = {}
        self.rule_sets: dict[object, None] = {}  # the hands' rules, each distinct set once
        self.entries = 0
        places = checked.places
        if places is not None:  # the currency the game is played for, at cents at least
            try:
                if self.rules.get("currency") or Decimal(str(self.rules.get("rate", "1"))) != 1:
                    places.setdefault(str(self.rules.get("currency") or ""), 2)
            except (InvalidOperation, TypeError, ValueError):
                raise self._no_rate() from None

    def _no_rate(self) -> RestoreError:
        return RestoreError(_("session {session}: a rate is not a number",
                              session=self.session['id']))

    def hand(self, hand: Any) -> None:
        """The next hand of the session."""
        self.entries += 1
        where = _("{where}, hand entry {no}", where=self.where, no=self.entries)
        game = self.game
        if len(self.rule_sets) > 10_000:  # a cache: a file of ever other rules stays small
            self.rule_sets.clear()
        no, deltas = _check_hand(hand, where, game, self.columns, self.seats, self.rule_sets,
                                 self.states)
        if hand.get("voided_at") is None:
            if no >= len(self.live):  # past hand_count: they can't be numbered 1 to it
                raise RestoreError(_("{where}: the live hands are not numbered 1 to "
                                     "hand_count ({count})", where=self.where,
                                     count=self.session['hand_count']))
            if self.live[no]:
                raise RestoreError(_("{where}: hand {no} is live twice", where=self.where,
                                     no=no))
            self.live[no] = 1
            for column, points in deltas.items():
                self.sums[column] = self.sums.get(column, 0) + points
            book_add(self.book, {k: v * self.scale for k, v in deltas.items()}, hand["rules"],
                     game.point_places)
        places = self.checked.places
        if places is not None:  # the decimals its money has: a payment may have as many
            try:
                money = hand_money(deltas, hand["rules"], game.point_places)
            except (InvalidOperation, TypeError, ValueError):
                raise self._no_rate() from None
            if money is not None:
                currency, amounts = money
                if game.money_against_average:  # Call Break's: finer decimals
                    amounts = against_average(amounts, amounts)
                places[currency] = max(places.get(currency, 2), money_places(amounts.values()))
        self.checked.hands += 1

    def finish(self) -> Derived:
        """What the session's hands make of it, once every hand is checked."""
        session, where, totals, sums = self.session, self.where, self.totals, self.sums
        if not all(self.live[1:]):
            raise RestoreError(_("{where}: the live hands are not numbered 1 to hand_count "
                                 "({count})", where=where, count=session['hand_count']))
        if any(sums.get(c, 0) != totals.get(c, 0) for c in set(sums) | set(totals)):
            raise RestoreError(_("{where}: the totals are not the sum of the hands",
                                 where=where))
        _check_money(session.get("money"), self.book, _field(where, "money"))
        state = session.get("game_state")
        pending = session.get("pending")
        if session["status"] == ENDED and pending is not None:
            raise RestoreError(_("{where}: a finished game has a hand waiting", where=where))
        self.states.check(state, _field(where, "game_state"), totals, self.rules,
                          ended=session["status"] == ENDED)
        if pending is not None:
            _check_pending(self.game, self.roster, self.rules, pending,
                           _field(where, "pending"))
        wrong = check_events(session.get("events", []), where)  # the event log (version 4)
        if wrong is not None:
            raise RestoreError(wrong)
        scale = self.scale
        return Derived({c: sums.get(c, 0) * scale for c in set(sums) | set(totals)},
                       sum(self.live), self.book)


def _check_rules(game: Game, rules: Any, where: Text) -> dict[str, Any]:
    """Every rule one the game has, with a value it could have been set to (a rate within
    /rules' bounds, a currency of at most 8 characters): the game's rules, completed."""
    if not isinstance(rules, Mapping):
        raise RestoreError(_("{where} must map rule names to values", where=where))
    for key, value in rules.items():
        extra = game.rulebook.extras.get(key) if isinstance(key, str) else None
        if extra is not None:  # a key the game's own commands store (a maal table)
            if not extra(value):
                raise RestoreError(_("{where}: `{key}` can't be {value}", where=where,
                                     key=key, value=clip(json.dumps(value, default=str))))
            continue
        try:
            spec = game.rulebook.spec(key) if isinstance(key, str) else None
        except UserError:
            spec = None
        if spec is None:
            raise RestoreError(_("{where}: {game} has no rule `{key}`", where=where,
                                 game=Msg(game.title), key=str(key)[:30]))
        if not _rule_value(spec, value):
            raise RestoreError(_("{where}: `{key}` can't be {value}", where=where, key=key,
                                 value=clip(json.dumps(value, default=str))))
    return game.rulebook.complete(rules)


def _rule_value(spec: RuleSpec, value: Any) -> bool:
    """A value /rules could have stored for `spec`: in its bounds, in its written form."""
    if spec.kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) \
            and (spec.low is None or value >= spec.low) \
            and (spec.high is None or value <= spec.high)
    if spec.kind == "bool":
        return isinstance(value, bool)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return False
    try:
        return spec.parse(value) == value
    except UserError:
        return False


def _check_money(money: Any, book: MoneyBook, where: Text) -> None:
    """The file's money book, if it has one, is what its hands make (at each hand's rate):
    compared as amounts, so 12.50 and 12.5 agree, and a currency whose amounts are all zero
    is as good as none."""
    if money is None:
        return
    if not isinstance(money, Mapping) or not all(
            isinstance(row, Mapping) and len(str(c)) <= MAX_TEXT for c, row in money.items()):
        raise RestoreError(_("{where} must map currencies to amounts per column", where=where))

    def amounts(source: Mapping[str, Any]) -> dict[tuple[str, str], Decimal]:
        out: dict[tuple[str, str], Decimal] = {}
        for currency, row in source.items():
            for column, amount in row.items():
                try:
                    value = Decimal(amount) if isinstance(amount, str) and \
                        len(amount) <= 40 else None
                except InvalidOperation:
                    value = None
                if value is None or not value.is_finite():
                    raise RestoreError(_("{where}: `{amount}` is not an amount", where=where,
                                         amount=clip(str(amount))))
                if value:
                    out[(str(currency), str(column))] = value
        return out

    if amounts(money) != amounts(book):
        raise RestoreError(_("{where}: the money is not what the hands make at their rates",
                             where=where))


class _States:
    """A game state (the session's, or one a hand kept to go back to) is one the game can
    carry on from: its board, status and end are drawn with it without an error. Each
    distinct state is tried once."""

    def __init__(self, game: Game, roster: Roster, where: Text) -> None:
        self.game, self.roster, self.where = game, roster, where
        self.seen: set[str] = set()

    def check(self, state: Any, where: Text, totals: Mapping[int, int] | None = None,
              rules: Mapping[str, Any] | None = None, ended: bool = False) -> None:
        if state is None:
            return
        if not isinstance(state, Mapping):
            raise RestoreError(_("{where} is not an object", where=where))
        key = json.dumps(state, sort_keys=True, default=str)
        if totals is None and key in self.seen:
            return
        _free(state, where)
        game = self.game
        rules = rules if rules is not None else game.rulebook.defaults()
        totals = totals or {}
        try:
            game.columns(self.roster, state)
            game.column_players(self.roster, state)
            game.status(totals, rules, state, self.roster, ended)
            game.placings(totals, rules, state, self.roster)
            game.final_lines(totals, rules, state, self.roster)
            game.goal(rules, state)
            game.closing(PlayContext(
                command="endgame", options={}, roster=self.roster,
                hand_players=[p for p in self.roster if not p.sitting_out], rules=rules,
                pending=None, actor=IMPORTER, actor_player=None, state=state,
                totals=totals))
        except Exception:  # whatever the game trips on: a state it never made
            raise RestoreError(_("{where} is not a state {game} can carry on from",
                                 where=where, game=Msg(game.title))) from None
        self.seen.add(key)


def _check_pending(game: Game, roster: Roster, rules: Mapping[str, Any], pending: Any,
                   where: Text) -> None:
    """A hand waiting for input: who started it, and an entry the game can show and
    complete."""
    if not isinstance(pending, Mapping) or not isinstance(pending.get("entry"), Mapping):
        raise RestoreError(_("{where} is not a waiting hand", where=where))
    _only(pending, {"by", "by_name", "origin", "entry", "prompts"}, where)
    _text(pending, "by", where, MAX_ID)
    _text(pending, "by_name", where, MAX_NAME, optional=True)
    _text(pending, "origin", where, MAX_ID, optional=True)
    prompts = pending.get("prompts", [])
    if not isinstance(prompts, list) or len(prompts) > 10 \
            or not all(isinstance(p, str) and len(p) <= MAX_ID for p in prompts):
        raise RestoreError(_("{where}: `prompts` has the wrong type", where=where))
    _free(pending["entry"], where)
    try:
        game.pending_note(pending["entry"], roster, rules)
        game.waiting_for(pending["entry"], rules)
    except Exception:  # whatever the game trips on: an entry it never made
        raise RestoreError(_("{where} is not a waiting hand {game} can complete",
                             where=where, game=Msg(game.title))) from None


def _check_players(players: Any, where: Text) -> set[int]:
    if not isinstance(players, list) or not players or len(players) > MAX_PLAYERS:
        raise RestoreError(_("{where}: players must be a list of 1 to {n}", where=where,
                             n=MAX_PLAYERS))
    seats: set[int] = set()
    names: set[str] = set()
    for player in players:
        if not isinstance(player, Mapping):
            raise RestoreError(_("{where}: a player is not an object", where=where))
        _only(player, PLAYER_KEYS, _("{where}, a player", where=where))
        seat = player.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 1000 \
                or not isinstance(player.get("name"), str):
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
        for key in ("user_id", "handle"):
            value = player.get(key)
            if value is not None and (not isinstance(value, str) or len(value) > MAX_ID):
                raise RestoreError(_("{where}: a player's `{key}` has the wrong type", where=where,
                                     key=key))
        joined = player.get("joined_after", 0)
        out = player.get("sitting_out", False)
        if not isinstance(joined, int) or isinstance(joined, bool) \
                or not 0 <= joined <= MAX_HANDS:
            raise RestoreError(_("{where}: a player's `{key}` has the wrong type", where=where,
                                 key="joined_after"))
        if not isinstance(out, bool):
            raise RestoreError(_("{where}: a player's `{key}` has the wrong type", where=where,
                                 key="sitting_out"))
        if seat in seats or name.casefold() in names:
            raise RestoreError(_("{where}: two players share seat {seat} or the name {name}",
                                 where=where, seat=seat, name=name))
        seats.add(seat)
        names.add(name.casefold())
    return seats


def _check_hand(hand: Any, where: Text, game: Game, columns: set[int], seats: set[int],
                rule_sets: dict[object, None], states: _States) -> tuple[int, dict[int, int]]:
    if not isinstance(hand, Mapping):
        raise RestoreError(_("{where} is not an object", where=where))
    _only(hand, HAND_KEYS | {"session_id"}, where)
    for key in ("id", "no", "players", "inputs", "rules", "deltas", "summary",
                "recorded_by", "recorded_by_name", "created_at"):
        if key not in hand:
            raise RestoreError(_("{where} has no `{key}`", where=where, key=key))
    _whole(hand, "no", where, 1, MAX_HANDS)
    _whole(hand, "id", where)
    _whole(hand, "replaced_by", where, optional=True)
    _text(hand, "summary", where, MAX_SUMMARY)  # kept text: read back (or shown as stored)
    _text(hand, "recorded_by", where, MAX_ID)
    _text(hand, "recorded_by_name", where, MAX_NAME)
    _text(hand, "origin_id", where, MAX_ID, optional=True)
    _text(hand, "voided_by", where, MAX_ID, optional=True)
    _text(hand, "void_reason", where, MAX_REASON, optional=True)
    _date(hand.get("created_at"), _field(where, "created_at"))
    _date(hand.get("voided_at"), _field(where, "voided_at"), optional=True)
    played = hand["players"]
    if not isinstance(played, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s in seats for s in played):
        raise RestoreError(_("{where}: `players` must list seats at the table", where=where))
    if not isinstance(hand["inputs"], Mapping):
        raise RestoreError(_("{where}: `{key}` has the wrong type", where=where, key="inputs"))
    _free(hand["inputs"], _field(where, "inputs"))
    rules_key = _key(hand["rules"])
    if rules_key not in rule_sets:
        _check_rules(game, hand["rules"], _field(where, "rules"))
        rule_sets[rules_key] = None
    states.check(hand.get("state_before"), _field(where, "state_before"))
    deltas = _numbers(hand["deltas"], _field(where, "deltas"), MAX_HAND_POINTS)
    if not set(deltas) <= columns:
        raise RestoreError(_("{where}: points for a column that is not at the table", where=where))
    if game.zero_sum and sum(deltas.values()) != 0:
        raise RestoreError(_("{where}: the points don't add up to zero", where=where))
    return hand["no"], deltas


def _key(rules: Any) -> object:
    """The same rules, the same key (hands repeat their session's rules)."""
    if type(rules) is not dict:
        return ""
    try:
        return frozenset((k, type(v), v) for k, v in rules.items())  # True is not 1 here
    except TypeError:  # a value that is a list or an object: checked, and refused, anyway
        return json.dumps(rules, sort_keys=True, default=str)


def _numbers(values: Any, where: Text, bound: int) -> dict[int, int]:
    """Columns to whole points, each within ±bound."""
    if not isinstance(values, Mapping):
        raise RestoreError(_("{where} must map columns to points", where=where))
    out = {}
    for key, value in values.items():
        if not str(key).isdecimal() or len(str(key)) > 6 or isinstance(value, bool) \
                or not isinstance(value, int):
            raise RestoreError(_("{where}: `{key}` must be a column number with whole points",
                                 where=where, key=str(key)[:10]))
        if abs(value) > bound:
            raise RestoreError(_("{where}: {points} points is more than a game can give",
                                 where=where, points=clip(str(value))))
        out[int(key)] = value
    return out


def _free(value: Any, where: Text) -> None:
    """A game's own data: JSON of at most MAX_DEPTH levels and MAX_NODES values, texts of at
    most MAX_TEXT characters, numbers within MAX_NUMBER. (Types compared exactly: what
    json reads is dict, list, str, int, float, bool or None, and this runs for every hand.)"""
    nodes = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        nodes += 1
        kind = type(item)
        if nodes > MAX_NODES or depth > MAX_DEPTH:
            break
        if kind is dict:
            for key, inner in item.items():
                if type(key) is not str or len(key) > MAX_TEXT:
                    break
                push((inner, depth + 1))
            else:
                continue
            break
        if kind is list:
            for inner in item:
                push((inner, depth + 1))
        elif kind is str:
            if len(item) > MAX_TEXT:
                break
        elif kind is int or kind is float:
            if not abs(item) <= MAX_NUMBER:  # NaN and infinity are not either
                break
        elif item is not None and kind is not bool:
            break
    else:
        return
    raise RestoreError(_("{where} holds more than a game writes", where=where))


def _whole(data: Mapping[str, Any], key: str, where: Text, low: int = -(2**63),
           high: int = 2**63 - 1, optional: bool = False) -> None:
    """A whole number within [low, high] (ids within 64 bits)."""
    value = data.get(key)
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RestoreError(_("{where}: `{key}` has the wrong type", where=where, key=key))


def _text(data: Mapping[str, Any], key: str, where: Text, longest: int,
          optional: bool = False) -> None:
    """A text of at most `longest` characters."""
    value = data.get(key)
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise RestoreError(_("{where}: `{key}` has the wrong type", where=where, key=key))
    if len(value) > longest:
        raise RestoreError(_("{where}: `{key}` is longer than {n} characters", where=where,
                             key=key, n=f"{longest:,}"))


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
