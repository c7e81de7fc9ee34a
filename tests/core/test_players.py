"""Names at the table: one form for what looks the same, look-alikes refused, and a
mention of someone who is not playing never finds a seat."""

import pytest

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.players import Player, Roster, check_name, skeleton, suggest_name

ROSTER = Roster([Player(1, "alice"), Player(2, "Ann"), Player(3, "josé", handle="jo")])


def test_compatible_forms_are_one_name():
    assert check_name("ａｌｉｃｅ") == "alice"  # fullwidth letters
    assert check_name("jose\u0301") == "josé"  # e + combining accent is é
    assert ROSTER.resolve("ＡＬＩＣＥ").seat == 1


@pytest.mark.parametrize("name", ["аlice", "alicе", "αlice"])  # Cyrillic а, е; Greek α
def test_names_mixing_alphabets_are_refused(name: str):
    with pytest.raises(UserError, match="mixes alphabets"):
        check_name(name)


def test_look_alikes_share_a_skeleton_but_other_names_do_not():
    assert skeleton("аннa") == skeleton("ahha") != skeleton("anna")  # Cyrillic н reads h
    assert skeleton("jose") == skeleton("josé") == skeleton("JOSÉ")
    assert skeleton("ram") != skeleton("rám".replace("á", "o"))
    assert ROSTER.looks_like("ALICE").seat == 1 and ROSTER.looks_like("jose").seat == 3
    assert ROSTER.looks_like("bob") is None


def test_a_name_needs_a_letter():
    for name in ("-", "_", "'..'", "12"):
        with pytest.raises(UserError):
            check_name(name)


def test_suggested_names_never_look_like_a_taken_one():
    assert suggest_name("Alice", ["alice"]) == "Alice2"
    assert suggest_name("Аlice", ["alice"]) == "Alice2"  # Cyrillic А read as Latin
    assert suggest_name("🎲🎲", []) == "player"


def test_a_mention_finds_a_seat_by_account_or_username_never_by_display_name():
    stranger = Actor("discord:9", "Ann")  # shows as Ann, is not Ann's account
    with pytest.raises(UserError, match="not a player here"):
        ROSTER.resolve("<@9>", {"<@9>": stranger})
    jo = Actor("telegram:5", "Someone", handles=("jo",))  # the @jo josé's seat was named by
    assert ROSTER.resolve("@jo", {"@jo": jo}).seat == 3


def test_a_typo_gets_a_suggestion():
    with pytest.raises(UserError, match="did you mean alice"):
        ROSTER.resolve("alcie")
