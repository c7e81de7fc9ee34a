"""Options as typed, checked against a command's spec."""

from __future__ import annotations

import pytest

from tests.conftest import Table


@pytest.mark.parametrize("typed", ["pt", "pt-br", "PT-BR", "pt_BR", "Pt"])
async def test_a_language_is_understood_as_people_write_it(table: Table, typed: str):
    saved = await table.ok(f"/settings language:{typed}")
    assert saved.language == "pt-BR" and "idioma: pt-BR" in saved.text


async def test_a_language_we_do_not_speak_is_refused_with_the_choices(table: Table):
    said = await table.error("/settings language:fr")
    assert "`language` is one of auto, en, ne, hi, pt-BR; not `fr`." in said
