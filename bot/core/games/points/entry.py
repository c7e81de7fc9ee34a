"""A round of points as it is typed, read into points by column: `asha=12 bikash=-3`, or
one number a column in seat order (`12 -3 0`); a side by its letter or by one of its
players. Every name that finds no column is reported at once, and a player who is out or
sitting out is told so, not taken for a stranger."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.core.actor import Actor
from bot.core.errors import About, UserError
from bot.core.grammar import parse_int, parse_pairs, split_list
from bot.core.i18n import Text, _, join
from bot.core.players import Miss, Player, Roster

LETTERS = "ABCDEFGHIJ"
MAX_POINTS = 1_000_000


@dataclass(frozen=True)
class Columns:
    """The columns of a game (players, or sides) and which of them play this round."""

    roster: Roster  # everybody seated
    sides: Sequence[Sequence[int]]  # seats of each side; empty: a column per player
    playing: Sequence[int]  # the columns in this round, in seat order
    out: Mapping[int, int]  # column -> the round it went out in
    totals: Mapping[int, int]

    def label(self, column: int) -> str:
        if self.sides:
            return LETTERS[column - 1]
        return self.roster.by_seat(column).name

    def column_of(self, player: Player) -> int:
        if not self.sides:
            return player.seat
        return next(i for i, side in enumerate(self.sides, 1) if player.seat in side)

    def seats(self, column: int) -> list[int]:
        return list(self.sides[column - 1]) if self.sides else [column]

    def listing(self) -> str:
        return " ".join(self.label(c) for c in self.playing)


def find(columns: Columns, word: str, mentions: Mapping[str, Actor]) -> int | Text:
    """The column `word` names in this round, or why it names none."""
    token = word.strip()
    if columns.sides and len(token) == 1 and token.upper() in LETTERS[: len(columns.sides)]:
        column = LETTERS.index(token.upper()) + 1
    else:
        found = Roster(columns.roster.players).find(token, mentions)
        if isinstance(found, Miss):
            return found.short
        column = columns.column_of(found)
        if column not in columns.playing and column not in columns.out:
            return _("{name} (sitting out)", name=found.name)
    if column in columns.out:
        return _("{name} (out at {total})", name=columns.label(column),
                 total=columns.totals.get(column, 0))
    return column


def column(columns: Columns, word: str, mentions: Mapping[str, Actor]) -> int:
    """One column named on its own (winner:, show:)."""
    found = find(columns, word, mentions)
    if isinstance(found, int):
        return found
    raise UserError(join([_("Not in this round: {names}.", names=found),
                          _("Playing: {names}.", names=columns.listing())], " "))


def read_points(text: str, columns: Columns, mentions: Mapping[str, Actor],
                skip: Callable[[int], bool] = lambda c: False) -> dict[int, int]:
    """Points by column from `name=number` pairs, or from one number for each column in
    the round in seat order (leaving out those `skip` says are not typed: a winner who
    takes the others' points)."""
    pairs = parse_pairs(text)
    if not pairs:
        return {}
    typed = [c for c in columns.playing if not skip(c)]
    if not pairs[0][0]:  # numbers before any name=: in seat order
        if len(pairs) > 1:
            raise UserError(_("Give every player's points as name=number, or all of them in "
                              "seat order ({names}); not a mix.",
                              names=" ".join(columns.label(c) for c in typed)))
        words = split_list(pairs[0][1])
        if len(words) != len(typed):
            raise UserError(_("{numbers} numbers for {count}: give one each in seat order "
                              "({names}), or name=number pairs.", numbers=len(words),
                              count=len(typed), names=" ".join(columns.label(c)
                                                               for c in typed)))
        return {c: _number(w, columns.label(c)) for c, w in zip(typed, words, strict=True)}
    points: dict[int, int] = {}
    misses: list[Text] = []
    for who, value in pairs:
        found = find(columns, who, mentions)
        if not isinstance(found, int):
            misses.append(found)
            continue
        if found in points:
            raise UserError(_("{name} is given twice; give each player's points once.",
                              name=columns.label(found)), About(("",), (columns.label(found),)))
        points[found] = _number(value, columns.label(found))
    if misses:
        raise UserError(join([_("Not in this round: {names}.", names=join(misses, ", ")),
                              _("Playing: {names}.", names=columns.listing())], " "))
    return points


def _number(value: str, name: str) -> int:
    if not value.strip():
        raise UserError(_("{name}= has no number after it.", name=name), About(("",), (name,)))
    try:
        return parse_int(value, _("{name}'s points", name=name), -MAX_POINTS, MAX_POINTS)
    except UserError as error:  # beside that player's number on a form
        raise UserError(error.message, About(("",), (name,))) from None


def split_named(text: str) -> tuple[str, str]:
    """`winner:asha bikash=12 chandra=7`: a value runs to the next key, so the points may
    ride on winner: (or show:); the first word is the player, the rest the points."""
    words = text.strip().split(maxsplit=1)
    if not words:
        return "", ""
    first = words[0]
    if "=" in first:  # show:asha=3 bikash=12: the player's own points ride with the name
        return first.partition("=")[0], text.strip()
    return first, words[1] if len(words) > 1 else ""
