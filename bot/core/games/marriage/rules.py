"""Marriage's rule keys and presets: where tables disagree, a setting, never one answer."""

from __future__ import annotations

from dataclasses import replace

from bot.core.games.marriage.maal import ALTER_OFF, ALTER_OPPOSITE, ALTER_SAME
from bot.core.games.marriage.maal_table import is_table, preset_table
from bot.core.games.marriage.scoring import COUNTED, KIDNAP, MURDER
from bot.core.money import money_rules
from bot.core.rules import WHOLE_TABLE, Preset, RuleBook, bool_rule, choice_rule, int_rule

NOW, NEXT = "now", "next"
CARDS_EACH = 21  # a Marriage deal


def deal_fits(players: int, packs: int, printed_jokers: bool) -> bool:
    """Whether 21 cards each can be dealt from the packs with one left to turn up as the
    tiplu (the rules page: up to 7 players in three packs, more with more packs)."""
    cards = packs * 52 + (packs if printed_jokers else 0)
    return players * CARDS_EACH + 1 <= cards


def packs_that_fit(players: int, printed_jokers: bool) -> int:
    """The fewest packs (rule packs) that deal 21 cards each to `players`; the most the rule
    allows when none does."""
    spec = RULEBOOK.spec("packs")
    assert spec.low is not None and spec.high is not None
    return next((n for n in range(spec.low, spec.high + 1)
                 if deal_fits(players, n, printed_jokers)), spec.high)


RULEBOOK = RuleBook(
    [
        int_rule("seen", 3, 0, 1000, "game points a seen loser pays the winner"),
        int_rule("unseen", 10, 0, 1000, "game points an unseen loser pays the winner"),
        int_rule("dublee", 5, 0, 1000, "points for a dublee finish (see dublee_mode)"),
        choice_rule("dublee_mode", "extra", {
            "extra": "every loser pays dublee on top: a seen loser seen + dublee, an "
                     "unseen loser unseen + dublee (by default 3 + 5 and 10 + 5)",
            "replace": "a seen loser pays dublee in place of seen, an unseen loser unseen "
                       "alone (by default 5 and 10)",
        }, "how a dublee finish is paid"),
        bool_rule("dublee_route_pays", True,
                  "whether a seen loser who went the dublee route (dublee_route: on /hand) "
                  "pays game points"),
        int_rule("dublee_min_players", 2, 2, 10,
                 "fewest players in a hand for a dublee finish to be allowed"),
        choice_rule("unseen_maal", MURDER, {
            MURDER: "an unseen player's maal is voided",
            KIDNAP: "an unseen player's maal is voided and added to the winner's",
            COUNTED: "an unseen player's maal counts like anyone's",
        }, "what happens to an unseen player's maal"),
        int_rule("foul", 15, 0, 1000, "penalty a foul player pays"),
        choice_rule("foul_pays", "each", {
            "each": "the penalty to every other player in the hand",
            "winner": "the penalty to the winner only",
        }, "who receives a foul penalty"),
        choice_rule("foul_when", NOW, {
            NOW: "in the hand of the foul",
            NEXT: "with the next hand recorded",
        }, "when a foul penalty is charged"),
        # the packs are what the number of players needs, not a scoring rule: a preset
        # (every one of them a whole table) keeps them, as it keeps the money rules
        replace(int_rule("packs", 3, 1, 6, "packs of cards in play (how many copies a card "
                         "has; 21 cards each must fit: 3 packs deal up to 7 players, 4 up "
                         "to 9)"), scoring=False),
        bool_rule("printed_jokers", False, "printed jokers (man, jk) are in play"),
        choice_rule("alter", ALTER_SAME, {
            ALTER_SAME: "the tiplu's rank in the other suit of its colour",
            ALTER_OPPOSITE: "the tiplu's rank in the suits of the other colour",
            ALTER_OFF: "no alter",
        }, "which cards are alter (maal from the table's alter row)"),
        bool_rule("tunnel_pachaunu", False,
                  "a tunnella shown at the deal counts only if its owner ends the hand seen"),
        *money_rules(),
    ],
    # Every preset is a whole table (the rule text's tables: the usual Nepali one, Maal
    # Counter's, ClubRoyale's, the house table; "as standard, but" names a table too): it
    # starts from the defaults, so /rules preset:standard after preset:house plays no printed
    # jokers and the default maal table.
    [
        Preset("standard", "the usual Nepali table: seen 3, unseen 10, dublee +5, murder",
               {"seen": 3, "unseen": 10, "dublee": 5, "dublee_mode": "extra",
                "unseen_maal": MURDER, "dublee_min_players": 2, "foul_when": NOW},
               kind=WHOLE_TABLE),
        Preset("kidnap", "as standard, but an unseen player's maal goes to the winner",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": KIDNAP}, kind=WHOLE_TABLE),
        Preset("maalcounter", "Maal Counter's formula read literally: unseen maal counts",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": COUNTED,
                "maal_table": preset_table("pagat")}, kind=WHOLE_TABLE),
        Preset("dublee4", "as standard, with dublee finishes only when 4 or more play",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": MURDER,
                "dublee_min_players": 4}, kind=WHOLE_TABLE),
        Preset("clubroyale", "ClubRoyale's ruleset: kidnap, tunnel pachaunu, printed jokers, "
               "alter 5, man 5", {
                   "seen": 3, "unseen": 10, "unseen_maal": KIDNAP, "tunnel_pachaunu": True,
                   "printed_jokers": True, "alter": ALTER_SAME,
                   "maal_table": preset_table("clubroyale")}, kind=WHOLE_TABLE),
        Preset("house", "the common house table: kidnap, alter and man 5/15/30, the foul "
               "charged in the next hand", {
                   "unseen_maal": KIDNAP, "printed_jokers": True, "alter": ALTER_SAME,
                   "foul_when": NEXT, "maal_table": preset_table("house")}, kind=WHOLE_TABLE),
    ],
    headline=("seen", "unseen", "dublee", "unseen_maal"),
    extras={"maal_table": is_table},  # /setmaal's, and the presets' that name a table
)

PLAY_RULES_NOTE = (
    "Vesting (no picking from the discard pile until seen) and joker block (a joker on the "
    "discard pile can't be picked up) are rules of play, not of scoring: agree on them at "
    "the table; the bot needs nothing for them."
)
