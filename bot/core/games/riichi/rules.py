"""Riichi's rule keys and presets: three published rule sets, each a whole table, and sanma,
an addition for three players; facts: shared/rules/riichi.md."""

from __future__ import annotations

from dataclasses import replace

from bot.core.errors import UserError
from bot.core.games.riichi.payments import STICK, STICK_SPLIT
from bot.core.grammar import parse_int, split_list
from bot.core.i18n import N_, Num, _
from bot.core.money import money_rules
from bot.core.rules import (
    ADDITION,
    WHOLE_TABLE,
    Preset,
    RuleBook,
    RuleSpec,
    bool_rule,
    choice_rule,
    int_rule,
)


def _uma(places: int, example: str) -> RuleSpec:
    key = "uma" if places == 4 else f"uma{places}"

    def parse(text: str) -> str:
        numbers = [parse_int(w, key, -100, 100) for w in split_list(text)]
        if len(numbers) != places or sum(numbers) != 0:
            raise UserError(_("{key} is {count} numbers that add up to 0, e.g. {example}.",
                              key=key, count=places, example=example))
        return " ".join(str(n) for n in numbers)

    players = "four" if places == 4 else "three"
    return RuleSpec(key, example, f"uma by place with {players} players, in thousands "
                    "(adds up to 0)", parse)


def _in_sticks(key: str, default: int, low: int, high: int, help: str,
               step: int = STICK, why: str = "") -> RuleSpec:
    """A number of points paid in sticks: a multiple of `step` (100, the smallest stick;
    300 for a honba, a third of which each tsumo payer pays), refused with the values on
    either side, never rounded."""
    plain = int_rule(key, default, low, high, help)

    def parse(text: str) -> int:
        value = plain.parse(text)
        if value % step:
            lower, higher = value // step * step, -(-value // step) * step
            raise UserError(_("`{key}` is a multiple of {step} ({why}): {lower} or {higher}, "
                              "not {value}.", key=key, step=Num(step), why=_(why or STICKS),
                              lower=Num(lower), higher=Num(higher), value=Num(value)))
        return value

    return replace(plain, parse=parse)


STICKS = N_("points are paid in 100-point sticks")
HONBA = N_("a tsumo takes a third of it from each payer, in 100-point sticks")


RULEBOOK = RuleBook(
    [
        _in_sticks("start", 25000, 1000, 200000, "points each player starts with"),
        _in_sticks("back", 30000, 1000, 200000,
                   "return points: final = (score - back) / 1000 + uma; oka to first"),
        _uma(4, "15 5 -5 -15"),
        _uma(3, "15 0 -15"),
        choice_rule("length", "hanchan", {"hanchan": "East and South rounds",
                                          "tonpuusen": "East round only"}, "game length"),
        bool_rule("sudden_death", False,
                  "if nobody has `back` after the last hand, play on into the next wind "
                  "until someone has (at most one more wind)"),
        bool_rule("tobi", True, "the game ends when a player is below zero (no: play on)"),
        bool_rule("kiriage", False, "4 han 30 fu and 3 han 60 fu round up to mangan"),
        choice_rule("kazoe", "yakuman", {"yakuman": "13+ han is yakuman",
                                         "sanbaiman": "13+ han is sanbaiman",
                                         "none": "13 han a yakuman, 26 a double, and so on"},
                    "a counted hand of 13 han or more"),
        bool_rule("double_yakuman", True,
                  "single hands that count double (kokushi 13-sided, suuankou tanki...)"),
        choice_rule("double_wind", "4", {"4": "4 fu", "2": "2 fu"},
                    "a pair of the seat wind that is also the round wind"),
        bool_rule("open_tanyao", True, "tanyao counts in an open hand"),
        bool_rule("aka_dora", True, "red fives (0m 0p 0s) are dora"),
        bool_rule("double_ron", True, "two players may ron the same tile (else head bump)"),
        choice_rule("triple_ron", "win", {"win": "all three win",
                                          "draw": "an abortive draw (sanchahou)"},
                    "three players ron the same tile"),
        bool_rule("abortive", True, "abortive draws: kyuushu kyuuhai, suufon renda, suucha "
                  "riichi, suukaikan (honba +1, the dealer stays)"),
        choice_rule("nagashi", "draw", {
            "off": "no nagashi mangan",
            "draw": "paid as a mangan tsumo without honba in place of the noten payments; "
                    "still a draw",
            "win": "a win: a mangan tsumo with honba, no noten payments, the dealer "
                   "repeats only with their own"}, "nagashi mangan at an exhaustive draw"),
        choice_rule("pao", "liable", {
            "none": "no sekinin barai",
            "discarder": "on a ron from another, discarder and liable player pay half each; "
                         "the discarder the honba",
            "liable": "the same; the liable player pays the honba"},
                    "sekinin barai for daisangen and daisuushii (a tsumo: the liable player "
                    "pays all)"),
        bool_rule("riichi_below", False, "riichi with fewer points than the stick"),
        choice_rule("tie", "seat", {"seat": "the earlier seat from the first dealer ranks "
                                            "higher", "split": "tied places share uma"},
                    "ties at the end"),
        _in_sticks("noten", 3000, 0, 30000, "noten payment at an exhaustive draw, in all "
                   "(with four players a multiple of 600, with three of 200, so the noten "
                   "and the tenpai share it evenly)"),
        _in_sticks("stick", 1000, 0, 10000, "a riichi stick"),
        _in_sticks("honba", 300, 0, 3000, "honba: added to a ron; on a tsumo a third of it "
                   "from each payer, with three players as with four (300: +100 each)",
                   STICK_SPLIT, HONBA),
        *money_rules(),
    ],
    # tenhou, ema, mleague: whole tables, each writing out every scoring key as its source
    # publishes it; sanma: three players' start, back and uma3 on whichever table is set
    [
        Preset("tenhou", "Tenhou: 25,000 start, 30,000 back, uma 10-20 (+20/+10/-10/-20), "
               "West round when nobody has 30,000, bust below 0, 13+ han yakuman, no double "
               "yakuman, triple ron a draw, ties by seat",
               {"start": 25000, "back": 30000, "uma": "20 10 -10 -20", "sudden_death": True,
                "tobi": True, "kiriage": False, "kazoe": "yakuman", "double_yakuman": False,
                "double_wind": "4", "open_tanyao": True, "aka_dora": True, "double_ron": True,
                "triple_ron": "draw", "abortive": True, "nagashi": "draw", "pao": "liable",
                "riichi_below": False, "tie": "seat", "noten": 3000, "stick": 1000,
                "honba": 300}, kind=WHOLE_TABLE),
        Preset("ema", "EMA 2016: 30,000 start, no oka, uma 15/5/-5/-15, no red fives, 13+ "
               "han sanbaiman, no double yakuman, no bust, no abortive draws, nagashi a win, "
               "ties share uma",
               {"start": 30000, "back": 30000, "uma": "15 5 -5 -15", "sudden_death": False,
                "tobi": False, "kiriage": False, "kazoe": "sanbaiman",
                "double_yakuman": False, "double_wind": "4", "open_tanyao": True,
                "aka_dora": False, "double_ron": True, "triple_ron": "win",
                "abortive": False, "nagashi": "win", "pao": "discarder",
                "riichi_below": False, "tie": "split", "noten": 3000, "stick": 1000,
                "honba": 300}, kind=WHOLE_TABLE),
        Preset("mleague", "M-League: 25,000 start, 30,000 back, uma 30/10/-10/-30, kiriage, "
               "no bust, riichi below 1,000, 13+ han sanbaiman, no double yakuman, "
               "double-wind pair 2 fu, head bump, no abortive draws, ties share uma",
               {"start": 25000, "back": 30000, "uma": "30 10 -10 -30", "sudden_death": False,
                "tobi": False, "kiriage": True, "kazoe": "sanbaiman",
                "double_yakuman": False, "double_wind": "2", "open_tanyao": True,
                "aka_dora": True, "double_ron": False, "triple_ron": "win",
                "abortive": False, "nagashi": "draw", "pao": "liable",
                "riichi_below": True, "tie": "split", "noten": 3000, "stick": 1000,
                "honba": 300}, kind=WHOLE_TABLE),
        Preset("sanma", "three players: 35,000 start, 40,000 back (oka 15 for three), uma "
               "15/0/-15; tsumo loss (the missing player's share is not paid)",
               {"start": 35000, "back": 40000, "uma3": "15 0 -15"}, kind=ADDITION),
    ],
    headline=("start", "back", "uma", "length"),
)

# The keys a preset must set: everything that changes a score, an end or what is allowed.
SCORING_KEYS = tuple(spec.key for spec in RULEBOOK.specs
                     if spec.key not in ("rate", "currency", "length", "uma3"))
