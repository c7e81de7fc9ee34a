"""The chat's ledger: /ledger, /ledger history, /paid, and /undo of a payment."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from bot.core import flows, i18n, permissions
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome, ask, starter
from bot.core.ledger import (
    NONE_WORDS,
    Ledger,
    build,
    is_person,
    parse_amount,
    settle,
    show_currency,
    signed,
)
from bot.core.money import MoneyBook, book_add, format_money, money_places
from bot.core.permissions import Rule
from bot.core.session import PaymentRecord

HISTORY_ROWS = 30
_AMOUNTISH = re.compile(r"[\d.,]*\d[\d.,]*")
# an amount with a currency run on before or after it: 20Rs, Rs20, $12.50 (never a sign)
_GLUED = re.compile(r"(?P<before>[^\d.,+\-\s]*)(?P<amount>[\d.,]*\d[\d.,]*)"
                    r"(?P<after>[^\d.,+\-\s]*)")
STALE = "The ledger changed since this was asked; nothing was done. Ask again."
EMPTY = ("The ledger is empty: the money of a finished Marriage, marriage rummy or Riichi "
         "game played for money (/rules rate:0.25 currency:Rs) enters it at /endgame.")


async def load(call: Call) -> Ledger:
    """The chat's ledger as it stands: every session's money book (derived from the hands
    for a session from before money was kept) and every payment."""
    played = []
    for number, session in enumerate(await call.tx.chat_sessions(), 1):
        book: MoneyBook | None = session.money
        if book is None:
            assert session.id is not None
            book = {}
            places = call.table.games[session.game].point_places
            for hand in await call.tx.all_hands(session.id):
                book_add(book, hand.deltas, hand.rules, places)
        played.append((number, session, book))
    return build(played, await call.tx.payments(), call.settings.links)


async def ledger(call: Call) -> Outcome:
    show = call.options.get("", "").strip()
    if show and show.lower() != "history":
        raise UserError(f"/ledger shows the balances; /ledger history the games and "
                        f"payments (the latest {HISTORY_ROWS}); not `{clip(show)}`.")
    book = await load(call)
    if show:
        return Outcome(Reply(history(book, call)))
    balances = book.balances()
    live = book.live()
    if not book.games and not live:
        return Outcome(Reply(EMPTY))
    lines = [f"Ledger: {i18n.plural(len(book.games), 'game')}, "
             f"{i18n.plural(len(live), 'payment')} (/ledger history lists them)."]
    for currency in sorted(balances):
        row = {k: v for k, v in balances[currency].items() if v}
        head = show_currency(currency) if currency else "Money (no currency named)"
        if not row:
            lines.append(f"{head}: all square.")
            continue
        places = book.decimals(currency)
        lines.append(f"{head}:")
        for key in sorted(row, key=lambda k: (-row[k], book.name(k).lower())):
            lines.append(f"  {book.name(key)} {signed(row[key], currency, places)}")
        moves = settle(row)
        lines.append("  To settle: " + "; ".join(
            f"{book.name(payer)} pays {book.name(payee)} "
            f"{format_money(amount, currency, places)}" for payer, payee, amount in moves)
            + ".")
    return Outcome(Reply("\n".join(lines)))


def _when(moment: datetime | None, call: Call) -> str:
    return moment.astimezone(call.settings.zone).strftime("%d %b %Y %H:%M") if moment else "?"


def history(book: Ledger, call: Call) -> str:
    entries: list[tuple[datetime, int, str]] = []
    for game in book.games:
        parts = []
        for currency, amounts in sorted(game.money.items()):
            places = book.decimals(currency)
            parts += [f"{book.name(k)} {signed(v, currency, places)}" for k, v in
                      sorted(amounts.items(), key=lambda kv: (-kv[1], book.name(kv[0])))]
        when = game.ended_at or datetime.min
        entries.append((when, 0, f"{_when(game.ended_at, call)} · game {game.number} "
                                 f"({game.title}) ended: {', '.join(parts) or 'all square'}"))
    for no, payment in enumerate(book.payments, 1):
        line = (f"{_when(payment.created_at, call)} · payment {no}: "
                f"{_payment(payment, book.decimals(payment.currency))} "
                f"(recorded by {payment.recorded_by_name})")
        if payment.voided_at is not None:
            line += f", undone {_when(payment.voided_at, call)}"
        entries.append((payment.created_at or datetime.min, 1, line))
    if not entries:
        return EMPTY
    entries.sort(key=lambda e: (e[0].timestamp() if e[0].tzinfo else 0, e[1]))
    shown = entries[-HISTORY_ROWS:]
    more = len(entries) - len(shown)
    head = [f"The ledger, oldest first ({more} earlier not shown):"] if more else [
        "The ledger, oldest first:"]
    return "\n".join(head + [line for _, _, line in shown])


def _payment(payment: PaymentRecord, places: int | None = None) -> str:
    return (f"{payment.payer_name} paid {payment.payee_name} "
            f"{format_money(payment.amount, payment.currency, places)}")


async def paid(call: Call) -> Outcome:
    options, command = call.options, call.command
    # who and how much, a currency after it perhaps: "bob 1,000.50", "bob 500 Rs" (an
    # amount's commas are thousands, so the words are split at spaces only)
    words = _amount_last(
        [w for w in (w.rstrip(",") for w in options.get("", "").split()) if w])
    if len(words) not in (2, 3):
        raise UserError("Say who paid and how much, and to whom: /paid bob 500 to:alice "
                        "(or /paid bob 500 Rs to:alice)")
    named = options.get("currency")
    if len(words) == 3:
        if named is not None and named.strip() != words[2]:
            raise UserError(f"Name the currency once: {clip(words[2])} or "
                            f"currency:{clip(named.strip())}.")
        named = words[2]
    book = await load(call)
    mentions = command.mentions
    payer = book.resolve(words[0], mentions)
    payee = book.resolve(options["to"], mentions)
    if payer.key == payee.key:
        raise UserError(f"{payer.name} can't pay themselves.")
    currency = _currency(book, payer.key, payee.key, named)
    amount = parse_amount(words[1], book.places(currency), currency)
    permissions.check(Rule.PAYEE, call.roles, f"record a payment to {payee.name}",
                      payee=is_person(payee, command.actor))
    before = book.balances().get(currency, {})
    payer_before = before.get(payer.key, Decimal(0))
    payee_before = before.get(payee.key, Decimal(0))
    owes, owed = max(-payer_before, Decimal(0)), max(payee_before, Decimal(0))
    if not permissions.allowed(Rule.PAYEE, call.roles, payee=True,
                               within=amount <= min(owes, owed)):
        raise UserError(_beyond(payer.name, payee.name, owes, owed, amount, currency,
                                max(book.decimals(currency), money_places([amount]))))
    # stored as each was named (a guest by the guest's own key): a /link changed later
    # moves the payment with the guest, as it moves the guest's games
    payer_key, payer_name = book.own_key(payer, words[0], mentions)
    payee_key, payee_name = book.own_key(payee, options["to"], mentions)
    payment = await call.tx.add_payment(PaymentRecord(
        payer=payer_key, payer_name=payer_name, payee=payee_key, payee_name=payee_name,
        amount=amount, currency=currency, recorded_by=command.actor.id,
        recorded_by_name=command.actor.name, origin_id=command.origin_id))
    number = len(book.payments) + 1
    payer_after, payee_after = payer_before + amount, payee_before - amount
    # as /ledger shows this currency, the payment's own decimals included
    places = max(book.decimals(currency), money_places([amount]))
    lines = [f"Payment {number} recorded: {payer.name} paid {payee.name} "
             f"{format_money(payment.amount, currency, places)}.",
             f"{payer.name} {signed(payer_before, currency, places)} → "
             f"{signed(payer_after, currency, places)}; {payee.name} "
             f"{signed(payee_before, currency, places)} → "
             f"{signed(payee_after, currency, places)}."]
    money = show_currency(currency)
    if payer_after > 0:  # the payer is owed now: a flip, or a payment by someone owed
        if payer_before < 0:
            lines.append(f"That is more than {payer.name} owed "
                         f"({format_money(-payer_before, currency, places)}): the balance "
                         f"flips, {payer.name} is owed "
                         f"{format_money(payer_after, currency, places)} now.")
        elif payer_before > 0:
            lines.append(f"{payer.name} owed nothing: they were owed "
                         f"{format_money(payer_before, currency, places)} already and are "
                         f"owed {format_money(payer_after, currency, places)} now. A payment "
                         f"the wrong way round? /undo payment, then /paid "
                         f"{payee.name} {words[1]} to:{payer.name}.")
        else:
            lines.append(f"{payer.name} owed nothing in {money}: they are owed "
                         f"{format_money(payer_after, currency, places)} now.")
    if payee_after < 0:  # the payee owes now: a flip, or a payment to someone who owed
        if payee_before > 0:
            lines.append(f"{payee.name} was owed "
                         f"{format_money(payee_before, currency, places)}: the balance "
                         f"flips, {payee.name} owes "
                         f"{format_money(-payee_after, currency, places)} now.")
        elif payee_before < 0:
            lines.append(f"{payee.name} was owed nothing: they owed "
                         f"{format_money(-payee_before, currency, places)} already and owe "
                         f"{format_money(-payee_after, currency, places)} now.")
        else:
            lines.append(f"{payee.name} was owed nothing in {money}: they owe "
                         f"{format_money(-payee_after, currency, places)} now.")
    lines.append("/undo payment takes it back.")
    return Outcome(Reply("\n".join(lines)), changed=True)


def _amount_last(words: list[str]) -> list[str]:
    """Who, the amount, the currency, as people write them: "carol Rs 20" (the currency
    first) and "carol 20Rs" or "carol Rs20" (run together) read as "carol 20 Rs"."""
    if len(words) == 3 and not _AMOUNTISH.fullmatch(words[1]) \
            and _AMOUNTISH.fullmatch(words[2]):
        return [words[0], words[2], words[1]]
    if len(words) == 2:
        glued = _GLUED.fullmatch(words[1])
        if glued and bool(glued["before"]) != bool(glued["after"]):
            return [words[0], glued["amount"], glued["before"] or glued["after"]]
    return words


def _beyond(payer: str, payee: str, owes: Decimal, owed: Decimal, amount: Decimal,
            currency: str, places: int) -> str:
    """Why the person paid can't record this much: the two figures, and who can."""
    money = show_currency(currency)
    owing = f"{payer} owes {format_money(owes, currency, places)}" if owes else \
        f"{payer} owes nothing in {money}"
    claim = f"{payee} is owed {format_money(owed, currency, places)}" if owed else \
        f"{payee} is owed nothing in {money}"
    most = min(owes, owed)
    yours = f" You can record up to {format_money(most, currency, places)}." if most else ""
    return (f"Only a chat admin can record {format_money(amount, currency, places)} from "
            f"{payer} to {payee}: {owing} and {claim}. The person paid records at most the "
            f"smaller, so no balance flips and no debt moves onto anyone else.{yours}")


def _currency(book: Ledger, payer: str, payee: str, given: str | None) -> str:
    """The payment's currency: the one named, or the only one payer and payee share (the
    only one the chat has played for, when they share none yet)."""
    if given is not None:
        word = given.strip()
        wanted = "" if word.lower() in NONE_WORDS else word
        if wanted in book.currencies:  # exactly as named: Rs is never rs
            return wanted
        matches = sorted(c for c in book.currencies if c.casefold() == wanted.casefold())
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise UserError(f"`{clip(word)}` could be {', '.join(matches)}: name it exactly "
                            f"as played, e.g. currency:{matches[0]}.")
        raise UserError(f"This chat has played for {_currencies(book.currencies)}, not "
                        f"`{clip(word)}`.")
    shared = book.currencies_of(payer) & book.currencies_of(payee)
    if len(shared) == 1:
        return next(iter(shared))
    if len(shared) > 1:
        raise UserError(f"Which currency? They have {_currencies(shared)} in the ledger: "
                        f"add currency:{sorted(shared)[0] or 'none'}.")
    if len(book.currencies) == 1:
        return next(iter(book.currencies))
    if not book.currencies:
        raise UserError("No game here has been played for money yet (/rules rate:0.25 "
                        "currency:Rs), so there is nothing to pay.")
    raise UserError(f"Which currency? This chat has played for "
                    f"{_currencies(book.currencies)}: add currency:.")


def _currencies(currencies: set[str]) -> str:
    return ", ".join(c or "none (no currency named)" for c in sorted(currencies))


async def undo_payment(call: Call) -> Outcome:
    """Undo a payment (kept in the ledger as undone): /undo payment the latest one you
    recorded (an admin: the latest of all), /undo payment:N payment N of /ledger history, a
    tap the one it asked about. Without buttons a bare /undo (no game open) undoes nothing:
    taking money back is said in words."""
    command = call.command
    payments = await call.tx.payments()
    numbered = list(enumerate(payments, 1))
    live = [(i, p) for i, p in numbered if p.voided_at is None]
    asked = command.expect
    chosen = call.options.get("payment")
    named = call.options.get("") == "payment" or chosen is not None
    if asked is not None:  # a tap confirming the payment it asked about (by its id)
        found = next(((i, p) for i, p in live if p.id == asked.get("hand")), None)
        if asked.get("session") != 0 or found is None:
            raise UserError(STALE)
        number, payment = found
    elif chosen is not None:
        number = int(chosen)
        if number > len(payments):
            raise UserError(f"There is no payment {number}: /ledger history numbers "
                            f"{i18n.plural(len(payments), 'payment')}.")
        payment = payments[number - 1]
        if payment.voided_at is not None:
            raise UserError(f"Payment {number} ({_payment(payment)}) is undone already.")
    else:
        if not named and not command.buttons:
            raise UserError(("No game is open here. " if call.session is None else "")
                            + "To take a payment back, say so: /undo payment (the latest "
                            "you recorded) or /undo payment:N (N as /ledger history numbers "
                            "it).")
        if not live:
            raise UserError("There is no payment to undo." if call.session is not None
                            else "No game is open here, and there is no payment to undo.")
        mine = live if call.roles.admin else [
            (i, p) for i, p in live if p.recorded_by == command.actor.id]
        if not mine:
            raise UserError("You have recorded no payment that is still in the ledger. "
                            "/undo payment:N undoes payment N of /ledger history: "
                            f"{permissions.WHO[Rule.PAYMENT]} may.")
        number, payment = mine[-1]
    assert payment.id is not None
    permissions.check(Rule.PAYMENT, call.roles, f"undo payment {number} (recorded by "
                      f"{payment.recorded_by_name})", recorded_by=payment.recorded_by)
    decided = named or call.options.get("reason")
    if command.buttons and asked is None and not decided:
        return ask(flows.confirm(
            flows.Step.UNDO, f"Undo payment {number}: {_payment(payment)}?",
            "Yes, undo it", 0, payment.id, starter(call)))
    await call.tx.void_payment(payment.id, command.actor.id)
    return Outcome(Reply(f"Undid payment {number}: {_payment(payment)} (recorded by "
                         f"{payment.recorded_by_name}). /ledger shows the balances."),
                   changed=True)
