"""The finish checker: worked hands, and a property: every finish it reports is real."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.cards import PRINTED_JOKER, SUITS, Card, parse_card, parse_cards
from bot.core.errors import UserError
from bot.core.games.marriage.checker import check_finish
from bot.core.games.marriage.maal import MaalRoles

RUNS = [{r, r + 1, r + 2} for r in range(1, 12)] + [{12, 13, 1}]


def valid_set(trio, roles: MaalRoles) -> tuple[bool, bool]:
    """The rules page, written out on its own: (valid, pure) for three cards."""
    naturals_only = not any(c.is_printed_joker for c in trio)
    if naturals_only:
        if trio[0] == trio[1] == trio[2]:
            return True, True  # tunnella
        suits, ranks = {c.suit for c in trio}, {c.rank for c in trio}
        if len(suits) == 1 and ranks in RUNS:
            return True, True  # pure sequence
        if len(ranks) == 1 and len(suits) == 3:
            return True, False  # triplet of different suits
    for standing in range(1, 8):
        wild = [trio[i] for i in range(3) if standing >> i & 1]
        rest = [trio[i] for i in range(3) if not standing >> i & 1]
        if not all(roles.is_wild(c) for c in wild):
            continue
        if len(rest) < 2:
            return True, False
        a, b = rest
        if a.is_printed_joker or b.is_printed_joker or a == b:
            continue
        if a.suit == b.suit and any({a.rank, b.rank} <= run for run in RUNS):
            return True, False
        if a.rank == b.rank:
            return True, False
    return False, False


def assert_real_finish(cards, roles, verdict):
    assert verdict.finished
    if verdict.by_dublees:
        pairs = Counter(c for c in verdict.dublees[:8] for _ in range(2))
        assert not pairs - Counter(cards)
        return
    used = Counter(c for s in verdict.sets for c in s)
    expected = Counter(cards)
    if verdict.discard is not None:
        expected[verdict.discard] -= 1
    assert used == +expected
    assert len(verdict.sets) == 7
    checks = [valid_set(s, roles) for s in verdict.sets]
    assert all(ok for ok, _ in checks), verdict.sets
    assert sum(pure for _, pure in checks) >= 3


def check(tiplu: str, cards: str):
    roles = MaalRoles(parse_card(tiplu))
    hand = parse_cards(cards, printed_jokers=True)
    return hand, roles, check_finish(hand, roles)


def test_seven_natural_sets_with_an_ace_at_both_ends():
    hand, roles, verdict = check(
        "8H", "AS 2S 3S QS KS AS 4D 5D 6D 9C 9C 9C 2H 2D 2C 5H 6H 7H JD QD KD")
    assert_real_finish(hand, roles, verdict)
    assert "A finish: 7 sets" in str(verdict.describe())


def test_ace_in_the_middle_is_not_a_sequence():
    *_, verdict = check("8H", "KS AS 2S 4D 5D 6D 9C 9C 9C 2H 2D 2C 5H 6H 7H JD QD KD 3C 3C 3C")
    assert not verdict.finished


def test_jokers_make_dirty_sets_and_the_marriage_is_pure():
    # tiplu 8H: 7H 8H 9H is a marriage (pure); 8C, 8S are jokers
    hand, roles, verdict = check(
        "8H", "7H 8H 9H 2S 3S 4S 5D 6D 7D 8C 10C JC 8S KS KD QC QD QS 3H 3D 3C")
    assert_real_finish(hand, roles, verdict)


def test_no_joker_in_a_tunnella_and_three_pure_sets_are_needed():
    # 5S 5S + joker is no set; triplets alone do not make it
    *_, verdict = check("8H", "5S 5S 8C 2S 2H 2D 7S 7H 7D 10S 10H 10D QS QH QD KS KH KD "
                              "4C 4H 4D")
    assert not verdict.finished
    text = str(verdict.describe())
    assert "Pure sets possible: 0 of the 3 needed" in text
    assert "Not in a set" in text


def test_eight_dublees_and_the_card_to_throw():
    hand, roles, verdict = check(
        "8H", "2S 2S 3D 3D 4C 4C 5H 5H 6S 6S 7D 7D 9C 9C KH KH AS QD JC 10H 4S 3H")
    assert_real_finish(hand, roles, verdict)
    assert verdict.by_dublees and verdict.discard is not None
    assert "8 dublees" in str(verdict.describe())


def test_twenty_two_cards_say_which_to_throw():
    hand, roles, verdict = check(
        "8H", "AS 2S 3S QS KS AS 4D 5D 6D 9C 9C 9C 2H 2D 2C 5H 6H 7H JD QD KD 4C")
    assert_real_finish(hand, roles, verdict)
    assert verdict.discard == Card(4, "C")
    assert str(verdict.describe()).startswith("Throw 4C.")


def test_wrong_number_of_cards():
    with pytest.raises(UserError, match="21 cards"):
        check("8H", "AS 2S 3S")


DECK = [Card(r, s) for s in SUITS for r in range(1, 14)]


RUN_RANKS = [(r, r + 1, r + 2) for r in range(1, 12)] + [(12, 13, 1)]


@st.composite
def finishing_hands(draw, pure: int = 3):
    """Seven sets built by the rules (the first `pure` of them pure: 3 makes a finish) from
    what three packs hold, shuffled: with 3 the checker must find a finish. Each set is
    drawn only from cards still in the packs, so every example is a real hand (none is
    thrown away). With fewer, the rest may still happen to hold pure sets (then it is a
    finish), and often don't: near misses a checker counting pure sets wrongly calls
    finishes."""
    tiplu = draw(st.sampled_from(DECK))
    roles = MaalRoles(tiplu)
    left = Counter({card: 3 for card in DECK})
    left[tiplu] -= 1  # the tiplu turned up is one of the copies
    left[PRINTED_JOKER] = 3
    wilds = [c for c in DECK if roles.is_wild(c)] + [PRINTED_JOKER]

    def fits(cards: list[Card]) -> bool:
        return all(left[c] >= n for c, n in Counter(cards).items())

    options = {
        "run": [[Card(r, s) for r in run] for run in RUN_RANKS for s in SUITS],
        "tunnella": [[Card(r, s)] * 3 for r in range(1, 14) for s in SUITS],
        "triplet": [[Card(r, s) for s in suits] for r in range(1, 14)
                    for suits in ((a, b, c) for a in SUITS for b in SUITS for c in SUITS
                                  if len({a, b, c}) == 3)],
        "dirty": [[Card(run[0], s), Card(run[2], s), PRINTED_JOKER] for run in RUN_RANKS[:-1]
                  for s in SUITS],
    }
    sets = []
    for i in range(7):
        kinds = ["run", "tunnella"] if i < pure else ["run", "tunnella", "triplet", "dirty",
                                                    "jokers"]
        open_kinds = [k for k in kinds if (k == "jokers" and sum(left[c] for c in wilds) >= 2)
                      or (k != "jokers" and any(fits(cards) for cards in options[k]))]
        kind = draw(st.sampled_from(open_kinds))
        if kind == "jokers":  # two wild cards and any card
            pool = [c for c in wilds if left[c]]
            first = draw(st.sampled_from(pool))
            left[first] -= 1
            second = draw(st.sampled_from([c for c in wilds if left[c]]))
            left[second] -= 1
            third = draw(st.sampled_from([c for c in DECK if left[c]]))
            left[third] -= 1
            sets.append([first, second, third])
            continue
        chosen = draw(st.sampled_from([cards for cards in options[kind] if fits(cards)]))
        left.subtract(chosen)
        sets.append(chosen)
    hand = [c for s in sets for c in s]
    return tiplu, draw(st.permutations(hand))


@settings(max_examples=150, deadline=None)
@given(finishing_hands())
def test_a_hand_built_of_seven_sets_is_found_and_every_finish_is_real(case):
    """Catches: a finish missed when a sequence is Q K A (verified by planting it)."""
    tiplu, hand = case
    counts = Counter(hand)
    counts[tiplu] += 1
    assert max(counts.values()) <= 3  # what three packs hold
    roles = MaalRoles(tiplu)
    assert_real_finish(hand, roles, check_finish(hand, roles))


any_cards = st.tuples(st.sampled_from(DECK), st.lists(st.sampled_from([*DECK, PRINTED_JOKER]),
                                                     min_size=21, max_size=22))


@settings(max_examples=150, deadline=None)
@given(st.one_of(any_cards, finishing_hands(pure=2)))
def test_whatever_the_cards_a_reported_finish_is_real(case):
    """Catches: a finish reported with two pure sets where three are needed (verified by
    planting it: random cards alone almost never come near a finish, so seven sets with
    only two built pure are drawn too)."""
    tiplu, hand = case
    roles = MaalRoles(tiplu)
    verdict = check_finish(hand, roles)
    if verdict.finished:
        assert_real_finish(hand, roles, verdict)
    else:
        assert "Not a finish" in str(verdict.describe())


def test_the_same_pure_run_twice_counts_twice():
    # two A 2 3 runs of hearts and the tunnella 5S 5S 5S are three disjoint pure sets
    # (3 packs hold three of each card), so nothing is short of pure sets here
    cards = parse_cards("AH 2H 3H AH 2H 3H 5S 5S 5S 9C JD 4C KD 7S 2C QD 6D 8C 10S 4D JC", 3)
    result = check_finish(cards, MaalRoles(parse_card("QH")))
    assert not result.finished
    assert result.pure == 3 and "Pure sets possible" not in str(result.describe())
