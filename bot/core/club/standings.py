"""A game's league table in a club (pure): its members ranked by the game's own measure
(Marriage and the points games: points, the fewest where the lowest wins; Riichi: the sum
of final results with uma and oka; Call Break: score; Tranca: games won), with games, wins,
average place and money where played for money; as a table that fits a phone."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from bot.core import points as pts
from bot.core.board import PHONE_WIDTH
from bot.core.club.figures import GameFigures, Standing
from bot.core.games import get_game
from bot.core.i18n import Tr
from bot.core.money import format_money, money_places
from bot.core.seasons import Ranking, render
from bot.core.stats import result


def ranked(figures: GameFigures, names: Mapping[str, str],
           season: int | None = None) -> list[Standing]:
    rows = list(figures.table(season).values())

    def name(row: Standing) -> str:
        return names.get(row.member, row.member).casefold()

    if figures.ranked_by == "results":
        return sorted(rows, key=lambda r: (-r.results, r.average_place, name(r)))
    sign = 1 if figures.lowest_wins else -1
    if figures.ranked_by == "wins":
        return sorted(rows, key=lambda r: (-r.wins, sign * r.points, name(r)))
    return sorted(rows, key=lambda r: (sign * r.points, r.average_place, name(r)))


def measure(figures: GameFigures, row: Standing, tr: Tr) -> str:
    """What a member is ranked by after their wins, as the game writes it: the final
    results (Riichi), else points (a race's, Tranca's, ranked by games won first)."""
    if figures.ranked_by == "results":
        return result(row.results, tr)
    return pts.show_value(row.points, figures.point_places, tr=tr)


def measure_heading(figures: GameFigures, tr: Tr) -> str:
    if figures.ranked_by == "results":
        return tr("result")
    return tr("points")


def cells(figures: GameFigures, names: Mapping[str, str], tr: Tr,
          season: int | None = None) -> tuple[list[str], list[tuple[Standing, list[str]]]]:
    """The league table's headings and each member's row, ranked: #, player, games, wins,
    average place, the game's measure (a race's points) and the money per currency played
    for."""
    rows = ranked(figures, names, season)
    currencies = sorted({c for r in rows for c, a in r.money.items()})
    decimals = {c: money_places([r.money.get(c, Decimal(0)) for r in rows])
                for c in currencies}
    header = ["#", tr("player"), tr("games"), tr("wins"), tr("avg place"),
              measure_heading(figures, tr), *(c or tr("money") for c in currencies)]
    body = [[tr.number(i), names.get(r.member, r.member), tr.number(r.games),
             tr.number(r.wins), tr.number(r.average_place, 2), measure(figures, r, tr),
             *(format_money(r.money.get(c, Decimal(0)), "", decimals[c], signed=True, tr=tr)
               for c in currencies)]
            for i, r in enumerate(rows, 1)]
    return header, list(zip(rows, body, strict=True))


def table(figures: GameFigures, names: Mapping[str, str], tr: Tr,
          season: int | None = None, columns: int = PHONE_WIDTH) -> str:
    """The league table, one member a row where it fits a phone, else a few lines each."""
    header, rows = cells(figures, names, tr, season)
    body = [row for _standing, row in rows]
    game = get_game(figures.key.partition(":")[0])
    ranking = Ranking(game, measure_heading(figures, tr), header, body, [],
                      3 if figures.ranked_by == "wins" else 5)
    return render(ranking, columns)


def leaders(figures: GameFigures, names: Mapping[str, str], tr: Tr,
            season: int | None = None, count: int = 3) -> str:
    """"1. alice +340 · 2. bob +120 · 3. chetan -40": the top of the table on one line."""
    return " · ".join(f"{tr.number(i)}. {names.get(r.member, r.member)} "
                      f"{measure(figures, r, tr)}"
                      for i, r in enumerate(ranked(figures, names, season)[:count], 1))
