"""Seating across tables (bot/core/club/seating.py), from its rules, over many random clubs:
every person seated once, at tables of the sizes the game allows, as even as possible; no
two people who met at one table where a seating without that exists; the same seed the same
tables; Riichi's winds each once over four rounds of one table; swiss by standing, bands
and interval as their rules lay them out."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.club import seating
from bot.core.club.seating import SIZES, Sizes, pair, sizes_of, split
from bot.core.errors import UserError
from bot.core.i18n import translator

EN = translator("en")


def refusal(people: int, sizes: Sizes, tables: int | None = None, sanma: bool = False,
            title: str = "Riichi") -> str:
    with pytest.raises(UserError) as refused:
        split(people, sizes, tables, title, sanma)
    return EN.render(refused.value.message)


def test_the_tables_each_game_makes():
    # as even as possible, the bigger tables first; a range game at tables of 5 at most
    assert split(15, SIZES["marriage"]) == [5, 5, 5]
    assert split(21, SIZES["marriage"]) == [5, 4, 4, 4, 4]  # 5 tables: 21 = 5 + 4 x 4
    assert split(12, SIZES["marriage"], tables=5) == [3, 3, 2, 2, 2]
    assert split(7, SIZES["dhumbal"]) == [4, 3]
    assert split(16, SIZES["riichi"]) == [4, 4, 4, 4]
    assert split(8, SIZES["callbreak"], tables=2) == [4, 4]
    # Riichi with sanma: the fewest tables of three (13 = 4 + 3 + 3 + 3, 14 = 4 + 4 + 3 + 3)
    assert split(13, sizes_of("riichi", sanma=True)) == [4, 3, 3, 3]
    assert split(14, sizes_of("riichi", sanma=True)) == [4, 4, 3, 3]
    assert split(9, sizes_of("riichi", sanma=True)) == [3, 3, 3]


def test_people_who_cant_sit_are_refused_in_words():
    # 13 at Riichi: three tables seat 12 and leave one, a fourth needs 16: three short
    assert refusal(13, SIZES["riichi"], sanma=True) == (
        "13 can't all sit at Riichi tables of 4: 12 fit at 3 tables (1 left over), 4 tables "
        "need 16 (3 short). With sanma:yes they sit as 4 + 3 + 3 + 3.")
    assert "5 can't sit at Riichi tables of 4 or 3" in refusal(5, sizes_of("riichi", True))
    assert refusal(8, SIZES["riichi"], tables=3) == "8 at Riichi make 2 tables of 4, not 3."
    assert "needs at least 2" in refusal(1, SIZES["marriage"], title="Marriage")
    assert "a table seats 2 to 10" in refusal(30, SIZES["marriage"], tables=2,
                                               title="Marriage")


def _history(rng: random.Random, people: list[str], density: float) -> dict:
    history = {}
    for i, a in enumerate(people):
        for b in people[i + 1:]:
            if rng.random() < density:
                history[pair(a, b)] = float(rng.randint(1, 12))
    return history


clubs = st.tuples(st.integers(2, 40), st.sampled_from(sorted(SIZES)),
                  st.floats(0.0, 0.9), st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(clubs)
def test_everyone_is_seated_once_at_tables_the_game_allows_and_a_seed_repeats(club):
    count, game, density, seed = club
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(count)]
    sizes = sizes_of(game)
    try:
        made = split(count, sizes)
    except UserError:
        assert sizes.fixed and count % 4  # only a count four does not divide is refused
        return
    assert sum(made) == count and all(sizes.allows(s) for s in made)
    assert max(made) - min(made) <= 1
    history = _history(rng, people, density)
    tables = seating.seat(people, made, history, seed)
    assert sorted(p for t in tables for p in t) == sorted(people)
    assert [len(t) for t in tables] == made
    shuffled = list(people)
    rng.shuffle(shuffled)
    assert seating.seat(shuffled, made, history, seed) == tables  # same seed, same tables


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 28), st.integers(2, 5), st.floats(0.1, 1.0), st.integers(0, 10**6))
def test_no_two_who_met_share_a_table_where_a_seating_without_it_exists(count, size,
                                                                          density, seed):
    """The history is planted: people met only where a seating keeps them apart (a random
    partition of them into the tables; any two of different tables may have met)."""
    rng = random.Random(seed)
    people = [f"p{i}" for i in range(count)]
    tables_ = -(-count // size)  # as few tables of at most `size` as seat them, even
    made = [count // tables_ + 1] * (count % tables_) + [count // tables_] * (
        tables_ - count % tables_)
    planted = list(people)
    rng.shuffle(planted)
    table_of, at = {}, 0
    for t, s in enumerate(made):
        for p in planted[at:at + s]:
            table_of[p] = t
        at += s
    history = {k: v for k, v in _history(rng, people, density).items()
               if table_of[k[0]] != table_of[k[1]]}
    tables = seating.seat(people, made, history, seed)
    assert seating.cost(tables, history) == 0, tables
    met = {k: 1 for k in history}
    assert seating.repeats(tables, met) == []
    ranked = list(people)
    rng.shuffle(ranked)
    assert seating.repeats(seating.swiss(ranked, made, met), met) == []


def test_a_repeat_that_cant_be_avoided_is_the_cheapest():
    # four people, two tables of two; a-b met 5 times, everyone else once: a-b apart, and
    # whichever pairs sit together met once each
    history = {pair(a, b): 1.0 for a, b in [("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"),
                                            ("c", "d")]}
    history[pair("a", "b")] = 5.0
    tables = seating.seat(["a", "b", "c", "d"], [2, 2], history, 1)
    assert seating.cost(tables, history) == 2.0
    assert {frozenset(t) for t in tables} in ({frozenset("ac"), frozenset("bd")},
                                              {frozenset("ad"), frozenset("bc")})
    met = {k: int(v) for k, v in history.items()}
    assert len(seating.repeats(tables, met)) == 2


def test_recent_meetings_weigh_more():
    # a meeting today weighs 1 + 9; a week ago 1 + 4.5; two met twice a year ago ~ 2
    today = 1000.0
    assert seating.weight(1, seating.heat_add(-float("inf"), today), today) == 10.0
    assert seating.weight(1, seating.heat_add(-float("inf"), today - 7), today) == 5.5
    heat = seating.heat_add(seating.heat_add(-float("inf"), today - 365), today - 364)
    assert 2.0 < seating.weight(2, heat, today) < 2.01
    assert seating.weight(0, -float("inf"), today) == 0.0


def test_four_rounds_of_one_table_give_each_their_every_wind_once():
    counts: dict[str, list[int]] = {p: [0, 0, 0, 0] for p in "abcd"}
    rng = random.Random(5)
    for _round in range(4):
        [order] = seating.winds([list("abcd")], counts, rng)
        for wind, person in enumerate(order):
            counts[person][wind] += 1
    assert all(c == [1, 1, 1, 1] for c in counts.values())


def test_swiss_seats_by_standing_and_keeps_apart_those_who_met():
    ranked = [f"p{i}" for i in range(1, 9)]  # p1 leads
    # nobody met: tables are the standing cut in fours
    assert seating.swiss(ranked, [4, 4], {}) == [ranked[:4], ranked[4:]]
    # p1 met p2: table 1 is p1 and the next best he did not meet (p3, p4, p5); p2 leads
    # table 2
    met = {pair("p1", "p2"): 1}
    assert seating.swiss(ranked, [4, 4], met) == [["p1", "p3", "p4", "p5"],
                                                  ["p2", "p6", "p7", "p8"]]
    # everyone met everyone: the standing cut in fours again (the fewest meetings allowed)
    everyone = {pair(a, b): 1 for i, a in enumerate(ranked) for b in ranked[i + 1:]}
    assert seating.swiss(ranked, [4, 4], everyone) == [ranked[:4], ranked[4:]]


def test_interval_deals_the_standing_across_the_tables():
    ranked = [f"p{i}" for i in range(1, 17)]
    # four tables, step 4: table 1 takes the 1st, 5th, 9th and 13th
    assert seating.interval(ranked, [4] * 4) == [
        ["p1", "p5", "p9", "p13"], ["p2", "p6", "p10", "p14"],
        ["p3", "p7", "p11", "p15"], ["p4", "p8", "p12", "p16"]]
    # step 2: the first 8 across tables 1 and 2, the next 8 across 3 and 4
    assert seating.interval(ranked, [4] * 4, step=2)[:2] == [
        ["p1", "p3", "p5", "p7"], ["p2", "p4", "p6", "p8"]]


def test_bands_keep_each_band_of_the_standing_together():
    ranked = [f"p{i}" for i in range(1, 17)]
    tables = seating.bands(ranked, [4] * 4, {}, seed=3)
    assert {p for t in tables[:2] for p in t} == set(ranked[:8])
    assert {p for t in tables[2:] for p in t} == set(ranked[8:])
