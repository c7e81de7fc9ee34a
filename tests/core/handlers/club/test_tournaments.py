"""Whole tournaments through the service, at a club's tables (both databases): the
standings checked against the rules written out here, never the bot's own numbers.

Riichi, 16 players, 5 rounds, WRC scoring: the tables' games begin with the EMA preset
(start 30,000, back 30,000, no oka). Each table plays one hand: a ron of 3 han 40 fu, 7,700
when the dealer (East, the first seat) wins, 5,200 when anyone else does, paid by the
discarder alone. A session score is (points - 30,000) / 1,000 + uma 15/5/-5/-15, tied
places splitting their uma: the two left on 30,000 share second and third, (5 - 5) / 2 = 0
each. At round r, table t, the winner is seat (r + t) mod 4 and the discarder the next seat.
A penalty of -2 is given after round 3.

Marriage, 15 players, 3 rounds, tables of 5: one hand a table, every maal 0 (so each
player's maal exchange is 0): the winner takes 3 from each seen loser and 10 from each
unseen one. At round r, table t, the winner is seat (r + t) mod 5, the seat after it is
unseen, the rest seen.

The standings: the total, then the smaller sum of places (places by points, equal points
sharing the better place), then more firsts, then the name."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest

from bot.core.service import Service
from tests.club_helpers import Tables

CHATS = ("t1", "t2", "t3", "t4")


@pytest.fixture
async def club(service: Service) -> Tables:
    tables = Tables(service)
    await tables.club("Friday", *CHATS)
    return tables


def laid_out(block: str) -> list[list[str]]:
    """A round's tables as the reply lays them out: each table's names in seat order."""
    out: list[list[str]] = []
    for line in block.splitlines():
        if line.startswith("Table"):
            out.append([])
        elif line.strip():
            winds = re.findall(r"\b[ESWN] (\S+)", line)
            out[-1].extend(winds or [n.strip() for n in line.split(",") if n.strip()])
    return out


def places(points: dict[str, Fraction]) -> dict[str, int]:
    return {p: 1 + sum(q > v for q in points.values()) for p, v in points.items()}


def wrc(raw: dict[str, int]) -> dict[str, Fraction]:
    """(points - 30,000) / 1,000 + uma 15/5/-5/-15, tied places splitting their uma."""
    uma = [15, 5, -5, -15]
    order = sorted(raw, key=lambda p: -raw[p])
    out = {}
    for p in raw:
        tied = [q for q in order if raw[q] == raw[p]]
        first = order.index(tied[0])
        out[p] = Fraction(raw[p] - 30000, 1000) + Fraction(sum(uma[first:first + len(tied)]),
                                                             len(tied))
    return out


class Expected:
    def __init__(self) -> None:
        self.total: dict[str, Fraction] = {}
        self.places: dict[str, list[int]] = {}

    def add(self, scores: dict[str, Fraction], raw: dict[str, Fraction]) -> None:
        placed = places(raw)
        for p, score in scores.items():
            self.total[p] = self.total.get(p, Fraction(0)) + score
            self.places.setdefault(p, []).append(placed[p])

    def ranked(self) -> list[tuple[str, str]]:
        order = sorted(self.total, key=lambda p: (-self.total[p], sum(self.places[p]),
                                                  -self.places[p].count(1), p))
        return [(p, _signed(self.total[p])) for p in order]


def _signed(value: Fraction) -> str:
    text = f"{Decimal(value.numerator) / Decimal(value.denominator):.1f}"
    return text if text.startswith("-") or text == "0.0" else "+" + text


def standings_of(block: str) -> list[tuple[str, str]]:
    rows = []
    for line in block.splitlines():
        found = re.match(r"^\s*\d+ (\S+)\s+([+-]?[\d.]+)", line)
        assert found is not None, line
        rows.append((found.group(1), found.group(2)))
    return rows


async def play_riichi_round(club: Tables, r: int, tables: list[list[str]],
                            expected: Expected) -> None:
    for t, seats in enumerate(tables, 1):
        winner, loser = seats[(r + t) % 4], seats[(r + t + 1) % 4]
        won = 7700 if winner == seats[0] else 5200
        raw = {p: 30000 for p in seats}
        raw[winner] += won
        raw[loser] -= won
        expected.add(wrc(raw), {p: Fraction(v) for p, v in raw.items()})
        chat = CHATS[t - 1]
        await club.ok(chat, f"/ron winner:{winner} from:{loser} han:3 fu:40")
        ended = await club.ok(chat, "/endgame sure")
        assert f"Dashain Cup: table {t}'s result for round {r} is in." in ended.text


async def test_a_riichi_tournament_of_16_over_five_rounds(club: Tables):
    people = [f"p{i:02d}" for i in range(1, 17)]
    await club.ok("t1", "/tournament new name:Dashain Cup game:riichi rounds:5 rules:wrc")
    await club.ok("t1", "/tournament add " + " ".join(f"@{p}" for p in people))
    assert "Only the club's owner" in await club.error("t2", "p01: /tournament start")
    assert "Tournament Dashain Cup: 0 of 5 rounds played" in (await club.ok("t3", "/club")).text
    expected = Expected()
    met: set[frozenset[str]] = set()
    for r in range(1, 6):
        began = await club.ok("t1", "/tournament start" + (" seed:11" if r == 1 else ""))
        assert began.text.startswith(f"Dashain Cup, round {r} of 5 begins")
        tables = laid_out(began.table or "")
        assert sorted(p for t in tables for p in t) == people  # everyone once a round
        assert [len(t) for t in tables] == [4, 4, 4, 4]
        # each table's game began at its chat, its seats in the order laid out
        posts = dict(await club.posted())
        for chat, seats in zip(CHATS, tables, strict=True):
            assert posts[chat].text.startswith(
                "New Riichi mahjong game. Players: " + ", ".join(seats) + ".")
            assert "start 30,000, back 30,000, uma 15 5 -5 -15" in posts[chat].text
        pairs = {frozenset((a, b)) for t in tables for a in t for b in t if a < b}
        if r == 2:  # swiss keeps apart who met while it can (it can, after one round)
            assert not pairs & met
        met |= pairs
        if r == 1:
            said = await club.error("t2", "/tournament start")
            assert said == "Round 1 is being played: 0 of 4 tables have finished."
        await play_riichi_round(club, r, tables, expected)
        closed = await club.posted()  # the round's standings at the other three tables
        assert sorted(chat for chat, _ in closed) == ["t1", "t2", "t3"]
        done = "final standings after 5 rounds" if r == 5 else \
            f"standings after round {r} of 5"
        assert all(done in post.text for _, post in closed)
        if r == 3:
            await club.ok("t1", "/tournament penalty @p05 -2 reason:late")
            expected.total["p05"] -= 2
    shown = await club.ok("t2", "/tournament")
    assert "final standings after 5 rounds" in shown.text
    assert standings_of(shown.table or "") == expected.ranked()
    csv = await club.ok("t3", "/tournament csv")
    assert csv.file is not None
    lines = csv.file.data.decode().splitlines()
    assert lines[0] == "place,name,total,round 1,round 2,round 3,round 4,round 5,penalties"
    assert [line.split(",")[1] for line in lines[1:]] == [p for p, _ in expected.ranked()]


async def test_a_marriage_tournament_of_15_over_three_rounds(club: Tables):
    people = [f"m{i:02d}" for i in range(1, 16)]
    await club.ok("t2", "/tournament new name:Tihar game:marriage rounds:3 "
                        "seating:shuffled")
    for p in people:
        await club.ok("t3", f"{p}: /tournament join")
    expected = Expected()
    for r in range(1, 4):
        began = await club.ok("t2", "/tournament start")
        tables = laid_out(began.table or "")
        assert [len(t) for t in tables] == [5, 5, 5]
        assert sorted(p for t in tables for p in t) == people
        await club.posted()
        for t, seats in enumerate(tables, 1):
            winner = seats[(r + t) % 5]
            unseen = seats[(r + t + 1) % 5]
            seen = [p for p in seats if p not in (winner, unseen)]
            points = {p: Fraction(-3) for p in seen}
            points[unseen] = Fraction(-10)
            points[winner] = Fraction(3 * len(seen) + 10)
            expected.add(points, points)
            maal = " ".join(f"{p}=0" for p in seats if p != unseen)
            chat = CHATS[t - 1]
            await club.ok(chat, f"/hand winner:{winner} seen:{' '.join(seen)} maal:{maal}")
            await club.ok(chat, "/endgame sure")
        await club.posted()
    shown = await club.ok("t1", "/tournament")
    assert "Tihar · Nepali Marriage: final standings after 3 rounds" in shown.text
    assert standings_of(shown.table or "") == [
        (p, total.replace(".0", "")) for p, total in expected.ranked()]


async def test_refusals_in_words_and_nothing_changed(club: Tables):
    people = [f"p{i:02d}" for i in range(1, 9)]
    assert "has no tournament" in await club.error("t1", "/tournament")
    await club.ok("t1", "/tournament new name:Cup game:riichi rounds:3")
    assert "called Cup already" in await club.error("t1", "/tournament new name:cup "
                                                         "game:riichi")
    assert "is Riichi's scoring" in await club.error("t1", "/tournament new name:M "
                                                          "game:marriage rules:wrc")
    await club.ok("t1", "/tournament add " + " ".join(f"@{p}" for p in people[:5]))
    said = await club.error("t1", "/tournament start")
    assert said == ("5 can't all sit at Riichi mahjong tables of 4: 4 fit at 1 table (1 left "
                    "over), 2 tables need 8 (3 short).")
    await club.ok("t1", "/tournament add " + " ".join(f"@{p}" for p in people[5:]))
    began = await club.ok("t1", "/tournament start seed:3")
    tables = laid_out(began.table or "")
    one, two = tables
    # a player in two tables: a substitute who plays in this round already
    assert f"{two[0]} plays at table 2 in this round" in await club.error(
        "t1", f"/tournament sub @{one[0]} @{two[0]}")
    # table 1 finishes; then table 2's players play at table 1's chat: not counted there
    await club.ok("t1", f"/ron winner:{one[0]} from:{one[1]} han:3 fu:40")
    await club.ok("t1", "/endgame sure")
    await club.ok("t1", "/newgame riichi players:" + " ".join(f"@{p}" for p in two))
    await club.ok("t1", f"/ron winner:{two[0]} from:{two[1]} han:3 fu:40")
    wrong = await club.ok("t1", "/endgame sure")
    assert ("These are table 2's players in round 1 of Cup: their game is entered at t2, "
            "not here.") in wrong.text
    # table 2's own game ends at its own chat: round 1 closes, round 2 is seated
    await club.ok("t2", f"/ron winner:{two[0]} from:{two[1]} han:3 fu:40")
    closed = await club.ok("t2", "/endgame sure")
    assert "standings after round 1 of 3" in closed.text and "round 2 of 3 is seated" \
        in closed.text
    # a result for the closed round: round 1's table 1 plays again
    await club.ok("t3", "/newgame riichi players:" + " ".join(f"@{p}" for p in one))
    await club.ok("t3", f"/ron winner:{one[1]} from:{one[0]} han:3 fu:40")
    late = await club.ok("t3", "/endgame sure")
    assert "Round 1 of Cup is closed: this game does not count in it." in late.text
    # a withdrawal before round 2 begins re-seats it; seven can't sit at fours
    await club.ok("t1", f"/tournament withdraw @{people[0]}")
    assert "7 can't all sit" in await club.error("t1", "/tournament start")
    await club.ok("t1", f"/tournament add @{people[0]}")  # back in
    await club.ok("t1", "/tournament reseat seed:5")
    await club.ok("t1", "/tournament start")
    assert "Round 2 is being played" in await club.error("t1", "/tournament reseat")
    assert "/tournament timer 90m" in await club.error("t1", "/tournament timer soon")
    assert "timer: 90 minutes" in (await club.ok("t1", "/tournament timer 90m")).text
    assert "Timer: 89 min left." in (await club.ok("t2", "/tournament")).text \
        or "Timer: 90 min left." in (await club.ok("t2", "/tournament")).text


async def test_a_substitute_plays_the_seat_and_the_timer_tells_the_tables(club: Tables):
    from datetime import UTC, datetime, timedelta

    await club.ok("t1", "/tournament new name:Cup game:riichi rounds:2 rules:mleague")
    await club.ok("t1", "/tournament add @a @b @c @d")
    seated = await club.ok("t1", "/tournament seat seed:1")
    [table] = laid_out(seated.table or "")
    # a substitute before the round begins: the game begins with them in the seat
    await club.ok("t1", f"/tournament sub @{table[0]} @zed")
    await club.ok("t1", "/tournament start")
    posts = dict(await club.posted())
    assert posts["t1"].text.startswith("New Riichi mahjong game. Players: "
                                       + ", ".join(["zed", *table[1:]]))
    # M-League: the table begins with its preset (25,000 start, 30,000 back); zed, East,
    # wins 7,700 from the second seat: 32,700 -> +2.7 + 30 + oka 20 = +52.7, counted for
    # the seat's player; the second seat 17,300, fourth -> -12.7 - 30 = -42.7; the others
    # on 25,000 share second and third: -5 + (10 - 10) / 2 = -5.0
    assert "start 25,000, back 30,000, uma 30 10 -10 -30" in posts["t1"].text
    await club.ok("t1", f"/ron winner:zed from:{table[1]} han:3 fu:40")
    await club.ok("t1", "/endgame sure")
    rows = standings_of((await club.ok("t1", "/tournament")).table or "")
    assert rows == [(table[0], "+52.7"), *sorted([(table[2], "-5.0"), (table[3], "-5.0")]),
                    (table[1], "-42.7")]
    assert "zed" not in [name for name, _ in rows]
    await club.posted()
    # round 2: the substitute given the seat once its game has begun (/seat there)
    began = await club.ok("t1", "/tournament start")
    [table] = laid_out(began.table or "")
    await club.posted()
    given = await club.ok("t1", f"/tournament sub @{table[1]} @zed")
    assert "zed plays" in given.text
    seats = dict(await club.posted())
    assert seats["t1"].text.startswith("zed sits at")
    # the timer: 15 and 5 minutes left, then the last hand, each said once
    await club.ok("t1", "/tournament timer 20m")
    now = datetime.now(UTC)
    assert await club.service.tick(now + timedelta(minutes=4)) == 0
    assert await club.service.tick(now + timedelta(minutes=6)) == 1
    assert [(c, r.text) for c, r in await club.posted()] == [("t1", "Cup: 15 minutes left.")]
    assert await club.service.tick(now + timedelta(minutes=7)) == 0
    assert await club.service.tick(now + timedelta(minutes=21)) == 1
    assert [r.text for _, r in await club.posted()] == ["Cup: time is up. Last hand."]
    assert await club.service.tick(now + timedelta(minutes=30)) == 0


async def test_a_person_forgotten_is_a_player_of_no_name(club: Tables):
    await club.ok("t1", "/tournament new name:Cup game:riichi rounds:2")
    await club.ok("t1", "/tournament add @ann @b @c @d")
    began = await club.ok("t1", "/tournament start")
    [table] = laid_out(began.table or "")
    await club.ok("t1", f"/ron winner:{table[0]} from:{table[1]} han:3 fu:40")
    await club.ok("t1", "/endgame sure")
    await club.ok("t2", "/club night")
    await club.ok("t2", "ann: /club here")
    forgotten = await club("t3", "ann: /forget")
    assert forgotten.ok, forgotten.text
    shown = await club.ok("t1", "/tournament")
    names = [name for name, _ in standings_of(shown.table or "")]
    assert "ann" not in names and "—" in names and len(names) == 4
    assert "ann" not in ((await club.ok("t1", "/tournament tables")).table or "")
    assert "Nobody has tapped" in await club.error("t2", "/club tables game:dhumbal "
                                                         "present:yes")
