"""The club's live page as data (served by bot/web/club.py, laid out by
bot/web/static/club.js, which knows no rule): the club and its tables; per game its league
table (the open season's and every game's), its ratings with a chart of the highest rated
members' ratings after each game, and its records; and a member's own page: per game their
games and places, best hand, rating and how it moved, and head-to-head against each member
they met; its tournaments' standings and tables. Pure: from the club's figures (figures.py)
and tournaments (tournament.py), in the reader's language, every word
and number as the page shows it, and the numbers a chart is drawn from. A member is named
by `ref`, an opaque id: the page never shows an account's or a chat's key."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from bot.core import points as pts
from bot.core.club import tournament as tm
from bot.core.club.book import PLATFORMS, ClubTable
from bot.core.club.figures import Best, ClubFigures, GameFigures, Standing, is_guest
from bot.core.club.ratings import PROVISIONAL, Rated
from bot.core.club.standings import cells, measure, measure_heading
from bot.core.club.tournament import Tournament
from bot.core.i18n import Tr
from bot.core.i18n.text import decode
from bot.core.money import format_money
from bot.core.stats import ordinal

CHARTED = 8  # members the club's chart draws a line for: the highest rated
POINTS_SENT = 120  # a line's points at most (a long history is thinned, its ends kept)
Ref = Callable[[str], str]  # member -> the id the page knows them by


def words(tr: Tr) -> dict[str, str]:
    """The page's own words (headings, buttons, notes)."""
    return {
        "standings": tr("Standings"), "ratings": tr("Ratings"), "records": tr("Records"),
        "tables": tr("Tables"), "chart": tr("Rating over time"),
        "rating_note": tr("rating = μ − 3σ (OpenSkill)"),
        "provisional": tr("* provisional: fewer than {n} games rated.", n=PROVISIONAL),
        "back": tr("The club"), "places": tr("Places"), "best": tr("Best hand"),
        "h2h": tr("Head to head"), "rating": tr("Rating"), "games": tr("Games"),
        "h2h_note": tr("Games played together; how often they placed higher than the "
                       "other, lower, level; and their points less the other's."),
        "live": tr("Live"), "offline": tr("Reconnecting…"),
        "none": tr("No finished game at the club's tables yet."),
        "unknown": tr("Nobody of that name has played at the club's tables."),
        "unrated": tr("Not rated: a guest's rating is not kept."),
        "tournament": tr("Tournament"), "finished": tr("result in"),
    }


class _Names:
    """Members as the page names them: the name of their latest seat, and for a guest the
    table that knows them."""

    def __init__(self, figures: ClubFigures, tables: Sequence[ClubTable], ref: Ref) -> None:
        self.figures, self._ref = figures, ref
        self.tables = {t.chat: t.name for t in tables}
        self._ids: dict[str, str] = {}

    def ref(self, member: str) -> str:
        found = self._ids.get(member)
        if found is None:
            found = self._ids[member] = self._ref(member)
        return found

    def name(self, member: str) -> str:
        return self.figures.name(member)

    def where(self, member: str) -> str:
        """The table a guest plays at ("" for a member)."""
        if not is_guest(member):
            return ""
        chat = member.partition("/name:")[0]
        return self.tables.get(chat, "")

    def of(self, member: str) -> dict[str, Any]:
        return {"member": self.ref(member), "name": self.name(member),
                "where": self.where(member)}


def game_order(figures: ClubFigures) -> list[str]:
    """The club's games, the most played first."""
    return sorted(figures.games, key=lambda k: (-figures.games[k].games, k))


def club_view(name: str, tables: Sequence[ClubTable], figures: ClubFigures, tr: Tr,
              ref: Ref, tournaments: Sequence[Tournament] = ()) -> dict[str, Any]:
    """The club's page (with its tournaments under way, else its last one)."""
    names = _Names(figures, tables, ref)
    members = [m for m in figures.names if not is_guest(m)]
    summary = " · ".join([tr.plural("{n} table", "{n} tables", len(tables)),
                          tr.plural("{n} member", "{n} members", len(members)),
                          tr.plural("{n} game", "{n} games", figures.count)])
    return {
        "language": tr.language,
        "words": words(tr),
        "club": {"name": name, "summary": summary,
                 "tables": [{"name": t.name, "platform": PLATFORMS.get(t.platform, t.platform)}
                            for t in tables]},
        "games": [_game(figures, key, names, tr) for key in game_order(figures)],
        "tournaments": [tournament_view(t, tables, tr, names.ref)
                        for t in shown_tournaments(tournaments)],
    }


def shown_tournaments(made: Sequence[Tournament]) -> list[Tournament]:
    """The tournaments the page shows: those under way, else the last."""
    return [t for t in made if t.status != tm.ENDED] or list(made[-1:])


def tournament_view(t: Tournament, tables: Sequence[ClubTable], tr: Tr,
                    ref: Ref) -> dict[str, Any]:
    """A tournament as the page shows it: its standings (place, name, total and each
    round's score, as /tournament writes them) and its round's tables (being played or
    seated, else the last), each table's seats in order and whether its result is in."""
    rows = tm.standings(t)
    scoring = t.scoring
    game = tr.text(t.title) + (f" ({scoring.title})" if scoring is not None else "")
    done = t.closed_rounds()
    if t.status == tm.ENDED:
        state = tr.plural("final standings after {n} round", "final standings after {n} "
                          "rounds", done)
    elif done:
        state = tr("standings after round {n} of {rounds}", n=done, rounds=t.rounds)
    else:
        state = tr.plural("{n} round, none played yet", "{n} rounds, none played yet",
                          t.rounds)
    shown = t.current or (t.played[-1] if t.played else None)
    chats = {c.chat: c.name for c in tables}
    winds = ("E", "S", "W", "N") if t.game == "riichi" else ()
    return {
        "name": t.name, "summary": f"{game} · {state}",
        "standings": {
            "headings": ["#", tr("player"), tr("total"),
                         *(tr("R{n}", n=r.number) for r in t.begun())],
            "rows": [{"place": tr.number(place), "member": ref(row.member),
                      "name": row.name + (" " + tr("(out)") if row.withdrawn else ""),
                      "where": "",
                      "cells": [tm.signed(row.total, tr, t.places),
                                *("–" if x is None else tm.signed(x, tr, t.places)
                                  for x in row.rounds)]}
                     for place, row in zip(tm.ranks(rows, t.lowest_wins), rows,
                                           strict=True)]},
        "round": None if shown is None else {
            "label": tr("Round {n} of {rounds}", n=shown.number, rounds=t.rounds)
            + ("" if shown.started else " · " + tr("seated, not begun")),
            "tables": [{"label": tr("Table {n} · {chat}", n=x.number,
                                    chat=chats.get(x.chat, x.chat)),
                        "done": x.done,
                        "seats": [(f"{tr(winds[i % 4])} " if winds else "")
                                  + s.player_name + (" " + tr("(sub)") if s.sub else "")
                                  for i, s in enumerate(x.seats)]}
                       for x in shown.tables]},
    }


def _game(figures: ClubFigures, key: str, names: _Names, tr: Tr) -> dict[str, Any]:
    game = figures.games[key]
    boards = []
    season = figures.open_season()
    if season is not None:
        label = tr("Season {name} ({games})", name=season.name,
                   games=tr.plural("{n} game", "{n} games", game.counts.get(season.id, 0)))
        boards.append(_board(game, season.id, label, names, tr))
    boards.append(_board(game, None, tr("Every game ({games})", games=tr.plural(
        "{n} game", "{n} games", game.games)), names, tr))
    rated = _rated(game)
    return {
        "key": key, "title": tr.text(game.title),
        "count": tr.plural("{n} game", "{n} games", game.games),
        "standings": boards,
        "ratings": _ratings(rated, names, tr),
        "chart": _chart(figures, game, [m for m, _r in rated[:CHARTED]], names, tr),
        "records": _records(game, names, tr),
    }


def _board(game: GameFigures, season: int | None, label: str, names: _Names,
           tr: Tr) -> dict[str, Any]:
    """A league table: its headings and a row a member, as `/club standings` ranks them."""
    shown = {m: names.name(m) for m in game.table(season)}
    headings, rows = cells(game, shown, tr, season)
    return {"label": label, "headings": headings,
            "note": "" if rows else tr("No game of it ended in the season yet."),
            "rows": [{**names.of(standing.member), "place": row[0], "cells": row[2:],
                      **_raw(standing)} for standing, row in rows]}


def _raw(standing: Standing) -> dict[str, Any]:
    """A row's figures as numbers (the page shows the cells; these are for a reader)."""
    return {"games": standing.games, "wins": standing.wins,
            "points": str(standing.points), "result": str(standing.results),
            "money": {c: str(a) for c, a in sorted(standing.money.items())}}


def _rated(game: GameFigures) -> list[tuple[str, Rated]]:
    return sorted(game.ratings.items(), key=lambda r: (-r[1].shown, r[0]))


def _shown(value: float, tr: Tr) -> str:
    return tr.number(round(value, 1), 1)


def _rating(rated: Rated, tr: Tr) -> dict[str, Any]:
    shown = _shown(rated.shown, tr) + ("*" if rated.provisional else "")
    mu, sigma = tr.number(rated.mu, 2), tr.number(rated.sigma, 2)
    return {"mu": rated.mu, "sigma": rated.sigma, "shown": rated.shown,
            "games": rated.games, "provisional": rated.provisional,
            "cells": [shown, mu, sigma, tr.number(rated.games)],
            "said": tr("{rating} (μ {mu} σ {sigma}), {games}", rating=shown, mu=mu,
                       sigma=sigma, games=tr.plural("{n} game rated", "{n} games rated",
                                                    rated.games))}


def _ratings(rated: list[tuple[str, Rated]], names: _Names, tr: Tr) -> dict[str, Any]:
    return {"headings": ["#", tr("player"), tr("rating"), "μ", "σ", tr("games")],
            "rows": [{**names.of(m), "place": tr.number(i), **_rating(r, tr)}
                     for i, (m, r) in enumerate(rated, 1)]}


def _positions(game: GameFigures) -> list[int]:
    """The games of `game` that moved a rating, by their number in the club's order: a
    chart's x is a game's place among them."""
    return sorted({h[0] for rated in game.ratings.values() for h in rated.history})


def thin(points: list[list[float]], most: int = POINTS_SENT) -> list[list[float]]:
    """At most `most` of a line's points, evenly spread, its first and last kept."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def ticks(low: float, high: float) -> list[float]:
    """Round values for a chart's axis from below `low` to above `high`, 0 among them, at
    a step of 1, 2 or 5 times a power of ten (about five of them)."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high - low < 1:
        high = low + 1
    raw = (high - low) / 4
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(s * power for s in (1, 2, 5, 10) if s * power >= raw)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [round(n * step, 10) for n in range(first, last + 1)]


def _chart(figures: ClubFigures, game: GameFigures, members: list[str], names: _Names,
           tr: Tr) -> dict[str, Any] | None:
    """Each member's rating (μ − 3σ) after each game that moved it, x the game's place
    among the game's rated ones."""
    numbers = _positions(game)
    if not members or not numbers:
        return None
    place = {n: i for i, n in enumerate(numbers, 1)}
    lines = []
    for member in members:
        points = [[place[n], round(mu - 3 * sigma, 2)]
                  for n, mu, sigma in game.ratings[member].history]
        now = game.ratings[member]
        lines.append({**names.of(member), "points": thin(points),
                      "rating": _shown(now.shown, tr) + ("*" if now.provisional else "")})
    values = [y for line in lines for _x, y in line["points"]]
    axis = ticks(min(values), max(values))
    step = axis[1] - axis[0]
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return {"lines": lines, "count": len(numbers),
            "ticks": [{"value": v, "label": tr.number(v, decimals)} for v in axis],
            "first": tr.date(figures.ended[numbers[0] - 1]),
            "last": tr.date(figures.ended[numbers[-1] - 1]),
            "games": tr.plural("{n} game rated", "{n} games rated", len(numbers))}


def _hand(game: GameFigures, hand: Best, names: _Names, tr: Tr) -> str:
    said = tr.render(decode(hand.label)) if hand.label else pts.show_value(
        hand.size, game.point_places, tr=tr)
    where = names.tables.get(hand.chat, "")
    return " · ".join(part for part in (said, tr.date(hand.ended_at), where) if part)


def _records(game: GameFigures, names: _Names, tr: Tr) -> list[dict[str, Any]]:
    """As /records says them: the biggest hand, the longest run of wins, the most games."""
    found = []
    hand = game.biggest()
    if hand is not None:
        found.append({"label": tr("Biggest hand"), **names.of(hand.member),
                      "text": _hand(game, hand, names, tr)})
    run, runner = game.longest_run()
    if run:
        found.append({"label": tr("Longest run of wins"), **names.of(runner),
                      "text": tr.plural("{n} game in a row", "{n} games in a row", run)})
    most, player = game.most_games()
    if most:
        found.append({"label": tr("Most games"), **names.of(player),
                      "text": tr.plural("{n} game", "{n} games", most)})
    return found


# --- a member's page --------------------------------------------------------------------

def find(figures: ClubFigures, ref: Ref, wanted: str) -> str | None:
    """The member a page's id names, if any."""
    return next((m for m in figures.names if ref(m) == wanted), None)


def member_view(figures: ClubFigures, tables: Sequence[ClubTable], member: str, tr: Tr,
                ref: Ref) -> dict[str, Any]:
    """A member's page: per game they played, their row of the league table, their
    places, best hand, rating and its chart, and each member they met."""
    names = _Names(figures, tables, ref)
    played = [k for k in game_order(figures) if member in figures.games[k].table(None)]
    total = sum(figures.games[k].table(None)[member].games for k in played)
    return {**names.of(member), "guest": is_guest(member),
            "summary": tr.plural("{n} game", "{n} games", total),
            "games": [_member_game(figures, figures.games[k], member, names, tr)
                      for k in played]}


def _member_game(figures: ClubFigures, game: GameFigures, member: str, names: _Names,
                 tr: Tr) -> dict[str, Any]:
    standing = game.table(None)[member]
    facts = [(tr("games"), tr.number(standing.games)), (tr("wins"), tr.number(standing.wins)),
             (tr("avg place"), tr.number(standing.average_place, 2))]
    if game.ranked_by != "wins":
        facts.append((measure_heading(game, tr), measure(game, standing, tr)))
    for currency, amount in sorted(standing.money.items()):
        facts.append((currency or tr("money"), format_money(amount, signed=True, tr=tr)))
    run = game.runs.get(member, [0, 0])[1]
    if run > 1:
        facts.append((tr("Longest run of wins"), tr.number(run)))
    places = [{"place": ordinal(place, tr), "count": tr.number(n),
               "share": n / standing.games}
              for place, n in sorted(standing.places.items())]
    hand = game.bests.get(member)
    rated = game.ratings.get(member)
    return {
        "key": game.key, "title": tr.text(game.title),
        "facts": [{"label": label, "value": value} for label, value in facts],
        "places": places,
        "best": _hand(game, hand, names, tr) if hand is not None else "",
        "rating": _rating(rated, tr) if rated is not None else None,
        "chart": _chart(figures, game, [member], names, tr) if rated is not None else None,
        "opponents": _opponents(game, member, names, tr),
    }


def _opponents(game: GameFigures, member: str, names: _Names, tr: Tr) -> dict[str, Any]:
    """Head-to-head, as /vs says it: each member they played with, the most games first."""
    met = []
    for (first, second), pair in game.pairs.items():
        if member not in (first, second):
            continue
        other = second if first == member else first
        above, below = (pair.above, pair.below) if first == member else (pair.below,
                                                                           pair.above)
        points = pair.points if first == member else -pair.points
        met.append((other, pair.games, above, below, pair.level, points))
    met.sort(key=lambda m: (-m[1], names.name(m[0]).casefold(), m[0]))
    return {"headings": [tr("player"), tr("games"), tr("higher"), tr("lower"), tr("level"),
                         tr("points")],
            "rows": [{**names.of(other), "games": games, "above": above, "below": below,
                      "level": level, "points": str(points),
                      "cells": [tr.number(games), tr.number(above), tr.number(below),
                                tr.number(level),
                                pts.show_value(points, game.point_places, tr=tr)]}
                     for other, games, above, below, level, points in met]}

