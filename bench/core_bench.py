"""Drive the core and a real store with thousands of commands and print what it costs,
beside what the same database work costs written by hand, in the same run.

    python bench/core_bench.py [--hands 10000] [--database-url sqlite:///... | postgresql://...]

The bot: /newgame, then --hands /hand commands in one session (each with its own origin id,
as a platform sends them), then /board at hand 10 (a second session) and at the last hand,
timed alternately. It prints /hand a second, p50/p99 at the start of the session and at its
end (the last 1,000 hands), /board at hand 10 and at the last hand, and the process's CPU
time over the wall time while /hand ran (1.00 is one core busy). A rate is commands over
the time spent in Service.handle (the bench's own line parsing left out).

The baseline is the database's share of a /hand done by hand, with no bot around it: one
transaction per hand with the statements a /hand needs (BEGIN IMMEDIATE, or BEGIN and the
chat's advisory lock on PostgreSQL; read the origin id, the chat's settings and the open
session; insert the hand, update the session, insert the origin's reply; COMMIT), with rows
copied from the bot's own run so the sizes match, through the usual async driver,
awaited statement by statement as one would write it (aiosqlite, asyncpg). The ratio is the
bot's p50 over the baseline's: what parsing, scoring, the board, the reply and the store
add to the database's unavoidable work. On SQLite a second baseline runs the same
statements with sqlite3 on the loop's thread (no aiosqlite thread, as the bot's store does):
the floor of the SQL's own cost. Figures only, no pass/fail: the machine is shared
and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import open_store

PLAYERS = ["asha", "bikash", "chandra", "dipa", "esha"]
ACTOR = Actor(id="bench:host", name="host", is_admin=True)
TAIL = 1000  # the last hands, for "at the end of the session"


def command(line: str, origin: str | None, chat: str = "big") -> Command:
    parsed = parse_command_text(line)
    return Command(chat, ACTOR, parsed.name, parsed.options, origin)


def random_hand(rng: random.Random) -> str:
    winner = rng.choice(PLAYERS)
    seen = {winner} | {p for p in PLAYERS if rng.random() < 0.6}
    # only who has seen shows maal (an unseen player's is murdered: refused as given)
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in sorted(seen))
    return f"/hand winner:{winner} seen:{' '.join(sorted(seen))} maal:{maal}"


async def record_hands(service: Service, chat: str, count: int, rng: random.Random,
                       run: str = "") -> list[float]:
    await service.handle(command(f"/newgame players:{' '.join(PLAYERS)}", f"{run}{chat}-new",
                                 chat))
    lines = [random_hand(rng) for _ in range(count)]
    samples = []
    for no, line in enumerate(lines, 1):
        cmd = command(line, f"{run}{chat}-{no}", chat)
        start = time.perf_counter()
        reply = await service.handle(cmd)
        samples.append(time.perf_counter() - start)
        assert reply.ok, reply.text
    return samples


async def time_board(service: Service, chat: str) -> float:
    start = time.perf_counter()
    reply = await service.handle(command("/board", None, chat))
    assert reply.ok, reply.text
    return time.perf_counter() - start


# --- the baseline: the same database work, by hand ---------------------------------------

SESSION_SET = ("game", "status", "players", "rules", "pending", "totals", "hand_count",
               "version", "ended_at", "game_state", "money")
# a hand's rules by key, its summary "" (derived when shown): as the bot writes it now
HAND_COLUMNS = ("session_id", "no", "players", "inputs", "rules_key", "deltas", "summary",
                "recorded_by", "recorded_by_name", "origin_id", "created_at", "state_before")


class Inline:
    """sqlite3 as aiosqlite is called, without the thread: the floor of the SQL's cost."""

    def __init__(self, path: str) -> None:
        import sqlite3

        self.db = sqlite3.connect(path, isolation_level=None)

    async def execute(self, sql: str, params: Any = ()) -> Any:
        cursor = self.db.execute(sql, params)
        rows = cursor.fetchall()

        class Cursor:
            lastrowid = cursor.lastrowid

            async def fetchone(self) -> Any:
                return rows[0] if rows else None

        return Cursor()

    async def close(self) -> None:
        self.db.close()


async def sqlite_baseline(path: str, count: int, inline: bool = False) -> list[float]:
    """The /hand transaction's statements through aiosqlite, one await each (`inline`:
    sqlite3 on the loop's thread instead)."""
    import aiosqlite

    db: Any = Inline(path) if inline else await aiosqlite.connect(path, isolation_level=None)
    chat = "floor" if inline else "baseline"
    try:
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        hand = await (await db.execute(
            f"SELECT {', '.join(HAND_COLUMNS)} FROM hands ORDER BY id DESC LIMIT 1")).fetchone()
        session = await (await db.execute(
            "SELECT id, chat, version, " + ", ".join(SESSION_SET) + " FROM sessions "
            "WHERE chat = 'big'")).fetchone()
        reply = (await (await db.execute(
            "SELECT reply FROM origins ORDER BY created_at DESC LIMIT 1")).fetchone())[0]
        # a session of its own, so the bot's rows stay as they are
        cursor = await db.execute(
            "INSERT INTO sessions (chat, game, status, players, rules, pending, totals, "
            "hand_count, version, created_by, created_at) "
            "SELECT ?, game, 'open', players, rules, pending, totals, 0, 0, "
            "created_by, created_at FROM sessions WHERE id = ?", (chat, session[0]))
        session_id = cursor.lastrowid
        samples = []
        for no in range(1, count + 1):
            version = no - 1
            origin = f"{chat}-{uuid.uuid4().hex}"
            start = time.perf_counter()
            await db.execute("BEGIN IMMEDIATE")
            await (await db.execute("SELECT reply FROM origins WHERE origin_id = ?",
                                    (origin,))).fetchone()
            await (await db.execute("SELECT data FROM chat_settings WHERE chat = ?",
                                    (chat,))).fetchone()
            await (await db.execute("SELECT * FROM sessions WHERE chat = ? AND status = 'open'",
                                    (chat,))).fetchone()
            await db.execute(
                f"INSERT INTO hands ({', '.join(HAND_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(HAND_COLUMNS))})", (session_id, no, *hand[2:]))
            await db.execute(
                f"UPDATE sessions SET {', '.join(f'{c} = ?' for c in SESSION_SET)} "
                "WHERE id = ? AND version = ?",
                (*session[3:9], no, version + 1, *session[11:], session_id, version))
            await db.execute("INSERT INTO origins (origin_id, chat, reply, created_at) "
                             "VALUES (?, ?, ?, ?)", (origin, chat, reply, hand[10]))
            await db.execute("COMMIT")
            samples.append(time.perf_counter() - start)
        return samples
    finally:
        await db.close()


async def postgres_baseline(url: str, count: int) -> list[float]:
    """The /hand transaction's statements through asyncpg, one await each."""
    import asyncpg

    from bot.storage.engine.database import async_url

    dsn, _, query = url.partition("?")
    schema = dict(p.split("=", 1) for p in query.split("&") if p).get("search_path")
    db = await asyncpg.connect(async_url(dsn).replace("postgresql+asyncpg", "postgresql"),
                               server_settings={"search_path": schema} if schema else None)
    try:
        hand = await db.fetchrow(
            f"SELECT {', '.join(HAND_COLUMNS)} FROM hands ORDER BY id DESC LIMIT 1")
        session = await db.fetchrow("SELECT id, chat, version, " + ", ".join(SESSION_SET)
                                    + " FROM sessions WHERE chat = 'big'")
        reply = await db.fetchval("SELECT reply FROM origins ORDER BY created_at DESC LIMIT 1")
        session_id = await db.fetchval(
            "INSERT INTO sessions (chat, game, status, players, rules, pending, totals, "
            "hand_count, version, created_by, created_at) "
            "SELECT 'baseline', game, 'open', players, rules, pending, totals, 0, 0, "
            "created_by, created_at FROM sessions WHERE id = $1 RETURNING id", session["id"])
        values = [session[c] for c in SESSION_SET]
        samples = []
        for no in range(1, count + 1):
            version = no - 1
            origin = f"baseline-{uuid.uuid4().hex}"
            start = time.perf_counter()
            async with db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                                 "baseline")
                await db.fetchrow("SELECT reply FROM origins WHERE origin_id = $1", origin)
                await db.fetchrow("SELECT data FROM chat_settings WHERE chat = $1", "baseline")
                await db.fetchrow("SELECT * FROM sessions WHERE chat = $1 AND status = 'open'",
                                  "baseline")
                await db.execute(
                    f"INSERT INTO hands ({', '.join(HAND_COLUMNS)}) VALUES "
                    f"({', '.join(f'${i}' for i in range(1, len(HAND_COLUMNS) + 1))})",
                    session_id, no, *[hand[c] for c in HAND_COLUMNS[2:]])
                values[6], values[7] = no, version + 1
                sets = ", ".join(f"{c} = ${i}" for i, c in enumerate(SESSION_SET, 1))
                await db.execute(f"UPDATE sessions SET {sets} WHERE id = $12 AND version = $13",
                                 *values, session_id, version)
                await db.execute("INSERT INTO origins (origin_id, chat, reply, created_at) "
                                 "VALUES ($1, $2, $3, $4)", origin, "baseline", reply,
                                 hand["created_at"])
            samples.append(time.perf_counter() - start)
        return samples
    finally:
        await db.close()


# --- the run -----------------------------------------------------------------------------

def line(label: str, samples: list[float], elapsed: float | None = None,
         baseline: list[float] | None = None) -> str:
    ms = 1000
    text = f"{label:<34}"
    text += f"{len(samples) / elapsed:7.0f}/s " if elapsed else " " * 10
    text += (f"p50 {percentile(samples, .5) * ms:6.2f} ms  "
             f"p99 {percentile(samples, .99) * ms:6.2f} ms")
    if baseline:
        text += f"   x{statistics.median(samples) / statistics.median(baseline):.2f} of baseline"
    return text


async def main(hands: int, url: str, repeats: int, json_out: str | None) -> None:
    store = await open_store(url)
    service = Service(store)
    run = uuid.uuid4().hex[:8] + ":"  # origin ids of their own, on a reused database
    rng = random.Random(1)
    await record_hands(service, "small", 10, rng, run)
    # hands 1-10 of many sessions: the start of a game night
    early: list[float] = []
    for chat in range(max(1, min(hands, 2000) // 10)):
        early += await record_hands(service, f"early-{chat}", 10, rng, run)
    cpu_before, started = time.process_time(), time.perf_counter()
    hand_times = await record_hands(service, "big", hands, rng, run)
    elapsed = time.perf_counter() - started
    cpu = (time.process_time() - cpu_before) / elapsed
    # The two boards are timed alternately, so drift in the machine's load hits both alike.
    small: list[float] = []
    big: list[float] = []
    for _ in range(repeats):
        small.append(await time_board(service, "small"))
        big.append(await time_board(service, "big"))
    await store.close()

    backend = url.split(":")[0].split("+")[0]
    count = min(hands, 2000)
    floor: list[float] = []
    if backend == "sqlite":
        baseline = await sqlite_baseline(url.split("///", 1)[1], count)
        floor = await sqlite_baseline(url.split("///", 1)[1], count, inline=True)
    else:
        baseline = await postgres_baseline(url, count)
    baseline_elapsed = sum(baseline)

    tail = hand_times[-min(TAIL, hands):]
    print(f"backend: {backend}   hands in one session: {hands}   "
          f"CPU/wall while recording them: {cpu:.2f}")
    print(line("/hand, hands 1-10 of new sessions", early, sum(early), baseline))
    print(line(f"/hand, hands 1-{hands}", hand_times, sum(hand_times), baseline))
    print(line(f"/hand, the last {len(tail)}", tail, sum(tail), baseline))
    print(line("/board at hand 10", small))
    print(line(f"/board at hand {hands}", big))
    print(line("baseline: the same SQL by hand", baseline, baseline_elapsed))
    if floor:
        print(line("  the same, no thread (the floor)", floor, sum(floor)))
        over = statistics.median(hand_times) / statistics.median(floor)
        print(f"/hand p50 over the floor's: x{over:.2f}")
    ratio = statistics.median(big) / statistics.median(small)
    print(f"/board time ratio, hand {hands} / hand 10 (medians): {ratio:.2f}")
    if json_out:
        figures: dict[str, Any] = {
            "backend": backend, "hands": hands, "cpu_per_wall": cpu,
            "hand_per_s": hands / sum(hand_times), "hand_p50": percentile(hand_times, .5),
            "hand_p99": percentile(hand_times, .99), "early_p99": percentile(early, .99),
            "tail_p99": percentile(tail, .99), "board10_p50": percentile(small, .5),
            "board_last_p50": percentile(big, .5), "board_last_p99": percentile(big, .99),
            "baseline_per_s": count / baseline_elapsed,
            "baseline_p50": percentile(baseline, .5),
            "floor_p50": percentile(floor, .5) if floor else None}
        Path(json_out).write_text(json.dumps(figures))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=300, help="/board samples at each point")
    parser.add_argument("--database-url", help="default: a SQLite file in a temporary folder; "
                        "postgresql://... runs in a schema of its own")
    parser.add_argument("--json", help=argparse.SUPPRESS)
    args = parser.parse_args()
    url = args.database_url
    if url and url.startswith("postgres"):
        from bench.hosting_bench import postgres_schema

        schema = postgres_schema(url)  # a schema of its own, dropped after
        try:
            asyncio.run(main(args.hands, f"{url}?search_path={schema}", args.repeats,
                             args.json))
        finally:
            postgres_schema(url, drop=schema)
    else:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(main(args.hands, url or f"sqlite:///{folder}/bench.db", args.repeats,
                             args.json))
