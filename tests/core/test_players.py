"""Names at the table: one form for what looks the same, look-alikes refused, and a
mention of someone who is not playing never finds a seat."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.command import Actor
from bot.core.confusables import LOOK_ALIKES
from bot.core.errors import UserError
from bot.core.players import (
    Player,
    Roster,
    check_name,
    look_alike,
    skeleton,
    skeletons,
    suggest_name,
)

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


@pytest.mark.parametrize(("copy", "original"), [
    ("ᴀᴄᴇ", "ace"),  # Latin small capitals (U+1D00, U+1D04, U+1D07)
    ("ıce", "ice"),  # dotless i (U+0131)
    ("ЬоЬ", "bob"),  # Cyrillic capital soft sign (U+042C) and small o (U+043E)
    ("ΑΝΝΑ", "anna"),  # Greek capitals alpha and nu
    ("ꜱᴀᴍ", "Sam"),  # small capitals again, beside a name typed with a capital
])
def test_a_name_copied_in_look_alike_letters_looks_like_the_original(copy: str,
                                                                      original: str):
    check_name(copy)  # each is a name of one alphabet: only the look-alike check stops it
    roster = Roster([Player(1, original), Player(2, "cat")])
    assert look_alike(copy, original)
    assert roster.looks_like(copy).seat == 1


def test_names_that_read_differently_keep_apart():
    # Devanagari: a vowel sign, an anusvara, a virama (a conjunct) or a nukta makes another
    # name, though UTS #39 reads some of those signs as accents
    for name, other in [("राम", "रम"), ("हंस", "हस"), ("श्याम", "शयाम"), ("ज़रा", "जरा"),
                        ("ऑ", "आ"), ("anna", "аннa"), ("ian", "lan"), ("ьоь", "bob")]:
        assert not look_alike(name, other), (name, other)
    # accents are dropped (tests above: josé is jose), and an rn reads as an m: on a phone
    # "rnark" is "mark", and a name refused for it is picked again at no cost
    assert look_alike("José", "jose") and look_alike("rnark", "mark")
    # a capital is read as written too: Ian looks like lan, and is still ian
    assert look_alike("Ian", "lan") and look_alike("Ian", "ian")


def _twins() -> dict[str, list[str]]:
    """Lowercase Latin letter -> the characters Unicode's confusables read as it."""
    twins: dict[str, list[str]] = {}
    for char, reads in LOOK_ALIKES.items():
        if len(reads) == 1 and "a" <= reads <= "z" and not char.isascii():
            twins.setdefault(reads, []).append(char)
    return twins


TWINS = _twins()


@given(st.data())
def test_a_name_and_its_confusable_twin_share_a_skeleton(data: st.DataObject):
    name = data.draw(st.text(st.sampled_from(sorted(TWINS)), min_size=1, max_size=12))
    twin = "".join(data.draw(st.sampled_from([c, *TWINS[c]])) for c in name)
    # they share a skeleton (a capital twin, like Greek Η for h, by the skeleton as written)
    assert not skeletons(twin).isdisjoint(skeletons(name)) and look_alike(twin, name)
    if twin == twin.casefold():
        assert skeleton(twin) == skeleton(name)
    assert skeleton(skeleton(twin)) == skeleton(twin)  # a skeleton reads as itself


def test_a_name_needs_a_letter():
    for name in ("-", "_", "'..'", "12"):
        with pytest.raises(UserError):
            check_name(name)


def test_suggested_names_never_look_like_a_taken_one():
    assert suggest_name("Alice", ["alice"]) == "Alice2"
    assert suggest_name("Аlice", ["alice"]) == "Alice2"  # Cyrillic А read as Latin
    assert suggest_name("🎲🎲", []) == "player"


def test_a_letter_that_shows_as_nothing_is_no_part_of_a_name():
    # a grapheme joiner, a Hangul filler, a variation selector: "bob" followed by one shows
    # as bob, so it is refused when typed, dropped from a display name, and a name stored
    # with one (from before) still looks like bob
    for invisible in ("\u034f", "\u3164", "\u115f", "\ufe0f", "\U000e0100"):
        with pytest.raises(UserError):
            check_name(f"bob{invisible}")
        assert suggest_name(f"bob{invisible}", ["bob"]) == "bob2"
        assert skeleton(f"b{invisible}ob") == skeleton("bob")


def test_a_mention_finds_a_seat_by_account_or_username_never_by_display_name():
    jo = Actor("telegram:5", "Someone", handles=("jo",))  # the @jo josé's seat was named by
    assert ROSTER.resolve("@jo", {"@jo": jo}).seat == 3
    # shows as José, is not @jo: never the seat of @jo's account, and the reply says so
    copy = Actor("discord:8", "José")
    with pytest.raises(UserError, match="not the josé seated here: that seat is @jo's"):
        ROSTER.resolve("<@8>", {"<@8>": copy})
    linked = Roster([Player(1, "sita", user_id="telegram:1")])
    with pytest.raises(UserError, match="another account's"):
        linked.resolve("<@9>", {"<@9>": Actor("telegram:9", "Sita")})
    with pytest.raises(UserError, match="Zed is not a player here"):
        linked.resolve("<@9>", {"<@9>": Actor("telegram:9", "Zed")})


def test_a_mention_names_a_seat_typed_with_their_name_that_no_account_holds():
    """`seen:@Sita` for the seat typed `sita`: the author could have typed the name, so it
    names that seat (it makes nobody a player: the seat stays nobody's account)."""
    roster = Roster([Player(1, "ram", user_id="telegram:1"), Player(2, "sita")])
    sita = Actor("telegram:7", "Sita")
    assert roster.resolve("<@7>", {"<@7>": sita}).seat == 2
    assert roster.players[1].user_id is None
    # someone whose name is no seat's: told which seats are nobody's yet, and how to give one
    with pytest.raises(UserError, match=r"Gita sits in no seat here; the seats typed by name "
                                        r"\(sita\)"):
        roster.resolve("<@8>", {"<@8>": Actor("telegram:8", "Gita")})


def test_a_near_miss_is_never_another_player_and_every_unknown_name_is_reported():
    roster = Roster([Player(1, "bikash"), Player(2, "prakash"), Player(3, "sita")])
    with pytest.raises(UserError, match=r"No player called `prakas`: did you mean prakash\?"):
        roster.resolve("prakas")
    with pytest.raises(UserError) as raised:
        roster.check_known(["bikash", "prakas", "xx", "sita", "yy"])
    said = str(raised.value.message)
    assert said.startswith("Not players here: `prakas` (did you mean prakash?), `xx`, `yy`.")
    assert said.endswith("Players: bikash, prakash, sita.")
    roster.check_known(["bikash", "@SITA"])  # all known: nothing to say


def test_a_username_is_a_name_up_to_32_characters_a_typed_name_up_to_24():
    long = "a_very_long_telegram_username_32"  # 32 characters, as Telegram allows
    assert check_name("@" + long, username=True) == long
    with pytest.raises(UserError, match="use at most 24"):
        check_name(long)
    with pytest.raises(UserError, match="use at most 32"):
        check_name("@" + long + "x", username=True)


def test_a_display_name_is_cut_between_letters_never_inside_one():
    # नमस्ते: न म स्ते; स्ते (स ् त े) is one letter as people see it, four code points
    name = suggest_name("राम" * 7 + "नमस्ते", [])  # 21 + 6 code points
    assert name == "राम" * 7 + "नम"  # 23: the conjunct स्ते doesn't fit whole, so it goes
    assert suggest_name("क्ष" * 9, []) == "क्ष" * 8  # 24 of 27: never half of क्ष
    assert suggest_name("Ram" * 8, ["Ram" * 8]) == ("Ram" * 8)[:23] + "2"


def test_a_typo_gets_a_suggestion():
    with pytest.raises(UserError, match="did you mean alice"):
        ROSTER.resolve("alcie")
