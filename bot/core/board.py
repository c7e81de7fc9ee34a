"""The board: a monospace table of the last hands and the totals, and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from bot.core.money import format_money, json_number, money_shown, to_money
from bot.core.session import HandRecord

MAX_COLUMN = 10


def _labels(names: list[str]) -> list[str]:
    """Column headings, shortened to fit a phone; unique even when shortened."""
    labels = [n if len(n) <= MAX_COLUMN else n[: MAX_COLUMN - 1] + "…" for n in names]
    if len(set(x.lower() for x in labels)) < len(labels):
        labels = [f"{i + 1}.{n[: MAX_COLUMN - 3]}" for i, n in enumerate(names)]
    return labels


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def render_table(
    columns: list[tuple[int, str]],
    hands: list[HandRecord],
    totals: Mapping[int, int],
    rules: Mapping[str, Any],
    hand_count: int,
) -> str:
    labels = _labels([label for _, label in columns])
    money = money_shown(rules)
    money_cells = [
        format_money(to_money(totals.get(key, 0), str(rules.get("rate", "1"))))
        for key, _ in columns
    ]
    cells_by_row: list[list[str]] = []
    for hand in hands:
        cells_by_row.append(
            [_signed(hand.deltas[key]) if key in hand.deltas else "" for key, _ in columns]
        )
    total_cells = [_signed(totals.get(key, 0)) for key, _ in columns]
    widths = [
        max([len(labels[i]), len(total_cells[i]), *(len(r[i]) for r in cells_by_row),
             len(money_cells[i]) if money else 0])
        for i in range(len(columns))
    ]
    first = max(3, len(str(hand_count)) + 1, len(str(rules.get("currency") or "")))

    def line(head: str, cells: list[str]) -> str:
        padded = (c.rjust(w) for c, w in zip(cells, widths, strict=True))
        return " ".join([head.rjust(first), *padded])

    out = [line("#", labels)]
    hidden = hand_count - len(hands)
    if hidden > 0:
        out.append(f"(hands 1-{hidden} not shown)" if hidden > 1 else "(hand 1 not shown)")
    out.extend(line(str(h.no), cells) for h, cells in zip(hands, cells_by_row, strict=True))
    out.append("-" * len(out[0]))
    out.append(line("Σ", total_cells))
    if money:
        out.append(line(str(rules.get("currency") or "$")[:first], money_cells))
    return "\n".join(out)


def board_json(
    game: str,
    columns: list[tuple[int, str]],
    hands: list[HandRecord],
    totals: Mapping[int, int],
    rules: Mapping[str, Any],
    hand_count: int,
    waiting_for: list[str] | None = None,
) -> dict[str, Any]:
    names = {key: label for key, label in columns}
    rate = str(rules.get("rate", "1"))
    data: dict[str, Any] = {
        "game": game,
        "players": [label for _, label in columns],
        "hands": [
            {"no": h.no, "points": {names[k]: v for k, v in h.deltas.items() if k in names}}
            for h in hands
        ],
        "hand_count": hand_count,
        "totals": {label: totals.get(key, 0) for key, label in columns},
        "rate": json_number(Decimal(rate)),
        "currency": rules.get("currency") or "",
        "money": {label: json_number(to_money(totals.get(key, 0), rate)) for key, label in columns},
    }
    if waiting_for is not None:
        data["waiting_for"] = waiting_for
    return data
