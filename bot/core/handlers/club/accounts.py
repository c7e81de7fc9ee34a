"""/account: one person across platforms. `/account link` gives a one-time code shown to
that person alone (Discord: an ephemeral answer; Telegram: in the private chat with the
bot, a button to it from a group; the console: its own terminal); `/account link
code:XXXX-XXXX` typed on another platform makes the two accounts one member of every club;
`/account` shows what is linked; `/account unlink` undoes it. Two accounts of one platform
are never one person."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.club import codes
from bot.core.club.book import ACCOUNT
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.club.common import book
from bot.core.i18n import _

PLATFORMS = {"telegram": "Telegram", "discord": "Discord", "console": "the console"}
START_LINK = "link"  # what a group's button opens the private chat with (/start link)


def platform(account: str) -> str:
    return account.split(":", 1)[0]


def _shown(account: str) -> str:
    return PLATFORMS.get(platform(account), platform(account))


def group_of(persons: dict[str, str], account: str) -> list[str]:
    """Every account one person has (the account itself at least)."""
    person = persons.get(account, account)
    found = sorted({a for a, p in persons.items() if p == person} | {account})
    return found


async def account(call: Call) -> Outcome:
    words = (call.options.get("") or "").split()
    action = words[0].lower() if words else ""
    if action == "link":
        if call.options.get("code") or len(words) > 1:
            return await _use(call, call.options.get("code") or " ".join(words[1:]))
        return await _give(call)
    if action == "unlink":
        return await _unlink(call)
    if action:
        raise UserError(_("/account, /account link, /account link code:XXXX-XXXX or /account "
                          "unlink; not `{word}`.", word=clip(words[0])))
    return await _show(call)


async def _show(call: Call) -> Outcome:
    tr = call.tr
    persons = await book(call).persons()
    me = call.command.actor.id
    others = [a for a in group_of(persons, me) if a != me]
    if not others:
        return Outcome(Reply(tr("This account is linked to no other. /account link gives a "
                                "code to type on your other platform, so your games there "
                                "and here count as one member of a club.")))
    return Outcome(Reply(tr("This account and your {platforms} account are one member of "
                            "every club. /account unlink separates them.",
                            platforms=", ".join(_shown(a) for a in others))))


async def _give(call: Call) -> Outcome:
    tr = call.tr
    if not call.command.private:  # a group that can't show one person a line of their own
        reply = Reply(tr("Your code is for your eyes only: open the private chat with me "
                         "(the button) and I give it there."))
        reply.start_private = START_LINK
        return Outcome(reply)
    code = codes.new_code()
    me = call.command.actor.id
    await book(call).add_code(codes.digest_of(code), ACCOUNT, me, me,
                              datetime.now(UTC) + codes.LINK_FOR)
    reply = Reply(tr("Your code: {code}. On your other platform (Telegram, Discord), type "
                     "/account link code:{code} within 15 minutes; it works once. Keep it to "
                     "yourself: whoever types it becomes you in the clubs.", code=code))
    reply.private = True
    kept = Reply(tr("A code was given here; it is not kept. /account link gives a new one."))
    return Outcome(reply, changed=True, kept=kept)


async def _use(call: Call, typed: str) -> Outcome:
    tr = call.tr
    clubs = book(call)
    me = call.command.actor.id
    if not codes.looks_like_code(typed):
        raise UserError(_("`{code}` is no account code: a code is 8 letters and digits, as "
                          "XXXX-XXXX.", code=clip(typed)))
    persons = await clubs.persons()
    used = await clubs.use_code(codes.digest_of(typed), ACCOUNT, me, datetime.now(UTC))
    if used.subject is None:
        raise UserError({
            "used": _("That code was used already: it links once. /account link on your "
                      "other platform gives a new one."),
            "expired": _("That code is more than 15 minutes old: /account link on your "
                         "other platform gives a new one."),
            "kind": _("That is a club's code: it is typed as /club join code:... ."),
        }.get(used.why, _("No account has that code. Check it, or /account link on your "
                          "other platform gives a new one.")))
    theirs = used.subject
    if theirs == me:
        raise UserError(_("That is this account's own code: type it on your other "
                          "platform. Nothing is linked."))
    mine, other = group_of(persons, me), group_of(persons, theirs)
    if theirs in mine:
        return Outcome(Reply(tr("These accounts are one member already.")))
    merged = mine + other
    platforms = [platform(a) for a in merged]
    clash = next((p for p in platforms if platforms.count(p) > 1), None)
    if clash is not None:
        raise UserError(_("Two {platform} accounts are never one person: that code was made "
                          "on {platform}, as this account is (or one linked to it). Nothing "
                          "is linked.", platform=PLATFORMS.get(clash, clash)))
    person = persons.get(theirs, theirs)
    for account_ in merged:
        await clubs.link(account_, person)
    return Outcome(Reply(tr("Linked: this account and your {platform} account are one member "
                            "of every club now; their games count together.",
                            platform=_shown(theirs))), changed=True)


async def _unlink(call: Call) -> Outcome:
    clubs = book(call)
    persons = await clubs.persons()
    me = call.command.actor.id
    mine = group_of(persons, me)
    if len(mine) == 1:
        raise UserError(_("This account is linked to no other: nothing to undo."))
    await clubs.unlink(persons.get(me, me))
    return Outcome(Reply(call.tr("Unlinked: each of your accounts is its own member again.")),
                   changed=True)
