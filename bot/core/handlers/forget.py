"""/forget: a person has the bot forget them (their account and username, in every chat),
or a chat admin the whole chat. On a platform with buttons it asks first; the work runs
after the chat's turn, chat by chat (bot/storage/chats/forget.py), and doing it twice is harmless,
so a message handled again forgets nothing more and needs no kept reply."""

from __future__ import annotations

from bot.core import flows, permissions
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.flows import FORGET_CHAT, FORGET_ME, Ask, Choice, Question, Step, Token
from bot.core.handlers.call import Call, Outcome, ask, starter
from bot.core.i18n import _
from bot.core.permissions import Rule

ME, CHAT = "me", "chat"


async def forget(call: Call) -> Outcome:
    what = (call.options.get("") or ME).strip().lower()
    whole = what == CHAT
    permissions.check(Rule.FORGET, call.roles, _("have this whole chat forgotten") if whole
                      else _("be forgotten"), whole_chat=whole)
    asked = call.command.expect
    kind = FORGET_CHAT if whole else FORGET_ME
    if asked is not None and asked.get("forget") != kind:
        raise UserError(_("This button is no longer valid."))
    if call.command.buttons and asked is None:
        return ask(_question(call, whole))
    store = call.store
    assert store is not None, "the service gives /forget the store"
    tr, actor, chat = call.tr, call.command.actor, call.command.chat

    async def forget_person() -> Reply:
        done = await store.forget_person(actor.id, actor.handles[0] if actor.handles
                                         else None)
        if not done.chats:
            return Reply(tr("I had nothing of yours to forget."))
        if not done.seats:
            return Reply(tr("Forgotten: your account is out of {chats}. You had no seat, so "
                            "every score stays as it was.",
                            chats=tr.plural("{n} chat", "{n} chats", done.chats)))
        return Reply(tr("Forgotten: your account is out of {chats}. Your seats ({seats}) are "
                        "guest seats now, so everyone else's scores and ledgers stay whole.",
                        chats=tr.plural("{n} chat", "{n} chats", done.chats),
                        seats=tr.plural("{n} seat", "{n} seats", done.seats)))

    async def forget_chat() -> Reply:
        done = await store.forget_chat(chat)
        if not (done.games or done.payments or done.seasons):
            return Reply(tr("Forgotten: this chat's settings. It had no games, payments or "
                            "seasons."))
        return Reply(tr("Forgotten: this chat's {games}, {payments} and {seasons}, and its "
                        "settings.",
                        games=tr.plural("{n} game", "{n} games", done.games),
                        payments=tr.plural("{n} payment", "{n} payments", done.payments),
                        seasons=tr.plural("{n} season", "{n} seasons", done.seasons)))

    return Outcome(Reply(""), later=forget_chat if whole else forget_person)


def _question(call: Call, whole: bool) -> Question:
    tr = call.tr
    if whole:
        text = tr("Forget this chat? Every game, hand, payment, season and setting of it (and "
                  "of its topics) is deleted for good.")
        yes = tr("Yes, forget it all")
    else:
        text = tr("Forget you? Your account and username leave the records of every chat I "
                  "keep; your seats stay as guest names, so everyone else's scores, stats and "
                  "ledgers stay whole. This can't be undone.")
        yes = tr("Yes, forget me")
    token = Token(Step.FORGET, starter(call), (FORGET_CHAT if whole else FORGET_ME,))
    return Question(Ask.CONFIRM, text, token,
                    (Choice(yes, flows.YES, danger=True), Choice(tr("No, keep it"), flows.NO)))
