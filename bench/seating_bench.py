"""Seating a club night: 64 players at 16 Riichi tables, kept apart from who they met in a
history of 500 games, timed and judged beside a baseline in the same run.

    python bench/seating_bench.py [--players 64] [--games 500] [--repeat 20]
                                  [--database-url sqlite:///... | postgresql://...]

- the pure seating (bot/core/club/seating.py): the club's figures of --games finished games
  (four seats each, drawn from --players members, ended over the last 60 days), the costs
  of every pair (each meeting 1, up to 9 more as recent), then seat() and the winds, timed
  --repeat times with a new seed each; what it leaves: the cost, the pairs seated together
  who met, and the meetings among them, beside a seeded shuffle (the baseline: what drawing
  seats from a hat gives) and the same seating's best found by ten times the search;
- /club tables game:riichi players:@m0 ... (all of them) at a club of 16 tables whose
  games are in the database, p50/p99 of the time in Service.handle, beside /board of an
  open game at the same table.

Figures only, no pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.club_bench import populate, summary, timed
from bench.figures import describe
from bot.console import line_to_command
from bot.core.club import seating
from bot.core.club.figures import ClubFigures
from bot.core.handlers.club.seats import history
from bot.core.service import Service
from bot.storage import open_store


def figures_of(players: int, games: int) -> ClubFigures:
    rng = random.Random(7)
    members = [f"console:m{i}" for i in range(players)]
    made = ClubFigures(1, 0, {}, [])
    now = datetime.now(UTC)
    for no in range(games):
        ended = now - timedelta(days=60) + timedelta(days=60 * no / games)
        made.add(no + 1, summary(rng, no + 1, "club-0", members, ended))
    return made


def judged(tables: list[list[str]], costs: dict, met: dict) -> tuple[float, int, int]:
    found = seating.repeats(tables, met)
    return seating.cost(tables, costs), len(found), sum(r.times for r in found)


def pure(players: int, games: int, repeat: int) -> None:
    shown = figures_of(players, games)
    members = [f"console:m{i}" for i in range(players)]
    now = datetime.now(UTC)
    sizes = seating.split(players, seating.sizes_of("riichi"), title="Riichi")
    samples, judgements = [], []
    for seed in range(repeat):
        start = time.perf_counter()
        costs, met = history(shown, members, now)
        tables = seating.winds(seating.seat(members, sizes, costs, seed), {},
                               random.Random(seed))
        samples.append(time.perf_counter() - start)
        judgements.append(judged(tables, costs, met))
    baseline = []
    for seed in range(repeat):
        drawn = list(members)
        random.Random(seed).shuffle(drawn)
        at = 0
        hat = []
        for size in sizes:
            hat.append(drawn[at:at + size])
            at += size
        baseline.append(judged(hat, costs, met))
    longer = judged(seating.seat(members, sizes, costs, 0, kicks=10 * seating.KICKS),
                    costs, met)
    pairs = sum(size * (size - 1) // 2 for size in sizes)
    print(f"{players} players at {len(sizes)} tables ({pairs} pairs seated), {games} games "
          f"of history: {len(met)} of {players * (players - 1) // 2} pairs met")
    print(describe("seat (history, seat, winds)", samples))

    def line(label: str, rows: list[tuple[float, int, int]]) -> str:
        return (f"  {label:<28} cost {statistics.median(r[0] for r in rows):7.1f}   "
                f"pairs who met {statistics.median(r[1] for r in rows):5.1f}   "
                f"meetings {statistics.median(r[2] for r in rows):5.1f}   (median)")

    print(line("seated", judgements))
    print(line("baseline: seats from a hat", baseline))
    print(line("seated, 10x the search", [longer]))


async def served(url: str, players: int, games: int, repeat: int) -> None:
    store = await open_store(url)
    try:
        service = Service(store)
        chats = await populate(store, service, games, 16, players)
        people = " ".join(f"@m{i}" for i in range(players))
        await service.handle(line_to_command("/newgame marriage players:a b c", "host",
                                             chats[1]))
        board = await timed(service, chats[1], "/board", repeat)
        line = f"/club tables game:riichi players:{people}"
        await timed(service, chats[1], line, 1)  # the process's first look at the club
        tables = await timed(service, chats[1], line, repeat)
        print(f"{store.backend}: a club of 16 tables, {games} games in the database")
        print(describe("/board", board))
        print(describe("/club tables", tables, board, "/board"))
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    pure(args.players, args.games, args.repeat)
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/seating-bench.db"
    asyncio.run(served(url, args.players, args.games, args.repeat))


if __name__ == "__main__":
    main()
