"""Drive the core and a real store with thousands of commands and print what it costs.

    python bench/core_bench.py [--hands 10000] [--database-url sqlite:///...]

Prints commands per second, p50/p99 latency of /hand and /board, and the ratio of /board
time at the last hand to /board time at hand 10 (the board must not slow down as a session
grows: target under 1.3). Figures only, no pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import open_store

PLAYERS = ["asha", "bikash", "chandra", "dipa", "esha"]
ACTOR = Actor(id="bench:host", name="host", is_admin=True)


def command(line: str, origin: str | None, chat: str = "big") -> Command:
    parsed = parse_command_text(line)
    return Command(chat, ACTOR, parsed.name, parsed.options, origin)


def random_hand(rng: random.Random) -> str:
    winner = rng.choice(PLAYERS)
    seen = {winner} | {p for p in PLAYERS if rng.random() < 0.6}
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in PLAYERS)
    return f"/hand winner:{winner} seen:{' '.join(sorted(seen))} maal:{maal}"


async def record_hands(service: Service, chat: str, count: int, rng: random.Random) -> list[float]:
    await service.handle(command(f"/newgame players:{' '.join(PLAYERS)}", f"{chat}-new", chat))
    samples = []
    for no in range(1, count + 1):
        line = random_hand(rng)
        start = time.perf_counter()
        reply = await service.handle(command(line, f"{chat}-{no}", chat))
        samples.append(time.perf_counter() - start)
        assert reply.ok, reply.text
    return samples


async def time_board(service: Service, chat: str) -> float:
    start = time.perf_counter()
    reply = await service.handle(command("/board", None, chat))
    assert reply.ok, reply.text
    return time.perf_counter() - start


async def main(hands: int, url: str, repeats: int) -> None:
    store = await open_store(url)
    service = Service(store)
    rng = random.Random(1)
    await record_hands(service, "small", 10, rng)
    started = time.perf_counter()
    hand_times = await record_hands(service, "big", hands, rng)
    elapsed = time.perf_counter() - started
    # The two boards are timed alternately, so drift in the machine's load hits both alike.
    small: list[float] = []
    big: list[float] = []
    for _ in range(repeats):
        small.append(await time_board(service, "small"))
        big.append(await time_board(service, "big"))
    await store.close()

    ms = 1000
    print(f"backend: {url.split(':')[0]}   hands recorded in one session: {hands}")
    print(f"/hand : {hands / elapsed:8.0f} commands/s   "
          f"p50 {percentile(hand_times, .5) * ms:6.2f} ms   "
          f"p99 {percentile(hand_times, .99) * ms:6.2f} ms")
    for label, samples in (("/board at hand 10", small), (f"/board at hand {hands}", big)):
        print(f"{label:<22}: p50 {percentile(samples, .5) * ms:6.2f} ms   "
              f"p99 {percentile(samples, .99) * ms:6.2f} ms")
    ratio = statistics.median(big) / statistics.median(small)
    print(f"/board time ratio, hand {hands} / hand 10 (medians): {ratio:.2f}  (target < 1.3)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=300, help="/board samples at each point")
    parser.add_argument("--database-url", help="default: a SQLite file in a temporary folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{folder}/bench.db"
        asyncio.run(main(args.hands, url, args.repeats))
