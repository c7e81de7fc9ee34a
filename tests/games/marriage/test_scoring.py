"""Settlement: the rules page's worked examples and properties over random hands."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.core.games.marriage.scoring import (
    COUNTED,
    KIDNAP,
    MURDER,
    MarriageHand,
    MarriageScoring,
    settle,
)


def test_worked_example_from_the_rules_page():
    # 3 players, maal 10, 2, 0; the first wins with dublees, the second is seen, the third not.
    hand = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1, 2}),
                        maal={1: 10, 2: 2, 3: 0}, dublee=True)
    result = settle(hand, MarriageScoring())
    assert result.maal_exchange == {1: 18, 2: -6, 3: -12}
    assert result.game_points == {1: 23, 2: -8, 3: -15}
    assert result.deltas == {1: 41, 2: -14, 3: -27}


def test_maal_counter_four_player_formula():
    # p_i = n*s_i - g_i - P for losers, the winner takes the rest (Maal Counter, read literally)
    s = {1: 5, 2: 0, 3: 12, 4: 7}
    hand = MarriageHand(players=(1, 2, 3, 4), winner=4, seen=frozenset({1, 3, 4}), maal=s)
    result = settle(hand, MarriageScoring(unseen_maal=COUNTED))
    pot = sum(s.values())
    assert result.deltas[1] == 4 * 5 - 3 - pot
    assert result.deltas[2] == 4 * 0 - 10 - pot
    assert result.deltas[3] == 4 * 12 - 3 - pot
    assert result.deltas[4] == -(result.deltas[1] + result.deltas[2] + result.deltas[3])


def test_the_winner_can_lose_when_others_hold_more_maal():
    hand = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1, 2, 3}),
                        maal={1: 0, 2: 20, 3: 0})
    assert settle(hand, MarriageScoring()).deltas == {1: -14, 2: 37, 3: -23}


def test_unseen_maal_modes():
    # carol is unseen and holds 6 maal; alice wins holding 4; bob seen with 2.
    hand = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1, 2}),
                        maal={1: 4, 2: 2, 3: 6})
    murder = settle(hand, MarriageScoring(unseen_maal=MURDER))
    kidnap = settle(hand, MarriageScoring(unseen_maal=KIDNAP))
    counted = settle(hand, MarriageScoring(unseen_maal=COUNTED))
    # murder: s = 4, 2, 0; P = 6 -> 6, 0, -6; game +13, -3, -10
    assert murder.deltas == {1: 19, 2: -3, 3: -16}
    # kidnap: s = 10, 2, 0; P = 12 -> 18, -6, -12
    assert kidnap.deltas == {1: 31, 2: -9, 3: -22}
    # counted: s = 4, 2, 6; P = 12 -> 0, -6, 6
    assert counted.deltas == {1: 13, 2: -9, 3: -4}


def test_a_foul_player_pays_each_other_player_and_skips_the_exchange():
    hand = MarriageHand(players=(1, 2, 3, 4), winner=1, seen=frozenset({1, 2}),
                        maal={1: 3, 2: 6}, fouls=frozenset({4}))
    result = settle(hand, MarriageScoring(foul=15))
    # exchange among 1,2,3 (n=3): s = 3, 6, 0 (3 unseen) -> 0, 9, -9
    assert result.maal_exchange == {1: 0, 2: 9, 3: -9}
    assert result.fouls == {1: 15, 2: 15, 3: 15, 4: -45}
    assert result.deltas == {1: 0 + 13 + 15, 2: 9 - 3 + 15, 3: -9 - 10 + 15, 4: -45}


def test_a_foul_paid_to_the_winner_only_and_a_misdeal():
    hand = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1}), fouls=frozenset({3}))
    assert settle(hand, MarriageScoring(foul_pays="winner")).deltas == {1: 25, 2: -10, 3: -15}
    misdeal = MarriageHand(players=(1, 2, 3), winner=None, seen=frozenset(),
                           fouls=frozenset({2}))
    assert settle(misdeal, MarriageScoring(foul=15)).deltas == {1: 15, 2: -30, 3: 15}


@st.composite
def hands(draw, with_winner: bool = False):
    n = draw(st.integers(2, 10))
    players = tuple(range(1, n + 1))
    fouls = frozenset(draw(st.sets(st.sampled_from(players), max_size=n - 1)))
    clean = [p for p in players if p not in fouls]
    winner = draw(st.one_of(st.none(), st.sampled_from(clean))) \
        if fouls and not with_winner else draw(st.sampled_from(clean))
    seen = frozenset(draw(st.sets(st.sampled_from(players)))) | (
        {winner} if winner else frozenset())
    maal = {p: draw(st.integers(0, 200)) for p in clean}
    route = frozenset(draw(st.sets(st.sampled_from(players)))) & seen - {winner}
    carried = tuple(draw(st.lists(st.sampled_from(range(1, 12)), max_size=3)))  # may sit out
    charged = draw(st.one_of(st.none(), st.just(carried + tuple(sorted(fouls)))))
    return MarriageHand(players, winner, seen, maal,
                        dublee=bool(winner) and draw(st.booleans()), fouls=fouls,
                        dublee_route=route, charged_fouls=charged)


rule_sets = st.builds(
    MarriageScoring,
    seen=st.integers(0, 50), unseen=st.integers(0, 50), dublee=st.integers(0, 50),
    unseen_maal=st.sampled_from([MURDER, KIDNAP, COUNTED]), foul=st.integers(0, 50),
    foul_pays=st.sampled_from(["each", "winner"]),
    dublee_mode=st.sampled_from(["extra", "replace"]), dublee_route_pays=st.booleans(),
)


@given(hands(), rule_sets)
def test_every_hand_is_zero_sum(hand, rules):
    """Catches: game points the winner does not receive, a foul penalty nobody receives
    (each verified by planting it)."""
    result = settle(hand, rules)
    assert sum(result.deltas.values()) == 0
    assert set(result.deltas) >= set(hand.players)
    assert sum(result.maal_exchange.values()) == 0
    assert sum(result.game_points.values()) == 0


# generated directly: every example has a winner and the murder rule (none is thrown away)
murder_rules = rule_sets.map(lambda rules: replace(rules, unseen_maal=MURDER))


@given(hands(with_winner=True), murder_rules, st.data())
def test_murdered_maal_changes_nothing_and_seen_maal_always_counts(hand, rules, data):
    """Catches: unseen maal counted under murder, and a seen player's maal murdered too
    (each verified by planting it)."""
    assert hand.winner is not None and rules.unseen_maal == MURDER
    unseen = [p for p in hand.players if p not in hand.seen and p not in hand.fouls]
    wiped = {p: (0 if p in unseen else v) for p, v in hand.maal.items()}
    again = replace(hand, maal=wiped)
    assert settle(hand, rules).deltas == settle(again, rules).deltas
    # seen maal counts: player i gets n*s_i - P (shared/rules/marriage.md), so one more maal
    # for a seen player (the winner is seen) is n - 1 more for them and 1 less for each
    # other player in the exchange (the fouled are out of it); nothing else moves
    exchange = [p for p in hand.players if p not in hand.fouls]
    who = data.draw(st.sampled_from([p for p in exchange if p in hand.seen]))
    more = replace(hand, maal={**hand.maal, who: hand.maal.get(who, 0) + 1})
    before, after = settle(hand, rules).deltas, settle(more, rules).deltas
    n = len(exchange)
    assert {p: after[p] - before[p] for p in before} == {
        p: (n - 1 if p == who else -1 if p in exchange else 0) for p in before}


def test_dublee_modes_and_the_dublee_route():
    hand = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1, 2}),
                        maal={1: 0, 2: 0}, dublee=True)
    # replace: the seen loser pays the dublee 5 in place of 3; the unseen loser pays the
    # unseen 10 alone (the "5 more" of the usual rule is what was replaced)
    assert settle(hand, MarriageScoring(dublee_mode="replace")).game_points == \
        {1: 5 + 10, 2: -5, 3: -10}
    # extra (the usual rule): each loser pays 5 more: seen 3 + 5, unseen 10 + 5
    assert settle(hand, MarriageScoring(dublee_mode="extra")).game_points == \
        {1: 8 + 15, 2: -8, 3: -15}
    route = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1, 2}),
                         maal={1: 0, 2: 0}, dublee_route=frozenset({2}))
    assert settle(route, MarriageScoring(dublee_route_pays=False)).game_points == \
        {1: 10, 2: 0, 3: -10}
    assert settle(route, MarriageScoring()).game_points == {1: 13, 2: -3, 3: -10}


def test_a_carried_foul_is_charged_even_when_the_fouler_sits_out():
    hand = MarriageHand(players=(1, 2, 3), winner=1, seen=frozenset({1, 2, 3}),
                        maal={1: 0, 2: 0, 3: 0}, charged_fouls=(4,))
    result = settle(hand, MarriageScoring(foul=10))
    assert result.deltas == {1: 6 + 10, 2: -3 + 10, 3: -3 + 10, 4: -30}
