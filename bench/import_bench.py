"""What a big /import costs: hands a second and peak memory, at 25,000 hands and at the
validator's limit of 1,000,000, in the same run.

    python bench/import_bench.py [--hands 1000000] [--baseline 25000] [--bytes]

Records --seed real hands (random winners, seen players and maal) through the service,
exports them, and grows that export to each size: its hands repeated in turn, numbered
on, each a second after the last and with its own origin, the totals their sum. Each file
is written gzipped (as /export sends a big one) and imported by a process of its own into
an empty SQLite chat, as the console's `/import PATH` does (--bytes: as the file's bytes
sent on Telegram or Discord), so that each process's peak RSS is that import's alone.
Figures only: the ratios to the baseline show how time and memory grow with the file.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.core_bench import PLAYERS, command
from bot.core.command import Actor, Command
from bot.core.service import Service
from bot.storage import open_store
from bot.storage.engine.tables import hands, sessions

ADMIN = Actor("bench:host", "host", is_admin=True, by_name=True)


def random_hand(rng: random.Random) -> str:
    """A Marriage hand as a table records it: maal counted for the players who have seen."""
    winner = rng.choice(PLAYERS)
    seen = sorted({winner} | {p for p in PLAYERS if rng.random() < 0.6})
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in seen)
    return f"/hand winner:{winner} seen:{' '.join(seen)} maal:{maal}"


async def seed_export(hands: int, folder: str) -> dict[str, Any]:
    store = await open_store(f"sqlite:///{folder}/seed.db")
    service = Service(store)
    rng = random.Random(29)
    for no, line in enumerate([f"/newgame players:{' '.join(PLAYERS)}"]
                              + [random_hand(rng) for _ in range(hands)]):
        reply = await service.handle(command(line, f"seed-{no}", "seed"))
        assert reply.ok, reply.text
    reply = await service.handle(command("/export", None, "seed"))
    await store.close()
    assert reply.ok and reply.file is not None, reply.text
    data = reply.file.data
    return json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)


def grow(seed: dict[str, Any], count: int, path: Path) -> tuple[int, int]:
    """The seed export with `count` hands, written gzipped to `path` a hand at a time;
    (plain bytes, file bytes)."""
    session = dict(seed["sessions"][0])
    pattern = session.pop("hands")
    events = session.pop("events", [])
    totals: dict[str, int] = {}
    start = time.time() - count - 3600
    plain = 0
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as out:
        def write(text: str) -> None:
            nonlocal plain
            plain += len(text.encode())
            out.write(text)

        session.update(hand_count=count, money=None)
        del session["totals"]  # written after the hands
        head = {k: v for k, v in seed.items() if k != "sessions"}
        write(json.dumps(head)[:-1] + ', "sessions": [' + json.dumps(session)[:-1]
              + ', "hands": [')
        for no in range(1, count + 1):
            hand = dict(pattern[(no - 1) % len(pattern)])
            moment = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(start + no))
            hand.update(id=no, no=no, created_at=moment, origin_id=f"bench:{no}")
            for seat, points in hand["deltas"].items():
                totals[seat] = totals.get(seat, 0) + points
            write((", " if no > 1 else "") + json.dumps(hand))
        # the totals after the hands: a file may give a session's fields in any order
        write(f'], "events": {json.dumps(events)}, "totals": {json.dumps(totals)}' + "}]}")
    return plain, path.stat().st_size


async def child(file: str, count: int, as_bytes: bool) -> None:
    """One import, in this process: prints {"seconds", "peak_mb", "before_mb"}."""
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{folder}/import.db")
        service = Service(store, command_seconds=60.0)
        source: bytes | Path = Path(file).read_bytes() if as_bytes else Path(file)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        started = time.perf_counter()
        reply = await service.handle(Command("into", ADMIN, "import", attachment=source,
                                             origin_id="bench-import"))
        seconds = time.perf_counter() - started
        assert reply.ok, reply.text
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        async with store.transaction("into", write=False) as tx:  # every hand is there
            written = (await tx.conn.execute(select(func.count()).select_from(hands).join(
                sessions, hands.c.session_id == sessions.c.id).where(
                sessions.c.chat == "into"))).scalar_one()
        await store.close()
    assert written == count, (written, count)
    print(json.dumps({"seconds": seconds, "peak_mb": peak, "before_mb": before}))


def run(file: Path, count: int, as_bytes: bool) -> dict[str, float]:
    done = subprocess.run([sys.executable, __file__, "--child", str(file), "--hands", str(count)]
                          + (["--bytes"] if as_bytes else []),
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the import of {file.name} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


async def main(hands: int, baseline: int, seed: int, as_bytes: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = await seed_export(seed, folder)
        results = []
        for count in (baseline, hands):
            path = Path(folder) / f"export-{count}.json.gz"
            plain, packed = grow(data, count, path)
            figures = run(path, count, as_bytes)
            path.unlink()
            results.append((count, plain, packed, figures))
    how = "the file's bytes (Telegram, Discord)" if as_bytes else "a file (the console)"
    print(f"/import of one session, gzipped, from {how}, SQLite; {seed} distinct hands")
    print(f"{'hands':>9} {'plain MB':>9} {'.gz MB':>7} {'s':>7} {'hands/s':>8} "
          f"{'peak MB':>8} {'start MB':>8}")
    for count, plain, packed, figures in results:
        print(f"{count:>9,} {plain / 1e6:>9.1f} {packed / 1e6:>7.1f} "
              f"{figures['seconds']:>7.1f} {count / figures['seconds']:>8,.0f} "
              f"{figures['peak_mb']:>8.0f} {figures['before_mb']:>8.0f}")
    (small, _, _, low), (big, _, _, high) = results
    grown = (high["peak_mb"] - high["before_mb"]) / max(1.0, low["peak_mb"] - low["before_mb"])
    print(f"x{big / small:.0f} the hands: x{high['seconds'] / low['seconds']:.1f} the time, "
          f"hands/s x{(big / high['seconds']) / (small / low['seconds']):.2f}, "
          f"peak RSS x{high['peak_mb'] / low['peak_mb']:.2f} (above the start: x{grown:.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=int, default=25_000)
    parser.add_argument("--seed", type=int, default=500, help="distinct hands recorded")
    parser.add_argument("--bytes", action="store_true", help="send the file's bytes")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args.child, args.hands, args.bytes))
    else:
        asyncio.run(main(args.hands, args.baseline, args.seed, args.bytes))
