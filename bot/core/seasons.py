"""A season's ranking, game by game (pure): from /stats' per-person numbers of the season's
games, each game ranked by what it is won by, never adding different games' points:

- Marriage-like games (and Call Break): by money where the season's games were played in
  one currency, else by points per hand; both are shown.
- Riichi: by the sum of final results (with uma and oka), then the average place; with the
  places, the best hand and the busts.
- Tranca: by games won.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from bot.core import points as pts
from bot.core.board import PHONE_WIDTH
from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.i18n import Tr, _
from bot.core.i18n.words import placeholders
from bot.core.money import format_money
from bot.core.stats import (
    PlayerStats,
    Table,
    money_places_of,
    ordinal,
    result,
)
from bot.core.width import clip, ljust, rjust, width

MAX_NAME = 40
INDENT = "   "  # a person's other figures, under their name
# letters that draw nothing (Hangul fillers, the blank Braille pattern)
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# control, format (zero-width space, joiners, direction marks), private, unassigned
_HIDDEN = ("Cc", "Cf", "Co", "Cn", "Cs")


def season_key(name: str) -> str:
    """What two season names are compared by: one form for what looks the same, any case,
    spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def season_name(raw: str) -> str:
    """A season's name as kept: NFKC, spaces collapsed; refused when it holds characters
    nobody can see or type back, or when nothing visible is left."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    hidden = next((c for c in name if unicodedata.category(c) in _HIDDEN or c in _BLANK),
                  None)
    if hidden is not None:
        raise UserError(_("A season's name can't hold invisible characters ({code}); type "
                          "it again without them.", code=f"U+{ord(hidden):04X}"))
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise UserError(_("Name the season: /season start name:Autumn"))
    if len(name) > MAX_NAME:
        raise UserError(_("A season's name is at most {n} characters.", n=MAX_NAME))
    return name


@dataclass
class Ranking:
    """One game's ranking: a table to read, and the number each person is ranked by."""

    game: Game
    by: str  # what the bars of the chart show, e.g. "money (Rs)", "final results" (shown)
    header: list[str]
    rows: list[list[str]]
    people: list[tuple[str, float]]  # (name, the ranked value), best first
    ranked_column: int  # the column of `rows` each person is ranked by


def _per_hand(row: PlayerStats) -> Decimal:
    return row.points / row.hands if row.hands else Decimal(0)


def rankings(table: Table, tr: Tr) -> list[Ranking]:
    """Each game's ranking, its words and numbers in `tr`'s language."""
    return [_rank(table.game(key), list(rows.values()), tr) for key, rows in table.items()
            if rows]


def _rank(game: Game, rows: list[PlayerStats], tr: Tr) -> Ranking:
    if game.ranked_by == "results":
        return _riichi(game, rows, tr)
    if game.ranked_by == "wins":
        return _tranca(game, rows, tr)
    return _points(game, rows, tr)


def _per_heading(word: str, tr: Tr) -> str:
    """The column of points per entry (and what the chart ranks by without one currency)."""
    if word == "round":
        return tr("per round")
    if word == "result":
        return tr("per result")
    return tr("per hand")


def _by_points(word: str, tr: Tr) -> str:
    if word == "round":
        return tr("points per round")
    if word == "result":
        return tr("points per result")
    return tr("points per hand")


def _points(game: Game, rows: list[PlayerStats], tr: Tr) -> Ranking:
    places = game.point_places
    currencies = sorted({c for r in rows for c in r.money})
    one = currencies[0] if len(currencies) == 1 else None
    if one is not None:
        ranked = sorted(rows, key=lambda r: (-r.money.get(one, Decimal(0)), -_per_hand(r),
                                             r.name.lower()))
        by = tr("money ({currency})", currency=one) if one else tr("money")
    else:
        ranked = sorted(rows, key=lambda r: (-_per_hand(r), -r.points, r.name.lower()))
        by = _by_points(game.hand_word, tr)
    decimals = money_places_of(rows)
    header = ["#", tr("player"), tr("games"), tr.render(placeholders(game.hand_word)["hands"]),
              tr("points"), _per_heading(game.hand_word, tr),
              *(c or tr("money") for c in currencies)]
    table = []
    for i, row in enumerate(ranked, 1):
        money = [format_money(row.money.get(c, Decimal(0)), "", decimals[c], signed=True,
                              tr=tr) for c in currencies]
        per = _per_hand(row)
        table.append([tr.number(i), row.name, tr.number(len(row.sessions)),
                      tr.number(row.hands), pts.show_value(row.points, places, tr=tr),
                      ("-" if per < 0 else "+") + tr.number(abs(per), 2), *money])
    value = (lambda r: float(r.money.get(one, Decimal(0)))) if one is not None else (
        lambda r: float(_per_hand(r)))
    column = 6 + currencies.index(one) if one is not None else 5
    return Ranking(game, by, header, table, [(r.name, value(r)) for r in ranked], column)


def _riichi(game: Game, rows: list[PlayerStats], tr: Tr) -> Ranking:
    ranked = sorted((r for r in rows if r.finished),
                    key=lambda r: (-r.results, r.average_place, r.name.lower()))
    most = max((p for r in ranked for p in r.places), default=4)
    header = ["#", tr("player"), tr("games"), tr("result"), tr("avg place"),
              *(ordinal(p, tr) for p in range(1, most + 1)), tr("best hand"), tr("busts")]
    table = []
    for i, row in enumerate(ranked, 1):
        # a best hand is a hand won: "-" for a player who won none
        best = pts.show_value(row.best_hand, game.point_places, tr=tr) \
            if row.best_hand is not None and row.best_hand > 0 else "-"
        table.append([tr.number(i), row.name, tr.number(row.finished),
                      result(row.results, tr), tr.number(row.average_place, 2),
                      *(tr.number(row.places.get(p, 0)) for p in range(1, most + 1)), best,
                      tr.number(row.busts)])
    return Ranking(game, tr("final results (uma and oka)"), header, table,
                   [(r.name, float(r.results)) for r in ranked], 3)


def _tranca(game: Game, rows: list[PlayerStats], tr: Tr) -> Ranking:
    sign = 1 if game.lowest_wins else -1  # then the better points
    ranked = sorted(rows, key=lambda r: (-r.games_won, sign * r.points, r.name.lower()))
    header = ["#", tr("player"), tr("wins"), tr("games"), tr("points")]
    table = [[tr.number(i), r.name, tr.number(r.games_won), tr.number(r.finished),
              pts.show_value(r.points, game.point_places, tr=tr)] for i, r in enumerate(ranked, 1)]
    return Ranking(game, tr("games won"), header, table,
                   [(r.name, r.games_won) for r in ranked], 2)


def render(ranking: Ranking, columns: int = PHONE_WIDTH) -> str:
    """The ranking as a monospace table (names left, numbers right) where it fits `columns`
    (a phone's), else a few lines a person: the place, the name and what they are ranked by,
    then every other column as its heading and value, wrapped between pairs."""
    rows = [ranking.header, *ranking.rows]
    widths = [max(width(r[i]) for r in rows) for i in range(len(ranking.header))]
    lines = []
    for row in rows:
        cells = [ljust(cell, widths[i]) if i == 1 else rjust(cell, widths[i])
                 for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    if all(width(line) <= columns for line in lines):
        return "\n".join(lines)
    return "\n".join(line for row in ranking.rows for line in _narrow(ranking, row, columns))


def _narrow(ranking: Ranking, row: list[str], columns: int) -> list[str]:
    place, name, value = row[0], row[1], row[ranking.ranked_column]
    room = columns - width(f"{place}. ") - width(value) - 2
    lines = [f"{place}. {clip(name, max(room, 1))}  {value}"]
    pairs = [f"{heading} {cell}"
             for i, (heading, cell) in enumerate(zip(ranking.header, row, strict=True))
             if i not in (0, 1, ranking.ranked_column)]
    line = ""
    for i, pair in enumerate(pairs):
        joined = f"{line}, {pair}" if line else f"{INDENT}{pair}"
        comma = 1 if i < len(pairs) - 1 else 0  # room for the comma if the line ends here
        if line and width(joined) + comma > columns:
            lines.append(line + ",")
            joined = f"{INDENT}{pair}"
        line = joined
    if line:
        lines.append(line)
    return lines
