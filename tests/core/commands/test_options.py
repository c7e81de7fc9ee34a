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


async def test_a_number_option_ends_at_its_number(table: Table):
    await table.ok("/newgame points players:asha bikash chandra")
    await table.ok("/round asha=1 bikash=2 chandra=3")
    # round:1 is the number; the pairs after it are /edit's points, as people type them
    await table.ok("/edit round:1 asha=2 bikash=3 chandra=4")
    assert (await table.board())["totals"] == {"asha": 2, "bikash": 3, "chandra": 4}
    # a command that takes no free words still refuses what follows the number
    said = await table.error("/rules rounds:2 three")
    assert "rounds must be a whole number, not `2 three`." in said
