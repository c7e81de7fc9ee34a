"""What one scored entry is called in each game (a Marriage hand, a Tranca or Call Break
round, a Riichi result), said in any language: counts, numbered entries, and the {hand}
placeholders of the core's command help.

The game names its word in English (`Game.hand_word`); the messages for each word are
written out here so the catalogues have them whole ("3 rounds", "Round 4"), never built
from pieces.
"""

from __future__ import annotations

from bot.core.i18n.text import Msg, _, _n

WORDS = ("hand", "round", "result")


def count(word: str, n: int) -> Msg:
    """"3 hands", "1 round", "5 results"."""
    if word == "round":
        return _n("{n} round", "{n} rounds", n)
    if word == "result":
        return _n("{n} result", "{n} results", n)
    return _n("{n} hand", "{n} hands", n)


def numbered(word: str, no: int) -> Msg:
    """"Hand 8", "Round 3", "Result 2": an entry by its number."""
    if word == "round":
        return _("Round {no}", no=no)
    if word == "result":
        return _("Result {no}", no=no)
    return _("Hand {no}", no=no)


def placeholders(word: str) -> dict[str, Msg]:
    """Values for {hand}, {hands}, {Hand} and {Hands} in text written for every game (the
    core's command help): the game's own word."""
    if word == "round":
        return {"hand": _("round"), "hands": _("rounds"), "Hand": _("Round"),
                "Hands": _("Rounds")}
    if word == "result":
        return {"hand": _("result"), "hands": _("results"), "Hand": _("Result"),
                "Hands": _("Results")}
    return {"hand": _("hand"), "hands": _("hands"), "Hand": _("Hand"), "Hands": _("Hands")}
