"""Examples in replies speak of the table's own players: "/hand winner:ram seen:sita", not
alice and bob, once there is a table."""

from __future__ import annotations

import re
from collections.abc import Sequence

# The names the commands' examples use, in seat order: the English set and the one
# marriage rummy's examples use.
EXAMPLE_NAMES = (("alice", "bob", "carol", "dave", "erin", "frank"),
                 ("asha", "bikash", "chetan", "dev", "esha", "farah"))


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
