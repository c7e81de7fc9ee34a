"""A big club on a real store: what /club standings, /rating and a game's end cost, beside
/board in the same run, and what building its figures from the first game costs.

    python bench/club_bench.py [--games 50000] [--tables 40] [--members 300]
                               [--database-url sqlite:///... | postgresql://...]

The club: --tables chats in one club, --games finished games among them (four seats each,
drawn from --members console accounts, a Marriage-like game and a Riichi one), written
straight into the database as the bot keeps them (a session row and its summary), then:

- a full build: a process's first look at the club (every game read and counted in:
  standings, ratings, records, head-to-head), timed; and how much the process grew (its
  resident memory) keeping them;
- /club standings and /rating at a club table, --repeat times each, p50/p99 of the time in
  Service.handle, beside /board of an open game at the same table (the baseline);
- a game's end: /endgame of a one-round game at a club table (the club's turn, its figures
  brought up to date, the game summarised, its ratings moved and said) beside the same at
  a table of no club; and the figures' own work for one game (ClubFigures.add).

Figures only, no pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert

from bench.figures import describe
from bot.console import line_to_command
from bot.core.club.kept import ClubsKept
from bot.core.club.summary import GameSummary, SeatResult
from bot.core.service import Service
from bot.storage import SqlStore, open_store
from bot.storage.engine.tables import game_summaries, sessions
from bot.storage.transaction.clubs import SqlClubBook

GAMES = (("marriage", "Nepali Marriage", "points"), ("riichi", "Riichi mahjong", "results"))


def summary(rng: random.Random, session_id: int, chat: str, members: list[str],
            ended: datetime) -> GameSummary:
    key, title, ranked_by = GAMES[0] if rng.random() < 0.7 else GAMES[1]
    seated = rng.sample(members, 4)
    points = [rng.randint(-60, 60) for _ in seated]
    seats = []
    for i, member in enumerate(seated):
        place = 1 + sum(p > points[i] for p in points)
        money = {"Rs": Decimal(points[i]) / 4} if key == "marriage" else {}
        seats.append(SeatResult(member, member.partition(":")[2], i + 1, place,
                                Decimal(points[i]), Decimal(points[i]) / 10, place == 1, 12,
                                rng.randint(0, 4), Decimal(rng.randint(1, 40)), "", money))
    return GameSummary(session_id, chat, key, title, ranked_by, False, 0, ended, tuple(seats))


async def populate(store: SqlStore, service: Service, games: int, tables: int,
                   members: int) -> list[str]:
    """The club and its tables through the bot; its games straight into the database."""
    chats = [f"club-{i}" for i in range(tables)]
    made = await service.handle(line_to_command("/club new name:Bench", "host", chats[0]))
    for chat in chats[1:]:
        code = made.text.split("code:")[1].split()[0]
        reply = await service.handle(line_to_command(f"/club join code:{code}", "host", chat))
        assert reply.ok, reply.text
        made = await service.handle(line_to_command("/club code", "host", chats[0]))
        made.text = made.text.split("\n")[1]
    rng = random.Random(7)
    people = [f"console:m{i}" for i in range(members)]
    start = datetime(2025, 1, 1, tzinfo=UTC)
    batch_sessions, batch_summaries = [], []
    async with store.engine.begin() as conn:
        for no in range(games):
            chat = chats[no % tables]
            ended = start + timedelta(minutes=no)
            batch_sessions.append({"chat": chat, "game": "marriage", "status": "ended",
                                   "players": [], "rules": {}, "totals": {}, "hand_count": 1,
                                   "version": 1, "created_by": "bench", "created_at": ended,
                                   "ended_at": ended})
            if len(batch_sessions) == 1000 or no == games - 1:
                ids = (await conn.execute(insert(sessions).returning(sessions.c.id),
                                          batch_sessions)).scalars().all()
                for session_id, row in zip(ids, batch_sessions, strict=True):
                    made_ = summary(rng, session_id, row["chat"], people, row["ended_at"])
                    batch_summaries.append({"session_id": session_id, "chat": row["chat"],
                                            "ended_at": row["ended_at"],
                                            "data": made_.to_json()})
                await conn.execute(insert(game_summaries), batch_summaries)
                batch_sessions, batch_summaries = [], []
    return chats


def rss() -> int:
    """The process's resident memory, in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def timed(service: Service, chat: str, line: str, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        command = line_to_command(line, "host", chat)
        start = time.perf_counter()
        reply = await service.handle(command)
        samples.append(time.perf_counter() - start)
        assert reply.ok, reply.text
    return samples


async def ends(service: Service, chat: str, repeat: int) -> list[float]:
    samples = []
    for i in range(repeat):
        for line in ("/newgame points players:@m1 @m2 @m3 @m4",
                     f"/round m1={i % 7} m2=3 m3=1 m4=0"):
            assert (await service.handle(line_to_command(line, "host", chat))).ok
        command = line_to_command("/endgame", "host", chat)
        start = time.perf_counter()
        reply = await service.handle(command)
        samples.append(time.perf_counter() - start)
        assert reply.ok, reply.text
    return samples


async def run(url: str, games: int, tables: int, members: int, repeat: int) -> None:
    store = await open_store(url)
    try:
        service = Service(store)
        began = time.perf_counter()
        chats = await populate(store, service, games, tables, members)
        print(f"{store.backend}: a club of {tables} tables, {games:,} games, {members} "
              f"members (written in {time.perf_counter() - began:.1f} s)")
        # a full build, as a process's first look at the club
        async with store.transaction(chats[0]) as tx:
            await tx.prefetch(None)
            book = tx.clubs
            assert isinstance(book, SqlClubBook)
            club = await book.club_of(chats[0])
            assert club is not None
            gc.collect()
            before = rss()
            start = time.perf_counter()
            figures = await ClubsKept().figures(book, club)
            built = time.perf_counter() - start
            gc.collect()
            kept = rss() - before
        print(f"full build  {built:.2f} s ({built / games * 1e6:.0f} µs a game); the process "
              f"grew by {kept / 1e6:.1f} MB ({kept / games:.0f} B a game) keeping the figures")
        one = summary(random.Random(1), 10**9, chats[0],
                      [f"console:m{i}" for i in range(members)],
                      datetime(2030, 1, 1, tzinfo=UTC))
        start = time.perf_counter()
        figures.add(figures.cursor + 1, one)
        print(f"add one game to the figures  {(time.perf_counter() - start) * 1000:.3f} ms")
        await timed(service, chats[1], "/club standings", 1)  # this process's first look
        await service.handle(line_to_command("/newgame marriage players:a b c", "host",
                                             chats[1]))
        await service.handle(line_to_command("/hand winner:a seen:b c maal:a=3 b=1 c=0",
                                             "host", chats[1]))
        board = await timed(service, chats[1], "/board", repeat)
        standings = await timed(service, chats[1], "/club standings game:marriage", repeat)
        rating = await timed(service, chats[1], "/rating game:marriage", repeat)
        print(describe("/board", board))
        print(describe("/club standings", standings, board, "/board"))
        print(describe("/rating", rating, board, "/board"))
        alone = await ends(service, "no-club", max(repeat // 4, 5))
        club_end = await ends(service, chats[2], max(repeat // 4, 5))
        print(describe("/endgame, no club", alone))
        print(describe("/endgame, club table", club_end, alone, "no club"))
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--members", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/club-bench.db"
    asyncio.run(run(url, args.games, args.tables, args.members, args.repeat))


if __name__ == "__main__":
    main()
