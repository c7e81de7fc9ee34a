"""/scoreboard and /scorepad: a table's web pages and the links that open them
(bot/core/pages.py). Turning a page off or giving it a new link is a chat admin's; asking
for the link is anyone's, as anyone in the chat sees the board."""

from __future__ import annotations

from bot.core import pages
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import _

NO_PAGES = _("This bot has no web pages: its host sets WEB_URL to give it some (see the "
             "hosting docs).")
NO_PAD = _("No scorepad here. On Discord, /hand with no options opens the whole hand as one "
           "form; on Telegram, the bot's host registers a Mini App for it (TELEGRAM_MINIAPP).")


def token(call: Call, kind: str) -> str | None:
    """The link's token of the table's page of `kind`, if it has one."""
    nonce = call.settings.pages.get(kind)
    if call.web is None or nonce is None or not pages.made_with(nonce, call.web.secret):
        return None  # none, or one made with another secret: it would open nothing
    return pages.token_of(call.web.secret, kind, nonce)


def pad_token(call: Call) -> str | None:
    """The scorepad's token, for a face that opens it (a button under the board)."""
    if call.web is None or not call.web.opens_pad(call.command.chat):
        return None
    return token(call, pages.PAD)


async def live_token(call: Call, kind: str) -> str | None:
    """The link's token of the table's page of `kind` if that link opens it: a token the
    database has no hash of (the bot's secret changed since it was made) is no link."""
    made = token(call, kind)
    if made is not None and await call.tx.page_digest(kind) != pages.digest_of(made):
        return None
    return made


async def issue(call: Call, kind: str) -> str:
    """A new link for the table's page of `kind`: the one it had opens nothing from now."""
    assert call.web is not None
    nonce = pages.new_nonce(call.web.secret)
    settings = await call.tx.settings()  # as this command has left them so far
    settings.pages[kind] = nonce
    await call.tx.save_settings(settings)
    made = pages.token_of(call.web.secret, kind, nonce)
    await call.tx.set_page(kind, pages.digest_of(made))
    call.settings.pages[kind] = nonce
    return made


async def ensure_pad(call: Call) -> str | None:
    """The scorepad's token, made now if the table has none (a game starts)."""
    if call.web is None or not call.web.opens_pad(call.command.chat):
        return None
    return await live_token(call, pages.PAD) or await issue(call, pages.PAD)


async def scoreboard(call: Call) -> Outcome:
    if call.web is None:
        raise UserError(NO_PAGES)
    action = (call.options.get("") or "").strip().lower()
    tr = call.tr
    if action == "off":
        if call.settings.pages.get(pages.BOARD) is None:
            return Outcome(Reply(tr("The scoreboard is off already. /scoreboard gives this "
                                    "table one.")))
        settings = await call.tx.settings()
        settings.pages.pop(pages.BOARD, None)
        await call.tx.save_settings(settings)
        await call.tx.set_page(pages.BOARD, None)
        return Outcome(Reply(tr("The scoreboard is off: its link opens nothing now. "
                                "/scoreboard makes a new one.")), changed=True)
    made = await live_token(call, pages.BOARD)
    changed = action == "new" or made is None
    if changed:
        made = await issue(call, pages.BOARD)
    assert made is not None
    url = call.web.board_url(made)
    lines = [tr("This table's scoreboard, always up to date (on a TV: add ?tv):"), url]
    if action == "new":
        lines.insert(0, tr("A new link: the old one opens nothing now."))
    lines.append(tr("Anyone with the link sees the scores; /scoreboard off stops it."))
    return Outcome(Reply("\n".join(lines)), changed=changed)


async def scorepad(call: Call) -> Outcome:
    if call.web is None or not call.web.opens_pad(call.command.chat):
        raise UserError(NO_PAD)
    action = (call.options.get("") or "").strip().lower()
    made = await live_token(call, pages.PAD)
    changed = action == "new" or made is None
    if changed:
        made = await issue(call, pages.PAD)
    tr = call.tr
    text = tr("The scorepad: a whole {hand} on one screen, sent as if typed here.",
              **call.words)
    if action == "new":
        text = tr("A new scorepad link: the old one opens nothing now.") + "\n" + text
    reply = Reply(text)
    reply.pad = made
    return Outcome(reply, changed=changed)
