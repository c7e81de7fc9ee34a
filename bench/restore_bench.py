"""What `python -m bot restore` and `backup --chat` of a big chat cost: hands a second and
peak RSS at 25,000 and 250,000 hands in the same run, streamed (now) beside read whole
(the code before: the file json-read whole, the chat exported whole).

    python bench/restore_bench.py [--hands 250000] [--baseline 25000] [--whole-up-to N]

The files are import_bench's: --seed real hands recorded through the service, exported,
grown to each size and gzipped. Each restore runs in a process of its own into an empty
SQLite database, so each peak RSS is that restore's alone: `python -m bot restore FILE
--chat into` as the host runs it, and the code it replaced (parse_export of the whole
file, then import_sessions). Then `backup --chat into` of the restored chat, beside the
chat exported whole and dumped, as the backup was written before. The whole read is
skipped above --whole-up-to hands (a million hands read whole takes GBs).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.import_bench import grow, seed_export

MODES = ("restore-whole", "restore-streamed", "backup-whole", "backup-streamed")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def whole_restore(file: str, url: str) -> None:
    """main's restore before: the file read whole, then checked and written."""
    from bot.storage.chats.backup import import_sessions
    from bot.storage.chats.reading import parse_export
    from bot.storage.engine.database import create_engine
    from bot.storage.transaction.migrations import upgrade

    raw = Path(file).read_bytes()
    data = parse_export(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    engine = create_engine(url)
    try:
        await upgrade(engine)
        async with engine.begin() as conn:
            await import_sessions(conn, data, "into")
    finally:
        await engine.dispose()


async def whole_backup(out: str, url: str) -> None:
    """main's `backup --chat` before: the chat exported whole, then dumped."""
    from bot.storage.chats.backup import export_sessions
    from bot.storage.engine.database import create_engine

    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            data = await export_sessions(conn, "into")
    finally:
        await engine.dispose()
    with gzip.open(out, "wt", encoding="utf-8") as text:
        text.write(json.dumps(data, ensure_ascii=False, indent=1))


def child(mode: str, file: str, db: str) -> None:
    """One step in this process: prints {"seconds", "peak_mb", "before_mb"}."""
    from bot.__main__ import main as cli

    url = f"sqlite:///{db}"
    os.environ["DATABASE_URL"] = url
    before = peak_mb()
    started = time.perf_counter()
    out = f"{db}.{mode}.json.gz"
    if mode == "restore-whole":
        asyncio.run(whole_restore(file, url))
    elif mode == "restore-streamed":
        assert cli(["restore", file, "--chat", "into"]) == 0
    elif mode == "backup-whole":
        asyncio.run(whole_backup(out, url))
    else:
        assert cli(["backup", "--chat", "into", "--out", out]) == 0
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb(), "before_mb": before}))


def hands_in(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM hands JOIN sessions ON sessions.id = "
                                "hands.session_id WHERE sessions.chat = 'into'").fetchone()[0])


def run(mode: str, file: Path, db: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, __file__, "--child", mode, str(file), str(db)],
                          capture_output=True, text=True, env={**os.environ,
                                                               "LOG_LEVEL": "WARNING"})
    if done.returncode:
        raise SystemExit(f"{mode} of {file.name} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main(sizes: list[int], seed: int, whole_up_to: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = asyncio.run(seed_export(seed, folder))
        rows: list[tuple[int, str, dict[str, float]]] = []
        for count in sizes:
            path = Path(folder) / f"export-{count}.json.gz"
            grow(data, count, path)
            ways = ("whole", "streamed") if count <= whole_up_to else ("streamed",)
            for way in ways:
                db = Path(folder) / f"{way}-{count}.db"
                rows.append((count, f"restore {way}", run(f"restore-{way}", path, db)))
                assert hands_in(db) == count, (way, count)
            db = Path(folder) / f"streamed-{count}.db"
            for way in ways:
                rows.append((count, f"backup {way}", run(f"backup-{way}", path, db)))
            path.unlink()
    print(f"restore/backup --chat of one session, gzipped, SQLite; {seed} distinct hands")
    print(f"{'hands':>9} {'what':<17} {'s':>6} {'hands/s':>8} {'peak MB':>8} {'start MB':>8}")
    for count, what, figures in rows:
        print(f"{count:>9,} {what:<17} {figures['seconds']:>6.1f} "
              f"{count / figures['seconds']:>8,.0f} {figures['peak_mb']:>8.0f} "
              f"{figures['before_mb']:>8.0f}")
    found = {(count, what): figures for count, what, figures in rows}
    small, big = sizes[0], sizes[-1]
    for what in ("restore", "backup"):
        low, high = found[(small, f"{what} streamed")], found[(big, f"{what} streamed")]
        print(f"{what} streamed, x{big / small:.0f} the hands: hands/s "
              f"x{(big / high['seconds']) / (small / low['seconds']):.2f}, peak RSS "
              f"x{high['peak_mb'] / low['peak_mb']:.2f}")
        for count in sizes:
            if (count, f"{what} whole") in found:
                whole, now = found[(count, f"{what} whole")], found[(count, f"{what} streamed")]
                print(f"{what} at {count:,} hands: streamed/whole peak RSS "
                      f"x{now['peak_mb'] / whole['peak_mb']:.2f}, hands/s "
                      f"x{whole['seconds'] / now['seconds']:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=250_000)
    parser.add_argument("--baseline", type=int, default=25_000)
    parser.add_argument("--whole-up-to", type=int, default=250_000,
                        help="read whole (the baseline) only up to this many hands")
    parser.add_argument("--seed", type=int, default=500, help="distinct hands recorded")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
    else:
        main([args.baseline, args.hands], args.seed, args.whole_up_to)
