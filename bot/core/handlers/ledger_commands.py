"""The chat's ledger: /ledger, /ledger history, /paid, and /undo of a payment."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from bot.core import flows, permissions
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome, ask, starter
from bot.core.i18n import Joined, Msg, Tr, _, join
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
NO_MONEY = _("No game here has been played for money yet (/rules rate:0.25 currency:Rs), "
             "so there is nothing to pay.")
STALE = _("The ledger changed since this was asked; nothing was done. Ask again.")
EMPTY = _("The ledger is empty: the money of a finished game played for money (/rules "
          "rate:0.25 currency:Rs) enters it at /endgame; Tranca, a race, never does.")


def _money(amount: Decimal, currency: str, places: int | None, tr: Tr) -> str:
    return format_money(amount, currency, places, tr=tr)


def payments(n: int, tr: Tr) -> str:
    return tr.plural("{n} payment", "{n} payments", n)


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
    tr = call.tr
    show = call.options.get("", "").strip()
    if show and show.lower() != "history":
        raise UserError(_("/ledger shows the balances; /ledger history the games and "
                          "payments (the latest {n}); not `{text}`.", n=HISTORY_ROWS,
                          text=clip(show)))
    book = await load(call)
    if show:
        return Outcome(Reply(history(book, call)))
    balances = book.balances()
    live = book.live()
    if not book.games and not live:
        return Outcome(Reply(tr.render(EMPTY)))
    lines = [tr("Ledger: {games}, {payments} (/ledger history lists them).",
                games=tr.plural("{n} game", "{n} games", len(book.games)),
                payments=payments(len(live), tr))]
    for currency in sorted(balances):
        row = {k: v for k, v in balances[currency].items() if v}
        if not row:
            lines.append(tr("{currency}: all square.", currency=currency) if currency else
                         tr("Money (no currency named): all square."))
            continue
        places = book.decimals(currency)
        lines.append(f"{currency}:" if currency else tr("Money (no currency named):"))
        for key in sorted(row, key=lambda k: (-row[k], book.name(k).lower())):
            name = book.name(key) if book.played(key) else \
                tr("{name} (never played here)", name=book.name(key))
            lines.append(f"  {name} {signed(row[key], currency, places, tr)}")
        moves = settle(row)
        lines.append("  " + tr("To settle: {payments}.", payments="; ".join(
            tr("{payer} pays {payee} {amount}", payer=book.name(payer),
               payee=book.name(payee), amount=_money(amount, currency, places, tr))
            for payer, payee, amount in moves)))
    return Outcome(Reply("\n".join(lines)))


def _when(moment: datetime | None, call: Call) -> str:
    """A moment of the ledger, in the chat's timezone, as the reader's language writes it."""
    return call.tr.datetime(moment.astimezone(call.settings.zone)) if moment else "?"


def history(book: Ledger, call: Call) -> str:
    tr = call.tr
    entries: list[tuple[datetime, int, str]] = []
    for game in book.games:
        parts = []
        for currency, amounts in sorted(game.money.items()):
            places = book.decimals(currency)
            parts += [f"{book.name(k)} {signed(v, currency, places, tr)}" for k, v in
                      sorted(amounts.items(), key=lambda kv: (-kv[1], book.name(kv[0])))]
        when = game.ended_at or datetime.min
        entries.append((when, 0, tr(
            "{when} · game {no} ({game}) ended: {money}", when=_when(game.ended_at, call),
            no=game.number, game=tr.text(game.title),
            money=", ".join(parts) or tr("all square"))))
    for no, payment in enumerate(book.payments, 1):
        values = {"when": _when(payment.created_at, call), "no": no,
                  "payment": _payment(payment, tr, book.decimals(payment.currency)),
                  "who": payment.recorded_by_name}
        if payment.voided_at is None:
            line = tr("{when} · payment {no}: {payment} (recorded by {who})", **values)
        else:
            line = tr("{when} · payment {no}: {payment} (recorded by {who}), undone {undone}",
                      undone=_when(payment.voided_at, call), **values)
        entries.append((payment.created_at or datetime.min, 1, line))
    if not entries:
        return tr.render(EMPTY)
    entries.sort(key=lambda e: (e[0].timestamp() if e[0].tzinfo else 0, e[1]))
    shown = entries[-HISTORY_ROWS:]
    more = len(entries) - len(shown)
    head = [tr.plural("The ledger, oldest first ({n} earlier not shown):",
                      "The ledger, oldest first ({n} earlier not shown):", more)] if more else [
        tr("The ledger, oldest first:")]
    return "\n".join(head + [line for _when_, _kind, line in shown])


def _payment(payment: PaymentRecord, tr: Tr, places: int | None = None) -> str:
    return tr("{payer} paid {payee} {amount}", payer=payment.payer_name,
              payee=payment.payee_name,
              amount=_money(payment.amount, payment.currency, places, tr))


async def paid(call: Call) -> Outcome:
    options, command, tr = call.options, call.command, call.tr
    # who and how much, a currency after it perhaps: "bob 1,000.50", "bob 500 Rs" (an
    # amount's commas are thousands, so the words are split at spaces only)
    words = _amount_last(
        [w for w in (w.rstrip(",") for w in options.get("", "").split()) if w])
    if len(words) not in (2, 3):
        raise UserError(_("Say who paid and how much, and to whom: /paid bob 500 to:alice "
                          "(or /paid bob 500 Rs to:alice)"))
    named = options.get("currency")
    if len(words) == 3:
        if named is not None and named.strip() != words[2]:
            raise UserError(_("Name the currency once: {word} or currency:{named}.",
                              word=clip(words[2]), named=clip(named.strip())))
        named = words[2]
    book = await load(call)
    mentions = command.mentions
    payer = book.resolve(words[0], mentions)
    payee = book.resolve(options["to"], mentions)
    if payer.key == payee.key:
        raise UserError(_("{name} can't pay themselves.", name=payer.name))
    currency = _currency(book, payer.key, payee.key, named)
    amount = parse_amount(words[1], book.places(currency), currency, tr)
    permissions.check(Rule.PAYEE, call.roles,
                      tr("record a payment to {name}", name=payee.name),
                      payee=is_person(payee, command.actor))
    before = book.balances().get(currency, {})
    payer_before = before.get(payer.key, Decimal(0))
    payee_before = before.get(payee.key, Decimal(0))
    owes, owed = max(-payer_before, Decimal(0)), max(payee_before, Decimal(0))
    if not permissions.allowed(Rule.PAYEE, call.roles, payee=True,
                               within=amount <= min(owes, owed)):
        raise UserError(_beyond(payer.name, payee.name, owes, owed, amount, currency,
                                max(book.decimals(currency), money_places([amount])), tr))
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

    def money(value: Decimal) -> str:
        return _money(value, currency, places, tr)

    def balance(value: Decimal) -> str:
        return signed(value, currency, places, tr)

    lines = [tr("Payment {no} recorded: {payer} paid {payee} {amount}.", no=number,
                payer=payer.name, payee=payee.name, amount=money(payment.amount)),
             tr("{payer} {payer_before} → {payer_after}; {payee} {payee_before} → "
                "{payee_after}.", payer=payer.name, payer_before=balance(payer_before),
                payer_after=balance(payer_after), payee=payee.name,
                payee_before=balance(payee_before), payee_after=balance(payee_after))]
    if payer_after > 0:  # the payer is owed now: a flip, or a payment by someone owed
        if payer_before < 0:
            lines.append(tr("That is more than {payer} owed ({owed}): the balance flips, "
                            "{payer} is owed {now} now.", payer=payer.name,
                            owed=money(-payer_before), now=money(payer_after)))
        elif payer_before > 0:
            lines.append(tr("{payer} owed nothing: they were owed {before} already and are "
                            "owed {now} now. A payment the wrong way round? /undo payment, "
                            "then /paid {payee} {amount} to:{payer}.", payer=payer.name,
                            before=money(payer_before), now=money(payer_after),
                            payee=payee.name, amount=words[1]))
        elif currency:
            lines.append(tr("{payer} owed nothing in {currency}: they are owed {now} now.",
                            payer=payer.name, currency=currency, now=money(payer_after)))
        else:
            lines.append(tr("{payer} owed nothing in money played with no currency named: "
                            "they are owed {now} now.", payer=payer.name,
                            now=money(payer_after)))
    if payee_after < 0:  # the payee owes now: a flip, or a payment to someone who owed
        if payee_before > 0:
            lines.append(tr("{payee} was owed {owed}: the balance flips, {payee} owes {now} "
                            "now.", payee=payee.name, owed=money(payee_before),
                            now=money(-payee_after)))
        elif payee_before < 0:
            lines.append(tr("{payee} was owed nothing: they owed {before} already and owe "
                            "{now} now.", payee=payee.name, before=money(-payee_before),
                            now=money(-payee_after)))
        elif currency:
            lines.append(tr("{payee} was owed nothing in {currency}: they owe {now} now.",
                            payee=payee.name, currency=currency, now=money(-payee_after)))
        else:
            lines.append(tr("{payee} was owed nothing in money played with no currency "
                            "named: they owe {now} now.", payee=payee.name,
                            now=money(-payee_after)))
    lines.append(tr("/undo payment takes it back."))
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
            currency: str, places: int, tr: Tr) -> Msg:
    """Why the person paid can't record this much: the two figures, and who can."""
    def money(value: Decimal) -> str:
        return _money(value, currency, places, tr)

    where = show_currency(currency)
    owing = _("{payer} owes {amount}", payer=payer, amount=money(owes)) if owes else \
        _("{payer} owes nothing in {currency}", payer=payer, currency=where)
    claim = _("{payee} is owed {amount}", payee=payee, amount=money(owed)) if owed else \
        _("{payee} is owed nothing in {currency}", payee=payee, currency=where)
    most = min(owes, owed)
    values = {"amount": money(amount), "payer": payer, "payee": payee, "owing": owing,
              "claim": claim}
    if most:
        return _("Only a chat admin can record {amount} from {payer} to {payee}: {owing} and "
                 "{claim}. The person paid records at most the smaller, so no balance flips "
                 "and no debt moves onto anyone else. You can record up to {most}.",
                 most=money(most), **values)
    return _("Only a chat admin can record {amount} from {payer} to {payee}: {owing} and "
             "{claim}. The person paid records at most the smaller, so no balance flips and "
             "no debt moves onto anyone else.", **values)


def _currency(book: Ledger, payer: str, payee: str, given: str | None) -> str:
    """The payment's currency: the one named, or the only one payer and payee share (the
    only one the chat has played for, when they share none yet)."""
    if given is not None and not book.currencies:
        raise UserError(NO_MONEY)
    if given is not None:
        word = given.strip()
        wanted = "" if word.lower() in NONE_WORDS else word
        if wanted in book.currencies:  # exactly as named: Rs is never rs
            return wanted
        matches = sorted(c for c in book.currencies if c.casefold() == wanted.casefold())
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise UserError(_("`{word}` could be {currencies}: name it exactly as played, "
                              "e.g. currency:{first}.", word=clip(word),
                              currencies=", ".join(matches), first=matches[0]))
        raise UserError(_("This chat has played for {currencies}, not `{word}`.",
                          currencies=_currencies(book.currencies), word=clip(word)))
    shared = book.currencies_of(payer) & book.currencies_of(payee)
    if len(shared) == 1:
        return next(iter(shared))
    if len(shared) > 1:
        raise UserError(_("Which currency? They have {currencies} in the ledger: add "
                          "currency:{first}.", currencies=_currencies(shared),
                          first=sorted(shared)[0] or "none"))
    if len(book.currencies) == 1:
        return next(iter(book.currencies))
    if not book.currencies:
        raise UserError(NO_MONEY)
    raise UserError(_("Which currency? This chat has played for {currencies}: add "
                      "currency:.", currencies=_currencies(book.currencies)))


def _currencies(currencies: set[str]) -> Joined:
    """The currencies as named; money with none as `none` (what currency: takes for it)."""
    return join([c or _("none (no currency named)") for c in sorted(currencies)], ", ")


async def undo_payment(call: Call) -> Outcome:
    """Undo a payment (kept in the ledger as undone): /undo payment the latest one you
    recorded (an admin: the latest of all), /undo payment:N payment N of /ledger history, a
    tap the one it asked about. Without buttons a bare /undo (no game open) undoes nothing:
    taking money back is said in words."""
    command, tr = call.command, call.tr
    recorded = await call.tx.payments()
    numbered = list(enumerate(recorded, 1))
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
        if number > len(recorded):
            raise UserError(_("There is no payment {no}: /ledger history numbers {payments}.",
                              no=number, payments=payments(len(recorded), tr)))
        payment = recorded[number - 1]
        if payment.voided_at is not None:
            raise UserError(_("Payment {no} ({payment}) is undone already.", no=number,
                              payment=_payment(payment, tr)))
    else:
        if not named and not command.buttons:
            raise UserError(_("To take a payment back, say so: /undo payment (the latest you "
                              "recorded) or /undo payment:N (N as /ledger history numbers "
                              "it).") if call.session is not None else
                            _("No game is open here. To take a payment back, say so: /undo "
                              "payment (the latest you recorded) or /undo payment:N (N as "
                              "/ledger history numbers it)."))
        if not live:
            raise UserError(_("There is no payment to undo.") if call.session is not None
                            else _("No game is open here, and there is no payment to undo."))
        mine = live if call.roles.admin else [
            (i, p) for i, p in live if p.recorded_by == command.actor.id]
        if not mine:
            raise UserError(_("You have recorded no payment that is still in the ledger. "
                              "/undo payment:N undoes payment N of /ledger history: {who} "
                              "may.", who=permissions.WHO[Rule.PAYMENT]))
        number, payment = mine[-1]
    assert payment.id is not None
    permissions.check(Rule.PAYMENT, call.roles,
                      tr("undo payment {no} (recorded by {who})", no=number,
                         who=payment.recorded_by_name), recorded_by=payment.recorded_by)
    decided = named or call.options.get("reason")
    if command.buttons and asked is None and not decided:
        return ask(flows.confirm(
            flows.Step.UNDO, tr("Undo payment {no}: {payment}?", no=number,
                                payment=_payment(payment, tr)),
            tr("Yes, undo it"), 0, payment.id, starter(call), tr))
    await call.tx.void_payment(payment.id, command.actor.id)
    return Outcome(Reply(tr("Undid payment {no}: {payment} (recorded by {who}). /ledger shows "
                            "the balances.", no=number, payment=_payment(payment, tr),
                            who=payment.recorded_by_name)), changed=True)
