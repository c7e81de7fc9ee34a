"""Stored JSON (orjson, with the standard library where orjson refuses): what the
standard library could store reads back the same, and each reads what the other wrote."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.stored_json import dumps, loads

# JSON values as the store holds them, with the key types the bot uses (int seats)
# integers beyond 64 bits are drawn often on purpose: orjson reads them as floats
beyond_64_bits = st.integers(2**64, 2**100) | st.integers(-(2**100), -(2**63) - 1)
scalars = st.none() | st.booleans() | st.integers() | beyond_64_bits | st.text() \
    | st.floats(allow_nan=False, allow_infinity=False)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5) | st.integers(-5, 5), inner, max_size=4),
    max_leaves=20)


@given(values)
def test_reads_back_as_the_standard_library_would(value):
    """Catches: a number beyond 64 bits read back as a float (orjson's reading where json's
    is needed; verified by planting it). Compared as JSON text too, since 2**64 == 2.0**64
    in Python: only the text tells the int from the float."""
    # json's reading of its own writing is the reference: tuples lists, int keys strings
    expected = json.loads(json.dumps(value))
    for read in (loads(dumps(value)),
                 json.loads(dumps(value)),  # orjson's writing, json's reading
                 loads(json.dumps(value))):  # and the other way
        assert read == expected
        assert json.dumps(read) == json.dumps(expected)


def test_what_orjson_refuses_goes_to_the_standard_library():
    big = 2**70  # beyond 64 bits: orjson refuses to write it, and reads it as a float
    assert loads(dumps({"maal": big})) == {"maal": big}
    for number in (123456789012345678901, -9223372036854775809, 18446744073709551616):
        for text in (f'{{"deltas":{{"1":{number}}}}}', f"[1, {number}]", str(number),
                     f'{{"deltas" : {number}}}'):
            assert loads(text) == json.loads(text), text  # the exact integer, as json reads
            assert loads(text.encode()) == json.loads(text), text
    # a long number inside a string is text, read by orjson alike
    assert loads('{"origin":"discord:1234567890123456789012"}') == {
        "origin": "discord:1234567890123456789012"}
    lone = "\ud800"  # a lone surrogate: escaped, so a UTF-8 database can keep it
    assert dumps(lone).isascii() and loads(dumps(lone)) == lone
    assert loads("[NaN]")[0] != loads("[NaN]")[0]  # NaN, as json reads it


def test_compact_and_unescaped():
    assert dumps({"name": "राम", "seats": [1, 2]}) == '{"name":"राम","seats":[1,2]}'
    assert dumps({3: "x"}) == '{"3":"x"}'


def test_what_isnt_plain_json_is_refused_as_before():
    @dataclasses.dataclass
    class Hand:
        no: int

    for value in (Hand(1), dt.datetime(2026, 11, 24), {1.5j: 1}, object()):
        with pytest.raises(TypeError):
            dumps(value)
