"""/rating, /vs and /records: the club's members rated game by game, two members against
each other, and the club's records. Each reads the club's figures (bot/core/club/)."""

from __future__ import annotations

from datetime import datetime

from bot.core import points as pts
from bot.core.board import PHONE_WIDTH
from bot.core.club.figures import ClubFigures, GameFigures, is_guest
from bot.core.club.ratings import PROVISIONAL, Rated
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.club.common import (
    book,
    describe,
    figures,
    find_member,
    game_wanted,
    this_club,
    title,
)
from bot.core.i18n import Tr, _
from bot.core.i18n.text import decode
from bot.core.width import ljust, rjust, width

LISTED = 20  # members a game's ratings list shows
MOVES_SHOWN = 5  # a member's last games whose rating /rating NAME shows


def shown(value: float, tr: Tr) -> str:
    return tr.number(round(value, 1), 1)


async def rating(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    figures_ = await figures(call, club_)
    until, label = _season_end(call, figures_)  # a season that isn't: refused first
    if not figures_.games:
        return Outcome(Reply(tr("No finished game at {club}'s tables yet.", club=club_.name)))
    who = (call.options.get("") or "").strip()
    games = game_wanted(call, figures_)
    if who:
        persons = await book(call).persons()
        found = find_member(figures_, call, who, persons)
        if is_guest(found):
            raise UserError(_("{name} is a guest at one table: a guest's rating is not kept "
                              "(an account plays for it; /link binds a guest's name to one).",
                              name=describe(figures_, found)))
        lines = [_member_lines(figures_, figures_.games[key], found, tr, until)
                 for key in games if found in figures_.games[key].ratings]
        if not lines:
            raise UserError(_("{name} has no rating yet: a game is rated once two members "
                              "play it.", name=figures_.name(found)))
        return Outcome(Reply("\n".join(lines)))
    parts = []
    for key in games:
        rows = _ranked(figures_, figures_.games[key], until)
        if not rows:
            continue
        heading = tr("{game}: rating = μ − 3σ ({label})", game=title(call, figures_, key),
                     label=label)
        parts.append(heading + "\n" + _listing(figures_, rows[:LISTED], tr))
    if not parts:
        return Outcome(Reply(tr("No game rated yet: a game is rated once two members play "
                                "it.")))
    note = tr("* provisional: fewer than {n} games rated.", n=PROVISIONAL)
    return Outcome(Reply(tr("{club}: ratings (OpenSkill).", club=club_.name),
                         table="\n\n".join(parts) + "\n" + note))


def _season_end(call: Call, figures_: ClubFigures) -> tuple[datetime | None, str]:
    """Ratings as they stood at the end of the season named (season:Spring), else now."""
    typed = (call.options.get("season") or "").strip()
    if not typed:
        return None, call.tr("now")
    season = figures_.season(typed)
    if season is None:
        raise UserError(_("The club has no season `{name}`. Seasons: {names}.",
                          name=clip(typed),
                          names=", ".join(s.name for s in figures_.seasons) or "-"))
    if season.ended_at is None:
        return None, call.tr("season {name}, open", name=season.name)
    return season.ended_at, call.tr("at the end of season {name}", name=season.name)


def _as_of(figures_: ClubFigures, rated: Rated, until: datetime | None) -> Rated | None:
    """A rating as it stood when `until` came (None: now)."""
    if until is None:
        return rated
    kept = [h for h in rated.history if figures_.ended[h[0] - 1] < until]
    if not kept:
        return None
    _number, mu, sigma = kept[-1]
    return Rated(mu, sigma, len(kept), kept)


def _ranked(figures_: ClubFigures, game: GameFigures,
            until: datetime | None) -> list[tuple[str, Rated]]:
    rows = []
    for member, rated in game.ratings.items():
        now = _as_of(figures_, rated, until)
        if now is not None:
            rows.append((member, now))
    return sorted(rows, key=lambda r: (-r[1].shown, r[0]))


def _listing(figures_: ClubFigures, rows: list[tuple[str, Rated]], tr: Tr) -> str:
    """# player rating games, fitting a phone."""
    cells = [[tr.number(i), figures_.name(m), shown(r.shown, tr) + ("*" if r.provisional
                                                                     else ""),
              tr.number(r.games)] for i, (m, r) in enumerate(rows, 1)]
    header = ["#", tr("player"), tr("rating"), tr("games")]
    widths = [max(width(row[i]) for row in [header, *cells]) for i in range(4)]
    room = PHONE_WIDTH - sum(widths) + widths[1] - 6
    lines = []
    for row in [header, *cells]:
        name = row[1] if width(row[1]) <= room else row[1][:max(room, 3)]
        lines.append("  ".join([rjust(row[0], widths[0]), ljust(name, min(widths[1], room)),
                                rjust(row[2], widths[2]), rjust(row[3], widths[3])]).rstrip())
    return "\n".join(lines)


def _member_lines(figures_: ClubFigures, game: GameFigures, member: str, tr: Tr,
                  until: datetime | None) -> str:
    rated = _as_of(figures_, game.ratings[member], until)
    name = figures_.name(member)
    game_title = tr.text(game.title)
    if rated is None:
        return tr("{name}, {game}: not rated by then.", name=name, game=game_title)
    head = tr("{name}, {game}: rating {rating} (μ {mu} σ {sigma}), {games}.", name=name,
              game=game_title, rating=shown(rated.shown, tr), mu=tr.number(rated.mu, 2),
              sigma=tr.number(rated.sigma, 2),
              games=tr.plural("{n} game rated", "{n} games rated", rated.games))
    if rated.provisional:
        head += " " + tr("Provisional: fewer than {n} games.", n=PROVISIONAL)
    last = rated.history[-(MOVES_SHOWN + 1):]
    if len(last) > 1:
        steps = " → ".join(shown(mu - 3 * sigma, tr) for _no, mu, sigma in last)
        head += "\n" + tr("Its last games: {steps}.", steps=steps)
    return head


async def vs(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    figures_ = await figures(call, club_)
    words = (call.options.get("") or "").split()
    if len(words) != 2:
        raise UserError(_("Name two members: /vs alice bob (or /vs alice bob game:riichi)."))
    persons = await book(call).persons()
    one, two = (find_member(figures_, call, w, persons) for w in words)
    if one == two:
        raise UserError(_("That is one member twice: name two."))
    lines = []
    for key in game_wanted(call, figures_):
        game = figures_.games[key]
        first, second = (one, two) if one < two else (two, one)
        pair = game.pairs.get((first, second))
        if pair is None:
            continue
        above, below = (pair.above, pair.below) if first == one else (pair.below, pair.above)
        points = pair.points if first == one else -pair.points
        lines.append(tr("{game}: {games} together; {one} placed higher {above}, {two} "
                        "{below}, level {level}; points {one} {points} against {two}.",
                        game=title(call, figures_, key),
                        games=tr.plural("{n} game", "{n} games", pair.games),
                        one=figures_.name(one), two=figures_.name(two), above=above,
                        below=below, level=pair.level,
                        points=pts.show_value(points, game.point_places, tr=tr)))
    if not lines:
        return Outcome(Reply(tr("{one} and {two} have not played a game together at the "
                                "club's tables.", one=figures_.name(one),
                                two=figures_.name(two))))
    return Outcome(Reply("\n".join(lines)))


async def records(call: Call) -> Outcome:
    tr = call.tr
    club_ = await this_club(call)
    figures_ = await figures(call, club_)
    if not figures_.games:
        return Outcome(Reply(tr("No finished game at {club}'s tables yet.", club=club_.name)))
    parts = []
    for key in game_wanted(call, figures_):
        game = figures_.games[key]
        lines = [tr("{game} ({games}):", game=title(call, figures_, key),
                    games=tr.plural("{n} game", "{n} games", game.games))]
        hand = game.biggest()
        if hand is not None:
            said = tr.render(decode(hand.label)) if hand.label else pts.show_value(
                hand.size, game.point_places, tr=tr)
            lines.append("  " + tr("Biggest hand: {name}, {hand} ({day}).",
                                   name=describe(figures_, hand.member), hand=said,
                                   day=tr.date(hand.ended_at)))
        run = game.longest_run()
        if run[0]:
            lines.append("  " + tr("Longest run of wins: {name}, {n} games in a row.",
                                   name=figures_.name(run[1]), n=run[0]))
        most = game.most_games()
        if most[0]:
            lines.append("  " + tr("Most games: {name}, {n}.", name=figures_.name(most[1]),
                                   n=most[0]))
        parts.append("\n".join(lines))
    return Outcome(Reply("\n".join(parts)))
