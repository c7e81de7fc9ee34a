"""The finish checker as it was before it was made fast (commit e37b653), kept unchanged as the
reference the fast checker must agree with, verdict for verdict. Used by the property tests
in test_checker_matches_reference.py and as the baseline in bench/checker_bench.py.

Do not optimise this file: its worth is that it is the old, slow, trusted code.

The finish checker: do these cards make 7 sets (3 of them pure) or 8 dublees?

The search uses one fact to stay small: a joker standing in for a card never makes a set
invalid, so once the three pure sets are chosen, every other joker may as well be wild. The
rest is then a question about the natural cards only: split them into natural sets, pairs a
joker completes and single cards two jokers complete, using as few jokers as possible; the
hand finishes when that is no more than the jokers there are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from bot.core.cards import PRINTED_JOKER, SUITS, Card, describe
from bot.core.errors import UserError
from bot.core.games.marriage.maal import MaalRoles

SETS, PURE_NEEDED, DUBLEES = 7, 3, 8
PACKING_BUDGET = 3_000  # steps spent looking for the best partial arrangement
JOKER = 52
_RUNS = [(r, r + 1, r + 2) for r in range(1, 12)] + [(12, 13, 1)]
_RUN_SETS = [frozenset(run) for run in _RUNS]

Group = tuple[int, ...]  # card indices: a natural set, or naturals a joker completes


def _natural_triple(a: int, b: int, c: int) -> bool:
    if a == b == c:
        return True
    suits = {a // 13, b // 13, c // 13}
    ranks = {a % 13 + 1, b % 13 + 1, c % 13 + 1}
    if len(suits) == 1 and len(ranks) == 3 and frozenset(ranks) in _RUN_SETS:
        return True
    return len(ranks) == 1 and len(suits) == 3


def _completable(a: int, b: int) -> bool:
    """Two natural cards a joker makes a set of (never two identical: no joker in a
    tunnella)."""
    if a == b:
        return False
    if a // 13 == b // 13:
        return any(a % 13 + 1 in run and b % 13 + 1 in run for run in _RUN_SETS)
    return a % 13 == b % 13


# For each card, the cards at or after it (in index order) it can make a set with: the search
# always places the lowest card left, so these tables are all it ever looks at.
_TRIPLES = [[(j, k) for j in range(i, 52) for k in range(j, 52) if _natural_triple(i, j, k)]
            for i in range(52)]
_PAIRS = [[j for j in range(i, 52) if _completable(i, j)] for i in range(52)]
# A natural set within one suit is a tunnella or a pure sequence: pure. A triplet is not.
_PURE = {(i, j, k): i // 13 == j // 13 == k // 13 for i in range(52) for j, k in _TRIPLES[i]}
_TRIPLES_PURE_FIRST = [sorted(t, key=lambda jk, i=i: not _PURE[i, jk[0], jk[1]])
                       for i, t in enumerate(_TRIPLES)]


def _index(card: Card) -> int:
    return JOKER if card.is_printed_joker else SUITS.index(card.suit) * 13 + card.rank - 1


def _card(index: int) -> Card:
    return PRINTED_JOKER if index == JOKER else Card(index % 13 + 1, SUITS[index // 13])


def _rank(index: int) -> int:
    return index % 13 + 1


@dataclass(frozen=True)
class Verdict:
    finished: bool
    sets: tuple[tuple[Card, ...], ...] = ()
    pure: int = 0
    dublees: tuple[Card, ...] = ()  # one card per dublee found
    discard: Card | None = None
    leftover: tuple[Card, ...] = ()
    by_dublees: bool = False

    def describe(self) -> str:
        throw = f"Throw {self.discard}. " if self.discard else ""
        if self.finished and self.by_dublees:
            pairs = " ".join(f"[{c} {c}]" for c in self.dublees[:DUBLEES])
            return f"{throw}A finish with {DUBLEES} dublees: {pairs}"
        if self.finished:
            shown = " ".join(f"[{_show(s)}]" for s in self.sets)
            return f"{throw}A finish: 7 sets, {self.pure} pure: {shown}"
        lines = ["Not a finish yet."]
        if self.sets:
            lines.append(f"Best found: {len(self.sets)} of 7 sets: "
                         + " ".join(f"[{_show(s)}]" for s in self.sets))
        if self.leftover:
            lines.append(f"Not in a set: {describe(self.leftover)}")
        if self.pure < PURE_NEEDED:
            lines.append(f"Pure sets possible: {self.pure} of the {PURE_NEEDED} needed "
                         "(pure sequences or tunnellas).")
        lines.append(f"Dublees: {len(self.dublees)} of {DUBLEES}.")
        return "\n".join(lines)


def _show(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


class _Solver:
    def __init__(self, roles: MaalRoles) -> None:
        self.wild = [roles.is_wild(_card(i)) for i in range(53)]
        self._failed: set[tuple[bytes, int, int, bool]] = set()

    # --- the pieces ----------------------------------------------------------------------

    @staticmethod
    def pure_sets(counts: list[int]) -> list[Group]:
        """Every distinct pure set (tunnella or pure sequence) the cards could give."""
        found: list[Group] = [(i, i, i) for i in range(52) if counts[i] >= 3]
        for suit in range(4):
            for run in _RUNS:
                trio = tuple(suit * 13 + r - 1 for r in run)
                if all(counts[i] for i in trio):
                    found.append(trio)
        return found

    # --- the rest, with every joker wild -------------------------------------------------

    def place(self, naturals: list[int], jokers: int, pure_needed: int,
              throw: bool) -> tuple[tuple[Group, ...], int | None] | None:
        """Place every natural card in a natural set, a pair one joker completes or alone
        with two jokers, using at most `jokers`, with at least `pure_needed` pure sets; with
        `throw`, exactly one natural card is the discard. Returns (groups, thrown) or None.
        Depth first, pure sets first; a state that failed is remembered."""
        key = (bytes(naturals), jokers, pure_needed, throw)
        if key in self._failed:
            return None
        first = next((i for i, n in enumerate(naturals) if n), None)
        if first is None:
            return ((), None) if pure_needed == 0 and not throw else None
        if pure_needed * 3 > sum(naturals):
            self._failed.add(key)
            return None
        naturals[first] -= 1
        found = self._place_first(first, naturals, jokers, pure_needed, throw)
        naturals[first] += 1
        if found is None:
            self._failed.add(key)
        return found

    def _place_first(self, first: int, naturals: list[int], jokers: int, pure_needed: int,
                     throw: bool) -> tuple[tuple[Group, ...], int | None] | None:
        for j, k in _TRIPLES_PURE_FIRST[first]:
            naturals[j] -= 1
            naturals[k] -= 1
            found = None
            if naturals[j] >= 0 and naturals[k] >= 0:
                found = self.place(naturals, jokers, max(0, pure_needed - _PURE[first, j, k]),
                                   throw)
            naturals[j] += 1
            naturals[k] += 1
            if found is not None:
                return ((first, j, k), *found[0]), found[1]
        if throw:
            found = self.place(naturals, jokers, pure_needed, False)
            if found is not None:
                return found[0], first
        if jokers >= 1:
            for j in _PAIRS[first]:
                if naturals[j]:
                    naturals[j] -= 1
                    found = self.place(naturals, jokers - 1, pure_needed, throw)
                    naturals[j] += 1
                    if found is not None:
                        return ((first, j), *found[0]), found[1]
        if jokers >= 2:
            found = self.place(naturals, jokers - 2, pure_needed, throw)
            if found is not None:
                return ((first,), *found[0]), found[1]
        return None

    def split(self, counts: list[int]) -> tuple[list[int], list[int]]:
        """(natural cards, joker cards) as counts and a list."""
        naturals = [0 if self.wild[i] else n for i, n in enumerate(counts)]
        jokers = [i for i, n in enumerate(counts) if self.wild[i] for _ in range(n)]
        return naturals, jokers

    # --- seven sets ----------------------------------------------------------------------

    def solve(self, counts: list[int], throw: bool) -> tuple[list[Group], int | None] | None:
        """Seven sets (and the card to throw, with 22 cards), or None."""
        # Pure sets of natural cards come out of `place`; only pure sets that use a joker
        # card as itself (a marriage, say) are chosen here.
        wild_pure = [s for s in self.pure_sets(counts) if any(self.wild[i] for i in s)]
        for size in range(PURE_NEEDED + 1):
            for chosen in combinations_with_replacement(wild_pure, size):
                left = list(counts)
                for trio in chosen:
                    for i in trio:
                        left[i] -= 1
                if min(left) < 0:
                    continue
                naturals, jokers = self.split(left)
                still = PURE_NEEDED - size
                found = self.place(naturals, len(jokers), still, throw)
                if found is not None:
                    return [*chosen, *_fill(list(found[0]), jokers)], found[1]
                if throw and jokers:  # or throw a joker card instead
                    found = self.place(naturals, len(jokers) - 1, still, False)
                    if found is not None:
                        return [*chosen, *_fill(list(found[0]), jokers[1:])], jokers[0]
        return None

    def most_sets(self, naturals: list[int], jokers: int) -> list[Group]:
        """As many sets as the cards make, some cards left out, for "what is missing".
        Branch and bound, best first, within a budget of steps: the answer is the best
        found, which for a hand far from a finish may not be the very best."""
        best: list[Group] = []
        steps = [PACKING_BUDGET]
        groups: list[Group] = []

        def search(jokers: int) -> None:
            nonlocal best
            if len(groups) > len(best):
                best = list(groups)
            steps[0] -= 1
            left = sum(naturals)
            if steps[0] <= 0 or len(groups) + (left + jokers) // 3 <= len(best):
                return
            first = next((i for i, n in enumerate(naturals) if n), None)
            if first is None:
                return
            naturals[first] -= 1
            options: list[tuple[Group, int]] = [
                ((first, j, k), 0) for j, k in _TRIPLES_PURE_FIRST[first]
                if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2)]
            if jokers >= 1:
                options += [((first, j), 1) for j in _PAIRS[first] if naturals[j]]
            if jokers >= 2:
                options.append(((first,), 2))
            for group, cost in options:
                for i in group[1:]:
                    naturals[i] -= 1
                groups.append(group)
                search(jokers - cost)
                groups.pop()
                for i in group[1:]:
                    naturals[i] += 1
            search(jokers)  # leave this card out
            naturals[first] += 1

        search(jokers)
        return best

    def most_pure(self, counts: list[int]) -> int:
        """How many disjoint pure sets the cards hold (up to the 3 needed)."""
        pure = self.pure_sets(counts)
        # (one change from the checker as it was: the same pure set may be chosen again,
        # so two A 2 3 runs of hearts count twice; it said 2 for them and a tunnella)
        for size in range(PURE_NEEDED if pure else 0, 0, -1):
            for chosen in combinations_with_replacement(pure, size):
                used = Counter(i for trio in chosen for i in trio)
                if all(counts[i] >= n for i, n in used.items()):
                    return size
        return 0

def _fill(groups: list[Group], jokers: list[int]) -> list[Group]:
    """Complete natural groups with joker cards; the jokers left make sets of three."""
    spare = list(jokers)
    sets = []
    for group in groups:
        take = 3 - len(group)
        sets.append((*group, *spare[:take]))
        del spare[:take]
    sets += [tuple(spare[i : i + 3]) for i in range(0, len(spare), 3)]
    return sets


def check_finish(cards: Sequence[Card], roles: MaalRoles) -> Verdict:
    """A verdict for 21 cards, or for 22 (then with the card to throw)."""
    if len(cards) not in (21, 22):
        raise UserError(f"A finish is checked on 21 cards (or 22, to find the card to "
                        f"throw); you gave {len(cards)}.")
    solver = _Solver(roles)
    counts = [0] * 53
    for card in cards:
        counts[_index(card)] += 1
    solved = solver.solve(counts, throw=len(cards) == 22)
    if solved is not None:
        sets, thrown = solved
        return Verdict(True, sets=tuple(tuple(_card(i) for i in s) for s in sets),
                       pure=sum(1 for s in sets if _is_pure(s)),
                       discard=_card(thrown) if thrown is not None else None)
    dublees = [card for card, n in sorted(Counter(cards).items()) for _ in range(n // 2)]
    if len(dublees) >= DUBLEES:
        return Verdict(True, dublees=tuple(dublees), by_dublees=True,
                       discard=_spare(cards, dublees) if len(cards) == 22 else None)
    # What is missing: as many sets as the cards make, and what is left over.
    naturals, jokers = solver.split(counts)
    groups = solver.most_sets(naturals, len(jokers))
    spare = len(jokers) - sum(3 - len(g) for g in groups)
    sets = _fill(groups, jokers[: len(jokers) - spare % 3])
    used = Counter(i for s in sets for i in s)
    left = Counter({i: n for i, n in enumerate(counts) if n}) - used
    return Verdict(False, sets=tuple(tuple(_card(i) for i in s) for s in sets),
                   pure=solver.most_pure(counts), dublees=tuple(dublees),
                   leftover=tuple(_card(i) for i in sorted(left.elements())))


def _is_pure(group: Group) -> bool:
    if len(group) != 3 or JOKER in group:
        return False
    a, b, c = group
    return a == b == c or (a // 13 == b // 13 == c // 13
                           and frozenset(map(_rank, group)) in _RUN_SETS
                           and len(set(group)) == 3)


def _spare(cards: Sequence[Card], dublees: list[Card]) -> Card:
    left = Counter(cards) - Counter(c for c in dublees[:DUBLEES] for _ in range(2))
    return min(left.elements())
