"""A hand's rules, kept once per game and change instead of with every hand (issue 27).

A rule set is keyed by its game and a hash of its rules (48 bits of BLAKE2b over the rules
as sorted JSON: a game has a handful of rule sets, and two telling apart is all it takes),
so a hand names its rules without a round trip to look a number up: the key is computed
from the rules, and the set is written once (INSERT ... ON CONFLICT DO NOTHING). Each
process remembers the sets it has seen committed, so a hand writes nothing more while its
game's rules stay as they are. Reading joins them back (the view hand_rows, migration 16).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy.dialects import postgresql, sqlite

from bot.core import stored_json
from bot.storage.engine.tables import rule_sets

if TYPE_CHECKING:
    from bot.storage.transaction.hot import HotState

KNOWN_MAX = 50_000  # rule sets a process remembers (then it starts again from none)


def key_of(rules: Mapping[str, Any]) -> tuple[int, str]:
    """(key, the rules as kept): the same key for the same rules in any order."""
    kept = stored_json.dumps(dict(rules))
    key = _keys.get(kept)
    if key is None:  # once per rule set and process: every hand has its game's rules
        if len(_keys) >= KNOWN_MAX:
            _keys.clear()
        key = _keys[kept] = _key(kept)
    return key, kept


_keys: dict[str, int] = {}  # the rules as kept -> their key


def _key(kept: str) -> int:
    canonical = json.dumps(stored_json.loads(kept), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False)
    digest = hashlib.blake2b(canonical.encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


class Known:
    """Per store: (game, key) of the rule sets known to be in the database."""

    def __init__(self) -> None:
        self._seen: set[tuple[int, int]] = set()

    def __contains__(self, item: tuple[int, int]) -> bool:
        return item in self._seen

    def committed(self, new: set[tuple[int, int]]) -> None:
        """Sets written by a transaction that committed."""
        if len(self._seen) + len(new) > KNOWN_MAX:
            self._seen.clear()
        self._seen |= new


def insert_ignoring(dialect_name: str, rows: list[dict[str, Any]]) -> Any:
    """Rule sets, those already there left as they are."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    return dialect.insert(rule_sets).values(rows).on_conflict_do_nothing(
        index_elements=["session_id", "rules_key"])


async def keep(hot: HotState, session_id: int, rules: Mapping[str, Any], known: Known,
               new: set[tuple[int, int]]) -> int:
    """The key of a hand's rules, its rule set written unless `known` (or `new`, this
    transaction's) has it; `new` gets what was written, for `known` once committed.
    Written in the command's transaction on the hot path (bot/storage/transaction/hot.py), as its
    plain SQL, with its waiting writes sent first."""
    key, kept = key_of(rules)
    if (session_id, key) in known or (session_id, key) in new:
        return key
    await hot.flush()
    assert hot.driver is not None  # begun: the hand's session was read in it
    marks = "?, ?, ?" if hot.driver.name == "sqlite" else "$1, $2, $3"
    await hot.driver.fetch(f"INSERT INTO rule_sets (session_id, rules_key, rules) "
                           f"VALUES ({marks}) ON CONFLICT DO NOTHING", [session_id, key, kept])
    new.add((session_id, key))
    return key
