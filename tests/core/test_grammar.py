import pytest

from bot.core.errors import UserError
from bot.core.grammar import (
    parse_command_text,
    parse_decimal,
    parse_int,
    parse_options,
    parse_pairs,
    split_list,
)
from bot.core.players import Player, Roster, check_name, suggest_name


def test_value_runs_to_the_next_key():
    parsed = parse_command_text("/hand winner:alice seen:bob carol maal:alice=10 bob=5 carol=8")
    assert parsed.name == "hand"
    assert parsed.options == {
        "winner": "alice", "seen": "bob carol", "maal": "alice=10 bob=5 carol=8",
    }


def test_free_text_before_the_first_key_and_addressee():
    parsed = parse_command_text("/NewGame@MaalBot marriage players:a, b,c")
    assert (parsed.name, parsed.addressee) == ("newgame", "MaalBot")
    assert parsed.options == {"": "marriage", "players": "a, b,c"}
    assert split_list(parsed.options["players"]) == ["a", "b", "c"]


def test_times_and_emoji_shortcodes_are_not_keys():
    assert parse_options("reason:late at 10:30 :smile:") == {"reason": "late at 10:30 :smile:"}


def test_a_key_given_twice_is_an_error():
    with pytest.raises(UserError, match="twice"):
        parse_options("seen:bob seen:carol")


@pytest.mark.parametrize("text", ["", "hand", "hello /board", "/ board", "/123"])
def test_not_a_command(text):
    with pytest.raises(UserError, match="start with /"):
        parse_command_text(text)


def test_control_characters_become_spaces_and_huge_input_is_refused():
    assert parse_command_text("/hand\x00winner:a\x07").options == {"winner": "a"}
    with pytest.raises(UserError, match="too long"):
        parse_command_text("/hand " + "x" * 5000)


def test_pairs_keep_a_players_words_together():
    assert parse_pairs("alice=10 bob = 5, carol=8") == [("alice", "10"), ("bob", "5"),
                                                        ("carol", "8")]
    assert parse_pairs("bob=8H 9H 7H carol=7S") == [("bob", "8H 9H 7H"), ("carol", "7S")]
    assert parse_pairs("7") == [("", "7")]
    with pytest.raises(UserError, match="no name"):
        parse_pairs("=5")


@pytest.mark.parametrize(
    ("text", "message"),
    [("-3", "between 0 and 999"), ("1" * 300, "too large"), ("seven", "whole number"),
     ("7.5", "whole number"), ("٣", "whole number"), ("+-3", "whole number"), ("", "whole")],
)
def test_numbers_that_are_refused(text, message):
    with pytest.raises(UserError, match=message):
        parse_int(text, "maal", 0, 999)


def test_numbers_that_are_accepted():
    assert parse_int(" +7 ", "maal", 0, 999) == 7
    assert str(parse_decimal("0.25", "rate", 0, 10)) == "0.25"  # type: ignore[arg-type]
    with pytest.raises(UserError, match="decimal places"):
        parse_decimal("0.123456", "rate", 0, 10)  # type: ignore[arg-type]
    with pytest.raises(UserError):
        parse_decimal("NaN", "rate", 0, 10)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "message"),
    [("x" * 400, "too long"), ("@everyone", "reserved"), ("here", "reserved"),
     ("🎲", "can't be a name"), ("bob smith", "can't be a name"), ("7up", "start it"),
     ("", "needs a name"), ("a:b", "can't be a name")],
)
def test_names_that_are_refused(raw, message):
    with pytest.raises(UserError, match=message):
        check_name(raw)


def test_names_that_are_accepted():
    assert check_name("@Ram") == "Ram"
    assert check_name("राम") == "राम"  # Devanagari with its vowel sign
    assert check_name("o'neil-jr.") == "o'neil-jr."


def test_display_names_become_typeable_and_unique():
    assert suggest_name("Ram Bahadur 🎲", []) == "Ram_Bahadur"
    assert suggest_name("Ram Bahadur", ["ram_bahadur"]) == "Ram_Bahadur2"
    assert suggest_name("🎲🎲", []) == "player"
    assert suggest_name("@everyone", []) == "p_everyone"


def test_resolution_is_case_insensitive_and_errors_list_the_players():
    roster = Roster([Player(1, "Alice"), Player(2, "Bob"), Player(3, "Bobby")])
    assert roster.resolve("@alice").seat == 1
    assert roster.resolve("BOB").seat == 2
    with pytest.raises(UserError, match="Alice, Bob, Bobby"):
        roster.resolve("dave")
    # a part of a name is no name: "al" is not taken for Alice, nor "bo" for anyone
    with pytest.raises(UserError, match="No player called `al`"):
        roster.resolve("al")
    with pytest.raises(UserError, match="No player called `bo`"):
        roster.resolve("bo")
