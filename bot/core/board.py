"""The board: a monospace table of the last hands and the totals, and the same as data
(BoardView) that adapters render and `--json` prints."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from bot.core import points as pts
from bot.core.money import format_money, json_number, money_places, to_money
from bot.core.session import HandRecord
from bot.core.width import clip, ljust, rjust
from bot.core.width import width as text_width

if TYPE_CHECKING:
    from bot.core.i18n import Tr

MAX_COLUMN = 10


@dataclass
class BoardView:
    """The board as data. Points and money are JSON numbers, as people read them."""

    game: str
    players: list[str]  # the column labels: players, or sides
    hands: list[dict[str, Any]]  # the last hands: {"no", "points": {label: points}}
    hand_count: int
    totals: dict[str, int | float]
    rate: int | float
    currency: str
    money: dict[str, int | float]
    waiting_for: list[str] | None = None  # names whose input a waiting hand still needs
    waiting: bool = False  # a hand (round, result) is waiting for more input
    moneys: dict[str, dict[str, int | float]] = field(default_factory=dict)  # per currency
    ended: bool = False
    session: int | None = None  # the session it shows (not in the JSON)
    transfers: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game, "players": self.players, "hands": self.hands,
            "hand_count": self.hand_count, "totals": self.totals, "rate": self.rate,
            "currency": self.currency, "money": self.money,
        }
        if self.moneys:
            data["moneys"] = self.moneys
        if self.waiting_for is not None:
            data["waiting_for"] = self.waiting_for
        if self.ended:
            data["ended"] = True
            data["transfers"] = self.transfers
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BoardView:
        return cls(
            game=str(data.get("game", "")), players=list(data.get("players", [])),
            hands=list(data.get("hands", [])), hand_count=int(data.get("hand_count", 0)),
            totals=dict(data.get("totals", {})), rate=data.get("rate", 1),
            currency=str(data.get("currency", "")), money=dict(data.get("money", {})),
            moneys=dict(data.get("moneys", {})),
            waiting_for=data.get("waiting_for"), waiting="waiting_for" in data,
            ended=bool(data.get("ended")), transfers=list(data.get("transfers", [])))


PHONE_WIDTH = 34  # monospace columns a phone shows in a message without wrapping
SHORTEST_LABEL = 4  # a wide table's column headings are never cut shorter than this
SHORTEST_NAME = 6  # nor a name in the narrow layout
NAME_ROOM = 10  # a narrow line gives up its last hand before cutting a name below this


def _labels(names: list[str], limit: int = MAX_COLUMN) -> list[str]:
    """Column headings, cut to `limit` columns on a letter's boundary; unique even when
    cut (then numbered)."""
    labels = [clip(n, limit) for n in names]
    if len(set(x.lower() for x in labels)) < len(labels):
        labels = [clip(f"{i + 1}.{n}", limit) for i, n in enumerate(names)]
    return labels


def render_table(
    columns: list[tuple[int, str]],
    hands: list[HandRecord],
    totals: Mapping[int, int],
    money: Mapping[str, Mapping[int, Decimal]],
    hand_count: int,
    places: int = 0,
    tr: Tr | None = None,
    width: int = PHONE_WIDTH,
    kept_in: str = "",
) -> str:
    """The board; `money` per currency, added hand by hand at each hand's rate. Points are
    written as `tr`'s language writes numbers (the cells are padded to line up whatever
    their length); the few words in it are translated.

    It fits `width` monospace columns (a phone's): the wide table (a column per player, a
    row per hand) where it fits with headings of SHORTEST_LABEL or more, else a line per
    player with the total, the last hand and the money (the hands are in /history).
    `kept_in`: where the first hands, if they don't fit, are to be read ("/history 3", for
    a game that has ended)."""
    from bot.core.i18n import ENGLISH

    tr = tr or ENGLISH
    keys = [key for key, _label in columns]
    names = [label for _key, label in columns]
    money_rows = []
    for currency, amounts in money.items():
        decimals = money_places(amounts.values())
        money_rows.append([currency or tr("money"), *(
            format_money(amounts.get(key, Decimal(0)), places=decimals, signed=True, tr=tr)
            for key in keys)])
    cell = _cell_writer(places, tr)
    shown = (tuple(keys), places, tr.language)
    hand_rows = []
    for hand in hands:
        row = hand.board_rows.get(shown)
        if row is None:
            row = hand.board_rows[shown] = [
                str(hand.no), *(cell(hand.deltas[key]) if key in hand.deltas else ""
                                for key in keys)]
        hand_rows.append(row)
    total_row = ["Σ", *(cell(totals.get(key, 0)) for key in keys)]
    cells = [*hand_rows, total_row, *money_rows]
    # the widest cell of each column, headings aside: numbers' length is their width (a
    # digit of any script is one column); a currency's name is measured
    widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
    widths[0] = max(widths[0], 3, len(str(hand_count)) + 1,
                    *(text_width(row[0]) for row in money_rows))
    # the longest headings that let the wide table fit: a heading cut to `limit` is at
    # most `limit` wide, so the sum is worked out before any name is cut
    named = [text_width(name) for name in names]
    for limit in range(MAX_COLUMN, SHORTEST_LABEL - 1, -1):
        fitted = [widths[0], *(max(w, min(n, limit))
                               for w, n in zip(widths[1:], named, strict=True))]
        if sum(fitted) + len(fitted) - 1 <= width:
            labels = _labels(names, limit)
            fitted = [widths[0], *(max(w, text_width(label))
                                   for w, label in zip(widths[1:], labels, strict=True))]
            return _wide(["#", *labels], hand_rows, total_row, money_rows, fitted,
                         hand_count - len(hands), tr, kept_in)
    last = hands[-1] if hands else None
    return _narrow(names, keys, total_row[1:], last, cell, money_rows, width, tr)


def _wide(heading: list[str], hand_rows: list[list[str]], total_row: list[str],
          money_rows: list[list[str]], widths: list[int], hidden: int, tr: Tr,
          kept_in: str = "") -> str:
    """A column per player, a row per hand, the totals and the money under them."""
    # one format per board: each row is then padded and joined in one call (the numbers'
    # width is their length; a heading or currency not in ASCII is padded by its width)
    row_format = " ".join(f"{{:>{size}}}" for size in widths).format
    head = [row_format(*heading) if all(text.isascii() for text in heading) else
            " ".join(rjust(text, size) for text, size in zip(heading, widths, strict=True))]
    if hidden > 0 and kept_in:
        # TRANSLATORS: above an ended game's rows when its first hands don't fit ({n}: how
        # many; {command}: where they are, "/history 3")
        head.append(tr.plural("(hand 1: {command})", "(hands 1-{n}: {command})", hidden,
                              command=kept_in))
    elif hidden > 0:
        # TRANSLATORS: above the board's rows when the first hands don't fit ({n}: how many)
        head.append(tr.plural("(hand 1 not shown)", "(hands 1-{n} not shown)", hidden))
    money = [row_format(*row) if row[0].isascii() else " ".join(
        rjust(text, size) for text, size in zip(row, widths, strict=True)) for row in money_rows]
    return "\n".join([*head, *[row_format(*row) for row in hand_rows],
                      "-" * (sum(widths) + len(widths) - 1), row_format(*total_row), *money])


def _narrow(names: list[str], keys: list[int], totals: list[str], last: HandRecord | None,
            cell: Callable[[int], str], money_rows: list[list[str]], width: int,
            tr: Tr) -> str:
    """A line per player: name, total, the last hand's points and the money. Where that is
    too wide, the last hand goes first, then the money moves to a line of its own."""
    total = ("Σ", totals)
    recent = [] if last is None else [
        (f"#{last.no}", [cell(last.deltas[key]) if key in last.deltas else "" for key in keys])]
    money = [(row[0], row[1:]) for row in money_rows]
    longest = max(map(text_width, names))
    choices = [([total, *recent, *money], []), ([total, *money], []),
               ([total, *recent], money), ([total], money)]
    for choice in choices:  # the first that leaves a name room; else the last
        beside, below = choice
        size = [max(text_width(head), *map(len, values)) for head, values in beside]
        room = width - sum(size) - len(size)
        if room >= min(longest, NAME_ROOM):
            break
    labels = [clip(name, max(room, SHORTEST_NAME)) for name in names]
    name_width = max(map(text_width, labels))
    out = [" ".join([" " * name_width, *(rjust(head, s) for (head, _), s in
                                         zip(beside, size, strict=True))])]
    for i, label in enumerate(labels):
        out.append(" ".join([ljust(label, name_width), *(
            rjust(values[i], s) for (_, values), s in zip(beside, size, strict=True))]))
        line = ""
        for item in (f"{head} {values[i]}" for head, values in below):
            if line and text_width(f"{line} · {item}") > width:
                out.append(line)
                line = ""
            line = f"{line} · {item}" if line else f"  {item}"
        if line:
            out.append(line)
    return "\n".join(line.rstrip() for line in out)


def _cell_writer(places: int, tr: Tr) -> Callable[[int], str]:
    """How the board writes a cell's points: pts.show, with its usual case (whole points,
    digits as English writes them) inlined, as a board has some seventy cells."""
    if places or not tr.plain_digits:
        return lambda points: pts.show(points, places, tr=tr)
    return lambda points: ((f"{points:+,}" if points else "0") if type(points) is int
                           else pts.show(points, places, tr=tr))


def board_view(
    game: str,
    columns: list[tuple[int, str]],
    hands: list[HandRecord],
    totals: Mapping[int, int],
    rules: Mapping[str, Any],
    hand_count: int,
    money: Mapping[str, Mapping[int, Decimal]],
    waiting_for: list[str] | None = None,
    places: int = 0,
) -> BoardView:
    """`money`: per currency, hand by hand; `money` in the view is the table's currency now,
    `moneys` every currency played in."""
    names = {key: label for key, label in columns}
    rate = str(rules.get("rate", "1"))
    currency = str(rules.get("currency") or "")
    here = money.get(currency, {})
    return BoardView(
        game=game,
        players=[label for _, label in columns],
        hands=[{"no": h.no, "points": {names[k]: pts.as_json(v, places)
                                       for k, v in h.deltas.items() if k in names}}
               for h in hands],
        hand_count=hand_count,
        totals={label: pts.as_json(totals.get(key, 0), places) for key, label in columns},
        rate=json_number(Decimal(rate)),
        currency=rules.get("currency") or "",
        # the money of the table's currency; with no hand played for money, points x rate
        money={label: json_number(here.get(key, Decimal(0)) if money else
                                  to_money(totals.get(key, 0), rate, places))
               for key, label in columns},
        moneys={c: {label: json_number(amounts.get(key, Decimal(0)))
                    for key, label in columns} for c, amounts in money.items()},
        waiting_for=waiting_for,
        waiting=waiting_for is not None,
    )
