"""The club's league table from the rules, across two tables (both databases).

Riichi (start 25,000, back 30,000, uma 15 5 -5 -15, oka (30,000 - 25,000) x 4 = 20 to the
first; tied scores placed in seat order; the first seat deals first). A ron of 3 han 40 fu
is 7,700 for the dealer, 5,200 for anyone else. A final result is (score - 30,000) /
1,000 + uma (+ oka to the first); the two left on 25,000 take 0.0 (second: -5 + 5) and
-10.0 (third: -5 - 5).

- Game 1, table 1, seats a b c d: a (the dealer) ron from b: a 32,700 (+2.7 + 15 + 20 =
  +37.7), c 0.0, d -10.0, b 17,300 (-12.7 - 15 = -27.7).
- Game 2, table 2, seats a b c e: b ron from a (the dealer): b 30,200 (+0.2 + 15 + 20 =
  +35.2), c 0.0, e -10.0, a 19,800 (-10.2 - 15 = -25.2).

So a +12.5 and b +7.5 (both average place 2.50), c 0.0 (2.00), d and e -10.0 (3.00; d
first by name). Seven columns don't fit a phone's 34: a member takes two lines.

A points game counts under its own name: Uno's winner takes the cards left (b 12 + c 3 =
15), a game the table named Bridge apart from it."""

from __future__ import annotations

from bot.core.service import Service
from tests.club_helpers import Tables

RIICHI = [
    "1. a  +12.5", "   games 2, wins 1, avg place 2.50",
    "2. b  +7.5", "   games 2, wins 1, avg place 2.50",
    "3. c  +0.0", "   games 2, wins 0, avg place 2.00",
    "4. d  -10.0", "   games 1, wins 0, avg place 3.00",
    "5. e  -10.0", "   games 1, wins 0, avg place 3.00",
]


async def test_the_league_table_of_each_game_across_the_tables(service: Service):
    tables = Tables(service)
    await tables.club("Friday", "t1", "t2")
    await tables.game("t1", "/newgame riichi players:@a @b @c @d",
                      "/ron winner:a from:b han:3 fu:40")
    await tables.game("t2", "/newgame riichi players:@a @b @c @e",
                      "/ron winner:b from:a han:3 fu:40")
    await tables.game("t1", "/newgame points preset:uno players:@a @b @c",
                      "/round winner:a b=12 c=3")
    await tables.ok("t2", "/newgame points players:@a @b")
    await tables.ok("t2", "/rules name:Bridge")
    await tables.ok("t2", "/round a=5 b=3")
    await tables.ok("t2", "/endgame")
    riichi = await tables.ok("t2", "/club standings game:riichi")
    assert riichi.table is not None
    assert riichi.table.splitlines() == ["Riichi mahjong, every game (2 games):", *RIICHI]
    uno = await tables.ok("t1", "/club standings game:uno")
    assert uno.table is not None and uno.table.startswith("Uno, every game (1 game):")
    assert "Bridge" not in uno.table and "+15" in uno.table
    bridge = await tables.ok("t1", "/club standings game:bridge")
    assert bridge.table is not None and "Bridge, every game (1 game)" in bridge.table
    refused = await tables.error("t1", "/club standings game:hearts")
    assert "played no `hearts`" in refused
