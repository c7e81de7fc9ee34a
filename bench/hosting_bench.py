"""Hosting figures: one process against two on PostgreSQL, SQLite against PostgreSQL, and
the memory of a process holding 10,000 chats with open sessions.

    python bench/hosting_bench.py [--chats 16] [--hands 60] [--memory-chats 10000]
                                  [--postgres postgresql://postgres@127.0.0.1:5432/test]

Each process runs its chats at the same time (one asyncio task a chat, commands of a chat
in order): /hand, then /board every fifth hand. It prints commands per second, p50/p99 of
/hand and /board, the two-process/one-process throughput ratio (the baseline of the
two-process figure is the one-process figure, same chats and hands, same run), and peak
RSS of a process holding 10,000 open sessions beside its RSS before the first one (the
bot's code and an open store: the baseline), with the cost per session. Aims (issue 18):
one process on PostgreSQL at least 1,000 /hand a second, two processes at least 1.7x one,
RSS under 100 MB. The two-process ratio is printed twice: with many chats per process (on a
two-core machine one process and the server already use both cores) and with one chat per
process at a time (each process waiting on its round trips: what two processes add).
Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import open_store

PLAYERS = ["asha", "bikash", "chandra", "dipa", "esha"]
ACTOR = Actor("bench:host", "host", is_admin=True)


def command(chat: str, line: str) -> Command:
    parsed = parse_command_text(line)
    return Command(chat, ACTOR, parsed.name, parsed.options, uuid.uuid4().hex)


def hand_line(rng: random.Random) -> str:
    winner = rng.choice(PLAYERS)
    seen = {winner} | {p for p in PLAYERS if rng.random() < 0.6}
    # only who has seen shows maal (an unseen player's is murdered: refused as given)
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in sorted(seen))
    return f"/hand winner:{winner} seen:{' '.join(sorted(seen))} maal:{maal}"


async def worker(url: str, chats: list[str], hands: int, wait_for_go: bool) -> dict:
    """Set up the chats, then (on "go") time the load; returns timings."""
    store = await open_store(url)
    service = Service(store)
    for chat in chats:
        reply = await service.handle(command(chat, f"/newgame players:{' '.join(PLAYERS)}"))
        assert reply.ok, reply.text
    if wait_for_go:
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    timings: dict[str, list[float]] = {"/hand": [], "/board": []}
    errors = 0

    async def play(chat: str) -> None:
        nonlocal errors
        rng = random.Random(chat)
        for i in range(hands):
            for line in [hand_line(rng)] + (["/board"] if i % 5 == 4 else []):
                start = time.perf_counter()
                reply = await service.handle(command(chat, line))
                timings[line.split()[0]].append(time.perf_counter() - start)
                errors += not reply.ok

    started = time.perf_counter()
    await asyncio.gather(*(play(chat) for chat in chats))
    elapsed = time.perf_counter() - started
    await store.close()
    return {"elapsed": elapsed, "timings": timings, "errors": errors}


def report(label: str, results: list[dict]) -> float:
    hands = [t for r in results for t in r["timings"]["/hand"]]
    boards = [t for r in results for t in r["timings"]["/board"]]
    wall = max(r["elapsed"] for r in results)
    rate = (len(hands) + len(boards)) / wall
    errors = sum(r["errors"] for r in results)
    ms = {name: (percentile(samples, .5) * 1000, percentile(samples, .99) * 1000)
          for name, samples in (("/hand", hands), ("/board", boards))}
    print(f"{label:<28} {rate:8.0f} cmd/s   /hand p50 {ms['/hand'][0]:6.2f} "
          f"p99 {ms['/hand'][1]:6.2f} ms   /board p50 {ms['/board'][0]:6.2f} "
          f"p99 {ms['/board'][1]:6.2f} ms   errors {errors}")
    return rate


def processes(url: str, chats: list[str], hands: int, count: int) -> list[dict]:
    """Run `count` worker processes on a share of the chats each, started together."""
    shares = [chats[i::count] for i in range(count)]
    procs = [subprocess.Popen(
        [sys.executable, __file__, "--worker", url, "--hands", str(hands), *share],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for share in shares]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        results.append(json.loads(out.splitlines()[-1]))
    return results


async def memory(url: str, count: int) -> None:
    store = await open_store(url)
    service = Service(store)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    for i in range(count):
        await service.handle(command(f"mem-{i}", f"/newgame players:{' '.join(PLAYERS)}"))
    for i in range(count):
        await service.handle(command(f"mem-{i}", "/board"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    await store.close()
    print(f"{count} chats with open sessions (created and each board read once, "
          f"{time.perf_counter() - started:.0f} s): peak RSS {peak:.0f} MB, "
          f"baseline (before the first) {before:.0f} MB, x{peak / before:.2f}; "
          f"{(peak - before) * 1024 / count:.1f} KB a session  aim < 100 MB")


def postgres_schema(base: str, drop: str | None = None) -> str:
    import asyncpg

    async def go() -> str:
        conn = await asyncpg.connect(base.replace("postgresql://", "postgres://"))
        try:
            if drop:
                await conn.execute(f'DROP SCHEMA IF EXISTS "{drop}" CASCADE')
                return drop
            schema = f"bench_{uuid.uuid4().hex[:10]}"
            await conn.execute(f'CREATE SCHEMA "{schema}"')
            return schema
        finally:
            await conn.close()

    return asyncio.run(go())


def main(args: argparse.Namespace) -> None:
    chats = [f"chat-{i}" for i in range(args.chats)]
    schemas = [postgres_schema(args.postgres) for _ in range(4)]
    urls = [f"{args.postgres}?search_path={schema}" for schema in schemas]
    try:
        with tempfile.TemporaryDirectory() as folder:
            sqlite = [f"sqlite:///{folder}/latency.db", f"sqlite:///{folder}/load.db"]
            print(f"Latency: one chat at a time, {args.hands * 4} hands")
            report("SQLite, 1 process", processes(sqlite[0], ["solo"], args.hands * 4, 1))
            report("PostgreSQL, 1 process", processes(urls[0], ["solo"], args.hands * 4, 1))
            print(f"Load: {args.chats} chats at once, {args.hands} hands each, a /board every "
                  "fifth hand (latency here includes waiting behind the other chats)")
            report("SQLite, 1 process", processes(sqlite[1], chats, args.hands, 1))
        one = report("PostgreSQL, 1 process", processes(urls[1], chats, args.hands, 1))
        two = report("PostgreSQL, 2 processes", processes(urls[2], chats, args.hands, 2))
        print(f"two processes / one process, commands per second: {two / one:.2f}x  "
              "(aim >= 1.7x; one process with this many chats at once can already keep "
              "both of a two-core machine's cores busy with the server)")
        print(f"Scale-out: each process one chat at a time, {args.hands * 10} hands (a "
              "process waiting on its round trips, as most hosted bots are)")
        one = report("PostgreSQL, 1 process", processes(urls[3], ["alone-1"], args.hands * 10,
                                                       1))
        two = report("PostgreSQL, 2 processes", processes(
            urls[3], ["alone-2", "alone-3"], args.hands * 10, 2))
        print(f"two processes / one process, commands per second: {two / one:.2f}x  "
              f"({two:.0f} against 1.7 x {one:.0f} = {1.7 * one:.0f}; aim >= 1.7x)")
    finally:
        for schema in schemas:
            postgres_schema(args.postgres, drop=schema)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(memory(f"sqlite:///{folder}/memory.db", args.memory_chats))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=16)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--memory-chats", type=int, default=10_000)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("chat", nargs="*", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.worker:
        result = asyncio.run(worker(parsed.worker, parsed.chat, parsed.hands, True))
        print(json.dumps(result))
    else:
        main(parsed)
