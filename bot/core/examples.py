"""Examples in replies speak of the table's own players: "/hand winner:ram seen:sita", not
alice and bob, once there is a table."""

from __future__ import annotations

import re
from collections.abc import Sequence

EXAMPLE_NAMES = ("alice", "bob", "carol", "dave")


def personal(text: str, names: Sequence[str]) -> str:
    """`text` with the example names replaced by the table's, in seat order (only those the
    table has enough players for; the rest stay)."""
    swaps = dict(zip(EXAMPLE_NAMES, names, strict=False))
    if not swaps:
        return text
    pattern = re.compile(r"\b(" + "|".join(swaps) + r")\b")
    return pattern.sub(lambda m: swaps[m.group(1)], text)
