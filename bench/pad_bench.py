"""A hand sent from the scorepad (issue 35): how long the bot takes to answer it, and what the
pad's page weighs.

    python bench/pad_bench.py [--hands 300]

The bot is another process (the console with WEB_PORT, on a temporary SQLite file; see
bench/console_bot.py); this process is the phone. Each hand is a whole Marriage hand sent
to /pad/api/send as the page sends it (winner, seen, maal, a new submit id each), one after
another, on one kept-alive connection over the loopback: the time from sending it to its
answer is the bot's time, recording and scoring the hand and posting it to the chat (the
console's) included. The baseline, in the same run, is /pad/api/state: the pad reading the
same table back, the least a pad request costs. Then the weight of the pad's page: its HTML,
script and style, as the server sends them and gzipped. Aims: p50 under 50 ms, under 100 KB.
Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import sys
import time
import uuid
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import console_bot
from bench.figures import describe, percentile

PAD_FILES = ("/pad", "/static/pad.js", "/static/pad.css")
WINNERS = console_bot.PLAYERS.split()


async def timed(http: aiohttp.ClientSession, url: str, body: dict[str, object]) -> float:
    started = time.perf_counter()
    async with http.post(url, json=body) as answer:
        data = await answer.json()
        assert answer.status == 200 and data.get("ok") is not False, data
    return time.perf_counter() - started


async def main(hands: int) -> None:
    bot = console_bot.start()
    try:
        async with aiohttp.ClientSession() as http:
            state = {"table": bot.table}
            for _ in range(20):  # the first requests warm the process, as a night's first do
                await timed(http, bot.base + "/pad/api/state", state)
            sent, read = [], []
            for n in range(hands):
                winner = WINNERS[n % len(WINNERS)]
                options = {"winner": winner, "seen": " ".join(WINNERS),
                           "maal": " ".join(f"{name}={n % 9}" for name in WINNERS)}
                sent.append(await timed(http, bot.base + "/pad/api/send", {
                    "table": bot.table, "command": "hand", "options": options,
                    "submit": uuid.uuid4().hex}))
                read.append(await timed(http, bot.base + "/pad/api/state", state))
            weights = []
            for path in PAD_FILES:
                async with http.get(bot.base + path) as answer:
                    weights.append(await answer.read())
    finally:
        bot.stop()
    print(f"{hands} hands sent from the pad, one after another (SQLite, the console's chat):")
    print(describe("send", sent, read, "the pad's read"))
    print(describe("read", read))
    print(f"a hand answered in p50 {percentile(sent, .5) * 1000:.1f} ms (aim: under 50 ms)")
    raw = sum(len(body) for body in weights)
    zipped = sum(len(gzip.compress(body)) for body in weights)
    print(f"the pad's page, script and style: {raw / 1024:.1f} KB, {zipped / 1024:.1f} KB "
          f"gzipped (aim: under 100 KB; no framework)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    asyncio.run(main(parser.parse_args().hands))
