"""What the club's commands share: the club's book and figures for a command, the club
of this chat, who the sender is in the club, a member or table named in a command, and
who may do what in a club."""

from __future__ import annotations

from collections.abc import Iterable

from bot.core import permissions
from bot.core.club.book import Club, ClubBook, ClubTable
from bot.core.club.figures import ClubFigures, is_guest
from bot.core.club.kept import ClubsKept
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call
from bot.core.i18n import Text, _
from bot.core.permissions import Rule
from bot.core.players import fold

NOT_IN_A_CLUB = _("This chat is in no club. A chat admin makes one with /club new "
                  "name:Friday Marriage, or joins one with /club join code:XXXX-XXXX.")
_SHARED = ClubsKept()  # a Call made without the service's (tests of one handler)


def book(call: Call) -> ClubBook:
    return call.tx.clubs  # type: ignore[attr-defined, no-any-return]


def kept(call: Call) -> ClubsKept:
    return call.clubs if call.clubs is not None else _SHARED


async def this_club(call: Call) -> Club:
    """The club this chat is a table of; refused where it is none's."""
    club = await book(call).club_of(call.command.chat)
    if club is None:
        raise UserError(NOT_IN_A_CLUB)
    return club


async def figures(call: Call, club: Club) -> ClubFigures:
    return await kept(call).figures(book(call), club)


def member(call: Call, persons: dict[str, str]) -> str:
    """The sender as the club knows them: their account's person."""
    actor = call.command.actor.id
    return persons.get(actor, actor)


def check_chat_admin(call: Call, what: Text) -> None:
    """A chat admin's say (Telegram's group admins, Discord's Manage Server; the console's
    own person)."""
    permissions.check(Rule.ADMIN, call.roles, what)


async def check_club_admin(call: Call, club: Club, what: Text) -> None:
    persons = await book(call).persons()
    if not club.is_admin(member(call, persons)):
        # TRANSLATORS: {what} is what was tried ("remove a table", "start a season")
        raise UserError(_("Only the club's owner or one of its admins can {what}.",
                          what=what))


def find_member(figures: ClubFigures, call: Call, typed: str,
                persons: dict[str, str]) -> str:
    """The member a command names: an @mention's account (their person), or a name they
    sat down under at any of the club's tables (guests too, at their table). Two members
    of that name: refused with both, to be told apart by @mention."""
    typed = typed.strip()
    mentioned = call.command.mentions.get(typed) or call.command.mentions.get(typed.lower())
    if mentioned is not None:
        found = persons.get(mentioned.id, mentioned.id)
        if found in figures.names:
            return found
        raise UserError(_("{name} has played no game at the club's tables yet.",
                          name=mentioned.name))
    wanted = fold(typed.lstrip("@"))
    hits = sorted(m for m, names in figures.aliases.items() if wanted in names)
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise UserError(_("{name} could be {members}: name them by @mention.",
                          name=clip(typed), members=", ".join(
                              describe(figures, m) for m in hits)))
    raise UserError(_("No member `{name}` at the club's tables. Members: {members}.",
                      name=clip(typed), members=", ".join(sorted(
                          {figures.name(m) for m in figures.names if not is_guest(m)},
                          key=str.lower)) or "-"))


def describe(figures: ClubFigures, member: str) -> str:
    """A member's name; a guest's with the table that knows them."""
    name = figures.name(member)
    if is_guest(member):
        chat = member.partition("/name:")[0]
        return f"{name} ({chat})"
    return name


def find_table(tables: Iterable[ClubTable], typed: str) -> ClubTable:
    """A table a command names: its number in /club's list, or its name."""
    tables = list(tables)
    text = typed.strip()
    if text.isdecimal() and 1 <= int(text) <= len(tables):
        return tables[int(text) - 1]
    hits = [t for t in tables if fold(t.name) == fold(text) or t.chat == text]
    if len(hits) == 1:
        return hits[0]
    raise UserError(_("No table `{name}` in the club: give its number in /club's list "
                      "(1 to {n}).", name=clip(text), n=len(tables)))


def game_wanted(call: Call, figures: ClubFigures) -> list[str]:
    """The games a command is about (game:marriage, game:uno): every game played, or the
    one named."""
    wanted = (call.options.get("game") or "").strip().casefold()
    if not wanted:
        return sorted(figures.games, key=lambda k: -figures.games[k].games)
    hits = [k for k, g in figures.games.items()
            if wanted in (k.casefold(), k.partition(":")[2], g.title.casefold(),
                          k.partition(":")[0])]
    if not hits:
        played = ", ".join(sorted(figures.games)) or "-"
        raise UserError(_("The club's tables have played no `{game}`. Played: {games}.",
                          game=clip(wanted), games=played))
    return hits


def title(call: Call, figures: ClubFigures, key: str) -> str:
    return call.tr.text(figures.games[key].title)
