"""The scoreboard under load (issue 36): many open pages of one table on one bot process, each
told of a new hand; the process's memory; page loads a second.

    python bench/pages_bench.py [--pages 500] [--hands 5] [--loads 2000]

The bot is another process (`python -m bot console` with WEB_PORT, on a temporary SQLite
file, its per-address bounds raised: every page here comes from 127.0.0.1), so its memory is
its own: this process opens the pages (Server-Sent Events, as a browser's EventSource does)
and sends each hand through the scorepad's API, as a phone would. First one page alone is
told of a hand (the baseline, same run); then for every hand with all the pages open it
prints how long the last of them took to be told (from the moment the hand was sent), and
the p50 beside the baseline; then the bot's RSS with the pages open beside its RSS with none
(the baseline) and what one open page costs; then page loads a second (the page, and its
data) at 50 at a time, beside the same for the static stylesheet (the baseline: what the
server answers with no table behind it). Aims: every page told within 2 s with 2,000 open
(`--pages 2000`), RSS under 250 MB, 100 page loads a second. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import console_bot
from bench.figures import percentile


async def next_event(response: aiohttp.ClientResponse) -> str:
    """The data of the next "table" event of a feed."""
    event, data = "", []
    while True:
        line = (await response.content.readline()).decode().rstrip("\r\n")
        if not line:
            if event == "table" and data:
                return "\n".join(data)
            event, data = "", []
        elif line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            data.append(line.split(":", 1)[1].lstrip())


async def loads(http: aiohttp.ClientSession, url: str, total: int, at_once: int = 50) -> float:
    """Answers a second to `total` GETs of `url`, `at_once` at a time."""
    left = total

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            async with http.get(url) as response:
                await response.read()
                assert response.status == 200, response.status

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(at_once)))
    return total / (time.perf_counter() - started)


async def main(pages: int, hands: int, total_loads: int) -> None:
    bot = console_bot.start()
    board, table, base = bot.board, bot.table, bot.base
    await asyncio.sleep(0.5)
    idle = bot.rss_mb()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=None)) as http:

        async def hand(feeds: list[aiohttp.ClientResponse]) -> float:
            """Seconds from sending a hand to the last of `feeds` being told of it."""
            options = {"winner": "asha", "seen": "bikash", "maal": "asha=3 bikash=1"}
            started = time.perf_counter()
            waiting = [asyncio.ensure_future(next_event(f)) for f in feeds]
            async with http.post(base + "/pad/api/send", json={
                    "table": table, "command": "hand", "options": options,
                    "submit": uuid.uuid4().hex}) as answer:
                assert answer.status == 200, await answer.text()
            await asyncio.gather(*waiting)
            return time.perf_counter() - started

        alone = await http.get(board + "/events")
        await next_event(alone)
        one = [await hand([alone]) for _ in range(3)]
        alone.close()
        print(f"one page alone: told in p50 {percentile(one, .5) * 1000:.0f} ms")
        feeds = [await http.get(board + "/events") for _ in range(pages)]
        await asyncio.gather(*(next_event(f) for f in feeds))  # each page's first look
        opened = bot.rss_mb()
        told: list[float] = []
        for n in range(hands):
            told.append(await hand(feeds))
            print(f"hand {n + 1}: all {pages} pages told in {told[-1] * 1000:.0f} ms")
        peak = bot.rss_mb()
        for feed in feeds:
            feed.close()
        page_rate = await loads(http, board, total_loads)
        data_rate = await loads(http, board + "/data", total_loads)
        static_rate = await loads(http, base + "/static/board.css", total_loads)
    bot.stop()
    p50 = percentile(told, .5)
    print(f"\n{pages} open pages: told of a hand in p50 {p50 * 1000:.0f} ms, the last page "
          f"of the slowest hand {max(told) * 1000:.0f} ms (aim: under 2,000); "
          f"x{p50 / percentile(one, .5):.1f} of one page alone")
    print(f"bot RSS: {idle:.0f} MB with no page, {opened:.0f} MB with {pages} open, "
          f"{peak:.0f} MB after {hands} hands (x{peak / idle:.2f} of none; aim: under 250); "
          f"{(opened - idle) * 1024 / pages:.1f} kB an open page")
    print(f"page loads: {page_rate:.0f}/s the page, {data_rate:.0f}/s its data, "
          f"{static_rate:.0f}/s a static file (x{page_rate / static_rate:.2f} and "
          f"x{data_rate / static_rate:.2f} of it; aim: 100/s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--loads", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(main(args.pages, args.hands, args.loads))
