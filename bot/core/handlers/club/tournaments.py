"""/tournament: a club's tournament across its tables (bot/core/club/tournament.py).

`new name:... game:riichi rounds:5 [rules:wrc|ema|mleague] [seating:swiss|shuffled|interval]
[tables:N]` (a club admin) makes it; players `join` themselves, an admin `add`s them;
`start` seats the next round (round 1 at random, later ones by the seating) and begins
its games at the club's chats, `seat` seats it without beginning (and again: re-seated);
each table's result is its game's end, entered as any game's at that chat; a round ends
when every table has finished, its standings posted to every table and the next round
seated. `sub @absent @sub`, `penalty @x -20 reason:...`, `withdraw [@x]`, `timer 90m`,
`tables`, `csv`; `/tournament` shows the standings. Every change is made under the club's
lock: two tables ending at once both count, one after the other."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation

from bot.core.club import tournament as tm
from bot.core.club.book import Club, ClubBook, ClubTable
from bot.core.club.figures import ClubFigures, member_of
from bot.core.club.summary import GameSummary
from bot.core.club.tournament import Entry, Penalty, Round, Tournament
from bot.core.command import Actor, Attachment, Command, Reply
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.grammar import clip
from bot.core.handlers.call import Call, FollowUp, Outcome
from bot.core.handlers.club.common import book, check_club_admin, member, this_club
from bot.core.handlers.club.seats import Person, accounts_of, begin, named, seat_lines
from bot.core.i18n import N_, Msg, Tr, _, translator
from bot.core.players import fold
from bot.core.session import SessionState
from bot.core.width import clip as clip_width
from bot.core.width import ljust, rjust

ACTIONS = ("new", "join", "add", "start", "seat", "reseat", "tables", "sub", "penalty",
           "withdraw", "timer", "csv")
MAX_NAME = 40
TIMER_MARKS = (15, 5, 0)  # minutes left a timer's posts are made at
_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m?)?$")


def _words(call: Call) -> list[str]:
    return (call.options.get("") or "").split()


async def tournament(call: Call) -> Outcome:
    words = _words(call)
    action = words[0].lower() if words else ""
    if action and action not in ACTIONS:
        raise UserError(_("/tournament takes {actions}, not `{word}`.",
                          actions=", ".join(ACTIONS), word=clip(words[0])))
    handler = {"": _show, "new": _new, "join": _join, "add": _add, "start": _start,
               "seat": _seat, "reseat": _seat, "tables": _tables, "sub": _sub,
               "penalty": _penalty, "withdraw": _withdraw, "timer": _timer,
               "csv": _csv}[action]
    return await handler(call)


# --- finding it ---------------------------------------------------------------------------

async def _chosen(call: Call, club: Club, lock: bool = False) -> Tournament:
    """The tournament a command is about: the one named (name:), else the latest not
    ended, else the latest. `lock`: the club's turn taken first (it is to be changed)."""
    clubs = book(call)
    if lock:
        await clubs.lock(club.id)
    made = await clubs.tournaments(club.id)
    if not made:
        raise UserError(_("{club} has no tournament. A club admin makes one: /tournament "
                          "new name:Dashain Cup game:riichi rounds:5", club=club.name))
    typed = " ".join((call.options.get("name") or "").split())
    if typed:
        found = next((t for t in reversed(made) if fold(t.name) == fold(typed)), None)
        if found is None:
            raise UserError(_("{club} has no tournament `{name}`. Tournaments: {names}.",
                              club=club.name, name=clip(typed),
                              names=", ".join(t.name for t in made)))
        return found
    return next((t for t in reversed(made) if t.status != tm.ENDED), made[-1])


async def _admin(call: Call, club: Club, t: Tournament, what: Msg) -> None:
    await check_club_admin(call, club, what)
    if t.status == tm.ENDED:
        raise UserError(_("{name} has ended: its standings are final.", name=t.name))


def _title(t: Tournament, tr: Tr) -> str:
    scoring = t.scoring
    game = tr.text(t.title)
    return f"{game} ({scoring.title})" if scoring is not None else game


async def _chats(call: Call, club: Club) -> list[ClubTable]:
    return await book(call).tables(club.id)


def _chat_names(chats: list[ClubTable]) -> dict[str, str]:
    return {c.chat: c.name for c in chats}


# --- what it shows ------------------------------------------------------------------------

def standings_block(tr: Tr, t: Tournament) -> str:
    """The standings as a phone shows them: place, name, total, each round's place."""
    rows = tm.standings(t)
    lines = []
    for rank, row in zip(tm.ranks(rows, t.lowest_wins), rows, strict=True):
        name = row.name + (" " + tr("(out)") if row.withdrawn else "")
        places = " ".join("-" if p is None else str(p) for p in row.places)
        lines.append(clip_width(f"{rjust(tr.number(rank), 2)} {ljust(clip_width(name, 13), 13)}"
                                f"{rjust(tm.signed(row.total, tr, t.places), 7)}  {places}", 34))
    return "\n".join(lines)


def standings_text(tr: Tr, t: Tournament) -> str:
    done = t.closed_rounds()
    game = _title(t, tr)  # (named before: a call inside a plural's hides it from babel)
    if t.status == tm.ENDED:
        head = tr.plural("{name} · {game}: final standings after {n} round.",
                         "{name} · {game}: final standings after {n} rounds.", done,
                         name=t.name, game=game)
    elif done:
        head = tr("{name} · {game}: standings after round {n} of {rounds}.", name=t.name,
                  game=_title(t, tr), n=done, rounds=t.rounds)
    else:
        head = tr("{name} · {game}: {n} players, {rounds} rounds, no round played yet.",
                  name=t.name, game=_title(t, tr), n=len(t.playing()), rounds=t.rounds)
    lines = [head]
    if t.penalties:
        names = {e.member: e.name for e in t.entries}
        lines.append(tr("Penalties: {list}.", list="; ".join(
            f"{names.get(p.member, p.member)} "
            f"{tm.signed(tm.Fraction(p.amount), tr, t.places)}"
            + (f" ({p.reason})" if p.reason else "") for p in t.penalties)))
    lines.append(tr("Ties: the better sum of places, then more firsts. Places per round "
                    "after the total."))
    return "\n".join(lines)


def round_block(tr: Tr, t: Tournament, round_: Round, names: dict[str, str]) -> str:
    game = get_game(t.game)
    labels = [tr("Table {n} · {chat}", n=table.number, chat=names.get(table.chat,
                                                                        table.chat))
              + (" ✓" if table.done else "") for table in round_.tables]
    laid = [[Person(s.player, s.player_name + (" " + tr("(sub)") if s.sub else ""))
             for s in table.seats] for table in round_.tables]
    return seat_lines(tr, game, laid, labels)


def _round_head(tr: Tr, t: Tournament, round_: Round, started: bool) -> str:
    how = tr("at random") if round_.number == 1 else tr.text(_SEATINGS[t.seating])
    if started:
        return tr("{name}, round {n} of {rounds} begins ({how}, seed {seed}):",
                  name=t.name, n=round_.number, rounds=t.rounds, how=how, seed=round_.seed)
    return tr("{name}, round {n} of {rounds} is seated ({how}, seed {seed}); /tournament "
              "start begins it, /tournament reseat seats it again:", name=t.name,
              n=round_.number, rounds=t.rounds, how=how, seed=round_.seed)


_SEATINGS = {tm.SWISS: N_("swiss: by standing"),
             tm.SHUFFLED: N_("shuffled bands of the standing"),
             tm.INTERVAL: N_("interval: the standing dealt across the tables")}


async def _show(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club)
    tr = call.tr
    lines = [standings_text(tr, t)]
    if t.timer:
        ends = datetime.fromisoformat(t.timer["ends"])
        left = ends - datetime.now(UTC)
        if left.total_seconds() > 0:
            lines.append(tr("Timer: {minutes} min left.",
                            minutes=int(left.total_seconds() // 60)))
    current = t.current
    if current is not None:
        state = (tr("being played: {done} of {tables} tables have finished", done=sum(
            1 for x in current.tables if x.done), tables=len(current.tables))
            if current.started else tr("seated, not begun"))
        lines.append(tr("Round {n}: {state} (/tournament tables).", n=current.number,
                        state=state))
    elif t.status == tm.OPEN:
        lines.append(tr("Players join with /tournament join; a club admin begins it with "
                        "/tournament start."))
    return Outcome(Reply("\n".join(lines), table=standings_block(tr, t) or None))


async def _tables(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club)
    shown = t.current or (t.played[-1] if t.played else None)
    if shown is None:
        raise UserError(_("No round of {name} is seated yet: /tournament seat seats the "
                          "first.", name=t.name))
    names = _chat_names(await _chats(call, club))
    tr = call.tr
    return Outcome(Reply(tr("{name}, round {n} of {rounds} (seed {seed}):", name=t.name,
                            n=shown.number, rounds=t.rounds, seed=shown.seed),
                         table=round_block(tr, t, shown, names)))


async def _csv(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club)
    slug = re.sub(r"[^a-z0-9]+", "-", t.name.lower()).strip("-") or "tournament"
    return Outcome(Reply(call.tr("{name}: the standings as CSV (place, name, total, each "
                                 "round).", name=t.name),
                         file=Attachment(f"{slug}.csv", tm.csv_text(t).encode())))


# --- making it, and who plays ------------------------------------------------------------

async def _new(call: Call) -> Outcome:
    club = await this_club(call)
    await check_club_admin(call, club, _("make a tournament"))
    clubs = book(call)
    await clubs.lock(club.id)
    name = " ".join((call.options.get("name") or "").split())
    if not name:
        raise UserError(_("Name it: /tournament new name:Dashain Cup game:riichi rounds:5"))
    if len(name) > MAX_NAME:
        raise UserError(_("A tournament's name is at most {n} characters.", n=MAX_NAME))
    made = await clubs.tournaments(club.id)
    taken = next((t for t in made if fold(t.name) == fold(name)), None)
    if taken is not None:
        raise UserError(_("{club} had a tournament called {name} already; pick another "
                          "name.", club=club.name, name=taken.name))
    if "game" not in call.options:
        raise UserError(_("Name its game: /tournament new name:{name} game:riichi "
                          "rounds:5", name=clip(name)))
    game = get_game(call.options["game"])
    if game.key == "points":
        raise UserError(_("A tournament of a points game is not kept yet: play its rounds "
                          "as a club night (/club tables)."))
    rounds = int(call.options.get("rounds") or 4)
    rules = call.options.get("rules") or ""
    if game.key == "riichi":
        rules = rules or "wrc"
    elif rules:
        raise UserError(_("rules: (wrc, ema or mleague) is Riichi's scoring; {game} is "
                          "scored by its own points.", game=Msg(game.title)))
    persons = await clubs.persons()
    t = Tournament(0, club.id, name, game.key, game.title, rounds, rules,
                   call.options.get("seating") or tm.SWISS, game.lowest_wins,
                   int(call.options["tables"]) if "tables" in call.options else None,
                   secrets.randbelow(10**6), tm.OPEN, member(call, persons))
    await clubs.add_tournament(t)
    tr = call.tr
    return Outcome(Reply("\n".join([
        tr("{name} made: {game}, {rounds} rounds, seated {how} after the first.",
           name=name, game=_title(t, tr), rounds=rounds, how=tr.text(_SEATINGS[t.seating])),
        tr("Players join with /tournament join (or an admin: /tournament add @ana @bob); "
           "/tournament start seats round 1 at random and begins its games at the club's "
           "tables.")])), changed=True)


async def _join(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    if t.status != tm.OPEN:
        raise UserError(_("{name} has begun: a club admin adds a player with /tournament "
                          "add @name.", name=t.name))
    persons = await book(call).persons()
    who = member(call, persons)
    tr = call.tr
    if t.entry(who) is not None:
        return Outcome(Reply(tr("You are in {name} already ({n} players).", name=t.name,
                                n=len(t.playing()))))
    t.entries.append(Entry(who, call.command.actor.name))
    await book(call).save_tournament(t)
    return Outcome(Reply(tr("{player} is in {name} ({n} players).",
                            player=call.command.actor.name, name=t.name,
                            n=len(t.playing()))), changed=True)


async def _add(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    await _admin(call, club, t, _("add players to a tournament"))
    persons = await book(call).persons()
    people = named(call, " ".join(_words(call)[1:]) or call.options.get("players", ""),
                   persons)
    if not people:
        raise UserError(_("Who? /tournament add @ana @bob"))
    guests = [p.name for p in people if p.member.startswith("name:")]
    if guests:
        raise UserError(_("A tournament's players are the club's members, named by "
                          "@mention: {names} is no @mention.", names=", ".join(guests)))
    added = []
    for person in people:
        entry = t.entry(person.member)
        if entry is None:
            t.entries.append(Entry(person.member, person.name))
            added.append(person.name)
        elif entry.withdrawn is not None:
            entry.withdrawn = None
            added.append(person.name)
    await book(call).save_tournament(t)
    tr = call.tr
    if not added:
        return Outcome(Reply(tr("They are in {name} already ({n} players).", name=t.name,
                                n=len(t.playing()))))
    return Outcome(Reply(tr("In {name} now: {names} ({n} players).", name=t.name,
                            names=", ".join(added), n=len(t.playing()))), changed=True)


# --- rounds -------------------------------------------------------------------------------

def _seed(call: Call) -> int:
    return int(call.options["seed"]) if "seed" in call.options else secrets.randbelow(10**6)


def _names(t: Tournament) -> dict[str, str]:
    return {e.member: e.name for e in t.entries}


async def _seat(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    await _admin(call, club, t, _("seat a round"))
    chats = await _chats(call, club)
    made = tm.seat_round(t, [c.chat for c in chats], _seed(call), call.tr.text(t.title),
                         _names(t))
    await book(call).save_tournament(t)
    tr = call.tr
    return Outcome(Reply(_round_head(tr, t, made, started=False),
                         table=round_block(tr, t, made, _chat_names(chats))), changed=True)


async def _start(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    await _admin(call, club, t, _("begin a round"))
    chats = await _chats(call, club)
    current = t.current
    if current is None or "seed" in call.options:
        current = tm.seat_round(t, [c.chat for c in chats], _seed(call),
                                call.tr.text(t.title), _names(t))
    elif current.started:  # (seat_round says the same where it is asked to seat again)
        tm.seat_round(t, [c.chat for c in chats], 0, call.tr.text(t.title))
    current.started = True
    await book(call).save_tournament(t)
    tr = call.tr
    by_chat = {c.chat: c for c in chats}
    accounts = accounts_of(await book(call).persons())
    game = get_game(t.game)
    scoring = t.scoring
    options = {"preset": scoring.preset} if scoring is not None else {}
    names = _chat_names(chats)
    outcome = Outcome(Reply(_round_head(tr, t, current, started=True),
                            table=round_block(tr, t, current, names)), changed=True)
    outcome.then = [
        begin(call, by_chat[table.chat], game,
              [Person(s.player, s.player_name) for s in table.seats], accounts,
              tr("Table {n} · {chat}", n=table.number, chat=names.get(table.chat, table.chat)),
              f"r{current.number}t{table.number}", options)
        for table in current.tables]
    return outcome


# --- substitutes, penalties, withdrawals, the timer ------------------------------------

def _entry_named(call: Call, t: Tournament, typed: str, persons: dict[str, str]) -> Entry:
    mentioned = call.command.mentions.get(typed) or call.command.mentions.get(typed.lower())
    if mentioned is not None:
        found = t.entry(persons.get(mentioned.id, mentioned.id))
        if found is None:
            raise UserError(_("{name} does not play in {tournament}.", name=mentioned.name,
                              tournament=t.name))
        return found
    hits = [e for e in t.entries if fold(e.name) == fold(typed.lstrip("@"))]
    if len(hits) != 1:
        raise UserError(_("No player `{name}` in {tournament}: name them by @mention.",
                          name=clip(typed), tournament=t.name))
    return hits[0]


async def _sub(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    await _admin(call, club, t, _("seat a substitute"))
    words = _words(call)[1:]
    if len(words) != 2:
        raise UserError(_("/tournament sub @absent @substitute: the player who is away, "
                          "then who plays their seat."))
    persons = await book(call).persons()
    absent = _entry_named(call, t, words[0], persons)
    [sub] = named(call, words[1], persons)
    current = t.current
    found = current.seat_of(absent.member) if current is not None else None
    if current is None or found is None:
        raise UserError(_("{name} has no seat in a round being seated or played.",
                          name=absent.name))
    table, seat = found
    if table.done:
        raise UserError(_("Table {n}'s result for round {r} is in: its seats are kept.",
                          n=table.number, r=current.number))
    if sub.member.startswith("name:"):
        raise UserError(_("Name the substitute by @mention: they sit down with their "
                          "account."))
    elsewhere = current.seat_of(sub.member)
    if elsewhere is not None and elsewhere[1] is not seat:
        raise UserError(_("{name} plays at table {n} in this round: a person sits at one "
                          "table.", name=sub.name, n=elsewhere[0].number))
    seat.player, seat.player_name, seat.sub = sub.member, sub.name, sub.member != seat.member
    await book(call).save_tournament(t)
    tr = call.tr
    text = tr("{sub} plays {absent}'s seat at table {n} in round {r}: the seat's result "
              "counts for {absent} in {name}; the club counts the game for {sub}.",
              sub=sub.name, absent=absent.name, n=table.number, r=current.number,
              name=t.name)
    outcome = Outcome(Reply(text), changed=True)
    if current.started:  # the game there has begun: the seat is given to the substitute
        chats = {c.chat: c for c in await _chats(call, club)}
        there = chats.get(table.chat)
        if there is not None:
            account = accounts_of(persons).get(sub.member, [sub.account or sub.member])
            actor = Actor(next((a for a in account if a.split(":", 1)[0] == there.platform),
                               sub.account or sub.member), sub.name)
            command = call.command
            outcome.then = [FollowUp(Command(
                there.chat, command.actor, "seat", {"": absent.name, "person": "@sub"},
                origin_id=f"{command.origin_id}:sub" if command.origin_id else None,
                mentions={"@sub": actor}, locale=command.locale), tr(
                    "Table {n} · {chat}", n=table.number, chat=there.name))]
    return outcome


async def _penalty(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    await _admin(call, club, t, _("give a penalty"))
    words = _words(call)[1:]
    if len(words) < 2:
        raise UserError(_("/tournament penalty @name -20 reason:late: the points come off "
                          "the tournament score, not the table's."))
    persons = await book(call).persons()
    entry = _entry_named(call, t, words[0], persons)
    try:
        amount = Decimal(words[1].replace("−", "-"))
    except InvalidOperation:
        raise UserError(_("`{amount}` is no number of points: /tournament penalty @name -20",
                          amount=clip(words[1]))) from None
    if not amount.is_finite() or amount == 0 or abs(amount) > 10**6:
        raise UserError(_("A penalty is a number of points, not 0: -20, say."))
    reason = (call.options.get("reason") or " ".join(words[2:])).strip()
    t.penalties.append(Penalty(entry.member, amount, clip(reason, 60), t.closed_rounds(),
                               member(call, persons)))
    await book(call).save_tournament(t)
    tr = call.tr
    return Outcome(Reply(tr("{name}: {amount} on the tournament score{why}.",
                            name=entry.name,
                            amount=tm.signed(tm.Fraction(amount), tr, t.places),
                            why=f" ({reason})" if reason else "")), changed=True)


async def _withdraw(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    persons = await book(call).persons()
    words = _words(call)[1:]
    if words:
        await _admin(call, club, t, _("withdraw another player"))
        entry = _entry_named(call, t, words[0], persons)
    else:
        found = t.entry(member(call, persons))
        if found is None:
            raise UserError(_("You do not play in {name}.", name=t.name))
        entry = found
    if entry.withdrawn is not None:
        raise UserError(_("{name} has withdrawn already.", name=entry.name))
    entry.withdrawn = t.closed_rounds()
    tr = call.tr
    lines = [tr("{player} withdraws from {name}: their rounds so far stay in the "
                "standings.", player=entry.name, name=t.name)]
    current = t.current
    outcome = Outcome(Reply(""), changed=True)
    if current is not None and current.seat_of(entry.member) is not None:
        if current.started:
            lines.append(tr("Their table plays round {n} on: /tournament sub gives their "
                            "seat to someone.", n=current.number))
        else:
            chats = await _chats(call, club)
            try:
                made = tm.seat_round(t, [c.chat for c in chats], current.seed,
                                     tr.text(t.title), _names(t))
            except UserError as error:  # they no longer fit: seated once they do
                t.played.remove(current)
                lines.append(tr("Round {n} is not seated: {why}", n=current.number,
                                why=tr.render(error.message)))
            else:
                lines.append(_round_head(tr, t, made, started=False))
                outcome.reply.table = round_block(tr, t, made, _chat_names(chats))
    await book(call).save_tournament(t)
    outcome.reply.text = "\n".join(lines)
    return outcome


def _duration(text: str) -> timedelta | None:
    found = _DURATION.match(text.strip().lower())
    if found is None or not any(found.groups()):
        return None
    hours, minutes = (int(g) if g else 0 for g in found.groups())
    return timedelta(hours=hours, minutes=minutes)


async def _timer(call: Call) -> Outcome:
    club = await this_club(call)
    t = await _chosen(call, club, lock=True)
    await _admin(call, club, t, _("set the timer"))
    words = _words(call)[1:]
    tr = call.tr
    if words and words[0].lower() == "off":
        t.timer = None
        await book(call).save_tournament(t)
        return Outcome(Reply(tr("{name}'s timer is off.", name=t.name)), changed=True)
    length = _duration(words[0]) if words else None
    if length is None or not timedelta(minutes=1) <= length <= timedelta(hours=12):
        raise UserError(_("/tournament timer 90m (or 1h30, up to 12 hours), or /tournament "
                          "timer off."))
    ends = datetime.now(UTC) + length
    t.timer = {"ends": ends.isoformat(), "said": [m for m in TIMER_MARKS
                                                  if length <= timedelta(minutes=m)]}
    await book(call).save_tournament(t)
    return Outcome(Reply(tr("{name}'s timer: {minutes} minutes. Every table is told at 15 "
                            "and 5 minutes left, and at 0: last hand.", name=t.name,
                            minutes=int(length.total_seconds() // 60))), changed=True)


async def timers_due(clubs: ClubBook, now: datetime) -> list[tuple[str, Reply]]:
    """The timers' posts due by `now`, marked as said: for each tournament whose timer
    crossed 15 or 5 minutes left, or its end ("last hand"), a post to each of its tables."""
    posts: list[tuple[str, Reply]] = []
    for seen in await clubs.timed_tournaments():
        await clubs.lock(seen.club_id)  # then read again: another process may have said it
        t = next((x for x in await clubs.tournaments(seen.club_id) if x.id == seen.id), None)
        if t is None or not t.timer:
            continue
        ends = datetime.fromisoformat(t.timer["ends"])
        said = set(t.timer.get("said") or ())
        due = [m for m in TIMER_MARKS if m not in said and now >= ends - timedelta(minutes=m)]
        if not due:
            continue
        tr = translator("en")
        mark = min(due)
        text = (tr("{name}: time is up. Last hand.", name=t.name) if mark == 0 else
                tr("{name}: {n} minutes left.", name=t.name, n=mark))
        current = t.current or (t.played[-1] if t.played else None)
        chats = {x.chat for x in current.tables if not x.done} if current else set()
        posts.extend((chat, Reply(text)) for chat in sorted(chats))
        t.timer["said"] = sorted(said | set(due))
        if mark == 0:
            t.timer = None
        await clubs.save_tournament(t)
    return posts


# --- a game's end at a table ------------------------------------------------------------

@dataclass
class Ended:
    """What a game's end at a club table was to its tournaments: lines for /endgame, and
    posts for the other tables."""

    lines: list[str] = field(default_factory=list)
    posts: list[tuple[str, Reply]] = field(default_factory=list)


async def game_ended(call: Call, club: Club, figures: ClubFigures, session: SessionState,
                     summary: GameSummary) -> Ended:
    """A game ended at a table of `club` (its lock held): the result of a tournament's
    table where its players are that table's; a round's last table closes the round, its
    standings posted to every table and the next round seated."""
    clubs = book(call)
    running = [t for t in await clubs.tournaments(club.id)
               if t.status == tm.RUNNING and t.game == summary.game.partition(":")[0]]
    out = Ended()
    if not running:
        return out
    points = _end_points(call, figures, session, summary)
    if points is None:
        return out
    chats = await _chats(call, club)
    names = _chat_names(chats)
    tr = call.tr
    assert session.id is not None
    for t in running:
        counted = tm.count_game(t, call.command.chat, session.id, points, names)
        if counted.why:
            out.lines.append(tr.render(counted.why))
            continue
        if counted.table is None or counted.round is None:
            continue
        lines = [tr("{name}: table {n}'s result for round {r} is in.", name=t.name,
                    n=counted.table.number, r=counted.round.number)]
        post: list[str] = []
        table = None
        if counted.closed:
            post.append(standings_text(tr, t))
            table = standings_block(tr, t)
            if t.status != tm.ENDED:
                try:
                    made = tm.seat_round(t, [c.chat for c in chats], secrets.randbelow(10**6),
                                         tr.text(t.title), _names(t))
                    table += "\n\n" + round_block(tr, t, made, names)
                    post.append(_round_head(tr, t, made, started=False))
                except UserError as error:  # (too few chats now): said, seated by hand
                    post.append(tr.render(error.message))
        else:
            left = [x for x in counted.round.tables if not x.done]
            lines.append(tr("Waiting for {tables}.", tables=", ".join(
                tr("table {n}", n=x.number) for x in left)))
        await clubs.save_tournament(t)
        out.lines.extend(lines)
        if post:
            out.lines.extend(post)
            everywhere = sorted({c.chat for c in chats} - {call.command.chat})
            out.posts.extend((chat, Reply("\n".join(post), table=table))
                             for chat in everywhere)
            if table:
                out.lines.append(table)
    return out


def _end_points(call: Call, figures: ClubFigures, session: SessionState,
                summary: GameSummary) -> dict[str, Decimal] | None:
    """Each member's points at the game's end as a tournament scores them (Riichi: the
    score at the end, start and leftover sticks in; else the game's points); None where a
    member sat twice or a seat is nobody's."""
    game = call.game_of(session)
    raw = game.end_points(session.totals, game.rulebook.complete(session.rules),
                          session.game_state, session.roster)
    out: dict[str, Decimal] = {}
    for seat in summary.seats:
        who = member_of(seat.key, summary.chat, figures.persons)
        if who in out:
            return None
        out[who] = Decimal(raw[seat.side]) if raw is not None and seat.side in raw \
            else seat.points
    return out
