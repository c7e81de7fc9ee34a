"""/club page: a capability link (as /scoreboard's, bot/core/pages.py) to the club's live
page: standings per game, ratings with each member's chart, member pages, the records.
Asking for it is any club table's; a new link or none is the club's owner's or an admin's."""

from __future__ import annotations

from bot.core import pages
from bot.core.club.book import Club
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.club.common import book, check_club_admin, this_club
from bot.core.handlers.pages import NO_PAGES
from bot.core.i18n import _

CLUB_PAGE = "club"


def page_chat(club: Club) -> str:
    """What the pages' rows name a club's page by."""
    return f"club:{club.id}"


def token(call: Call, club: Club) -> str | None:
    if call.web is None or club.page is None or not pages.made_with(club.page,
                                                                    call.web.secret):
        return None
    return pages.token_of(call.web.secret, CLUB_PAGE, club.page)


async def _issue(call: Call, club: Club) -> str:
    assert call.web is not None
    club.page = pages.new_nonce(call.web.secret)
    await book(call).save_club(club)
    made = pages.token_of(call.web.secret, CLUB_PAGE, club.page)
    await call.tx.set_page_of(page_chat(club), CLUB_PAGE, pages.digest_of(made))
    return made


async def club_page(call: Call) -> Outcome:
    if call.web is None:
        raise UserError(NO_PAGES)
    club = await this_club(call)
    words = (call.options.get("") or "").split()[1:]
    action = words[0].lower() if words else ""
    tr = call.tr
    if action not in ("", "new", "off"):
        raise UserError(_("/club page, /club page new or /club page off; not `{word}`.",
                          word=words[0][:20]))
    if action == "off":
        await check_club_admin(call, club, _("turn the club's page off"))
        if club.page is None:
            return Outcome(Reply(tr("The club's page is off already. /club page gives it "
                                    "one.")))
        club.page = None
        await book(call).save_club(club)
        await call.tx.set_page_of(page_chat(club), CLUB_PAGE, None)
        return Outcome(Reply(tr("The club's page is off: its link opens nothing now.")),
                       changed=True)
    made = token(call, club)
    if made is not None and await call.tx.page_digest_of(page_chat(club), CLUB_PAGE) \
            != pages.digest_of(made):
        made = None  # made with another secret: it opens nothing
    if action == "new":
        await check_club_admin(call, club, _("give the club's page a new link"))
    changed = action == "new" or made is None
    if changed:
        made = await _issue(call, club)
    assert made is not None
    lines = [tr("{club}'s page: standings, ratings, members and records, always up to date "
                "(on a TV: add ?tv):", club=club.name), club_url(call, made)]
    if action == "new":
        lines.insert(0, tr("A new link: the old one opens nothing now."))
    lines.append(tr("Anyone with the link sees the club's figures; /club page off stops it."))
    kept = Reply(tr("The club's page link was given here; it is not kept. /club page gives "
                    "it again."))
    return Outcome(Reply("\n".join(lines)), changed=changed, kept=kept)


def club_url(call: Call, made: str) -> str:
    assert call.web is not None
    return f"{call.web.base_url.rstrip('/')}/c/{made}"
