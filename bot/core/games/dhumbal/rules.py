"""Dhumbal's rule keys and presets. Facts and sources: docs/rules/dhumbal.md. Where tables
differ, a key: the penalty of a show caught (25 on Wikipedia's Jhyap, 30 where Yaniv is
played), the limit (100 or 200) and whether it puts a player out at it or only past it, the
most a hand may show with (5, up to 10), what the hand that catches a show scores."""

from __future__ import annotations

from bot.core.games.points.rules import per_place_rule
from bot.core.money import money_rules
from bot.core.rules import ADDITION, WHOLE_TABLE, Preset, RuleBook, choice_rule, int_rule

OUT = {"reach": "out at the limit, Jhyap", "pass": "out only past it, Yaniv"}
CAUGHT = {"count": "its count, Jhyap", "zero": "nothing, Yaniv"}

RULEBOOK = RuleBook(
    [
        int_rule("limit", 100, 1, 100_000, "the total that puts a player out; the last "
                 "player in wins"),
        choice_rule("out", "reach", OUT, "when the limit puts a player out"),
        int_rule("penalty", 25, 1, 1000, "added to a show's count when another hand is as "
                 "low or lower"),
        int_rule("show_max", 5, 0, 100, "the most a hand may show with; 0: any hand",
                 zero="none"),
        choice_rule("caught", "count", CAUGHT, "the hand that catches a show scores"),
        per_place_rule(),
        *money_rules(),
    ],
    # jhyap and yaniv are whole tables (Wikipedia's; pagat's and yanivgame.com's); limit200
    # (boardgamethoughts, casinosite) changes the limit alone
    [
        Preset("jhyap", "Wikipedia's Jhyap: out at 100, a show at 5 or less, 25 if caught",
               {"limit": 100, "out": "reach", "penalty": 25, "show_max": 5,
                "caught": "count"}, kind=WHOLE_TABLE),
        Preset("yaniv", "Yaniv: out past 200, a show at 7 or less, 30 if caught, the lowest "
               "hand 0", {"limit": 200, "out": "pass", "penalty": 30, "show_max": 7,
                          "caught": "zero"}, kind=WHOLE_TABLE),
        Preset("limit200", "out at 200", {"limit": 200}, kind=ADDITION),
    ],
    headline=("limit", "penalty", "show_max"),
)
