"""What /chart of a big session costs, beside matplotlib drawing the same lines bare.

    python bench/chart_bench.py [--hands 10000] [--repeats 5]

Records a session of --hands hands (five players) on SQLite, then times /chart through the
service (reading the hands, the running totals, the picture) after one unmeasured /chart
(matplotlib's first figure loads its fonts), and beside it, in the same run and taking
turns, the floor: matplotlib alone drawing five lines of as many points at the same size
and resolution into a PNG, with no axes' words, legend or money axis. Prints the median and
the slowest of each and their ratio. Aim (issue 18): under 1 s. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.core_bench import command, record_hands
from bot.core.service import Service
from bot.storage import open_store

CHAT = "chart"
PLAYERS = 5


def bare_chart(hands: int, rng: random.Random) -> bytes:
    """The floor: the same number of lines and points, drawn by matplotlib alone."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bot.core.chart import DPI, HEIGHT, WIDTH

    figure, axes = plt.subplots(figsize=(WIDTH, HEIGHT), dpi=DPI)
    try:
        numbers = list(range(hands + 1))
        for _ in range(PLAYERS):
            total, running = 0, [0.0]
            for _ in range(hands):
                total += rng.randint(-40, 40)
                running.append(float(total))
            axes.plot(numbers, running, linewidth=2)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        return buffer.getvalue()
    finally:
        plt.close(figure)


async def main(hands: int, repeats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{folder}/chart.db")
        service = Service(store)
        rng = random.Random(7)
        await record_hands(service, CHAT, hands, rng)

        async def chart() -> float:
            started = time.perf_counter()
            reply = await service.handle(command("/chart", None, CHAT))
            assert reply.ok and reply.file is not None, reply.text
            return time.perf_counter() - started

        def bare() -> float:
            started = time.perf_counter()
            bare_chart(hands, rng)
            return time.perf_counter() - started

        await chart()  # matplotlib's first figure: fonts and caches, once per process
        bot: list[float] = []
        floor: list[float] = []
        for _ in range(repeats):
            bot.append(await chart())
            floor.append(bare())
        await store.close()
    print(f"/chart of one session of {hands:,} hands ({PLAYERS} players), SQLite, "
          f"{repeats} runs each")
    print(f"/chart          : median {statistics.median(bot):6.3f} s   "
          f"slowest {max(bot):6.3f} s   aim < 1 s")
    print(f"matplotlib alone: median {statistics.median(floor):6.3f} s   "
          f"slowest {max(floor):6.3f} s")
    ratio = statistics.median(bot) / statistics.median(floor)
    print(f"/chart over the floor (medians): x{ratio:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.hands, args.repeats))
