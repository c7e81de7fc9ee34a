"""The finish checker: do these cards make 7 sets (3 of them pure) or 8 dublees?

The search uses one fact to stay small: a joker standing in for a card never makes a set
invalid, so once the three pure sets are chosen, every other joker may as well be wild. The
rest is then a question about the natural cards only: split them into natural sets, pairs a
joker completes and single cards two jokers complete, using as few jokers as possible; the
hand finishes when that is no more than the jokers there are.

Speed (issues 18 and 38; bench/checker_bench.py): both searches answer exactly as their plain
depth-first versions did (tests/games/marriage/checker_reference.py), and only cut what cannot
change the answer: a placement with fewer disjoint pure sets left than it needs; and, for
what is missing, subtrees with nothing better in them, whose steps are counted (per state)
instead of walked, and everything after a bound proves the best so far is the best there is.
The worst hands visit a thousand states or more, so each state is cheap: the cards left are
one int kept up to date as cards are taken and put back (_key), the memo key and the lowest
card read from it, and the searches whose order changes nothing loop over the tables
themselves instead of building lists of options.

Issue 38 (worst case under 2 ms): which cards are in no natural set the cards could make is
read from the key all at once (_in_natural_sets); such a card needs half a joker at least
(two without a partner), which cuts states short of jokers; and whether an arrangement
exists (_can) or more groups do (_Optimum) does not depend on order, so those searches place
such a card first: it has the fewest ways to go. Only `place` and the budgeted packer keep
the reference's order, since their first answer is the verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from bot.core.cards import PRINTED_JOKER, SUITS, Card, describe
from bot.core.errors import UserError
from bot.core.games.marriage.maal import MaalRoles
from bot.core.i18n import Text, _, join

SETS, PURE_NEEDED, DUBLEES = 7, 3, 8
PACKING_BUDGET = 3_000  # steps spent looking for the best partial arrangement
JOKER = 52
_RUNS = [(r, r + 1, r + 2) for r in range(1, 12)] + [(12, 13, 1)]
_RUN_SETS = [frozenset(run) for run in _RUNS]
_PURE_RUNS = [tuple(suit * 13 + r - 1 for r in run) for suit in range(4) for run in _RUNS]

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
_PAIRS_WITH = [[j for j in range(52) if _completable(i, j)] for i in range(52)]  # either side
# The same with the two other cards' weight in a key (_W, below), for the step count.
_TRIPLES_KEYED = [[(j, k, (1 << 5 * j) + (1 << 5 * k)) for j, k in t] for t in _TRIPLES]
# A natural set within one suit is a tunnella or a pure sequence: pure. A triplet is not.
_PURE = {(i, j, k): i // 13 == j // 13 == k // 13 for i in range(52) for j, k in _TRIPLES[i]}
_TRIPLES_PURE_FIRST = [sorted(t, key=lambda jk, i=i: not _PURE[i, jk[0], jk[1]])
                       for i, t in enumerate(_TRIPLES)]


# A state's cards as one int, five bits a card (a count is at most the 22 cards checked),
# kept up to date as cards are taken and put back: the searches' memo keys, made without
# reading all 52 counts at each step.
_W = [1 << 5 * i for i in range(53)]


_SUIT = 13 * 5  # a suit's bits in a key
_SUIT_MASK = (1 << _SUIT) - 1


def _key(counts: list[int]) -> int:
    return sum(n * w for n, w in zip(counts, _W, strict=False))


def _first(key: int) -> int:
    """The lowest card in a key: its lowest bit's (the searches place the lowest card
    first)."""
    return ((key & -key).bit_length() - 1) // 5


# Masks of one bit per card (a field's lowest) in a key, to read all 52 counts at once.
_LOW = sum(_W[:52])
_SUIT_LOW = sum(_W[:13])  # the first suit's
_RUN_STARTS = sum(_W[suit * 13 + r] for suit in range(4) for r in range(11))  # A..J
_ACES = sum(_W[suit * 13] for suit in range(4))
_EVERY_SUIT = 1 | 1 << _SUIT | 1 << 2 * _SUIT | 1 << 3 * _SUIT
_NOT_ACES = _LOW & ~_ACES
_NOT_ACES_2S = _NOT_ACES & ~(_ACES << 5)
_NOT_KINGS = _LOW & ~(_ACES << 60)
_NOT_QUEENS_KINGS = _NOT_KINGS & ~(_ACES << 55)


def _in_natural_sets(key: int) -> tuple[int, int, int]:
    """(cards held, cards held twice or more, cards in a natural set the cards could make)
    as masks of a key's fields' lowest bits: all 52 counts read at once, no loop."""
    pairs = key | key >> 1  # a field's bits 0 and 1 ORed, 1 and 2, ...
    fours = pairs | pairs >> 2  # bits 0 to 3 ORed, 1 to 4, ...
    held = (fours | key >> 4) & _LOW
    twice = fours >> 1 & _LOW  # bits 1 to 4
    tunnellas = (pairs >> 2 | key >> 4 | key & key >> 1) & _LOW  # three or more
    starts = held & held >> 5 & held >> 10 & _RUN_STARTS
    queens = held & held >> 55 & held >> 60 & _ACES  # Q K A, marked at the ace
    runs = starts | starts << 5 | starts << 10 | queens | queens << 55 | queens << 60
    a, b = held & _SUIT_LOW, held >> _SUIT & _SUIT_LOW
    c, d = held >> 2 * _SUIT & _SUIT_LOW, held >> 3 * _SUIT
    triplets = ((a & b & (c | d)) | (c & d & (a | b))) * _EVERY_SUIT  # rank in 3 suits+
    return held, twice, held & (tunnellas | runs | triplets)


def _lone(key: int) -> tuple[int, int, int]:
    """(cards held, held twice or more, in no natural set the cards could make), as
    masks of a key's fields' lowest bits."""
    held, twice, in_sets = _in_natural_sets(key)
    return held, twice, held & ~in_sets


def _too_few_jokers(held: int, twice: int, alone: int, jokers: int, throw: bool) -> bool:
    """Do the cards (masks from _lone) need more jokers than `jokers`? A card in no
    natural set the cards could make needs half a joker if another card could make a set
    with it and one joker, else two; with `throw`, one card may be thrown instead (the
    dearest). Read from the masks all at once, with no loop over the cards."""
    if not alone:
        return False
    cards = alone.bit_count() + (alone & twice).bit_count()
    # half a joker a card at least, two at most; a throw saves one card's at least
    if cards - throw > 2 * jokers:
        return True
    if 4 * cards - throw <= 2 * jokers:
        return False
    a, b = held & _SUIT_LOW, held >> _SUIT & _SUIT_LOW
    c, d = held >> 2 * _SUIT & _SUIT_LOW, held >> 3 * _SUIT
    # a card one joker can make a set with: one or two ranks apart in the suit (Q K A
    # too), or the same rank in another suit
    partnered = alone & (
        (held << 5 & _NOT_ACES) | (held << 10 & _NOT_ACES_2S)
        | (held >> 5 & _NOT_KINGS) | (held >> 10 & _NOT_QUEENS_KINGS)
        | ((held >> 55 | held >> 60) & _ACES) | (held & _ACES) << 55 | (held & _ACES) << 60
        | ((a | b) & (c | d) | a & b | c & d) * _EVERY_SUIT)
    single = alone & ~partnered
    need = cards + 3 * (single.bit_count() + (single & twice).bit_count())
    if throw:
        need -= 4 if single else 1
    return need > 2 * jokers


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

    def describe(self) -> Text:
        """What the checker found, as lazy text: the finish and one way to make it, or how
        far the cards are from one."""
        if self.finished and self.by_dublees:
            pairs = " ".join(f"[{c} {c}]" for c in self.dublees[:DUBLEES])
            if self.discard:
                return _("Throw {card}. A finish with {dublees} dublees: {pairs}",
                         card=str(self.discard), dublees=DUBLEES, pairs=pairs)
            return _("A finish with {dublees} dublees: {pairs}", dublees=DUBLEES, pairs=pairs)
        if self.finished:
            shown = " ".join(f"[{_show(s)}]" for s in self.sets)
            if self.discard:
                return _("Throw {card}. A finish: 7 sets, {pure} pure: {sets}",
                         card=str(self.discard), pure=self.pure, sets=shown)
            return _("A finish: 7 sets, {pure} pure: {sets}", pure=self.pure, sets=shown)
        lines: list[Text] = [_("Not a finish yet.")]
        if self.sets:
            lines.append(_("Best found: {found} of 7 sets: {sets}", found=len(self.sets),
                           sets=" ".join(f"[{_show(s)}]" for s in self.sets)))
        if self.leftover:
            lines.append(_("Not in a set: {cards}", cards=describe(self.leftover)))
        if self.pure < PURE_NEEDED:
            lines.append(_("Pure sets possible: {pure} of the {needed} needed (pure sequences "
                           "or tunnellas).", pure=self.pure, needed=PURE_NEEDED))
        lines.append(_("Dublees: {found} of {needed}.", found=len(self.dublees),
                       needed=DUBLEES))
        return join(lines)


def _show(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


@cache
def _wild_table(roles: MaalRoles) -> tuple[bool, ...]:
    """Which card indices are wild: asked of MaalRoles once per tiplu, not once per check."""
    return tuple(roles.is_wild(_card(i)) for i in range(53))


def _suit_pure_most(ranks: tuple[int, ...], known: dict[tuple[int, ...], int]) -> int:
    """How many disjoint pure sets (tunnellas, runs, Q K A) one suit's cards make, ace
    first: each lowest card is left out or starts one of its pure sets."""
    if ranks in known:
        return known[ranks]
    low = next((r for r, n in enumerate(ranks) if n), None)
    most = 0
    if low is not None:
        counts = list(ranks)
        counts[low] -= 1
        most = _suit_pure_most(tuple(counts), known)  # leave the lowest card out
        for second, third in _SUIT_PURE_PARTNERS[low]:
            counts[second] -= 1
            counts[third] -= 1
            if counts[second] >= 0 and counts[third] >= 0:
                most = max(most, 1 + _suit_pure_most(tuple(counts), known))
            counts[second] += 1
            counts[third] += 1
    known[ranks] = most
    return most


# For each rank index, the two other cards of a pure set it is the lowest card of.
_SUIT_PURE_PARTNERS = [[(r, r)] + ([(r + 1, r + 2)] if r <= 10 else [])
                       + ([(11, 12)] if r == 0 else []) for r in range(13)]


class _Solver:
    def __init__(self, roles: MaalRoles) -> None:
        self.wild = _wild_table(roles)
        # The most jokers each (naturals, pure needed, throw) is known to fail with: it
        # fails with fewer too, since `place` asks for at most so many.
        self._fails_with: dict[int, int] = {}  # keyed by _key, pure needed and throw
        self._works_with: dict[int, int] = {}  # the fewest jokers each is known to work with
        self._suit_pure: dict[tuple[int, ...], int] = {}
        self._suit_capacity: dict[int, int] = {}  # a suit's bits of a key -> its pure sets

    # --- the pieces ----------------------------------------------------------------------

    @staticmethod
    def pure_sets(counts: list[int]) -> list[Group]:
        """Every distinct pure set (tunnella or pure sequence) the cards could give."""
        found: list[Group] = [(i, i, i) for i in range(52) if counts[i] >= 3]
        found += [(a, b, c) for a, b, c in _PURE_RUNS if counts[a] and counts[b] and counts[c]]
        return found

    def pure_capacity(self, counts: list[int], first: int = 0, enough: int = 52) -> int:
        """How many disjoint pure sets the cards make, counting no further than `enough`;
        pure sets keep to one suit, so suit by suit (from the suit of `first`, the lowest
        card; a suit of fewer than three cards has none)."""
        found = 0
        for suit in range(first // 13, 4):
            ranks = counts[suit * 13:suit * 13 + 13]
            if sum(ranks) >= 3:
                found += _suit_pure_most(tuple(ranks), self._suit_pure)
                if found >= enough:
                    break
        return found

    def _capacity(self, key: int, enough: int) -> int:
        """pure_capacity of the cards whose key is `key`, read from the key suit by suit."""
        found = 0
        for suit in range(_first(key) // 13, 4):
            bits = key >> _SUIT * suit & _SUIT_MASK
            most = self._suit_capacity.get(bits)
            if most is None:
                ranks = tuple(bits >> 5 * r & 31 for r in range(13))
                most = self._suit_capacity[bits] = _suit_pure_most(ranks, self._suit_pure)
            found += most
            if found >= enough:
                break
        return found

    # --- the rest, with every joker wild -------------------------------------------------

    def place(self, naturals: list[int], key: int, left: int, jokers: int,
              pure_needed: int, throw: bool) -> tuple[tuple[Group, ...], int | None] | None:
        """Place every natural card in a natural set, a pair one joker completes or alone
        with two jokers, using at most `jokers`, with at least `pure_needed` pure sets; with
        `throw`, exactly one natural card is the discard. Returns (groups, thrown) or None.
        `left` natural cards remain; `key` is their _key. Depth first from the lowest card,
        pure sets first: the first arrangement found is the answer, so only states that
        cannot succeed are cut (too few pure sets left, or a failure remembered)."""
        if not self._can(naturals, key, left, jokers, pure_needed, throw):
            return None
        if not left:
            return (), None
        first = ((key & -key).bit_length() - 1) // 5  # _first, inlined: called most
        naturals[first] -= 1
        key -= _W[first]
        left -= 1
        found = None
        for j, k in _TRIPLES_PURE_FIRST[first]:
            if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2):
                naturals[j] -= 1
                naturals[k] -= 1
                found = self.place(naturals, key - _W[j] - _W[k], left - 2, jokers,
                                   max(0, pure_needed - _PURE[first, j, k]), throw)
                naturals[j] += 1
                naturals[k] += 1
                if found is not None:
                    found = ((first, j, k), *found[0]), found[1]
                    break
        if found is None and throw:
            found = self.place(naturals, key, left, jokers, pure_needed, False)
            if found is not None:
                found = found[0], first
        if found is None and jokers >= 1:
            for j in _PAIRS[first]:
                if naturals[j]:
                    naturals[j] -= 1
                    found = self.place(naturals, key - _W[j], left - 1, jokers - 1,
                                       pure_needed, throw)
                    naturals[j] += 1
                    if found is not None:
                        found = ((first, j), *found[0]), found[1]
                        break
        if found is None and jokers >= 2:
            found = self.place(naturals, key, left, jokers - 2, pure_needed, throw)
            if found is not None:
                found = ((first,), *found[0]), found[1]
        naturals[first] += 1
        return found

    def _can(self, naturals: list[int], key: int, left: int, jokers: int, pure_needed: int,
             throw: bool) -> bool:
        """Is there an arrangement `place` would find? Which one needs no order, so a card
        in no natural set is tried first (it can only be with jokers or thrown), else the
        lowest; a state too short of jokers or of pure sets is cut, and every answer is
        remembered (with more jokers, what works works still; with fewer, what fails)."""
        if not left:
            return pure_needed == 0 and not throw
        memo = key << 3 | pure_needed << 1 | throw
        if self._fails_with.get(memo, -1) >= jokers:
            return False
        if self._works_with.get(memo, JOKER) <= jokers:
            return True
        held, twice, alone = _lone(key)
        if _too_few_jokers(held, twice, alone, jokers, throw) or self._too_few_pure(
                key, left, pure_needed):
            found = False
        elif alone:
            found = self._can_with(naturals, key, left, jokers, pure_needed, throw,
                                   ((alone & -alone).bit_length() - 1) // 5)
        else:
            found = self._can_lowest(naturals, key, left, jokers, pure_needed, throw)
        if found:
            self._works_with[memo] = jokers
        else:
            self._fails_with[memo] = jokers
        return found

    def _too_few_pure(self, key: int, left: int, pure_needed: int) -> bool:
        """Too few cards, or too few disjoint pure sets in them, for `pure_needed`."""
        return bool(pure_needed) and (pure_needed * 3 > left
                                      or self._capacity(key, pure_needed) < pure_needed)

    def _can_with(self, naturals: list[int], key: int, left: int, jokers: int,
                  pure_needed: int, throw: bool, card: int) -> bool:
        """_can, for cards one of which, `card`, is in no natural set: it is thrown, or
        with a joker and a card on either side of it, or with two jokers."""
        naturals[card] -= 1
        key -= _W[card]
        left -= 1
        found = throw and self._can(naturals, key, left, jokers, pure_needed, False)
        if not found:
            found = self._can_joined(naturals, key, left, jokers, pure_needed, throw,
                                     _PAIRS_WITH[card])
        naturals[card] += 1
        return found

    def _can_lowest(self, naturals: list[int], key: int, left: int, jokers: int,
                    pure_needed: int, throw: bool) -> bool:
        """_can, trying each place for the lowest card, pure sets first."""
        first = ((key & -key).bit_length() - 1) // 5  # _first, inlined: called most
        naturals[first] -= 1
        key -= _W[first]
        left -= 1
        found = False
        for j, k in _TRIPLES_PURE_FIRST[first]:
            if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2):
                naturals[j] -= 1
                naturals[k] -= 1
                found = self._can(naturals, key - _W[j] - _W[k], left - 2, jokers,
                                  max(0, pure_needed - _PURE[first, j, k]), throw)
                naturals[j] += 1
                naturals[k] += 1
                if found:
                    break
        if not found and throw:
            found = self._can(naturals, key, left, jokers, pure_needed, False)
        if not found:
            found = self._can_joined(naturals, key, left, jokers, pure_needed, throw,
                                     _PAIRS[first])
        naturals[first] += 1
        return found

    def _can_joined(self, naturals: list[int], key: int, left: int, jokers: int,
                    pure_needed: int, throw: bool, partners: list[int]) -> bool:
        """_can once a card (already taken out of `key`) goes with jokers: one and a card
        of `partners` beside it, or two."""
        if jokers >= 1:
            for j in partners:
                if naturals[j]:
                    naturals[j] -= 1
                    found = self._can(naturals, key - _W[j], left - 1, jokers - 1,
                                      pure_needed, throw)
                    naturals[j] += 1
                    if found:
                        return True
        return jokers >= 2 and self._can(naturals, key, left, jokers - 2, pure_needed, throw)

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
        all_naturals, _ = self.split(counts)
        all_key, all_left = _key(all_naturals), sum(all_naturals)
        wild_cards = [i for i, n in enumerate(counts) if n and self.wild[i]]
        for size in range(PURE_NEEDED + 1):
            for chosen in _held_together(wild_pure, list(counts), size):
                # the cards left: the chosen sets' natural cards taken from the naturals
                # (their key and count with them), their joker cards from the jokers
                taken = [i for trio in chosen for i in trio]
                naturals, key, left = list(all_naturals), all_key, all_left
                for i in taken:
                    if not self.wild[i]:
                        naturals[i] -= 1
                        key -= _W[i]
                        left -= 1
                jokers = [i for i in wild_cards
                          for _ in range(counts[i] - taken.count(i))]
                still = PURE_NEEDED - size
                found = self.place(naturals, key, left, len(jokers), still, throw)
                if found is not None:
                    return [*chosen, *_fill(list(found[0]), jokers)], found[1]
                if throw and jokers:  # or throw a joker card instead
                    found = self.place(naturals, key, left, len(jokers) - 1, still, False)
                    if found is not None:
                        return [*chosen, *_fill(list(found[0]), jokers[1:])], jokers[0]
        return None

    @staticmethod
    def most_sets(naturals: list[int], jokers: int) -> list[Group]:
        """As many sets as the cards make, some cards left out, for "what is missing".
        Branch and bound, best first, within a budget of steps: the answer is the best
        found, which for a hand far from a finish may not be the very best."""
        return _Packer(naturals, jokers).best_within_budget()

    def most_pure(self, counts: list[int]) -> int:
        """How many disjoint pure sets the cards hold (up to the 3 needed): two A 2 3 runs
        of hearts and a tunnella are 3, the same run twice counting twice."""
        return min(PURE_NEEDED, self.pure_capacity(counts))


def _options(naturals: list[int], first: int, jokers: int) -> list[tuple[Group, int]]:
    """The groups the lowest card (already taken out) can start, in the budgeted search's
    order, with the jokers each costs."""
    options: list[tuple[Group, int]] = [
        ((first, j, k), 0) for j, k in _TRIPLES_PURE_FIRST[first]
        if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2)]
    if jokers >= 1:
        options += [((first, j), 1) for j in _PAIRS[first] if naturals[j]]
    if jokers >= 2:
        options.append(((first,), 2))
    return options


class _Packer:
    """The budgeted search for most sets, answering exactly as the plain depth-first one
    (kept in the tests as the reference) does, step budget and all, but without walking
    every step: a subtree that cannot beat the best so far changes nothing but the steps
    left, so its number of steps is counted instead (remembered per state, since the same
    cards are reached again and again by different groupings) and it is skipped; the search
    goes down only where a better grouping lies or where the budget runs out."""

    def __init__(self, naturals: list[int], jokers: int) -> None:
        self.naturals = naturals
        self.key = _key(naturals)
        self.jokers = jokers
        self.groups: list[Group] = []
        self.best: list[Group] = []
        self.steps = PACKING_BUDGET
        self.optimum = _Optimum(naturals)
        self.done = False  # the best so far is the best there is: nothing can change it
        # (naturals, jokers, slack) -> steps the subtree takes, when it holds nothing better
        # than the best so far (slack: how many groups it may add before it would be
        # better); None when it holds something better; PACKING_BUDGET: as many as the
        # steps left when it was counted, or more (the steps left only ever go down, so
        # that stays too many to skip the subtree: the count stops there, not at 3,000).
        self._quiet_steps: dict[int, int | None] = {}
        # the same with no joker, by slack and then the cards
        self._natural_quiet: list[dict[int, int | None]] = [{} for _ in range(SETS + 1)]  # 0-7

    def best_within_budget(self) -> list[Group]:
        self._search(self.jokers, sum(self.naturals))
        return self.best

    # One step of the plain search: note a better grouping, stop when out of steps or when
    # even (cards + jokers) // 3 more groups would not be better; else place the lowest card
    # in each group it can start, then leave it out.
    def _search(self, jokers: int, left: int) -> None:
        if len(self.groups) > len(self.best):
            self.best = list(self.groups)
            self.done = not self.optimum.beats(len(self.best), self.jokers)
        self.steps -= 1
        if self.steps <= 0 or len(self.groups) + (left + jokers) // 3 <= len(self.best):
            return
        if not left:
            return
        first = _first(self.key)
        self.naturals[first] -= 1
        self.key -= _W[first]
        for group, cost in _options(self.naturals, first, jokers):
            self._take(group)
            self.groups.append(group)
            self._visit(jokers - cost, left - len(group))
            self.groups.pop()
            self._put_back(group)
        self._visit(jokers, left - 1)  # leave this card out
        self.naturals[first] += 1
        self.key += _W[first]

    def _visit(self, jokers: int, left: int) -> None:
        """Take the step into a subtree, or skip it when it holds nothing better and ends
        before the budget does, paying its steps; once the best is the very best, stop."""
        if self.done:
            return
        if self.steps > 1:
            steps = self._steps_if_quiet(self.key, jokers, left,
                                         len(self.best) - len(self.groups))
            if steps is not None and steps < self.steps:
                self.steps -= steps
                return
        self._search(jokers, left)

    def _steps_if_quiet(self, cards: int, jokers: int, left: int,
                        slack: int) -> int | None:
        """Steps the plain search takes in this subtree (its cards' _key is `cards`) if
        nothing in it beats the best so far (it may add at most `slack` groups), None if
        something does; counted up to the steps left only (PACKING_BUDGET stands for that
        many or more: the search goes in either way)."""
        if slack < 0:
            return None
        if not left or (left + jokers) // 3 <= slack:
            return 1
        if not jokers:
            return self._natural_steps(cards, left, slack)
        memo = cards << 10 | jokers << 5 | slack + 1  # the cards, jokers (<32), slack (-1 to 7)
        known = self._quiet_steps.get(memo, 0)
        if known != 0:
            return known
        naturals = self.naturals
        first = ((cards & -cards).bit_length() - 1) // 5  # _first, inlined: called most
        naturals[first] -= 1
        rest = cards - _W[first]
        if slack:
            total = self._steps_below(rest, first, jokers, left - 1, slack)
        elif jokers >= 2 or _starts_a_group(naturals, first, jokers):
            total = None  # no group may be added, and one can: it is better
        else:  # nothing but leaving it out
            steps = self._steps_if_quiet(rest, jokers, left - 1, 0)
            total = None if steps is None else 1 + steps
        naturals[first] += 1
        self._quiet_steps[memo] = total
        return total

    def _natural_steps(self, cards: int, left: int, slack: int) -> int | None:
        """_steps_if_quiet with no joker: the groups are natural sets only (most of the
        states the count visits on the slowest hands, so written out on its own, and a
        subtree the bound stops at once counted as its one step without a call)."""
        if left // 3 <= slack:
            return 1
        known_here = self._natural_quiet[slack]  # by the cards
        known = known_here.get(cards, 0)
        if known != 0:
            return known
        naturals = self.naturals
        first = ((cards & -cards).bit_length() - 1) // 5  # _first, inlined: called most
        naturals[first] -= 1
        rest = cards - _W[first]
        left -= 1
        total: int | None
        if not slack and _starts_a_group(naturals, first, 0):
            total = None  # no group may be added, and one can: it is better
        elif left // 3 <= slack:
            total = 2  # this step and leaving the card out, where the bound stops
        else:
            steps = self._natural_steps(rest, left, slack)  # leave it out
            total = None if steps is None else 1 + steps
        if slack and total is not None and total < self.steps:
            flat = left - 2 < 3 * slack  # each set's subtree the bound stops at once
            for j, k, weight in _TRIPLES_KEYED[first]:
                if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2):
                    if flat:
                        total += 1
                    else:
                        naturals[j] -= 1
                        naturals[k] -= 1
                        steps = self._natural_steps(rest - weight, left - 2, slack - 1)
                        naturals[j] += 1
                        naturals[k] += 1
                        if steps is None:
                            total = None
                            break
                        total += steps
                    if total >= self.steps:
                        break
        if total is not None and total >= self.steps:
            total = PACKING_BUDGET
        naturals[first] += 1
        known_here[cards] = total
        return total

    def _steps_below(self, rest: int, first: int, jokers: int, left: int,
                     slack: int) -> int | None:
        """_steps_if_quiet's count below a state whose lowest card, `first`, is taken out
        (`rest`, `left`: the cards without it): one, and those of leaving it out and of
        each group it can start. Their order changes nothing (a sum, or None if any is;
        PACKING_BUDGET and None both send the search in): written out for speed."""
        naturals = self.naturals
        if not left or (left + jokers) // 3 <= slack:
            total = 2  # this step, and leaving it out: a step the bound stops at once
        else:
            steps = self._steps_if_quiet(rest, jokers, left, slack)  # leave it out
            if steps is None:
                return None
            total = 1 + steps
        if total >= self.steps:
            return PACKING_BUDGET
        # a subtree the bound stops at once is one step: counted here, not called
        flat = left == 2 or left - 2 + jokers < 3 * slack
        for j, k in _TRIPLES[first]:
            if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2):
                if flat:
                    steps = 1
                else:
                    naturals[j] -= 1
                    naturals[k] -= 1
                    steps = self._steps_if_quiet(rest - _W[j] - _W[k], jokers, left - 2,
                                                 slack - 1)
                    naturals[j] += 1
                    naturals[k] += 1
                    if steps is None:
                        return None
                total += steps
                if total >= self.steps:
                    return PACKING_BUDGET
        if jokers >= 1:
            flat = left == 1 or left + jokers - 2 < 3 * slack
            for j in _PAIRS[first]:
                if naturals[j]:
                    if flat:
                        steps = 1
                    else:
                        naturals[j] -= 1
                        steps = self._steps_if_quiet(rest - _W[j], jokers - 1, left - 1,
                                                     slack - 1)
                        naturals[j] += 1
                        if steps is None:
                            return None
                    total += steps
                    if total >= self.steps:
                        return PACKING_BUDGET
        if jokers >= 2:
            steps = self._steps_if_quiet(rest, jokers - 2, left, slack - 1)
            if steps is None:
                return None
            total += steps
        return total if total < self.steps else PACKING_BUDGET

    def _take(self, group: Group) -> None:
        for i in group[1:]:
            self.naturals[i] -= 1
            self.key -= _W[i]

    def _put_back(self, group: Group) -> None:
        for i in group[1:]:
            self.naturals[i] += 1
            self.key += _W[i]


class _Optimum:
    """Can the cards make more than so many groups? Answered with a tighter bound than the
    budgeted search's, so that it can say "no" quickly and the search can stop there."""

    def __init__(self, naturals: list[int]) -> None:
        self.naturals = list(naturals)
        self.key = _key(self.naturals)
        # Cards that could be in a natural set at all: only they make sets without jokers.
        in_sets = _in_natural_sets(self.key)[2]
        self.is_settable = [in_sets >> 5 * i & 1 for i in range(52)]
        self.settable = [i for i in range(52) if self.is_settable[i]]
        self.lone_fields = sum(31 * _W[i] for i in range(52) if not self.is_settable[i])
        # by the cards' _key and the jokers: (more than so many groups, not more than so many)
        self._known: dict[int, tuple[int, int]] = {}

    def beats(self, groups: int, jokers: int) -> bool:
        settable = sum(self.naturals[i] for i in self.settable)
        return self._beats(jokers, sum(self.naturals), settable, groups)

    def _beats(self, jokers: int, left: int, settable: int, slack: int) -> bool:
        """More than `slack` groups from these cards (`left` of them, `settable` of which
        could be in a natural set in the whole hand)? At most: one per card, one per three
        cards or jokers, and a group without a joker is a natural set. The order of the
        tries changes nothing here (each answer is exact), so a card in no natural set is
        tried first: it has the fewest ways to go."""
        if slack < 0:
            return True
        if not left or min(left, (left + jokers) // 3, settable // 3 + jokers) <= slack:
            return False
        # what is known of these cards: more than `yes` groups, not more than `no`
        key = self.key << 5 | jokers
        yes, no = self._known.get(key, (-1, SETS + 1))
        if slack <= yes:
            return True
        if slack >= no:
            return False
        # The cards in no natural set of the hand make a group only with a joker each two,
        # or are left out (of the cards and jokers more than `slack` groups leave, at most).
        # (Read per state from the key, sets lost as cards go would count too, but cost
        # more than they save on a typical hand.)
        lone = self.key & self.lone_fields
        if left - settable > 2 * jokers + left + jokers - 3 * (slack + 1):
            found = False
        elif lone:
            found = self._beats_with(((lone & -lone).bit_length() - 1) // 5, jokers, left,
                                     settable, slack)
        else:
            found = self._beats_lowest(jokers, left, settable, slack)
        self._known[key] = (max(yes, slack), no) if found else (yes, min(no, slack))
        return found

    def _beats_with(self, card: int, jokers: int, left: int, settable: int,
                    slack: int) -> bool:
        """_beats, for cards one of which, `card`, is in no natural set: it is with a
        joker and a card on either side of it, or with two jokers, or left out."""
        naturals, is_settable = self.naturals, self.is_settable
        naturals[card] -= 1
        self.key -= _W[card]
        settable -= is_settable[card]
        found = False
        if jokers >= 1:
            for j in _PAIRS_WITH[card]:
                if naturals[j]:
                    naturals[j] -= 1
                    self.key -= _W[j]
                    found = self._beats(jokers - 1, left - 2, settable - is_settable[j],
                                        slack - 1)
                    naturals[j] += 1
                    self.key += _W[j]
                    if found:
                        break
        if not found and jokers >= 2:
            found = self._beats(jokers - 2, left - 1, settable, slack - 1)
        if not found:
            found = self._beats(jokers, left - 1, settable, slack)  # leave it out
        naturals[card] += 1
        self.key += _W[card]
        return found

    def _beats_lowest(self, jokers: int, left: int, settable: int, slack: int) -> bool:
        """_beats, trying each way to place the lowest card (or to leave it out)."""
        naturals, is_settable = self.naturals, self.is_settable
        first = _first(self.key)
        naturals[first] -= 1
        self.key -= _W[first]
        settable -= is_settable[first]
        found = not slack and (jokers >= 2 or (bool(jokers) and any(
            naturals[j] for j in _PAIRS[first])) or any(
            naturals[j] and naturals[k] and (j != k or naturals[j] >= 2)
            for j, k in _TRIPLES[first]))  # one group more is enough, and there is one
        for j, k in _TRIPLES_PURE_FIRST[first]:
            if found:
                break
            if naturals[j] and naturals[k] and (j != k or naturals[j] >= 2):
                naturals[j] -= 1
                naturals[k] -= 1
                self.key -= _W[j] + _W[k]
                found = self._beats(jokers, left - 3, settable - is_settable[j]
                                    - is_settable[k], slack - 1)
                naturals[j] += 1
                naturals[k] += 1
                self.key += _W[j] + _W[k]
                if found:
                    break
        if not found and jokers >= 1:
            for j in _PAIRS[first]:
                if naturals[j]:
                    naturals[j] -= 1
                    self.key -= _W[j]
                    found = self._beats(jokers - 1, left - 2, settable - is_settable[j],
                                        slack - 1)
                    naturals[j] += 1
                    self.key += _W[j]
                    if found:
                        break
        if not found and jokers >= 2:
            found = self._beats(jokers - 2, left - 1, settable, slack - 1)
        if not found and left > 1 and min(left - 1, (left - 1 + jokers) // 3,
                                          settable // 3 + jokers) > slack:
            found = self._beats(jokers, left - 1, settable, slack)  # leave it out
        naturals[first] += 1
        self.key += _W[first]
        return found


def _held_together(sets: list[Group], counts: list[int],
                   size: int, start: int = 0) -> Iterator[tuple[Group, ...]]:
    """The choices of `size` of the sets (one may be chosen again) that the cards hold all
    at once, in the order of combinations_with_replacement: a choice whose first sets
    the cards cannot hold is dropped with all that would follow it. Takes the sets'
    cards from `counts` while it looks further, and puts them back."""
    if not size:
        yield ()
        return
    for n in range(start, len(sets)):
        trio = sets[n]
        for i in trio:
            counts[i] -= 1
        if all(counts[i] >= 0 for i in trio):
            for rest in _held_together(sets, counts, size - 1, n):
                yield trio, *rest
        for i in trio:
            counts[i] += 1


def _starts_a_group(naturals: list[int], first: int, jokers: int) -> bool:
    """Can `first` (taken out of `naturals`, the lowest card) start a natural set, or with
    a joker a pair?"""
    if jokers and any(naturals[j] for j in _PAIRS[first]):
        return True
    return any(naturals[j] and naturals[k] and (j != k or naturals[j] >= 2)
               for j, k in _TRIPLES[first])


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
        raise UserError(_("A finish is checked on 21 cards (or 22, to find the card to throw); "
                          "you gave {given}.", given=len(cards)))
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
