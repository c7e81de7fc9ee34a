"""/chart: every column's running total by hand, as a PNG readable on a phone."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import fontpkg_noto_sans_devanagari as devanagari
import matplotlib
import noto_cjk_sans_otc as cjk

matplotlib.use("Agg")  # no screen: render to memory

import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ft2font import FT2Font
from matplotlib.ticker import FuncFormatter, MaxNLocator, StrMethodFormatter

from bot.core import points as pts
from bot.core.money import against_average as money_against
from bot.core.money import hand_money
from bot.core.session import HandRecord

if TYPE_CHECKING:
    from bot.core.i18n import Text, Tr

WIDTH, HEIGHT, DPI = 8, 5, 150  # 1200 x 750 pixels

# Names are often Devanagari, and a Riichi table's Japanese or Chinese: packages ship Noto
# Sans Devanagari and Noto Sans CJK (Han, kana, Hangul; its Japanese face), so a hosted
# worker draws them too. matplotlib takes each letter from the first of these that has it.
# A letter none has is drawn as an empty box: `undrawable` finds the names that have one.
CJK = "Noto Sans CJK JP"
for _font in sorted((devanagari.ROOT / "files").glob("*.ttf")):
    font_manager.fontManager.addfont(str(_font))
font_manager.fontManager.addfont(str(cjk.FONT_PATH))
plt.rcParams["font.family"] = ["DejaVu Sans", devanagari.FAMILY, CJK]


THOUSANDS = StrMethodFormatter("{x:,.12g}")


def _thousands(tr: Tr | None) -> Any:
    """Axis numbers as the chart's language writes them (7,500; 7.500; 12,34,567)."""
    if tr is None or tr.language == "en":
        return THOUSANDS

    def show(x: float, _pos: object) -> str:
        text = f"{x:.12g}"
        places = len(text.partition(".")[2]) if "e" not in text else 2
        return tr.number(Decimal(text) if "e" not in text else x, places)
    return FuncFormatter(show)


def _words(word: str, tr: Tr | None) -> str:
    """The x axis: the game's entries (hand, round, result) in the chart's language."""
    if tr is None:
        return word
    if word == "round":
        return tr("round")
    if word == "result":
        return tr("result")
    return tr("hand")


def _text(text: str) -> str:
    """Text drawn as typed: matplotlib reads a pair of "$" as mathtext (and fails on most
    of what people type), so every "$" is escaped (a currency, a season, a game's title)."""
    return text.replace("$", r"\$")


def caption(text: str, drawn: Iterable[str], tr: Tr) -> str:
    """The reply under a chart: `text`, and which of the texts `drawn` in it (people's
    names, a currency, a season's title) it could not draw, if any."""
    missing = undrawable(drawn)
    if not missing:
        return text
    # TRANSLATORS: {texts}: names (or a currency, a season's title) in an alphabet the
    # chart's fonts don't have, such as Tamil or Thai
    return text + "\n" + tr("The chart has no letters for {texts}: they are drawn as empty "
                             "boxes.", texts=", ".join(missing))


def undrawable(texts: Iterable[str]) -> list[str]:
    """The texts (names, a season's title) with a letter no font of the chart has, each
    once, in order: they are drawn with empty boxes, and the reply says so."""
    have = _letters(tuple(
        font_manager.findfont(FontProperties(family=family), fallback_to_default=False)
        for family in plt.rcParams["font.family"]))
    return [text for text in dict.fromkeys(texts)
            if any(ord(c) not in have for c in text if not c.isspace())]


@functools.lru_cache(maxsize=4)
def _letters(paths: tuple[str, ...]) -> frozenset[int]:
    """Every code point the fonts at `paths` draw (a collection's first face: a CJK
    collection's faces draw the same letters, in each region's shapes)."""
    return frozenset().union(*(FT2Font(path).get_charmap() for path in paths))


def running_money(columns: Sequence[tuple[int, str]], hands: Sequence[HandRecord],
                  places: int = 0, against_average: bool = False, sign: int = 1
                  ) -> dict[str, dict[int, list[float]]]:
    """Each currency's running money per column, hand by hand at the rate each hand was
    played at (0 before the first hand; a hand not played for money, or in another
    currency, adds nothing to it): what /endgame and the ledger add up. `sign` -1: against
    the average the lowest-wins way round."""
    keys = [key for key, _ in columns]
    running: dict[str, dict[int, list[float]]] = {}
    sums: dict[str, dict[int, Decimal]] = {}
    for i, hand in enumerate(hands, 1):
        money = hand_money(hand.deltas, hand.rules, places)
        if money is not None:
            currency, amounts = money
            if against_average:
                amounts = money_against(amounts, hand.deltas, sign)
            if currency not in running:
                running[currency] = {k: [0.0] * i for k in keys}
                sums[currency] = {k: Decimal(0) for k in keys}
            for key in keys:
                sums[currency][key] += amounts.get(key, Decimal(0))
        for currency, lines in running.items():
            for key in keys:
                lines[key].append(float(sums[currency][key]))
    return running


def render_chart(columns: Sequence[tuple[int, str]], hands: Sequence[HandRecord],
                 rules: Mapping[str, Any], title: str, hand_word: str = "hand",
                 places: int = 0, goal: tuple[float, Text] | None = None, *,
                 tr: Tr | None = None,
                 money: Mapping[str, Mapping[int, Sequence[float]]] | None = None) -> bytes:
    """Every column's running total; `goal` draws a line to reach (Tranca's target, its
    label lazy text or shown); `money` (running_money) a panel of running money under it
    per currency, each hand at its own rate. Its words and numbers in `tr`'s language
    (English without one); `title` is given shown."""
    money = money or {}
    panels = 1 + len(money)
    figure, grid = plt.subplots(panels, 1, figsize=(WIDTH, HEIGHT + 2.5 * len(money)),
                                dpi=DPI, sharex=True, squeeze=False,
                                height_ratios=[2] + [1] * len(money))
    axes = grid[0, 0]
    try:
        numbers = [0, *(h.no for h in hands)]
        unit = 10.0 ** -places  # a point's size on the axis (exact totals are the legend's)
        for key, label in columns:
            running, total = [0.0], 0
            for hand in hands:
                total += hand.deltas.get(key, 0)
                running.append(total * unit)
            axes.plot(numbers, running, marker="o" if len(hands) <= 30 else None,
                      markersize=3, linewidth=2,
                      label=_text(f"{label} ({_total(total, places, tr)})"))
        axes.axhline(0, color="#888888", linewidth=0.8)
        if goal is not None:
            axes.axhline(goal[0], color="#c0392b", linewidth=1, linestyle="--",
                         label=_text(tr.render(goal[1]) if tr else str(goal[1])))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # hand 1, 2, 3: never 1.5
        axes.yaxis.set_major_formatter(_thousands(tr))  # 7,500 as the board writes it
        axes.set_ylabel(tr("points") if tr else "points")
        axes.set_title(_text(title))
        axes.grid(True, alpha=0.3)
        axes.legend(loc="upper left", fontsize=9, ncols=2 if len(columns) > 5 else 1)
        for (currency, lines), row in zip(money.items(), grid[1:, 0], strict=True):
            # money as it was won: each hand at its own rate, so a rate changed mid-game
            # bends these lines where the points' don't
            for key, _label in columns:
                row.plot(numbers, lines[key], marker="o" if len(hands) <= 30 else None,
                         markersize=2, linewidth=1.5)
            row.axhline(0, color="#888888", linewidth=0.8)
            row.yaxis.set_major_formatter(_thousands(tr))
            row.set_ylabel(_text(_money_label(currency, tr)))
            row.grid(True, alpha=0.3)
        grid[-1, 0].xaxis.set_major_locator(MaxNLocator(integer=True))
        grid[-1, 0].set_xlabel(_text(_words(hand_word, tr)))
        return _png(figure)
    finally:
        plt.close(figure)


def _total(total: int, places: int, tr: Tr | None) -> str:
    return pts.show(total, places, tr=tr)


def _money_label(currency: str, tr: Tr | None) -> str:
    """"money (Rs)", or "money" with no currency named."""
    if tr is None:
        return f"money ({currency})" if currency else "money"
    return tr("money ({currency})", currency=currency) if currency else tr("money")


def render_ranking(title: str, panels: Sequence[tuple[str, Sequence[tuple[str, float]]]],
                   *, tr: Tr | None = None) -> bytes:
    """A season's ranking: a panel of horizontal bars per game (its title, and each
    person's ranked value, best first, drawn at the top). `title` and the panels' headings
    come shown; the numbers are written in `tr`'s language."""
    height = max(HEIGHT, sum(1.2 + 0.35 * len(people) for _, people in panels))
    figure, axes = plt.subplots(len(panels), 1, figsize=(WIDTH, height), dpi=DPI,
                                squeeze=False)
    try:
        for (heading, people), ax in zip(panels, axes[:, 0], strict=True):
            names = [_text(name) for name, _ in people][::-1]
            values = [value for _, value in people][::-1]
            colours = ["#2e86c1" if v >= 0 else "#c0392b" for v in values]
            ax.barh(names, values, color=colours)
            ax.axvline(0, color="#888888", linewidth=0.8)
            for y, value in enumerate(values):
                label = _bar(value, tr)
                ax.annotate(label, (value, y),
                            xytext=(4 if value >= 0 else -4, 0), textcoords="offset points",
                            ha="left" if value >= 0 else "right", va="center", fontsize=9)
            if all(float(v).is_integer() for v in values):  # counts: 1 win, never 0.2
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(_text(heading))
            ax.grid(True, axis="x", alpha=0.3)
            ax.margins(x=0.15)
        figure.suptitle(_text(title))
        return _png(figure)
    finally:
        plt.close(figure)


def _bar(value: float, tr: Tr | None) -> str:
    """+1,200, -3.5, 0: a bar's value, two decimals at most."""
    if not value:
        return "0"
    if tr is None or tr.language == "en":
        return f"{value:+,.2f}".rstrip("0").rstrip(".")
    amount = Decimal(f"{abs(value):.2f}").normalize()
    places = max(0, -amount.as_tuple().exponent)  # type: ignore[operator]
    return ("-" if value < 0 else "+") + tr.number(amount, places)


def _png(figure: Figure) -> bytes:
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
