"""The points game's rule keys: who wins, where it ends, how a round is scored, and money
by point or by place; and presets for Hearts, Uno, Rummy 500 and Dhumbal. Facts and sources:
docs/rules/ (hearts.md, uno.md, rummy500.md, dhumbal.md); where tables disagree, a key, and
the pages say what each choice does. Every preset sets only the keys it names (an
addition), so a table's own habits (missing:zero, per_place:, the rate and currency) stay
as they are."""

from __future__ import annotations

from typing import Any

from bot.core.errors import UserError
from bot.core.grammar import clip, parse_int, split_list
from bot.core.i18n import N_, Text, _
from bot.core.money import MONEY, money_rules
from bot.core.rules import (
    ADDITION,
    CLEARED,
    Preset,
    RuleBook,
    RuleSpec,
    bool_rule,
    choice_rule,
    int_rule,
    text_rule,
)

MAX_POINTS = 1_000_000
MAX_NAME = 24  # a game's name, shown in the board's heading on a phone

WINS = {"high": "the highest total wins", "low": "the lowest total wins"}
AT_TARGET = {"ends": "the game ends", "eliminates": "that player is out"}
WINNER_TAKES = {"no": "as given", "yes": "the others pay the winner",
                "sum": "the winner scores it all, Uno"}
MISSING = {"refuse": "refused", "zero": "scores 0"}
MOON_TO = {"others": "the others score it", "self": "taken off the shooter"}


def per_place_rule() -> RuleSpec:
    """Money by place at the end: first's, second's ... points, paid at the rate."""
    def parse(text: str) -> str:
        raw = text.strip()
        if raw.lower() in CLEARED or not raw:
            return ""
        words = split_list(raw)
        if not 2 <= len(words) <= 10:
            raise UserError(_("`per_place` takes 2 to 10 numbers, first place's first: "
                              "per_place:3 1 -1 -3; not `{text}`.", text=clip(raw)))
        values = [parse_int(w, "`per_place`", -MAX_POINTS, MAX_POINTS) for w in words]
        if sum(values):
            raise UserError(_("`per_place` must add up to zero, as what the places win and "
                              "lose is paid between them; {values} adds up to {total}.",
                              values=" ".join(words), total=sum(values)))
        return " ".join(str(v) for v in values)

    def show(value: Any) -> Text:
        # TRANSLATORS: a rule with no value (no currency), as /rules shows it
        return value or _("none")

    return RuleSpec("per_place", "", "money by place at the end, first place's first, at "
                    "the rate: 3 1 -1 -3 (none: by points)", parse,
                    show=show, topic=MONEY, scoring=False)


def per_place(rules: dict[str, Any]) -> list[int]:
    return [int(v) for v in str(rules.get("per_place") or "").split()]


SPECS = [
    choice_rule("wins", "high", WINS, "who wins on the total"),
    int_rule("target", 0, 0, MAX_POINTS, "the total that ends the game or knocks a player "
             "out (at_target:); 0: none", zero="none"),
    choice_rule("at_target", "ends", AT_TARGET, "what reaching the target does"),
    int_rule("rounds", 0, 0, 1000, "rounds in a game; 0: no limit", zero="none"),
    text_rule("name", "", MAX_NAME, "the game played (Uno, Hearts): shown on the board, kept "
              "apart in /stats"),
    choice_rule("winner_takes", "no", WINNER_TAKES, "a winner:NAME round"),
    bool_rule("zero_sum", False, "a round's points must add up to zero"),
    choice_rule("missing", "refuse", MISSING, "a player left out of a round"),
    int_rule("moon", 0, 0, 10_000, "a moon: all these points to one player and none to the "
             "others (Hearts: 26); 0: off", zero="none"),
    choice_rule("moon_to", "others", MOON_TO, "what a moon scores"),
    int_rule("show_penalty", 0, 0, 10_000, "a show (show:NAME) that another hand equals or "
             "beats scores the hand plus this; 0: no shows", zero="none"),
    int_rule("show_max", 0, 0, 10_000, "the most a hand may hold to show; 0: any hand",
             zero="none"),
    per_place_rule(),
    *money_rules(),
]

# The keys a preset sets: the game it is. The table's habits (missing, per_place, money)
# are left as they are.
GAME_KEYS = ("wins", "target", "at_target", "rounds", "winner_takes", "zero_sum", "moon",
             "moon_to", "show_penalty", "show_max", "name")


def _preset(preset: str, description: str, **values: Any) -> Preset:
    assert set(values) == set(GAME_KEYS), preset
    return Preset(preset, description, values, kind=ADDITION)


# The names the presets give: translated where shown (the board's heading, /stats), kept
# in the rules as written (so /stats keeps one Hearts, whatever the language)
NAMES = (N_("Hearts"), N_("Uno"), N_("Rummy 500"), N_("Dhumbal"))

PRESETS = [
    _preset("hearts", "Hearts: lowest wins when a total reaches 100; shooting the moon "
            "(26) gives the others 26", wins="low", target=100, at_target="ends", rounds=0,
            winner_takes="no", zero_sum=False, moon=26, moon_to="others", show_penalty=0,
            show_max=0, name="Hearts"),
    _preset("uno", "Uno: the winner scores the others' cards; first to 500", wins="high",
            target=500, at_target="ends", rounds=0, winner_takes="sum", zero_sum=False,
            moon=0, moon_to="others", show_penalty=0, show_max=0, name="Uno"),
    _preset("rummy500", "Rummy 500: melds less the hand; first to 500, the highest if more",
            wins="high", target=500, at_target="ends", rounds=0, winner_takes="no",
            zero_sum=False, moon=0, moon_to="others", show_penalty=0, show_max=0,
            name="Rummy 500"),
    _preset("dhumbal", "Dhumbal: lowest wins; a show at 5 or less, 25 if it fails; out at "
            "100", wins="low", target=100, at_target="eliminates", rounds=0,
            winner_takes="no", zero_sum=False, moon=0, moon_to="others", show_penalty=25,
            show_max=5, name="Dhumbal"),
]

RULEBOOK = RuleBook(SPECS, PRESETS, headline=("wins", "target", "rounds"))
