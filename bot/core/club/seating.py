"""Seats across tables (pure): how many tables of what size a game's people make, and who
sits where. A club night's tables keep apart the people who met most (every meeting at a
table of the club counts, recent ones more); a tournament's later rounds seat by standing
(swiss), by bands of the standing, or at intervals of it. The same people, history and seed
give the same tables; Riichi's seat winds are balanced over a night or a tournament.

The ideas are MahjongPantheon's (its shuffled seating scores a repeat, more when it was in
the previous session; its swiss seating starts each table with the best placed player not
seated yet; its winds try every order of a table): written here for tables of any size."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.core.errors import UserError
from bot.core.i18n import Text, _, _n

Pair = tuple[str, str]  # (the smaller key, the larger)


def pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


# --- how many tables, of what size ------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    """The table sizes a game allows: every size from `low` to `high` (`fixed`: only
    those listed), and the size a table is made when the number of tables is not given."""

    low: int
    high: int
    best: int
    fixed: tuple[int, ...] = ()

    def allows(self, size: int) -> bool:
        return size in self.fixed if self.fixed else self.low <= size <= self.high


# Riichi 4 (sanma 3), Call Break 4, Tranca two sides of two; Marriage 2 to 10 (a table of
# more than 5 plays with more packs); Dhumbal and the points games 2 to 8
SIZES = {
    "riichi": Sizes(4, 4, 4, (4,)),
    "callbreak": Sizes(4, 4, 4, (4,)),
    "tranca": Sizes(4, 4, 4, (4,)),
    "marriage": Sizes(2, 10, 5),
    "marriage_rummy": Sizes(2, 10, 5),
    "dhumbal": Sizes(2, 8, 5),
    "points": Sizes(2, 8, 6),
}
SANMA = Sizes(3, 4, 4, (4, 3))  # Riichi with three-player tables where four don't fit


def sizes_of(game: str, sanma: bool = False) -> Sizes:
    if game == "riichi" and sanma:
        return SANMA
    return SIZES.get(game, Sizes(2, 8, 5))


def split(people: int, sizes: Sizes, tables: int | None = None, title: str = "",
          sanma: bool = False) -> list[int]:
    """The sizes of the tables `people` make, biggest first, as even as possible (`tables`:
    that many). Refused in words where they can't all sit (`sanma`: the refusal says what
    three-player tables would make of them)."""
    if people < sizes.low:
        raise UserError(_("{game} needs at least {low} at a table; {n} named.",
                          game=title, low=sizes.low, n=people))
    if sizes.fixed:
        return _fixed(people, sizes, tables, title, sanma)
    if tables is None:
        tables = max(1, math.ceil(people / sizes.best))
        while tables > 1 and people // tables < sizes.low:
            tables -= 1
    if tables < 1 or people // tables < sizes.low or math.ceil(people / tables) > sizes.high:
        raise UserError(_("{n} can't sit at {tables} {game} tables: a table seats {low} to "
                          "{high}.", n=people, tables=tables, game=title, low=sizes.low,
                          high=sizes.high))
    even, more = divmod(people, tables)
    return [even + 1] * more + [even] * (tables - more)


def _fixed(people: int, sizes: Sizes, tables: int | None, title: str,
           sanma: bool) -> list[int]:
    big, small = max(sizes.fixed), min(sizes.fixed)
    if small == big:  # one size: it divides them, or it doesn't
        whole, left = divmod(people, big)
        if not left and tables is not None and tables != whole:
            raise UserError(_("{n} at {game} make {whole} tables of {size}, not {tables}.",
                              n=people, game=title, whole=whole, size=big, tables=tables))
        if left:
            hint = _sanma_hint(people) if sanma else ""
            raise UserError(_("{n} can't all sit at {game} tables of {size}: {seated} "
                              "fit at {whole} ({left} left over), {more} tables need {need} "
                              "({short} short).{hint}", n=people, game=title, size=big,
                              whole=_n("{n} table", "{n} tables", whole), seated=whole * big,
                              left=left, more=whole + 1, need=(whole + 1) * big,
                              short=(whole + 1) * big - people, hint=hint))
        return [big] * whole
    # two sizes (Riichi's 4 and sanma's 3): the fewest small tables
    for count_big in range(people // big, -1, -1):
        rest = people - count_big * big
        if rest % small == 0 and (tables is None or count_big + rest // small == tables):
            return [big] * count_big + [small] * (rest // small)
    if tables is not None:
        raise UserError(_("{n} can't sit at {tables} {game} tables of {big} or {small}.",
                          n=people, tables=tables, game=title, big=big, small=small))
    raise UserError(_("{n} can't sit at {game} tables of {big} or {small}.", n=people,
                      game=title, big=big, small=small))


def _sanma_hint(people: int) -> Text:
    """What sanma:yes would make of `people` who don't fit tables of four ("": nothing)."""
    try:
        made = _fixed(people, SANMA, None, "", False)
    except UserError:
        return ""
    return _(" With sanma:yes they sit as {sizes}.", sizes=" + ".join(map(str, made)))


# --- who met whom -------------------------------------------------------------------------

RECENT_EXTRA = 9.0  # a meeting tonight weighs 1 + 9 (Pantheon: +10 in the last session)
HALF_LIFE_DAYS = 7.0  # ... a week ago 1 + 4.5, a month ago about 1.5


def heat_add(heat: float, days: float) -> float:
    """log2 of the sum of 2^(day/half life) over meetings: one more meeting, on `days`
    (days since any fixed moment), added without overflow."""
    x = days / HALF_LIFE_DAYS
    if heat == -math.inf:
        return x
    high, low = (heat, x) if heat >= x else (x, heat)
    return high + math.log2(1.0 + 2.0 ** (low - high))


def weight(games: int, heat: float, now_days: float) -> float:
    """What seating two people together costs: 1 for each meeting, and up to
    RECENT_EXTRA more as recent as it was."""
    if not games:
        return 0.0
    recent = 2.0 ** min(0.0, heat - now_days / HALF_LIFE_DAYS) if heat > -math.inf else 0.0
    return games + RECENT_EXTRA * recent


# --- seating ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Repeat:
    """Two people seated at one table who met before: how often."""

    a: str
    b: str
    times: int


def repeats(tables: Sequence[Sequence[str]], met: Mapping[Pair, int]) -> list[Repeat]:
    found = []
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                times = met.get(pair(a, b), 0)
                if times:
                    found.append(Repeat(*pair(a, b), times))
    return found


def cost(tables: Sequence[Sequence[str]], history: Mapping[Pair, float]) -> float:
    return sum(history.get(pair(a, b), 0.0) for table in tables
               for i, a in enumerate(table) for b in table[i + 1:])


STARTS = 2  # fresh seeded shuffles of the search
KICKS = 100  # ... each improved, then shaken (a few random swaps) and improved again, as often
FEW = 32  # up to as many people, a seating with no repeat is searched for where none was found


def seat(people: Sequence[str], sizes: Sequence[int], history: Mapping[Pair, float],
         seed: int, starts: int = STARTS, kicks: int = KICKS) -> list[list[str]]:
    """`people` at tables of `sizes` (in that order), the cost of pairs seated together
    (`history`) as low as found: from a seeded shuffle, two people of different tables
    swapped while any swap lowers it; then shaken by a few random swaps and improved
    again, kept where that is lower (an iterated local search); where repeats remain
    among a few people (FEW), a search for a seating with none. The same arguments give the
    same tables, whatever the order `people` came in."""
    people = sorted(set(people))
    assert sum(sizes) == len(people), "every person a seat"
    rng = random.Random(seed)
    n = len(people)
    index = {p: i for i, p in enumerate(people)}
    w = [[0.0] * n for _ in range(n)]
    for (a, b), value in history.items():
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None and value:
            w[i][j] = w[j][i] = float(value)
    best: list[int] | None = None
    best_cost = math.inf
    if len(sizes) > 1 and any(any(row) for row in w):
        for _start in range(starts):
            search = _Search(w, list(sizes), rng)
            total = search.improve()
            for _kick in range(kicks):
                if total <= 1e-9:
                    break
                kept = (list(search.table_of), [list(r) for r in search.near], total)
                shaken = search.improve(search.shake(rng))
                if shaken < total - 1e-9:
                    total = shaken
                else:
                    search.table_of, search.near, search.total = kept
            if total < best_cost - 1e-9:
                best, best_cost = list(search.table_of), total
            if best_cost <= 1e-9:
                break
    else:
        best, best_cost = _Search(w, list(sizes), rng).table_of, 0.0
    assert best is not None
    if best_cost > 1e-9 and n <= FEW:
        none = _without_repeats(w, list(sizes))
        if none is not None:
            best = none
    tables: list[list[str]] = [[] for _ in sizes]
    for i, t in enumerate(best):
        tables[t].append(people[i])
    for table in tables:
        rng.shuffle(table)
    return tables


class _Search:
    """A seating being improved: `table_of[i]` is person i's table, `near[i][t]` what i
    costs at table t as it stands (so a swap's change is read, not added up)."""

    def __init__(self, w: list[list[float]], sizes: list[int], rng: random.Random) -> None:
        self.w, self.sizes = w, sizes
        n, count = len(w), len(sizes)
        self.order = list(range(n))
        rng.shuffle(self.order)
        self.table_of = [0] * n
        at = 0
        for t, size in enumerate(sizes):
            for i in self.order[at:at + size]:
                self.table_of[i] = t
            at += size
        self.near = [[0.0] * count for _ in range(n)]
        for i in range(n):
            row, near_i = w[i], self.near[i]
            for k in range(n):
                if row[k]:
                    near_i[self.table_of[k]] += row[k]
        self.total = sum(self.near[i][self.table_of[i]] for i in range(n)) / 2

    def swap(self, i: int, j: int) -> None:
        table_of, near, w = self.table_of, self.near, self.w
        a, b = table_of[i], table_of[j]
        self.total += near[j][a] - near[i][a] + near[i][b] - near[j][b] - 2 * w[i][j]
        table_of[i], table_of[j] = b, a
        row_i, row_j = w[i], w[j]
        for k in range(len(w)):
            change = row_j[k] - row_i[k]
            if change:
                near_k = near[k]
                near_k[a] += change
                near_k[b] -= change

    def improve(self, touched: set[int] | None = None) -> float:
        """Swaps while one lowers the cost; the cost then. Only swaps with someone of a
        `touched` table are looked at (None: every table): a swap between two tables
        that did not change was no better before (the seating was as low as swaps make
        it), so the seating ends as low again."""
        table_of, near, w, order = self.table_of, self.near, self.w, self.order
        left = set(range(len(self.sizes))) if touched is None else set(touched)
        while left:
            t = min(left)
            left.discard(t)
            for i in [i for i in order if table_of[i] == t]:
                near_i, row_i = near[i], w[i]
                for j in order:
                    a, b = table_of[i], table_of[j]
                    if a == b:
                        continue
                    near_j = near[j]
                    if near_j[a] - near_i[a] + near_i[b] - near_j[b] - 2 * row_i[j] < -1e-9:
                        self.swap(i, j)
                        near_i = near[i]
                        left.update((a, b))
        return self.total

    def shake(self, rng: random.Random, swaps: int = 3) -> set[int]:
        """A few random swaps; the tables they changed."""
        n = len(self.w)
        touched: set[int] = set()
        for _swap in range(swaps):
            i, j = rng.randrange(n), rng.randrange(n)
            if self.table_of[i] != self.table_of[j]:
                touched.update((self.table_of[i], self.table_of[j]))
                self.swap(i, j)
        return touched


SWISS_STEPS = 3_000  # a swiss try at one number of meetings gives up after as many steps
SEARCH_STEPS = 20_000  # the search for a seating with no repeat gives up after as many steps


def _without_repeats(w: list[list[float]], sizes: list[int]) -> list[int] | None:
    """A seating where no two at a table met, if one is found in SEARCH_STEPS steps: each
    step seats the person with the fewest tables left open to them (a table with room where
    they met nobody), backing up where someone has none; of empty tables alike only the
    first is tried."""
    n = len(w)
    conflicts = [sum(1 << k for k in range(n) if w[i][k]) for i in range(n)]
    masks = [0] * len(sizes)
    room = list(sizes)
    table_of = [-1] * n
    steps = 0

    def open_to(i: int) -> list[int]:
        found, empty = [], set()
        for t, left in enumerate(room):
            if not left or conflicts[i] & masks[t]:
                continue
            if not masks[t]:
                if sizes[t] in empty:
                    continue
                empty.add(sizes[t])
            found.append(t)
        return found

    def place(left: int) -> bool:
        nonlocal steps
        if not left:
            return True
        steps += 1
        if steps > SEARCH_STEPS:
            return False
        chosen, options = -1, None
        for i in range(n):
            if table_of[i] >= 0:
                continue
            here = open_to(i)
            if options is None or len(here) < len(options):
                chosen, options = i, here
                if not here:
                    return False
        assert options is not None
        bit = 1 << chosen
        for t in options:
            masks[t] |= bit
            room[t] -= 1
            table_of[chosen] = t
            if place(left - 1):
                return True
            masks[t] &= ~bit
            room[t] += 1
            table_of[chosen] = -1
        return False

    return list(table_of) if place(n) else None


def winds(tables: Sequence[Sequence[str]], counts: Mapping[str, Sequence[int]],
          rng: random.Random) -> list[list[str]]:
    """Each table's seat order (Riichi: East, South, West, North) that gives each person
    the seats they have had least (every order of the table tried: Pantheon's 24; the sum
    of each person's count of the seat they get, the lowest kept; a tie: the first of the
    orders shuffled with `rng`)."""
    out = []
    for table in tables:
        orders = list(itertools.permutations(table))
        rng.shuffle(orders)
        best = min(orders, key=lambda order: sum(
            (counts.get(p) or ())[w] if w < len(counts.get(p) or ()) else 0
            for w, p in enumerate(order)))
        out.append(list(best))
    return out


def swiss(ranked: Sequence[str], sizes: Sequence[int], met: Mapping[Pair, int],
          steps: int = SWISS_STEPS) -> list[list[str]]:
    """Tables by standing (`ranked`: the best first): each table starts with the best
    placed person not seated yet and takes the next best who met none of those seated
    more than `allowed` times, backing up where that leaves a table it can't fill;
    `allowed` is 0 first (nobody meets anyone again), raised until a seating is found.
    Where that search gives up at 0 but a seating with no repeat is found otherwise
    (seat()), that one is kept, its tables drawn as near the standing as they stay so."""
    ranked, sizes = list(ranked), list(sizes)
    found = _swiss(ranked, sizes, met, 0, steps)
    if found is not None or not met:
        return found or []
    apart = seat(ranked, sizes, {k: float(v) for k, v in met.items()}, 0)
    if not repeats(apart, met):
        return _near_the_standing(apart, ranked, met)
    for allowed in range(1, max(met.values()) + 1):
        found = _swiss(ranked, sizes, met, allowed, steps)
        if found is not None:
            return found
    return _near_the_standing(apart, ranked, met)


def _near_the_standing(tables: list[list[str]], ranked: list[str],
                       met: Mapping[Pair, int]) -> list[list[str]]:
    """Two people of different tables swapped while it brings each table's standings
    closer together (the sum of the places between any two at a table) and seats nobody
    with more people they met; the tables then in the order of their best placed."""
    place = {p: i for i, p in enumerate(ranked)}
    tables = [list(t) for t in tables]

    def spread(table: list[str]) -> int:
        return sum(abs(place[a] - place[b]) for i, a in enumerate(table) for b in table[i + 1:])

    def meetings(table: list[str]) -> int:
        return sum(met.get(pair(a, b), 0) for i, a in enumerate(table) for b in table[i + 1:])

    improved = True
    while improved:
        improved = False
        for x, first in enumerate(tables):
            for second in tables[x + 1:]:
                for i, a in enumerate(first):
                    for j, b in enumerate(second):
                        one = [*first[:i], b, *first[i + 1:]]
                        two = [*second[:j], a, *second[j + 1:]]
                        if meetings(one) + meetings(two) > meetings(first) + meetings(second):
                            continue
                        if spread(one) + spread(two) < spread(first) + spread(second):
                            first[i], second[j] = b, a
                            improved = True
    for table in tables:
        table.sort(key=place.__getitem__)
    return sorted(tables, key=lambda t: place[t[0]])


def _swiss(ranked: list[str], sizes: list[int], met: Mapping[Pair, int], allowed: int,
           steps: int) -> list[list[str]] | None:
    """One try at `allowed` meetings; None where none is found in `steps` steps. A table
    takes any of the sizes left (the bigger first), so where sizes differ the best placed
    are not bound to the first table's size."""
    tables: list[list[str]] = []
    left = list(ranked)
    taken = [False] * len(left)
    sizes_left = sorted(sizes, reverse=True)
    budget = [steps]

    def fits(person: str, table: list[str]) -> bool:
        return all(met.get(pair(person, other), 0) <= allowed for other in table)

    def fill(table: list[str], size: int) -> bool:
        if len(table) == size:
            return start()
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for at, person in enumerate(left):
            if taken[at] or not fits(person, table):
                continue
            taken[at] = True
            table.append(person)
            if fill(table, size):
                return True
            table.pop()
            taken[at] = False
        return False

    def start() -> bool:
        """A new table, led by the best placed person not seated yet, or none left."""
        if not sizes_left:
            return True
        first = taken.index(False)
        taken[first] = True
        for size in sorted(set(sizes_left), reverse=True):
            sizes_left.remove(size)
            table = [left[first]]
            tables.append(table)
            if fill(table, size):
                return True
            tables.pop()
            sizes_left.append(size)
            sizes_left.sort(reverse=True)
        taken[first] = False
        return False

    return [list(t) for t in tables] if start() else None


def bands(ranked: Sequence[str], sizes: Sequence[int], history: Mapping[Pair, float],
          seed: int, band: int = 2) -> list[list[str]]:
    """Bands of the standing (`band` tables' seats each, the best first), each shuffled
    to its fewest repeats (Pantheon's shuffled seating)."""
    out: list[list[str]] = []
    at = 0
    sizes = list(sizes)
    for start in range(0, len(sizes), band):
        these = sizes[start:start + band]
        people = ranked[at:at + sum(these)]
        at += sum(these)
        out.extend(seat(people, these, history, seed * 1000 + start))
    return out


def interval(ranked: Sequence[str], sizes: Sequence[int], step: int | None = None
             ) -> list[list[str]]:
    """The standing dealt across the tables: a block of `step` tables (all of them by
    default) takes the next players, table 1 of the block the 1st, the (1 + step)th, the
    (1 + 2 step)th..., table 2 the 2nd, the (2 + step)th..."""
    sizes = list(sizes)
    step = max(1, min(step or len(sizes), len(sizes)))
    out: list[list[str]] = []
    at = 0
    for start in range(0, len(sizes), step):
        these = sizes[start:start + step]
        block = list(ranked[at:at + sum(these)])
        at += sum(these)
        tables: list[list[str]] = [[] for _ in these]
        t = 0
        for person in block:
            while len(tables[t % len(these)]) >= these[t % len(these)]:
                t += 1
            tables[t % len(these)].append(person)
            t += 1
        out.extend(tables)
    return out
