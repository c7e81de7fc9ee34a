"""What /export of a big session holds in memory, streamed, beside building it whole.

    python bench/export_bench.py [--hands 10000]

Records a session of --hands hands on SQLite, then measures the peak of Python's memory
(tracemalloc) and the time of /export (JSON, streamed: rows read a page at a time, written
out and compressed as they come) beside the same export built whole in the same run (every
row as a dict, then one JSON text, then its bytes, then gzip: the way it was done before),
and the size of the file sent. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.core_bench import command, record_hands
from bot.core.service import Service
from bot.storage import open_store

CHAT = "export"


async def peak(work: Callable[[], Awaitable[int]]) -> tuple[float, float, int]:
    """(peak MB, seconds, bytes of the file) of one run of `work`."""
    tracemalloc.start()
    started = time.perf_counter()
    size = await work()
    seconds = time.perf_counter() - started
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top / 1e6, seconds, size


async def main(hands: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{folder}/export.db")
        service = Service(store)
        await record_hands(service, CHAT, hands, random.Random(5))

        async def streamed() -> int:
            reply = await service.handle(command("/export", None, CHAT))
            assert reply.ok and reply.file is not None, reply.text
            return len(reply.file.data)

        async def whole() -> int:
            async with store.transaction(CHAT, write=False) as tx:
                ids = [s.id for s in await tx.chat_sessions() if s.id is not None]
                data = await tx.export(ids)
            body = json.dumps(data, ensure_ascii=False, indent=1, default=str).encode()
            return len(gzip.compress(body, mtime=0))

        now = await peak(streamed)
        before = await peak(whole)
        await store.close()
    print(f"/export of one session of {hands:,} hands (JSON, compressed), SQLite")
    print(f"streamed : peak {now[0]:7.1f} MB   {now[1]:6.2f} s   file {now[2] / 1e6:6.2f} MB")
    print(f"whole    : peak {before[0]:7.1f} MB   {before[1]:6.2f} s   "
          f"file {before[2] / 1e6:6.2f} MB")
    print(f"peak memory, streamed / whole: x{now[0] / before[0]:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    asyncio.run(main(parser.parse_args().hands))
