"""/history as one timeline (issue 30): the hands as entered and every change of the rules,
the rate or the seats, in order, with who; which hands were played at which rate and why
money ranks differently from points (also at /endgame and in /stats); whole entries, the
newest kept, the rest a page away. Through the core on both databases; the event log
through export and import."""

from __future__ import annotations

import json

from bot.core.command import Actor, Command
from bot.core.handlers.looking_back import HISTORY_CHARS, HISTORY_ROWS
from tests.conftest import Table

NEW = "/newgame marriage players:alice bob carol"
# n = 3; alice wins with dublees, maal 10, bob seen with 2, carol unseen (murder): P = 12:
# alice 30 - 12 + (3 + 5) + (10 + 5) = +41, bob 6 - 12 - 8 = -14, carol 0 - 12 - 15 = -27
FIRST = "/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes"
# bob wins with 4, alice seen with 3, carol unseen; P = 7:
# bob 12 - 7 + 3 + 10 = +18, alice 9 - 7 - 3 = -1, carol 0 - 7 - 10 = -17
SECOND = "/hand winner:bob seen:alice maal:alice=3 bob=4"


async def seat(table: Table, name: str, person: str) -> None:
    """/seat NAME person:@person, the person mentioned (as a platform resolves a mention)."""
    reply = await table.service.handle(Command(
        table.chat, Actor("test:host", "host", is_admin=True, by_name=True), "seat",
        {"": name, "person": f"@{person}"}, f"seat-{name}-{person}",
        mentions={f"@{person}": Actor(f"test:{person}", person, by_name=True)}))
    assert reply.ok, reply.text


def changes(text: str) -> list[str]:
    """What each line of /history says happened, after its time: "host: rules: ..."."""
    return [line.split(" · ")[-1] for line in text.splitlines() if " · " in line]


async def test_every_change_of_money_or_seats_is_listed_in_order_with_who(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:10 currency:Rs")
    await table.ok(FIRST)
    await table.ok("/sitout carol", by="carol")
    await table.ok("/rules rate:2")
    await table.ok("/join dev", by="dev")
    await seat(table, "dev", "devi")
    await table.ok("/seat dev person:none")
    await table.ok("/back carol", by="carol")
    await table.ok("/setmaal tiplu:5 poplu:2")
    await table.ok("/setmaal tiplu:4")
    said = changes((await table.ok("/history")).text)
    assert said == [
        "host: rules: currency none → Rs, rate 1 → 10",
        "recorded by host: alice won with dublees; seen bob; unseen carol (maal murdered); "
        "maal alice 10, bob 2",
        "carol: carol sat out",
        "host: rules: rate 10 → 2",
        "dev: dev joined at seat 4",
        "host: seat 4 (dev) given to devi",
        "host: seat 4 (dev) is a guest seat now",
        "carol: carol came back",
        "host: rules: maal_table changed",  # from the default table
        "host: rules: tiplu 5 → 4",
    ]


async def test_a_seat_typed_by_name_taken_with_join_is_listed(table: Table):
    await table.ok(NEW)
    await table.ok("/join bob")  # the host (an admin) takes the seat typed as bob
    assert changes((await table.ok("/history")).text) == ["host: host took seat 2 (bob)"]


async def test_which_hands_at_which_rate_and_why_money_ranks_differently(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok(FIRST)  # at 0.25: alice +10.25, bob -3.50, carol -6.75
    await table.ok("/rules rate:1")
    await table.ok(SECOND)  # at 1: bob +18, alice -1, carol -17
    rates = "Rates: hand 1 at 0.25 Rs a point; hand 2 at 1 Rs a point."
    # alice has more points (40) than bob (4) but less money (9.25 against 14.50): bob's
    # points came at the higher rate
    why = ("Money ranks differently from points: each hand is paid at the rate it was "
           "played at (alice +41 at 0.25 Rs, -1 at 1 Rs; bob -14 at 0.25 Rs, +18 at 1 Rs).")
    history = (await table.ok("/history")).text.splitlines()
    assert history[:2] == [rates, why]
    end = (await table.ok("/endgame")).text
    assert rates in end and why in end
    assert "1. bob +4 points = +14.50 Rs" in end
    stats = (await table.ok("/stats")).text
    assert why in stats
    assert "by rate: +41 at 0.25 Rs (1 hand), -1 at 1 Rs (1 hand)" in (
        await table.ok("/stats alice")).text


async def test_one_rate_says_nothing_about_rates(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:10 currency:Rs")
    await table.ok(FIRST)
    await table.ok(SECOND)
    for text in ((await table.ok("/history")).text, (await table.ok("/endgame")).text,
                 (await table.ok("/stats")).text, (await table.ok("/stats alice")).text):
        assert "Rates:" not in text and "ranks differently" not in text
        assert "by rate" not in text


async def test_whole_entries_newest_kept_the_rest_a_page_away(table: Table):
    await table.ok(NEW)
    played = 45
    for i in range(played):
        await table.ok(FIRST if i % 2 else SECOND)
        if i % 9 == 0:
            await table.ok(f"/rules dublee:{5 + i % 3}")
    await table.ok("/undo reason:a long reason, " + "x" * 150)
    # entries: 45 hands (the last undone, with its reason on a line of its own) and the
    # rule changes after hands 1, 10, 19, 28 and 37 (i = 0, 9, 18, 27, 36; dublee 5 at
    # i = 0 and 27 changes nothing: 5 is the default and the value then)
    pages = []
    page = 1
    while True:
        reply = await table.ok(f"/history page:{page}" if page > 1 else "/history")
        pages.append(reply.text)
        if "earlier entries not shown" not in reply.text \
                and "earlier entry not shown" not in reply.text:
            break
        assert f"/history page:{page + 1})" in reply.text.splitlines()[0]
        page += 1
    assert len(pages) >= 3
    assert f"page must be between 1 and {page}, not {page + 1}" in await table.error(
        f"/history page:{page + 1}")
    # page 1 holds the newest: the undone hand 45 with its reason, whole
    first = pages[0].splitlines()
    assert first[-2].startswith("Hand 45 · ") and first[-1].strip().startswith("undone ")
    assert first[-1].endswith("x" * 150 + ")")
    # every page fits a Discord message, in entries of HISTORY_ROWS at most
    for text in pages:
        assert len(text) <= 2_000 and len(text) - len(text.splitlines()[0]) <= HISTORY_CHARS
        assert sum(" · " in line for line in text.splitlines()) <= HISTORY_ROWS
    # the pages together are everything once, oldest page last
    hands = [line.split(" · ")[0] for text in reversed(pages) for line in text.splitlines()
             if line.startswith("Hand ")]
    assert hands == [f"Hand {n}" for n in range(1, played + 1)]
    # the first line of a page that is not the last says how many are before it
    count = int(pages[0].splitlines()[0].split()[0].lstrip("("))
    assert count == sum(sum(" · " in line for line in text.splitlines())
                        for text in pages[1:])
    # a game named: the page command names it too
    await table.ok("/endgame")
    assert "/history 1 page:2" in (await table.ok("/history 1")).text.splitlines()[0]


async def test_one_hand_shows_its_own_entries(table: Table):
    await table.ok(NEW)
    await table.ok(FIRST)
    await table.ok("/rules rate:2")
    await table.ok(SECOND)
    text = (await table.ok("/history hand:2")).text
    assert text.startswith("Hand 2 · ") and "rules" not in text


async def test_the_event_log_goes_with_an_export_and_an_import(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:10 currency:Rs")
    await table.ok(FIRST)
    await table.ok("/sitout carol")
    before = changes((await table.ok("/history")).text)
    exported = await table.ok("/export")
    assert exported.file is not None
    data = json.loads(exported.file.data)
    assert data["version"] == 5
    assert [e["kind"] for e in data["sessions"][0]["events"]] == ["rules", "sitout"]
    other = Table(table.service, chat="chat-2")
    reply = await table.service.handle(Command(
        "chat-2", Actor("test:host", "host", is_admin=True, by_name=True), "import", {},
        "import-1", attachment=exported.file.data))
    assert reply.ok, reply.text
    assert changes((await other.ok("/history")).text) == before
    # a file from before the event log (version 3, no events) still imports
    del data["sessions"][0]["events"]
    data["version"] = 3
    reply = await table.service.handle(Command(
        "chat-3", Actor("test:host", "host", is_admin=True, by_name=True), "import", {},
        "import-2", attachment=json.dumps(data).encode()))
    assert reply.ok, reply.text
    third = Table(table.service, chat="chat-3")
    assert len(changes((await third.ok("/history")).text)) == 1  # the hand alone
    # a broken event is refused, and nothing is written
    data["version"] = 4
    data["sessions"][0]["events"] = [{"kind": "party", "data": {}, "by": "x", "by_name": "x",
                                      "after_hand": 0, "created_at": "2026-01-01T00:00:00"}]
    reply = await table.service.handle(Command(
        "chat-4", Actor("test:host", "host", is_admin=True, by_name=True), "import", {},
        "import-3", attachment=json.dumps(data).encode()))
    assert not reply.ok and "event 1" in reply.text


async def test_the_csv_export_carries_each_hands_money_at_its_own_rate(table: Table):
    import csv
    import io

    await table.ok(NEW)
    await table.ok(FIRST)  # not for money: rate 1, no currency
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok(FIRST)  # 41, -14, -27 at 0.25: 10.25, -3.50, -6.75
    await table.ok("/rules rate:2")
    await table.ok(SECOND)  # -1, 18, -17 at 2: -2, 36, -34
    exported = (await table.ok("/export format:csv")).file
    assert exported is not None
    rows = list(csv.DictReader(io.StringIO(exported.data.decode())))
    assert list(rows[0])[5:8] == ["points", "money", "currency"]
    assert [(r["hand"], r["player"], r["points"], r["money"], r["currency"])
            for r in rows] == [
        ("1", "alice", "41", "", ""), ("1", "bob", "-14", "", ""),
        ("1", "carol", "-27", "", ""),
        ("2", "alice", "41", "10.25", "Rs"), ("2", "bob", "-14", "-3.50", "Rs"),
        ("2", "carol", "-27", "-6.75", "Rs"),
        ("3", "alice", "-1", "-2", "Rs"), ("3", "bob", "18", "36", "Rs"),
        ("3", "carol", "-17", "-34", "Rs")]


async def test_the_usage_shown_in_riichi_and_call_break_pastes_as_written(table: Table):
    # the usage once said /history hand:3 in every game: Riichi's hand: is the tiles and
    # Call Break's entries are rounds, so that line was refused where it was shown
    for new, first, key in [
            ("/newgame riichi players:alice bob carol dave",
             "/ron winner:alice from:bob han:3 fu:30", "result"),
            ("/newgame callbreak players:alice bob carol dave",
             "/round bids:3 4 2 3 tricks:5 2 3 3", "round")]:
        await table.ok(new)
        await table.ok(first)
        shown = (await table.ok("/help history")).text
        usage = next(line for line in shown.splitlines() if line.startswith("Usage: "))
        usage = usage.removeprefix("Usage: ")
        assert f"/history {key}:3" in usage, usage
        for line in usage.replace(f"{key}:3", f"{key}:1").split("   or   "):
            if "last" not in line:  # last: a finished game, none yet
                await table.ok(line.strip())
        await table.ok("/endgame sure")  # before the hanchan's end
        await table.ok("/history last")  # (page:2 too, on a game long enough for two)
