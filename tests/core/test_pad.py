"""The scorepad as data: where each option goes (on the rows, folded under them, below),
what it is called, what the table's rules leave out, what the page is told of an answer;
and a form with room for few controls (Discord's modal: five): which options get one each,
and which are typed together in the last."""

from __future__ import annotations

from bot.core import flows
from bot.core.assembly.built import TABLE
from bot.core.command import Reply
from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.i18n import translator
from bot.core.pad import answer, command_word, few, form, pad_commands, places, said_as


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


def test_the_rows_hold_three_columns_and_every_number_the_rest_folded():
    assert places(spec("marriage", "hand")) == {
        "winner": "rows", "seen": "rows", "maal": "rows", "dublee": "below", "foul": "more",
        "dublee_route": "more", "tiplu": "topic", "cards": "topic", "tunnella": "topic"}
    rummy = places(spec("marriage_rummy", "hand"))
    assert [k for k, v in rummy.items() if v == "rows"] == ["winner", "honours", "marriages",
                                                              "points"]
    assert [k for k, v in rummy.items() if v == "more"] == ["surrender", "surrender_late",
                                                              "no_turn"]


def test_a_control_and_a_form_are_called_in_the_games_words():
    english, hindi = translator("en"), translator("hi")
    assert said_as("dublee_route", english) == "dublee route"
    assert said_as("dublee_route", hindi) == "डबली रास्ता"  # its Discord name, in words
    assert said_as("unseen_maal", english) == "unseen maal"
    assert command_word("tsumo", english) == "Tsumo" and command_word("hand", hindi) == "हाथ"


def test_a_form_leaves_out_what_the_tables_rules_leave_nothing_to_do():
    game = TABLE.games["points"]
    rules = game.rulebook.complete({})
    shown = form(spec("points", "round"), translator("en"), game, (), rules)
    assert [c["key"] for c in shown["controls"]] == [""]  # points; no winner:, no show:
    uno = game.rulebook.with_preset(rules, "uno")
    shown = form(spec("points", "round"), translator("en"), game, (), uno)
    assert [c["key"] for c in shown["controls"]] == ["", "winner"]


def test_the_pad_is_told_of_a_question_and_of_what_a_refusal_is_about():
    asked = Reply("Undo hand 2 (ram won)?", question=flows.confirm(
        flows.Step.UNDO, "Undo hand 2 (ram won)?", "Yes, undo", 7, 2, 0, version=12))
    assert answer(asked) == {"ok": True, "duplicate": False, "confirm": {
        "text": "Undo hand 2 (ram won)?", "yes": "Yes, undo", "no": "No, keep it",
        "expect": {"session": 7, "hand": 2, "version": 12}}}
    refused = Reply.error("gita has maal but ...", about={
        "options": ["seen", "maal"], "players": ["gita"], "said": "Tick seen, or clear it."})
    assert answer(refused)["about"]["players"] == ["gita"]
    assert answer(Reply("Hand 3: ram won")) == {"ok": True, "duplicate": False,
                                                "text": "Hand 3: ram won"}
