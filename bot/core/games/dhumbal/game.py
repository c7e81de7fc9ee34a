"""Dhumbal as a game plugin: /round with who showed and every hand's count.

The game, as Nepali tables play it (docs/rules/dhumbal.md names the sources): five cards
each; a player whose hand counts 5 or less may show and end the hand. The show holds if
every other hand is higher: the shower scores nothing, the others their counts. If another
hand is as low or lower, the show is caught: the shower scores their count plus a penalty.
When the stock runs out there is no show and everyone scores their count. A player whose
total reaches the limit is out; the last one in wins.

It is the game of points (bot/core/games/points/) with Dhumbal's own rule keys mapped
onto it: the lowest total wins, the limit knocks players out, every round may have a
show. Everything else (the board with who is still in, undo, edit, money by point or by
place, /stats) is the points game's and the core's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.games.dhumbal.rules import RULEBOOK
from bot.core.games.points.game import SHOW, PointsGame, Table
from bot.core.games.points.rules import per_place
from bot.core.games.points.scoring import Scoring
from bot.core.games.points.standings import Race
from bot.core.i18n import Msg, _
from bot.core.permissions import Rule

ROUND_USAGE = ("/round show:asha asha=3 bikash=12 chetan=7   /round asha=9 bikash=4 chetan=11"
               " (no show: the stock ran out)")
ROUND_DETAILS = (
    "Every hand's count, as name=number pairs or one number each in seat order (as /players "
    "lists them), and show:NAME for who showed. The show holds if every other hand is "
    "higher: the shower scores 0 and the others their counts. If another hand is as low or "
    "lower, the shower scores their count plus the penalty (/rules penalty:). A show needs "
    "show_max or less in hand. With no show, everyone scores their count. A player whose "
    "total reaches the limit is out (the board says who is still in); the last one in wins."
)
HANDS = Option("", Kind.TEXT, "each hand's count: asha=3 bikash=12, or 3 12 7 in seat order",
               name="points", each=True, low=0)
GLOSSARY = (
    "Dhumbal words: show (jhyap) = ending a hand by showing a count of show_max or less; it "
    "holds if every other hand is higher, and is caught if another is as low or lower "
    "(counter-show): the shower then scores the count plus the penalty; limit = the total "
    "that puts a player out; the last player in wins."
)
RULES_NOTE = (
    "Dhumbal's rules follow Wikipedia's Jhyap (out at 100, a show at 5 or less, 25 if "
    "caught); yaniv is pagat's and yanivgame.com's Yaniv, its Israeli cousin. Tables "
    "differ on the penalty, the limit and the most a hand may show with: each is a key."
)


class DhumbalGame(PointsGame):
    key = "dhumbal"
    title = "Dhumbal"
    min_players = 2
    max_players = 8
    rulebook = RULEBOOK
    glossary = GLOSSARY
    rules_note = RULES_NOTE
    lowest_wins = True
    newgame_options = ()
    rules_example = "/rules preset:yaniv   /rules limit:200 penalty:30"
    edit_example = "/edit round:3 show:asha points:asha=3 bikash=12"
    round_forms = ("show", "pairs")  # ROUND_USAGE's examples, in order

    def declare(self) -> tuple[CommandSpec, ...]:
        return (CommandSpec("round", "enter a hand: who showed and every hand's count",
                            ROUND_USAGE, ROUND_DETAILS, (HANDS, SHOW), may=Rule.PLAYER,
                            play=self._round, records=True),)

    def _missing(self, names: str) -> Msg:
        return _("No count for {names}: every hand in the round gives its count (0 for "
                 "none).", names=names)

    def table_of(self, rules: Mapping[str, Any]) -> Table:
        return Table(
            Scoring(show_penalty=rules["penalty"], show_max=rules["show_max"],
                    caught_zero=rules["caught"] == "zero", counts=True),
            Race(lowest_wins=True, target=rules["limit"], eliminates=True,
                 passes=rules["out"] == "pass"),
            shares=tuple(per_place(dict(rules))))
