"""/club: a club of chats. `/club new name:...` (a chat admin: this chat its first table),
`/club join code:...` (an admin of the joining chat), `/club code` (a new code for one more
table), `/club leave` (this table out), `/club remove N` (another table out: the club's
owner or admins), `/club admin @x` (the owner names an admin), `/club standings`,
`/club ledger`, `/club season start|end`, `/club page`, and `/club` to see it."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from bot.core.club import codes
from bot.core.club.book import CLUB, PLATFORMS, Club, ClubTable
from bot.core.club.figures import ClubFigures, is_guest, member_of
from bot.core.club.standings import leaders, table
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.club import seats
from bot.core.handlers.club.common import (
    book,
    check_chat_admin,
    check_club_admin,
    describe,
    figures,
    find_table,
    game_wanted,
    member,
    this_club,
    title,
)
from bot.core.i18n import _
from bot.core.ledger import settle, signed
from bot.core.money import format_money, money_places
from bot.core.players import fold
from bot.core.seasons import season_name

MAX_CLUB_NAME = 40
ACTIONS = ("new", "join", "code", "leave", "remove", "admin", "standings", "ledger",
           "season", "page", "tables", "night", "here")


def _words(call: Call) -> list[str]:
    return (call.options.get("") or "").split()


async def club(call: Call) -> Outcome:
    words = _words(call)
    action = words[0].lower() if words else ""
    if action and action not in ACTIONS:
        raise UserError(_("/club takes {actions}, not `{word}`.", actions=", ".join(ACTIONS),
                          word=clip(words[0])))
    handler = {"": _show, "new": _new, "join": _join, "code": _code, "leave": _leave,
               "remove": _remove, "admin": _admin, "standings": _standings,
               "ledger": _ledger, "season": _season, "page": _page,
               "tables": seats.tables, "night": seats.night, "here": seats.here}[action]
    return await handler(call)


def _table_name(call: Call) -> str:
    return clip(call.command.chat_name or call.command.chat, 40)


def _join_line(call: Call, code: str) -> str:
    return call.tr("Another chat joins with: /club join code:{code} (typed there by one of "
                   "its admins; good once, for 24 hours).", code=code)


async def _new_code(call: Call, club: Club) -> str:
    code = codes.new_code()
    await book(call).add_code(codes.digest_of(code), CLUB, str(club.id),
                              call.command.actor.id, datetime.now(UTC) + codes.JOIN_FOR)
    return code


async def _new(call: Call) -> Outcome:
    check_chat_admin(call, _("make a club"))
    clubs = book(call)
    found = await clubs.club_of(call.command.chat)
    if found is not None:
        raise UserError(_("This chat is a table of {club} already: a chat is in one club at "
                          "most (/club leave first).", club=found.name))
    name = " ".join((call.options.get("name") or "").split())
    if not name:
        raise UserError(_("Name the club: /club new name:Friday Marriage"))
    if len(name) > MAX_CLUB_NAME:
        raise UserError(_("A club's name is at most {n} characters.", n=MAX_CLUB_NAME))
    persons = await clubs.persons()
    club_ = await clubs.new_club(name, member(call, persons), call.command.actor.name)
    await clubs.add_table(ClubTable(call.command.chat, club_.id, _table_name(call),
                                    call.command.actor.id))
    code = await _new_code(call, club_)
    tr = call.tr
    return Outcome(Reply("\n".join([
        tr("Club {club} made, with this chat as its first table.", club=name),
        _join_line(call, code),
        tr("/club shows it; /club standings and /rating rank its members.")])),
        changed=True, kept=_code_not_kept(call))


def _code_not_kept(call: Call) -> Reply:
    """What a command that gave a code says if sent again: the code is kept nowhere (only
    its hash, to check it), so not in the reply kept for exactly-once either."""
    return Reply(call.tr("A code to join the club was given here; it is not kept. /club code "
                         "gives a new one."))


async def _code(call: Call) -> Outcome:
    club_ = await this_club(call)
    check_chat_admin(call, _("give a code to join the club"))
    code = await _new_code(call, club_)
    return Outcome(Reply(call.tr("A new code for {club} (earlier unused codes no longer "
                                 "work):", club=club_.name) + "\n" + _join_line(call, code)),
                   changed=True, kept=_code_not_kept(call))


async def _join(call: Call) -> Outcome:
    check_chat_admin(call, _("join a club"))
    clubs = book(call)
    typed = call.options.get("code") or " ".join(_words(call)[1:])
    if not typed.strip():
        raise UserError(_("Give the code the club gave: /club join code:XXXX-XXXX"))
    found = await clubs.club_of(call.command.chat)
    if found is not None:
        raise UserError(_("This chat is a table of {club} already: a chat is in one club at "
                          "most (/club leave first).", club=found.name))
    if not codes.looks_like_code(typed):
        raise UserError(_("`{code}` is no club code: a code is 8 letters and digits, as "
                          "XXXX-XXXX.", code=clip(typed)))
    used = await clubs.use_code(codes.digest_of(typed), CLUB, call.command.chat,
                                datetime.now(UTC))
    if used.subject is None:
        raise UserError(_code_refused(used.why))
    club_ = await clubs.club(int(used.subject))
    if club_ is None:
        raise UserError(_("That club is no more."))
    await clubs.add_table(ClubTable(call.command.chat, club_.id, _table_name(call),
                                    call.command.actor.id))
    tables = await clubs.tables(club_.id)
    return Outcome(Reply(call.tr("This chat is now table {n} of {club}: its games count in "
                                 "/club standings and /rating, its money in /club ledger.",
                                 n=len(tables), club=club_.name)), changed=True)


def _code_refused(why: str) -> str:
    if why == "used":
        return _("That code was used already: a code joins one chat. Ask the club for a new "
                 "one (/club code at one of its tables).")
    if why == "expired":
        return _("That code is more than 24 hours old. Ask the club for a new one (/club "
                 "code at one of its tables).")
    if why == "kind":
        return _("That is an account code: it is typed as /account link code:... .")
    return _("No club has that code. Check it, or ask for a new one (/club code at one of "
             "the club's tables).")


async def _leave(call: Call) -> Outcome:
    check_chat_admin(call, _("take this table out of its club"))
    club_ = await this_club(call)
    clubs = book(call)
    tables = await clubs.tables(club_.id)
    if len(tables) == 1:
        raise UserError(_("This is {club}'s only table: a club needs one. Nothing changed.",
                          club=club_.name))
    await clubs.remove_table(call.command.chat)
    return Outcome(Reply(call.tr("This table has left {club}: its games no longer count in "
                                 "the club's figures. Its own scorebook is untouched.",
                                 club=club_.name)), changed=True)


async def _remove(call: Call) -> Outcome:
    club_ = await this_club(call)
    await check_club_admin(call, club_, _("take a table out of the club"))
    clubs = book(call)
    tables = await clubs.tables(club_.id)
    typed = call.options.get("table") or " ".join(_words(call)[1:])
    if not typed.strip():
        raise UserError(_("Which table? /club remove 2 (its number in /club's list)."))
    gone = find_table(tables, typed)
    if gone.chat == call.command.chat:
        raise UserError(_("That is this table: /club leave takes it out."))
    await clubs.remove_table(gone.chat)
    return Outcome(Reply(call.tr("{table} is out of {club}: its games no longer count in the "
                                 "club's figures; its own scorebook is untouched.",
                                 table=gone.name, club=club_.name)), changed=True)


async def _admin(call: Call) -> Outcome:
    club_ = await this_club(call)
    clubs = book(call)
    persons = await clubs.persons()
    words = _words(call)[1:]
    tr = call.tr
    if not words and "who" not in call.options:
        names = [club_.owner_name or club_.owner, *club_.admins.values()]
        return Outcome(Reply(tr("{club}'s admins: {names} (the first made it).",
                                club=club_.name, names=", ".join(names))))
    if member(call, persons) != club_.owner:
        raise UserError(_("Only the club's owner ({name}) can name its admins.",
                          name=club_.owner_name or club_.owner))
    off = bool(words) and words[-1].lower() in ("off", "remove", "no")
    typed = call.options.get("who") or (words[0] if words else "")
    mentioned = call.command.mentions.get(typed) or call.command.mentions.get(typed.lower())
    if mentioned is None:
        raise UserError(_("Name the new admin by @mention: /club admin @name (or /club admin "
                          "@name off)."))
    who = persons.get(mentioned.id, mentioned.id)
    if who == club_.owner:
        raise UserError(_("{name} made the club: they are its owner.", name=mentioned.name))
    if off:
        if club_.admins.pop(who, None) is None:
            raise UserError(_("{name} is not one of the club's admins.", name=mentioned.name))
        text = tr("{name} is no longer an admin of {club}.", name=mentioned.name,
                  club=club_.name)
    else:
        if who in club_.admins:
            return Outcome(Reply(tr("{name} is an admin of {club} already.",
                                    name=mentioned.name, club=club_.name)))
        club_.admins[who] = mentioned.name
        text = tr("{name} is now an admin of {club}: they can take tables out, start and end "
                  "its seasons and turn its page on or off.", name=mentioned.name,
                  club=club_.name)
    await clubs.save_club(club_)
    return Outcome(Reply(text), changed=True)


async def _show(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    clubs = book(call)
    tables = await clubs.tables(club_.id)
    shown = await figures(call, club_)
    members = {m for m in shown.names if not is_guest(m)}
    lines = [tr("{club}: {tables}, {members}.", club=club_.name,
                tables=tr.plural("{n} table", "{n} tables", len(tables)),
                members=tr.plural("{n} member", "{n} members", len(members)))]
    for i, table_ in enumerate(tables, 1):
        here = tr(" (here)") if table_.chat == call.command.chat else ""
        lines.append(f"{tr.number(i)}. {table_.name} · "
                     f"{PLATFORMS.get(table_.platform, 'console')}{here}")
    season = shown.open_season()
    if season is not None:
        lines.append(tr("Season {name}, leaders:", name=season.name))
    elif shown.games:
        lines.append(tr("Leaders (every game):"))
    for key in game_wanted(call, shown):
        top = leaders(shown.games[key], shown.names, tr, season.id if season else None)
        if top:
            lines.append(f"{title(call, shown, key)}: {top}")
    if not shown.games:
        lines.append(tr("No finished game yet: a game counts once it ends (/endgame)."))
    for made in await clubs.tournaments(club_.id):
        if made.status != "ended":
            lines.append(tr("Tournament {name}: {done} of {rounds} rounds played "
                            "(/tournament).", name=made.name, done=made.closed_rounds(),
                            rounds=made.rounds))
    return Outcome(Reply("\n".join(lines)))


def _season_of(call: Call, shown: ClubFigures) -> tuple[int | None, str]:
    """The season a command names (season:Spring), else the open one, else every game."""
    typed = (call.options.get("season") or "").strip()
    if typed:
        found = shown.season(typed)
        if found is None:
            names = ", ".join(s.name for s in shown.seasons) or "-"
            raise UserError(_("The club has no season `{name}`. Seasons: {names}.",
                              name=clip(typed), names=names))
        return found.id, found.name
    season = shown.open_season()
    return (season.id, season.name) if season is not None else (None, "")


async def _standings(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    shown = await figures(call, club_)
    season, season_label = _season_of(call, shown)  # a season that isn't: refused first
    if not shown.games:
        return Outcome(Reply(tr("No finished game at {club}'s tables yet.", club=club_.name)))
    parts = []
    for key in game_wanted(call, shown):
        game = shown.games[key]
        rows = game.table(season)
        heading = (tr("{game}, season {season} ({games}):", game=title(call, shown, key),
                      season=season_label, games=tr.plural("{n} game", "{n} games",
                                                           game.counts.get(season, 0)))
                   if season is not None else
                   tr("{game}, every game ({games}):", game=title(call, shown, key),
                      games=tr.plural("{n} game", "{n} games", game.games)))
        if not rows:
            parts.append(heading + "\n" + tr("No game of it ended in the season yet."))
            continue
        parts.append(heading + "\n" + table(game, _names(shown), tr, season))
    return Outcome(Reply(tr("{club}: the league table.", club=club_.name),
                         table="\n\n".join(parts)))


def _names(shown: ClubFigures) -> dict[str, str]:
    return {m: describe(shown, m) for m in shown.names}


async def _ledger(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    clubs = book(call)
    shown = await figures(call, club_)
    persons = shown.persons
    balances = {c: dict(owed) for c, owed in shown.money.items()}
    for chat, payment in await clubs.payments(club_.id):
        row = balances.setdefault(payment.currency, {})
        payer = member_of(payment.payer, chat, persons)
        payee = member_of(payment.payee, chat, persons)
        row[payer] = row.get(payer, Decimal(0)) + payment.amount
        row[payee] = row.get(payee, Decimal(0)) - payment.amount
    names = _names(shown)
    lines = [tr("{club}: what each member is owed (+) or owes (-) across its tables, /paid "
                "at any table counted.", club=club_.name)]
    if not any(any(v for v in row.values()) for row in balances.values()):
        lines.append(tr("All square: no money is owed at the club's tables."))
        return Outcome(Reply("\n".join(lines)))
    for currency in sorted(balances):
        row = {k: v for k, v in balances[currency].items() if v}
        if not row:
            continue
        places = money_places(list(row.values()))
        lines.append(f"{currency}:" if currency else tr("Money (no currency named):"))
        for key in sorted(row, key=lambda k: (-row[k], fold(names.get(k, k)))):
            lines.append(f"  {names.get(key, key)} {signed(row[key], currency, places, tr)}")
        lines.append("  " + tr("To settle: {payments}.", payments="; ".join(
            tr("{payer} pays {payee} {amount}", payer=names.get(payer, payer),
               payee=names.get(payee, payee),
               amount=format_money(amount, currency, places, tr=tr))
            for payer, payee, amount in settle(row))))
    return Outcome(Reply("\n".join(lines)))


async def _season(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    clubs = book(call)
    words = _words(call)[1:]
    step = words[0].lower() if words else ""
    seasons = await clubs.seasons(club_.id)
    last = seasons[-1] if seasons else None
    if step == "start":
        await check_club_admin(call, club_, _("start a season"))
        if last is not None and last.ended_at is None:
            raise UserError(_("The club's season {name} is open: /club season end first.",
                              name=last.name))
        name = season_name(call.options.get("name", "") or " ".join(words[1:]))
        if any(fold(s.name) == fold(name) for s in seasons):
            raise UserError(_("The club had a season called {name} already; pick another "
                              "name (e.g. with the year).", name=clip(name)))
        actor = call.command.actor
        await clubs.add_season(club_.id, name, actor.id, actor.name)
        return Outcome(Reply(tr("The club's season {name} starts: games that end at any of "
                                "its tables from now until /club season end are in it.",
                                name=name)), changed=True)
    if step == "end":
        await check_club_admin(call, club_, _("end a season"))
        if last is None or last.ended_at is not None:
            raise UserError(_("No club season is open. /club season start name:Spring starts "
                              "one."))
        await clubs.end_season(last.id, call.command.actor.id)
        return Outcome(Reply(tr("The club's season {name} has ended. /club standings "
                                "season:{name} ranks it.", name=last.name)), changed=True)
    if step:
        raise UserError(_("/club season start name:Spring, /club season end, or /club season "
                          "to see it; not `{word}`.", word=clip(step)))
    if last is None:
        return Outcome(Reply(tr("The club has no season yet. Its owner or an admin starts "
                                "one: /club season start name:Spring")))
    if last.ended_at is None:
        return Outcome(Reply(tr("The club's season {name} is open since {day}. /club "
                                "standings ranks it.", name=last.name,
                                day=tr.date(last.started_at))))
    return Outcome(Reply(tr("No club season is open; the last was {name}. /club standings "
                            "season:{name} ranks it.", name=last.name)))


async def _page(call: Call) -> Outcome:
    from bot.core.handlers.club.page import club_page

    return await club_page(call)
