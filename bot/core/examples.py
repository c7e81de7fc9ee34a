"""Examples in replies speak of the table's own players: "/hand winner:ram seen:sita", not
alice and bob, once there is a table."""

from __future__ import annotations

import re
from collections.abc import Sequence

# The names the commands' examples use, in seat order: the English set and the one
# marriage rummy's examples use, as many as a table may seat.
EXAMPLE_NAMES = (("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
                  "judy"),
                 ("asha", "bikash", "chetan", "dev", "esha", "farah", "gauri", "hemant",
                  "indu", "jeevan"))


def personal(text: str, names: Sequence[str]) -> str:
    """`text` with the example names replaced by the table's, in seat order; an example
    that names more players than the table has goes round the table again, so it never
    names somebody who isn't there (but never gives one person a number twice). One name
    alone is left out: an example with one person as winner and loser both
    ("winner:host seen:host") would only puzzle."""
    if len(names) < 2:
        return text
    # a number each for more players than the table has ("ram=12 sita=-3 chetan=0" for
    # two) would give one of them twice: those pairs go, after the table's own
    extra = [example for family in EXAMPLE_NAMES for example in family[len(names):]]
    if extra:
        pairs = re.compile(r"(\b\w+=\S+)(?: (?:" + "|".join(extra) + r")=[^\s\]]+)+")
        text = pairs.sub(lambda m: m.group(1), text)
    swaps = {example: names[i % len(names)]
             for family in EXAMPLE_NAMES for i, example in enumerate(family)}
    pattern = re.compile(r"\b(" + "|".join(swaps) + r")\b")
    return pattern.sub(lambda m: swaps[m.group(1)], text)


# A run of name=number pairs ("asha=12 bikash=-3 chetan=0"), and numbers in seat order
# right after the command ("/round 12 -3 0")
_PAIRS = re.compile(r"(?<!\S)[^\s=:]+=-?\d+(?: [^\s=:]+=-?\d+)*")
_IN_SEAT_ORDER = re.compile(r"^(/\w+ )(-?\d+(?: -?\d+)+)")


def example_names(text: str, count: int) -> list[str]:
    """The first `count` example names of the set `text` speaks of (alice's or asha's), for
    an example written out for a table of that many."""
    return list(family_of(text)[:count])


def family_of(text: str) -> tuple[str, ...]:
    """The set of example names `text` speaks of (alice's or asha's)."""
    return next((f for f in EXAMPLE_NAMES if re.search(rf"\b{f[0]}\b", text)),
                EXAMPLE_NAMES[-1])


def seated(example: str, count: int) -> str:
    """`example` without its optional options (in brackets) that name an example player
    past the first `count`, who has no seat at a table of that many ("[no_turn:farah]" at
    a table of three would go round the table to the winner)."""
    past = family_of(example)[count:]
    if not past:
        return example
    names = "|".join(past)
    return re.sub(rf" ?\[[a-z_]+:(?:{names})\]", "", example)


def for_each(example: str, names: Sequence[str], key: str = "") -> str:
    """One example, its (first) run of name=number pairs, or the run of option `key`
    (points:bikash=25 chetan=40), and its numbers in seat order, given for each of `names`
    in turn, no more and no fewer: for a command that takes a number from everybody (a
    game of points' /round). Numbers past the example's own repeat its own after the
    first (Dhumbal's shown hand stays the lowest)."""
    if not names:
        return example

    def numbers(given: list[str]) -> list[str]:
        rest = given[1:] or given
        return [given[i] if i < len(given) else rest[(i - len(given)) % len(rest)]
                for i in range(len(names))]

    def pairs(match: re.Match[str]) -> str:
        given = [pair.rpartition("=")[2] for pair in match.group(0).split()]
        return " ".join(f"{name}={value}"
                        for name, value in zip(names, numbers(given), strict=True))

    run = re.compile(rf"(?<={key}:)" + _PAIRS.pattern[len("(?<!\\S)"):]) if key else _PAIRS
    example = run.sub(pairs, example, count=1)
    return _IN_SEAT_ORDER.sub(lambda m: m.group(1) + " ".join(numbers(m.group(2).split())),
                              example)
