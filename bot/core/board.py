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


def _labels(names: list[str]) -> list[str]:
    """Column headings, shortened to fit a phone; unique even when shortened."""
    labels = [n if len(n) <= MAX_COLUMN else n[: MAX_COLUMN - 1] + "…" for n in names]
    if len(set(x.lower() for x in labels)) < len(labels):
        labels = [f"{i + 1}.{n[: MAX_COLUMN - 3]}" for i, n in enumerate(names)]
    return labels


def render_table(
    columns: list[tuple[int, str]],
    hands: list[HandRecord],
    totals: Mapping[int, int],
    money: Mapping[str, Mapping[int, Decimal]],
    hand_count: int,
    places: int = 0,
    tr: Tr | None = None,
) -> str:
    """The board; `money` per currency, added hand by hand at each hand's rate. Points are
    written as `tr`'s language writes numbers (the cells are padded to line up whatever
    their length); the few words in it are translated."""
    from bot.core.i18n import ENGLISH

    tr = tr or ENGLISH
    keys = [key for key, _label in columns]
    labels = _labels([label for _key, label in columns])
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
    rows = [["#", *labels], *hand_rows, total_row, *money_rows]
    widths = [max(map(len, column)) for column in zip(*rows, strict=True)]
    widths[0] = max(widths[0], 3, len(str(hand_count)) + 1)
    # one format per board: each row is then padded and joined in one call
    row_format = " ".join(f"{{:>{width}}}" for width in widths)
    out = [row_format.format(*rows[0])]
    hidden = hand_count - len(hands)
    if hidden > 0:
        # TRANSLATORS: above the board's rows when the first hands don't fit ({n}: how many)
        out.append(tr.plural("(hand 1 not shown)", "(hands 1-{n} not shown)", hidden))
    out.extend(row_format.format(*row) for row in hand_rows)
    out.append("-" * len(out[0]))
    out.append(row_format.format(*total_row))
    out.extend(row_format.format(*row) for row in money_rows)
    return "\n".join(out)


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
