"""A chat's ledger: the money of every finished game, carried over until it is paid.

Pure: built from the chat's sessions (each with its money book, hand by hand at each hand's
rate and currency) and its payments. Games played for money (a rate or a currency set) enter
it when they end: zero-sum games (Marriage, marriage rummy) hand by hand, Call Break hand by
hand with each score less the table's average (its scores don't sum to zero), Riichi by its
final results with uma and oka at the rate in force at the end (`money_from_results`, as
/endgame settles it). Tranca is a race, so nobody pays anybody: it never enters it. People
are keyed as /stats keys them (`bot/core/stats.py` `identity`): the account, a /link'ed
account, else `name:<guest>`. Currencies are never added together: every balance and every
settlement is per currency.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.games.base import Game
from bot.core.grammar import clip
from bot.core.i18n import Msg, Text, Tr, _
from bot.core.money import (
    MoneyBook,
    book_totals,
    format_money,
    money_of_book,
    money_places,
    money_shown,
    pay_greedily,
    settle_money,
)
from bot.core.players import fold
from bot.core.session import ENDED, PaymentRecord, SessionState
from bot.core.stats import handle_accounts, identity

EXACT_UP_TO = 12  # people with a balance in one currency: beyond this, settle greedily
MAX_AMOUNT = Decimal("1000000000")
_AMOUNT = re.compile(r"^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+(\.\d+)?$|^\.\d+$")
NONE_WORDS = ("none", "-")  # currency:none names the money played with a rate and no currency


@dataclass
class Person:
    key: str
    name: str
    names: set[str] = field(default_factory=set)  # every name they went by here (folded)
    accounts: set[str] = field(default_factory=set)  # platform ids of their seats
    handles: set[str] = field(default_factory=set)  # @usernames their seats were named by
    # guest names (folded) they played under -> (the guest's own key, the name): a payment
    # naming one is stored under it, so it follows the guest when a /link changes
    guests: dict[str, tuple[str, str]] = field(default_factory=dict)
    # sat at a game of the chat; a payment's payer or payee may not have: their seat went
    # to another account by /seat since, or their game closed with no hand (an /import of
    # another chat's file may name anyone so): /ledger says so beside their name
    played: bool = False


@dataclass
class GameEntry:
    """A finished game's money as it entered the ledger."""

    number: int  # the chat's game number, as /board game:N
    session_id: int
    title: str
    ended_at: datetime | None
    money: dict[str, dict[str, Decimal]]  # currency -> person key -> amount


@dataclass
class Ledger:
    people: dict[str, Person]
    games: list[GameEntry]
    payments: list[PaymentRecord]  # every payment, undone ones too, oldest first
    currencies: set[str]  # every currency the chat has played for, finished or not

    def live(self) -> list[tuple[int, PaymentRecord]]:
        """(number in the chat, payment) of the payments not undone."""
        return [(i, p) for i, p in enumerate(self.payments, 1) if p.voided_at is None]

    def balances(self) -> dict[str, dict[str, Decimal]]:
        """currency -> person key -> balance (+: is owed, -: owes)."""
        out: dict[str, dict[str, Decimal]] = {}
        for game in self.games:
            for currency, amounts in game.money.items():
                row = out.setdefault(currency, {})
                for key, amount in amounts.items():
                    row[key] = row.get(key, Decimal(0)) + amount
        for _no, payment in self.live():
            row = out.setdefault(payment.currency, {})
            row[payment.payer] = row.get(payment.payer, Decimal(0)) + payment.amount
            row[payment.payee] = row.get(payment.payee, Decimal(0)) - payment.amount
        return out

    def currencies_of(self, key: str) -> set[str]:
        """The currencies a person has had anything in: a game or a payment."""
        found = {c for g in self.games for c, amounts in g.money.items() if key in amounts}
        found |= {p.currency for _no, p in self.live() if key in (p.payer, p.payee)}
        return found

    def places(self, currency: str) -> int:
        """Decimals an amount in `currency` may have: cents, or finer where a rate made
        finer amounts (0.125 a point)."""
        amounts = [a for g in self.games for a in g.money.get(currency, {}).values()]
        return max(2, money_places(amounts))

    def decimals(self, currency: str) -> int:
        """Decimals every amount in `currency` is shown with, in every listing: none where
        every game's money and every payment was whole, else cents at least (or finer), so
        -8.00 never reads 8 once a payment leaves only whole balances."""
        amounts = [a for g in self.games for a in g.money.get(currency, {}).values()]
        amounts += [p.amount for _no, p in self.live() if p.currency == currency]
        return money_places(amounts)

    def name(self, key: str) -> str:
        person = self.people.get(key)
        return person.name if person else key.removeprefix("name:")

    def played(self, key: str) -> bool:
        """Whether the person keyed `key` sat at a game of the chat."""
        person = self.people.get(key)
        return person is not None and person.played

    def resolve(self, token: str, mentions: Mapping[str, Actor]) -> Person:
        """A person in the ledger by mention, @username (a username first, exactly: usernames
        are unique, display names are not), or a name they went by here."""
        raw = token.strip()
        mentioned = mentions.get(raw) or mentions.get(raw.lower())
        if mentioned is not None:
            found = [p for p in self.people.values() if is_person(p, mentioned)]
            if len(found) == 1:
                return found[0]
            raise UserError(_("{name} has played no game here. People here: {people}.",
                              name=clip(mentioned.name), people=self._listing()))
        if raw.startswith("<@"):
            raise UserError(_("That person has played no game here. People here: {people}.",
                              people=self._listing()))
        word = fold(raw.lstrip("@"))
        if raw.startswith("@"):
            handle = raw[1:].strip().lower()
            found = [p for p in self.people.values() if handle in p.handles]
            if len(found) == 1:
                return found[0]
        found = [p for p in self.people.values() if word in p.names or word in p.handles]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UserError(_("`{name}` could be {people}; mention the person instead.",
                              name=clip(raw),
                              people=", ".join(sorted(p.name for p in found))))
        known = {n: p.name for p in self.people.values() for n in p.names}
        close = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
        if close:
            names = ", ".join(dict.fromkeys(known[c] for c in close))
            raise UserError(_("Nobody called `{name}` has played here. Did you mean "
                              "{close}?", name=clip(raw), close=names))
        raise UserError(_("Nobody called `{name}` has played here. People here: {people}.",
                          name=clip(raw), people=self._listing()))

    def own_key(self, person: Person, token: str,
                mentions: Mapping[str, Actor]) -> tuple[str, str]:
        """(key, name) a payment naming `person` by `token` is stored under: the guest name's
        own key where a guest name they played under was typed (links are applied when the
        ledger is read, as for games), else the person's key."""
        raw = token.strip()
        if raw in mentions or raw.lower() in mentions or raw.startswith("<@"):
            return person.key, person.name
        if raw.startswith("@") and raw[1:].strip().lower() in person.handles:
            return person.key, person.name
        return person.guests.get(fold(raw.lstrip("@")), (person.key, person.name))

    def _listing(self) -> Text:
        names = sorted({p.name for p in self.people.values()}, key=str.lower)
        return ", ".join(names) if names else _("nobody yet")


def is_person(person: Person, actor: Actor) -> bool:
    """Whether `actor` is `person` by their account: the account id, or (for someone no
    account is known for) the @username a seat of theirs was named by; in the console
    (people known by the name they type) a guest seat of their name."""
    if actor.id == person.key or actor.id in person.accounts:
        return True
    # an @username is someone only while no account holds their seats: a username is given
    # up and taken by another account, an account id never is
    if not person.accounts and person.handles & {h.lower().lstrip("@")
                                                 for h in actor.handles}:
        return True
    return actor.by_name and person.key == f"name:{actor.name.lower()}"


def build(played: Iterable[tuple[int, SessionState, MoneyBook]],
          payments: list[PaymentRecord],
          links: Mapping[str, Mapping[str, str]]) -> Ledger:
    """The ledger from the chat's sessions (their game number and money book) and its
    payments. A payment's people are re-keyed through today's links, as a game's are."""
    people: dict[str, Person] = {}
    games: list[GameEntry] = []
    currencies: set[str] = set()
    played = list(played)
    accounts = handle_accounts(session for _no, session, _book in played)

    def person(key: str, name: str, rename: bool = True) -> Person:
        found = people.setdefault(key, Person(key, name))
        if rename:  # the name of their latest seat; a payment's only for someone unseated
            found.name = name
        found.names.add(fold(name))
        return found

    for number, session, book in played:
        game = get_game(session.game).for_session(session.rules, session.game_state)
        rules = game.rulebook.complete(session.rules)
        if rules.get("currency") or Decimal(str(rules.get("rate", "1"))) != 1:
            currencies.add(str(rules.get("currency") or ""))
        currencies |= set(book)
        seats: dict[int, str] = {}
        for player in session.players:
            key, name = identity(player.user_id, player.name, links, player.handle,
                                 accounts)
            found = person(key, name)
            found.played = True
            found.names.add(fold(player.name))
            if player.user_id:
                found.accounts.add(player.user_id)
            elif not (player.handle and accounts.get("@" + player.handle.lower())):
                own = f"name:{player.name.lower()}"  # a guest (maybe linked): its own key
                found.guests[fold(player.name)] = (own, player.name)
            if player.handle:
                found.handles.add(player.handle.lower())
            seats[player.seat] = key
        if session.status != ENDED or not session.hand_count:
            continue
        totals = owed_by_column(game, session, rules, book)
        if totals is None:
            continue
        money = by_person(game, session, totals, seats)
        assert session.id is not None
        games.append(GameEntry(number, session.id, game.title, session.ended_at, money))
    for payment in payments:
        payment.payer, payment.payer_name = _rekey(payment.payer, payment.payer_name, links,
                                                   accounts)
        payment.payee, payment.payee_name = _rekey(payment.payee, payment.payee_name, links,
                                                   accounts)
        person(payment.payer, payment.payer_name, rename=False)
        person(payment.payee, payment.payee_name, rename=False)
        currencies.add(payment.currency)
    return Ledger(people, games, payments, currencies)


def owed_by_column(game: Game, session: SessionState, rules: Mapping,
                   book: MoneyBook) -> dict[str, dict[int, Decimal]] | None:
    """{currency: {column: money}} that a finished game leaves owed, or None where it
    enters no ledger: zero-sum games hand by hand, Call Break against the average, Riichi
    by its final results (not a house uma, which leaves no transfers); never Tranca. The
    chat's ledger and the club's both take a game's money from here."""
    if game.money_at_end:  # Riichi: the final results, as /endgame settled them
        if not money_shown(rules):
            return None
        totals = money_from_results(game, session, rules)
        if any(sum(amounts.values()) for amounts in totals.values()):
            return None  # a house uma: /endgame worked out no transfers, nothing to owe
        return totals
    if game.zero_sum and book:
        return book_totals(book)
    if game.money_against_average and book:  # Call Break: against the average
        return money_of_book(book, [k for k, _ in game.columns(session.roster,
                                                             session.game_state)],
                             game.money_sign)
    return None


def by_person(game: Game, session: SessionState, totals: Mapping[str, Mapping[int, Decimal]],
              seats: Mapping[int, str]) -> dict[str, dict[str, Decimal]]:
    """A game's money per column as each person's (`seats`: seat -> their key): a side's
    money is each of its players'."""
    members = game.column_players(session.roster, session.game_state)
    money: dict[str, dict[str, Decimal]] = {}
    for currency, amounts in totals.items():
        row = money.setdefault(currency, {})
        for column, amount in amounts.items():
            for seat in members.get(column, []):
                if seat in seats and amount:
                    row[seats[seat]] = row.get(seats[seat], Decimal(0)) + amount
    return money


def money_from_results(game: Game, session: SessionState,
                       rules: Mapping) -> dict[str, dict[int, Decimal]]:
    """{currency: {column: money}} of a game paid at the end (Riichi): each final result
    (with uma and oka) at the rate in force at the end. /endgame settles it and the ledger
    carries it: this is the one place it is worked out."""
    rate = Decimal(str(rules.get("rate", "1")))
    placings = game.placings(session.totals, rules, session.game_state, session.roster)
    return {str(rules.get("currency") or ""): {k: p.result * rate
                                               for k, p in placings.items()}}


def _rekey(key: str, name: str, links: Mapping[str, Mapping[str, str]],
           accounts: Mapping[str, str]) -> tuple[str, str]:
    """A payment's person as a game's seat of that guest name is keyed today."""
    if key.startswith("name:"):
        link = links.get(key.removeprefix("name:"))
        if link:
            return link["id"], link["name"]
        return accounts.get(key, key), name
    return key, name


def settle(balances: Mapping[str, Decimal]) -> list[tuple[str, str, Decimal]]:
    """(payer, payee, amount): the fewest transfers that clear one currency's balances
    (exactly, up to EXACT_UP_TO people with a balance; beyond, largest debts first)."""
    owing = {k: v for k, v in balances.items() if v}
    keys = sorted(owing)
    if len(keys) <= EXACT_UP_TO:
        return [(keys[p.payer], keys[p.payee], p.amount)
                for p in settle_money({i: owing[k] for i, k in enumerate(keys)})]
    return pay_greedily(owing)


def parse_amount(text: str, places: int, currency: str, tr: Tr | None = None) -> Decimal:
    """A positive amount with at most `places` decimals ("500", "1,200.50": typed as the
    commands take numbers, in every language). `tr`: the limit named in its language."""
    raw = text.strip()
    example = format_money(Decimal("500"), currency)  # as it is typed
    if not _AMOUNT.match(raw):
        raise UserError(_("`{text}` is not an amount: give a number like 500 or 12.50 (in "
                          "{currency}, e.g. {example}).", text=clip(raw),
                          currency=show_currency(currency), example=example))
    try:
        amount = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        raise UserError(_("`{text}` is not an amount.", text=clip(raw))) from None
    if amount <= 0:
        raise UserError(_("A payment is more than 0."))
    if amount > MAX_AMOUNT:
        raise UserError(_("A payment is at most {amount}.",
                          amount=format_money(MAX_AMOUNT, currency, tr=tr)))
    decimals = amount_decimals(amount)
    if decimals > places:
        raise UserError(_n_decimals(currency, places, clip(raw), decimals))
    return amount


def _n_decimals(currency: str, places: int, raw: str, decimals: int) -> Msg:
    if currency:
        return _("{currency} amounts here have at most {places} decimals; `{text}` has "
                 "{decimals}.", currency=currency, places=places, text=raw, decimals=decimals)
    return _("Amounts of money played with no currency named have at most {places} "
             "decimals here; `{text}` has {decimals}.", places=places, text=raw,
             decimals=decimals)


def amount_decimals(amount: Decimal) -> int:
    """The decimals an amount has, trailing zeros aside, counted exactly (normalize() would
    round an amount of more than 28 digits first: 1.000...001 would count as 1)."""
    _, digits, exponent = amount.as_tuple()
    assert isinstance(exponent, int)
    while exponent < 0 and len(digits) > 1 and digits[-1] == 0:
        digits, exponent = digits[:-1], exponent + 1
    return max(0, -exponent)


def show_currency(currency: str) -> Text:
    """The currency as named, or what money with none is called (lazy text)."""
    return currency or _("money played with no currency named")


def signed(amount: Decimal, currency: str, places: int | None = None,
           tr: Tr | None = None) -> str:
    """+700 Rs, -12.50 Rs, 0 Rs (a zero reads 0, whatever the decimals); `tr`: numbers as
    its language writes them."""
    return format_money(amount, currency, 0 if not amount else places, signed=True, tr=tr)
