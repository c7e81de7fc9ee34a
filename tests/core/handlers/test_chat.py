"""/rules says what it changed: a rule set to its default is in the answer too, though the
short summary shows only what differs from the defaults."""

from __future__ import annotations

from tests.conftest import Table
from tests.core.handlers.help_pages import every_page, whole


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


# --- presets: a whole table, or an addition ---------------------------------------------

def rules_shown(text: str) -> dict[str, str]:
    """/rules as {key: value}."""
    return dict(line.split(": ", 1) for line in text.splitlines()[1:-1])


MARRIAGE = "/newgame marriage players:alice bob carol"


async def test_a_whole_table_keeps_nothing_of_the_preset_before_but_the_money(table: Table):
    await table.ok(MARRIAGE)
    await table.ok("/rules preset:house rate:0.25 currency:Rs")
    await table.ok("/setmaal tiplu:3 9")  # the house table, changed by hand
    changed = (await table.ok("/rules preset:standard")).text
    # the reply says what the preset is and what it changed, and only that
    assert changed.splitlines()[1] == (
        "Preset standard: a whole table (packs, rate, currency kept). Changed: unseen_maal "
        "murder, foul_when now, printed_jokers no, maal_table changed.")
    # "the usual Nepali table" (shared/rules/marriage.md): a seen loser pays 3, an unseen
    # one 10, a dublee finish 5 more from every loser, an unseen player's maal murdered;
    # three packs with no printed jokers, the foul (commonly 15) charged in its own hand
    expected = {"seen": "3", "unseen": "10", "dublee": "5", "dublee_mode": "extra",
                "unseen_maal": "murder", "foul": "15", "foul_when": "now",
                "printed_jokers": "no", "alter": "same", "tunnel_pachaunu": "no",
                "packs": "3", "rate": "0.25", "currency": "Rs"}  # the stake is kept
    shown = rules_shown((await table.ok("/rules")).text)
    assert {key: shown[key] for key in expected} == expected
    # the maal table is pagat's again, Maal Counter's default: 2 tiplu are 7 (house: 8,
    # and 9 as set by hand), a printed joker is no card of these packs
    assert (await table.ok("/maal tiplu:8H cards:8H 8H")).text.endswith("= 7")
    assert "Printed jokers (jk) are not in play" in await table.error(
        "/maal tiplu:8H cards:8H jk")
    # the rule text's worked example, 3 players, maal 10, 2 and 0: alice wins with
    # dublees, bob has seen, carol has not: +41, -14, -27
    reply = await table.ok("/hand winner:alice seen:bob dublee:yes maal:alice=10 bob=2")
    assert reply.board.hands[-1]["points"] == {"alice": 41, "bob": -14, "carol": -27}
    # the same table as one started with the preset
    fresh = Table(table.service, chat="chat-2")
    await fresh.ok(MARRIAGE + " preset:standard")
    await fresh.ok("/rules rate:0.25 currency:Rs")
    assert (await fresh.ok("/rules")).text == (await table.ok("/rules")).text
    assert (await fresh.ok("/setmaal")).text == (await table.ok("/setmaal")).text
    # the history says the maal table went back, not "None"
    history = (await table.ok("/history")).text
    assert "maal_table changed" in history and "None" not in history


async def test_a_preset_that_changes_nothing_says_so(table: Table):
    await table.ok(MARRIAGE + " preset:kidnap")
    said = (await table.ok("/rules preset:kidnap")).text
    assert said == ("Preset kidnap: a whole table (packs, rate, currency kept). Nothing "
                    "changed: these rules were in force already.")


async def test_a_bad_preset_changes_nothing(table: Table):
    await table.ok(MARRIAGE)
    await table.ok("/rules preset:house")
    before = (await table.ok("/rules")).text
    assert "There is no preset `vegas`. Presets: standard, kidnap" in await table.error(
        "/rules preset:vegas")
    assert await table.error("/rules preset:") == (
        "Name a preset: standard, kidnap, maalcounter, dublee4, clubroyale, house.")
    assert "must be a whole number, not `x`" in await table.error(
        "/rules preset:standard seen:x")
    assert (await table.ok("/rules")).text == before
    assert (await table.ok("/maal tiplu:8H cards:8H 8H")).text.endswith("= 8")  # house


async def test_help_rules_says_which_presets_replace_and_which_add(table: Table):
    await table.ok("/newgame riichi players:a b c d")
    lines = await every_page(table, "/help rules")
    tables = lines.index("Presets, whole tables (/rules preset:NAME): each replaces every "
                        "rule but rate, currency:")
    adds = lines.index("Presets that add to the rules in force, changing only their own:")
    assert [line.split(":")[0] for line in lines[tables + 1:adds]] == ["tenhou", "ema",
                                                                    "mleague"]
    assert lines[adds + 1].startswith("sanma: three players")
    await table.ok("/endgame")
    await table.ok(MARRIAGE)
    text = await whole(table, "/help rules")  # Marriage's are all whole tables
    assert "each replaces every rule but packs, rate, currency:" in text
    assert "Presets that add" not in text
