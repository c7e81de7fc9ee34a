"""JSON as the bot stores it: sessions, hands, replies kept for exactly-once, kept text.

orjson writes and reads it several times faster than the standard library, and a /hand
stores about ten values and reads about ten (bench/core_bench.py: about a seventh of a
/hand's time on SQLite). Where orjson refuses what the standard library takes (an integer
beyond 64 bits, a lone surrogate), or would read it otherwise (such an integer, as a
float), the standard library does it, escaping what isn't ASCII so that a lone surrogate
can be stored; each reads what the other wrote. (NaN, which no score or setting holds,
orjson writes as null.)
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

# Dataclasses and datetimes are refused as the standard library refuses them (a value that
# isn't plain JSON is a bug to see, not something to store in orjson's own way).
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS \
    | orjson.OPT_PASSTHROUGH_DATETIME


def dumps(value: Any) -> str:
    """`value` as compact JSON text, non-ASCII written as it is."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, separators=(",", ":"))


# A number of 19 digits or more, where JSON has a number (not inside a string such as a
# Discord id in "discord:1234..."): orjson reads one beyond 64 bits as a float, silently
_LONG_NUMBER = re.compile(r'(?:^|[\[,]|"\s*:)\s*-?\d{19}')
_LONG_NUMBER_BYTES = re.compile(_LONG_NUMBER.pattern.encode())


def loads(text: str | bytes) -> Any:
    long = (_LONG_NUMBER if isinstance(text, str) else _LONG_NUMBER_BYTES).search(text)
    if long is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:  # a ValueError, as json's own
            pass
    return json.loads(text)
