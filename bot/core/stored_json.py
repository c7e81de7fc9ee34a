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
# That pattern costs several times orjson's whole read, so it runs only where 19 digits
# stand in a row at all: digits become "0" and the rest " ", and a run of "0"s is looked
# for (a C-speed pass; an id in a string passes it, and the pattern then says no).
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_NINETEEN = b"0" * 19


def _maybe_long(text: str | bytes) -> bool:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return _NINETEEN in data.translate(_DIGITS_ONLY)


def loads(text: str | bytes) -> Any:
    long = None
    if _maybe_long(text):
        long = (_LONG_NUMBER if isinstance(text, str) else _LONG_NUMBER_BYTES).search(text)
    if long is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:  # a ValueError, as json's own
            pass
    return json.loads(text)
