"""A form with room for few controls (Discord's modal: five): which options get one each,
and which are typed together in the last."""

from __future__ import annotations

from bot.core.assembly.built import TABLE
from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.pad import few, pad_commands


def spec(game: str, name: str) -> CommandSpec:
    played = TABLE.games[game]
    return next(s for s in pad_commands(played) if s.name == name).for_game(played)


def labels(options: list[Option]) -> list[str]:
    return [o.label for o in options]


def test_a_command_that_fits_has_a_control_for_every_option():
    shown, rest = few(spec("riichi", "draw"), 5)
    assert labels(shown) == ["tenpai", "nagashi", "abort"] and rest == []


def test_marriage_shows_the_hand_and_types_the_rest():
    shown, rest = few(spec("marriage", "hand"), 5)
    assert labels(shown) == ["winner", "seen", "maal", "dublee"]
    # foul: and dublee_route: before the cards (a topic of their own)
    assert labels(rest) == ["foul", "dublee_route", "tiplu", "cards", "tunnella"]


def test_a_game_may_say_which_come_first():
    """Tranca's /round by counts is the usual way; its declared order puts melds: (the
    way by cards) fourth."""
    shown, rest = few(spec("tranca", "round"), 5)
    assert labels(shown) == ["side", "table", "hand", "clean"]
    assert labels(rest) == ["melds", "dirty", "twos", "red3", "black3", "morto", "out"]


def test_options_of_a_topic_come_last_and_kinds_a_form_cant_take_are_left_out():
    declared = CommandSpec("x", "x", "/x", options=(
        Option("a", Kind.TEXT, topic="tiles"), Option("b", Kind.BOOL),
        Option("who", Kind.MEMBER), Option("c", Kind.INT, low=0, high=9),
        Option("d", Kind.PLAYER), Option("e", Kind.PLAYERS), Option("f", Kind.TEXT)))
    shown, rest = few(declared, 3)
    assert labels(shown) == ["b", "c"] and labels(rest) == ["d", "e", "f", "a"]
    shown, rest = few(declared, 6)
    assert labels(shown) == ["a", "b", "c", "d", "e", "f"] and rest == []
