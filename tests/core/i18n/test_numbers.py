"""Numbers as each language writes them: the translator's own formatting (plain string work,
for speed) writes exactly what Babel's format_decimal writes from the locale's data."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel.numbers import format_decimal
from hypothesis import given
from hypothesis import strategies as st

from bot.core.i18n import LANGUAGES, translator

NUMBERS = st.one_of(
    st.integers(min_value=-10**12, max_value=10**12),
    st.decimals(min_value=-10**9, max_value=10**9, places=5, allow_nan=False,
                allow_infinity=False),
    st.floats(min_value=-1e7, max_value=1e7, allow_nan=False, allow_infinity=False))


def babel_writes(language: str, value: object, places: int | None) -> str:
    locale = translator(language).locale
    if places is None:
        return format_decimal(value, locale=locale, group_separator=True)
    pattern = locale.decimal_formats[None].pattern.split(";")[0].split(".")[0]
    pattern += "." + "0" * places if places else ""
    return format_decimal(value, format=pattern, locale=locale, decimal_quantization=True)


@pytest.mark.parametrize("language", list(LANGUAGES))
@given(value=NUMBERS, places=st.sampled_from([None, 0, 1, 2, 3]))
def test_numbers_are_written_as_babel_writes_them(language: str, value: object,
                                                   places: int | None):
    """Catches: Indian grouping (3 then 2) written as thousands, and halves rounded up where
    Babel rounds them to even (each verified by planting it)."""
    assert translator(language).number(value, places) == babel_writes(language, value, places)


def test_worked_examples_from_each_locales_rules():
    # CLDR: English and Portuguese group by thousands (with , and .), Hindi and Nepali by
    # a thousand then by hundreds (lakh, crore), with Latin digits
    assert translator("en").number(1234567.5, 2) == "1,234,567.50"
    assert translator("pt-BR").number(1234567.5, 2) == "1.234.567,50"
    assert translator("hi").number(12345678) == "1,23,45,678"
    assert translator("ne").number(Decimal("-100000")) == "-1,00,000"
    assert translator("en").number(Decimal("2.0005")) == "2"  # at most 3 decimals, even
