"""/rules says what it changed: a rule set to its default is in the answer too, though the
short summary shows only what differs from the defaults."""

from __future__ import annotations

from tests.conftest import Table


def summary(text: str) -> list[str]:
    """The answer's second line, "seen 4, unseen 12, ...", as its items."""
    return text.splitlines()[1].split(", ")


async def test_a_rule_set_to_its_default_is_said(table: Table):
    await table.ok("/newgame marriage players:alice bob carol dave")
    # foul is 15 by default (commonly 15, the rules say): typed, it is said though it is no
    # change from the default
    changed = await table.ok("/rules seen:4 foul:15")
    assert summary(changed.text) == ["seen 4", "unseen 10", "dublee 5", "unseen_maal murder",
                                     "foul 15"]
    changed = await table.ok("/rules rate:2 foul:10")
    assert "rate 2" in summary(changed.text) and "foul 10" in summary(changed.text)
    # back to the defaults: said, or the answer would look as if nothing had been done
    changed = await table.ok("/rules rate:1 foul:15")
    assert summary(changed.text)[-2:] == ["foul 15", "rate 1"]
    # a rule left alone at its default is not
    assert "currency" not in changed.text and "packs" not in changed.text


async def test_a_timezone_is_known_by_any_case_and_by_its_city(table: Table):
    for typed in ("asia/kathmandu", "Kathmandu", "ASIA/KATHMANDU"):
        saved = await table.ok(f"/settings timezone:{typed}")
        assert "timezone: Asia/Kathmandu" in saved.text  # stored as IANA writes it
    assert "timezone: America/New_York" in (await table.ok("/settings timezone:new york")).text
    assert "timezone: UTC" in (await table.ok("/settings timezone:utc")).text
    # a country is not a timezone, nor a path: refused, the setting kept
    for typed in ("Nepal", "../../etc/passwd"):
        said = await table.error(f"/settings timezone:{typed}")
        assert said.startswith(f"`{typed}` is not a timezone")
    assert "timezone: UTC" in (await table.ok("/settings")).text
