"""The real Telegram Application against the local fake Bot API: what a command costs.

    python bench/telegram_bench.py [--samples 300]

Prints p50/p99 from an update being queued at the fake server to the bot's reply arriving
there, for /hand and /board, beside an echo handler in the same Application and run (the
cost of python-telegram-bot, HTTP and polling alone), and the ratio of each to the echo.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram import Update
from telegram.ext import CommandHandler, ContextTypes

from bench.figures import describe
from bot.core.service import Service
from bot.storage import open_store
from bot.telegram_adapter import TelegramAdapter
from bot.telegram_adapter.ratelimit import ChatRateLimiter
from tests.fakes.telegram_api import FakeTelegram
from tests.telegram_helpers import ALICE, Harness

PLAYERS = ["alice", "bob", "carol", "dipa"]


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.chat.send_message(update.message.text or "")


async def idle(h: Harness) -> None:
    """Until the bot has finished every update (its inbox row closed, a live board edited):
    a sample must not wait behind the work the previous one left after its reply."""
    intake = h.adapter.intake
    assert intake is not None
    deadline = time.perf_counter() + 30
    while intake._in_flight and time.perf_counter() < deadline:
        await asyncio.sleep(0.0005)


async def one(h: Harness, text: str) -> float:
    """Queue one update; seconds until the bot's last reply to it reached the server."""
    await idle(h)
    before = len(h.fake.sent("sendMessage"))
    queued = time.perf_counter()
    await h.say(ALICE, text)
    await h.fake.wait_for("sendMessage", before + 1, timeout=30)
    await asyncio.sleep(0)  # let any further chunk of the same reply land
    return h.fake.calls[-1].at - queued


def hand_line(rng: random.Random) -> str:
    winner = rng.choice(PLAYERS)
    seen = {winner} | {p for p in PLAYERS if rng.random() < 0.6}
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in PLAYERS)
    return f"/hand winner:{winner} seen:{' '.join(sorted(seen))} maal:{maal}"


async def main(samples: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{folder}/bench.db")
        fake = FakeTelegram()
        base = await fake.start()
        adapter = TelegramAdapter(
            Service(store), fake.token, base, poll_timeout=1,
            rate_limiter=ChatRateLimiter(overall_max_rate=100000, group_max_rate=100000),
        )
        adapter.app.add_handler(CommandHandler("echo", echo), group=-1)
        await adapter.start()
        h = Harness(fake, adapter, adapter.service)
        rng = random.Random(7)
        await one(h, f"/newgame players:{' '.join(PLAYERS)}")
        timings: dict[str, list[float]] = {"echo": [], "/hand": [], "/board": []}
        for _ in range(samples):  # interleaved, so load on the machine hits all three alike
            timings["echo"].append(await one(h, "/echo hi"))
            timings["/hand"].append(await one(h, hand_line(rng)))
            timings["/board"].append(await one(h, "/board"))
        await adapter.stop()
        await fake.stop()
        await store.close()
    print(f"python-telegram-bot against the local fake Bot API, SQLite, {samples} samples each")
    print(describe("echo", timings["echo"], None, "echo"))
    print(describe("/hand", timings["/hand"], timings["echo"], "echo"))
    print(describe("/board", timings["/board"], timings["echo"], "echo"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    asyncio.run(main(parser.parse_args().samples))
