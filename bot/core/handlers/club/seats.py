"""A club night: `/club night` (an "I'm here" button; `/club here` typed), and `/club
tables game:... players:@a @b ... [present:yes] [tables:N] [seed:N] [start:yes]`: the
people split into the game's tables, kept apart from who they met at the club's tables
(bot/core/club/seating.py), each table a chat of the club where `start:yes` begins its game.
What tournaments share of it: the people a command names, the account a member sits
down as at a table of another platform, a game begun at another chat, a seating shown."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from bot.core import flows
from bot.core.club import seating
from bot.core.club.book import Club, ClubTable
from bot.core.club.figures import ClubFigures, days
from bot.core.club.night import TONIGHT, Night, Seated
from bot.core.club.seating import Repeat, pair
from bot.core.command import Actor, Command, Reply
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.games.base import Game
from bot.core.grammar import split_list
from bot.core.handlers.call import Call, FollowUp, Outcome
from bot.core.handlers.club.common import book, check_club_admin, figures, member, this_club
from bot.core.i18n import Tr, _
from bot.core.players import check_name, fold
from bot.core.width import clip as clip_width
from bot.core.width import ljust

WINDS = ("E", "S", "W", "N")
SHOWN_REPEATS = 8  # pairs who met that a seating's reply names (the rest counted)
BUTTONS = ("telegram", "discord")  # platforms whose games are offered taps


@dataclass(frozen=True)
class Person:
    """Someone to seat: a member of the club (their person's key), or a guest typed by
    name ("name:<folded>", seated by name), and the account they tapped or were named by."""

    member: str
    name: str
    account: str | None = None


def accounts_of(persons: Mapping[str, str]) -> dict[str, list[str]]:
    """Each person's accounts (their own key first: it is an account too)."""
    out: dict[str, list[str]] = {}
    for account, person in sorted(persons.items()):
        out.setdefault(person, [person])
        if account != person:
            out[person].append(account)
    return out


def account_at(person: Person, platform: str, accounts: Mapping[str, list[str]]) -> str:
    """The account a member sits down as at a table of `platform`: theirs there if they
    linked one, else the one they came with."""
    known = accounts.get(person.member, [person.account or person.member])
    return next((a for a in known if a.split(":", 1)[0] == platform),
                person.account or known[0])


def named(call: Call, text: str, persons: Mapping[str, str],
          shown: ClubFigures | None = None) -> list[Person]:
    """The people a command names: an @mention is their account's person; a bare name is a
    guest (seated by that name)."""
    out: list[Person] = []
    for word in split_list(text):
        mentioned = call.command.mentions.get(word) or call.command.mentions.get(word.lower())
        if mentioned is not None:
            person = persons.get(mentioned.id, mentioned.id)
            name = (shown.names.get(person) if shown is not None else None) or mentioned.name
            out.append(Person(person, name, mentioned.id))
        else:
            name = check_name(word.lstrip("@"))
            out.append(Person(f"name:{fold(name)}", name))
    seen: set[str] = set()
    for person in out:
        if person.member in seen:
            raise UserError(_("{name} is named twice: a person sits at one table.",
                              name=person.name))
        seen.add(person.member)
    return out


def begin(call: Call, table: ClubTable, game: Game, seats: Sequence[Person],
          accounts: Mapping[str, list[str]], label: str, origin: str,
          options: Mapping[str, str] | None = None) -> FollowUp:
    """/newgame at another of the club's chats with these seats in order (each member by
    their account there, a guest by name), started by the sender, run once this command
    has committed."""
    platform = table.platform
    mentions: dict[str, Actor] = {}
    words = []
    for at, person in enumerate(seats, 1):
        if person.member.startswith("name:"):
            words.append(person.name)
            continue
        token = f"@seat{at}"
        mentions[token] = Actor(account_at(person, platform, accounts), person.name)
        words.append(token)
    typed: dict[str, str] = {"game": game.key, **(options or {})}
    if game.key == "tranca" and len(words) == 4:  # two sides: seats 1 and 3, 2 and 4
        typed["teams"] = f"{words[0]}+{words[2]} {words[1]}+{words[3]}"
    else:
        typed["players"] = " ".join(words)
    command = call.command
    actor = replace(command.actor, is_admin=False)  # an admin here is not one there
    return FollowUp(Command(table.chat, actor, "newgame", typed,
                            origin_id=f"{command.origin_id}:{origin}"
                            if command.origin_id else None, mentions=mentions,
                            buttons=platform in BUTTONS, locale=command.locale,
                            chat_name=table.name), label)


def history(shown: ClubFigures, members: Sequence[str], now: datetime,
            night: Night | None = None) -> tuple[dict, dict]:
    """What seating two of `members` together costs (every meeting at the club's tables,
    of any game: 1, and up to 9 more as recent as it was; tonight's tables 10 each), and how
    often they met (for the reply)."""
    today = days(now)
    costs: dict[tuple[str, str], float] = {}
    met: dict[tuple[str, str], int] = {}
    tonight = night.sat_together() if night is not None else {}
    real = sorted(m for m in members if not m.startswith("name:"))
    for i, a in enumerate(real):
        for b in real[i + 1:]:
            key = pair(a, b)
            cost, times = 0.0, tonight.get(key, 0)
            for figures_ in shown.games.values():
                found = figures_.pairs.get(key)
                if found is not None:
                    cost += seating.weight(found.games, found.heat, today)
                    times += found.games
            cost += TONIGHT * tonight.get(key, 0)
            if cost:
                costs[key], met[key] = cost, times
    return costs, met


def seat_lines(tr: Tr, game: Game, tables: Sequence[Sequence[Person]],
               labels: Sequence[str]) -> str:
    """The tables as a monospace block that fits a phone: a table's label, then its seats
    (Riichi: a wind each, E first), names wrapped to the width."""
    lines: list[str] = []
    for label, table in zip(labels, tables, strict=True):
        lines.append(clip_width(label, 34))
        if game.key == "riichi":  # two seats a line: E and S, then W and N
            seats = [f"{tr(WINDS[i % 4])} {clip_width(p.name, 13)}" for i, p in
                     enumerate(table)]
            lines.extend(clip_width("  " + "  ".join(ljust(x, 15) for x in seats[i:i + 2])
                                    .rstrip(), 34) for i in range(0, len(seats), 2))
            continue
        line = " "
        for person in table:
            word = f" {person.name}"
            if len(line) + len(word) + 1 > 34 and line.strip():
                lines.append(line.rstrip(","))
                line = " "
            line += word + ","
        lines.append(line.rstrip(","))
    return "\n".join(lines)


def repeats_line(tr: Tr, found: Sequence[Repeat], names: Mapping[str, str]) -> str:
    if not found:
        return tr("Nobody sits with anyone they met at the club's tables before.")
    said = sorted(found, key=lambda r: (-r.times, names.get(r.a, r.a), names.get(r.b, r.b)))
    shown = ", ".join(tr("{a} & {b} ({n})", a=names.get(r.a, r.a), b=names.get(r.b, r.b),
                         n=r.times) for r in said[:SHOWN_REPEATS])
    more = len(said) - SHOWN_REPEATS
    if more > 0:
        shown += tr(", and {n} more", n=more)
    return tr("Met before, the fewest repeats found (times): {pairs}.", pairs=shown)


def table_label(tr: Tr, number: int, chats: Sequence[ClubTable]) -> str:
    if number <= len(chats):
        return tr("Table {n} · {chat}", n=number, chat=chats[number - 1].name)
    return tr("Table {n}", n=number)


# --- /club night, /club here -----------------------------------------------------------

def _here_text(tr: Tr, club: Club, night: Night) -> str:
    names = list(night.present.values())
    head = tr("{club}'s night: tap I'm here (or type /club here); /club tables "
              "present:yes seats who did.", club=club.name)
    if not names:
        return head + "\n" + tr("Nobody yet.")
    return head + "\n" + tr("Here ({n}): {names}.", n=len(names), names=", ".join(names))


async def night(call: Call) -> Outcome:
    club = await this_club(call)
    await check_club_admin(call, club, _("start a club night"))
    clubs = book(call)
    await clubs.lock(club.id)
    made = await clubs.add_night(Night(0, club.id, datetime.now(UTC),
                                       member(call, await clubs.persons())))
    question = flows.here(call.tr, made.id, _here_text(call.tr, club, made))
    return Outcome(Reply(question.text, question=question), changed=True)


async def here(call: Call) -> Outcome:
    club = await this_club(call)
    clubs = book(call)
    await clubs.lock(club.id)
    found = await clubs.night(club.id)
    now = datetime.now(UTC)
    asked = (call.command.expect or {}).get("night")
    if found is None or not found.open_at(now) or (asked is not None and asked != found.id):
        raise UserError(_("That club night is over: a club admin starts one with /club "
                          "night."))
    persons = await clubs.persons()
    who = member(call, persons)
    actor = call.command.actor
    tr = call.tr
    if who not in found.present:
        found.present[who] = actor.name
        found.accounts[who] = actor.id
        await clubs.save_night(found)
    if call.command.expect is not None:  # a tap: the list under the button, again
        question = flows.here(tr, found.id, _here_text(tr, club, found))
        return Outcome(Reply(question.text, question=question), changed=True)
    return Outcome(Reply(tr("{name} is here ({n} so far).", name=actor.name,
                            n=len(found.present))), changed=True)


# --- /club tables -------------------------------------------------------------------------

async def tables(call: Call) -> Outcome:
    tr = call.tr
    club = await this_club(call)
    clubs = book(call)
    typed_game = (call.options.get("game") or "").strip()
    if not typed_game:
        raise UserError(_("Name the game: /club tables game:marriage players:@ana @bob "
                          "@chetan (or present:yes)."))
    game = get_game(typed_game)
    title = tr.text(game.title)
    shown = await figures(call, club)
    persons = await clubs.persons()
    now = datetime.now(UTC)
    found = await clubs.night(club.id)
    tonight = found if found is not None and found.open_at(now) else None
    people = named(call, call.options.get("players") or "", persons, shown)
    if call.options.get("present") == "yes":
        if tonight is None or not tonight.present:
            raise UserError(_("Nobody has tapped I'm here: a club admin starts the night "
                              "with /club night."))
        listed = {p.member for p in people}
        people += [Person(m, name, tonight.accounts.get(m)) for m, name in
                   tonight.present.items() if m not in listed]
    if not people:
        raise UserError(_("Who plays? /club tables game:{game} players:@ana @bob @chetan, "
                          "or present:yes for who tapped I'm here.", game=game.key))
    sanma = call.options.get("sanma") == "yes"
    wanted = int(call.options["tables"]) if "tables" in call.options else None
    sizes = seating.split(len(people), seating.sizes_of(game.key, sanma), wanted, title,
                          sanma=game.key == "riichi")
    seed = int(call.options["seed"]) if "seed" in call.options else secrets.randbelow(
        10**6)
    members = [p.member for p in people]
    costs, met = history(shown, members, now, tonight)
    seated = seating.seat(members, sizes, costs, seed)
    if game.key == "riichi":
        seated = seating.winds(seated, tonight.winds(game.key) if tonight else {},
                               random.Random(seed))
    by_member = {p.member: p for p in people}
    laid = [[by_member[m] for m in table] for table in seated]
    chats = await clubs.tables(club.id)
    start = call.options.get("start") == "yes"
    lines = [tr("{game}: {n} at {tables} (seed {seed}; seed:{seed} seats them so "
                "again).", game=title, n=len(people),
                tables=tr.plural("{n} table", "{n} tables", len(sizes)), seed=seed),
             repeats_line(tr, seating.repeats(seated, met),
                          {p.member: p.name for p in people})]
    labels = [table_label(tr, i, chats) for i in range(1, len(laid) + 1)]
    outcome = Outcome(Reply("", table=seat_lines(tr, game, laid, labels)))
    if start:
        await check_club_admin(call, club, _("begin games at the club's tables"))
        if len(laid) > len(chats):
            raise UserError(_("{tables} tables need {tables} of the club's chats; it has "
                              "{chats}. Another joins with /club code (or start the games "
                              "by hand).", tables=len(laid), chats=len(chats)))
        await clubs.lock(club.id)
        kept = tonight or await clubs.add_night(Night(0, club.id, now, member(call,
                                                                            persons)))
        kept.seated.append(Seated(game.key, seed, seated))
        await clubs.save_night(kept)
        accounts = accounts_of(persons)
        outcome.then = [begin(call, chats[i], game, table, accounts, labels[i], f"t{i + 1}")
                        for i, table in enumerate(laid)]
        outcome.changed = True
        lines.append(tr("The games begin at those chats."))
    else:
        lines.append(tr("start:yes begins the games at those chats."))
    outcome.reply.text = "\n".join(lines)
    return outcome
