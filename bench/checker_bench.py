"""The finish checker's worst case over random and adversarial hands.

    python bench/checker_bench.py [--random 2000]

Prints, per family of hands, how many were finishes and the median and worst time, and the
worst hand overall. The target is "well under 50 ms" for any 21 or 22 card hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.cards import PRINTED_JOKER, SUITS, Card, describe
from bot.core.games.marriage.checker import check_finish
from bot.core.games.marriage.maal import MaalRoles

PACKS = 3
DECK = [Card(r, s) for s in SUITS for r in range(1, 14)] * PACKS


def random_hand(rng: random.Random, size: int, jokers: bool) -> tuple[Card, list[Card]]:
    deck = DECK + ([PRINTED_JOKER] * PACKS if jokers else [])
    tiplu = rng.choice(DECK)
    deck = list(deck)
    deck.remove(tiplu)
    return tiplu, rng.sample(deck, size)


def joker_heavy(rng: random.Random, size: int) -> tuple[Card, list[Card]]:
    """Every wild card there is, the rest random: many ways to place each joker."""
    tiplu = rng.choice(DECK)
    roles = MaalRoles(tiplu)
    wild = [c for c in DECK if roles.is_wild(c)] + [PRINTED_JOKER] * PACKS
    wild.remove(tiplu)
    rng.shuffle(wild)
    hand = wild[: size - 4]
    rest = [c for c in DECK if not roles.is_wild(c)]
    return tiplu, hand + rng.sample(rest, size - len(hand))


def near_miss(rng: random.Random, size: int) -> tuple[Card, list[Card]]:
    """Runs and pairs in one or two suits with a few jokers: lots of partial sets, and
    often no full arrangement, so the search has to rule everything out."""
    suit = rng.choice(SUITS)
    other = rng.choice([s for s in SUITS if s != suit])
    pool = [Card(r, s) for s in (suit, other) for r in range(1, 14)] * PACKS
    tiplu = rng.choice(pool)
    pool.remove(tiplu)
    return tiplu, rng.sample(pool, size)


def no_pure(rng: random.Random, size: int) -> tuple[Card, list[Card]]:
    """Triplets of different suits and jokers only: seven sets, but never three pure."""
    ranks = rng.sample(range(1, 14), 8)
    tiplu = Card(ranks[0], "H")
    hand: list[Card] = []
    for rank in ranks[1:]:
        suits = rng.sample(SUITS, 3)
        hand += [Card(rank, s) for s in suits]
    roles = MaalRoles(tiplu)
    hand = [c for c in hand if not roles.is_wild(c)][: size - 3]
    while len(hand) < size:
        hand.append(Card(tiplu.rank, rng.choice("SDC")))
    return tiplu, hand


def time_one(tiplu: Card, hand: list[Card]) -> tuple[float, bool]:
    start = time.perf_counter()
    verdict = check_finish(hand, MaalRoles(tiplu))
    return time.perf_counter() - start, verdict.finished


def main(count: int) -> None:
    rng = random.Random(11)
    families = {
        "random 21": lambda: random_hand(rng, 21, False),
        "random 22": lambda: random_hand(rng, 22, False),
        "random 22 with jk": lambda: random_hand(rng, 22, True),
        "joker-heavy 21": lambda: joker_heavy(rng, 21),
        "joker-heavy 22": lambda: joker_heavy(rng, 22),
        "near-miss 21": lambda: near_miss(rng, 21),
        "near-miss 22": lambda: near_miss(rng, 22),
        "no pure sets 21": lambda: no_pure(rng, 21),
    }
    worst: tuple[float, str] = (0.0, "")
    print(f"{'family':<20} {'hands':>6} {'finishes':>8} {'median ms':>10} {'worst ms':>9}")
    for name, make in families.items():
        times, finishes = [], 0
        for _ in range(count):
            tiplu, hand = make()
            seconds, finished = time_one(tiplu, hand)
            times.append(seconds)
            finishes += finished
            if seconds > worst[0]:
                worst = (seconds, f"tiplu {tiplu}: {describe(hand)}")
        print(f"{name:<20} {count:>6} {finishes:>8} {statistics.median(times) * 1000:>10.2f} "
              f"{max(times) * 1000:>9.2f}")
    print(f"worst case: {worst[0] * 1000:.2f} ms (target: well under 50 ms)")
    print(f"  {worst[1]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=500, help="hands per family")
    main(parser.parse_args().random)
