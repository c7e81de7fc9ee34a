"""The real discord.py client against the local fake Discord: an interaction's round trip.

    python bench/discord_bench.py [--samples 300]

Prints p50/p99 from a raw INTERACTION_CREATE payload handed to the client to its answer
arriving at the fake server, for /hand and /board, beside a bare /ping answered by the same
client in the same run, and the ratio to /ping. The /ping defers and then follows up, as
a command that does any work must be ready to (Discord's 3 s deadline): the cost of
discord.py and HTTP alone. An answer is the message itself: a callback with a message,
or the follow-up after a deferral, never the deferral.
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

import discord
from discord import app_commands

from bench.figures import describe
from bot.core.service import Service
from bot.discord_adapter import DiscordAdapter
from bot.storage import open_store
from tests.discord_helpers import ALICE, DiscordHarness, slash
from tests.fakes.discord_api import FakeDiscord

PLAYERS = ["alice", "bob", "carol", "dipa"]


async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.followup.send("pong")


DEFERRED = 5  # the interaction callback type of a deferral: not yet an answer


def answered(h: DiscordHarness, payload: dict) -> float | None:
    """When the answer to `payload` reached the fake, if it has."""
    callback = f"interactions/{payload['id']}/"
    followup = f"/{payload['token']}"
    for call in h.fake.captured:
        if call.method != "POST":
            continue
        if callback in call.path and (call.body or {}).get("type") != DEFERRED:
            return call.at
        if call.path.startswith("webhooks/") and call.path.endswith(followup):
            return call.at
    return None


async def one(h: DiscordHarness, payload: dict) -> float:
    before = time.perf_counter()
    h.deliver(payload)
    await h.fake.wait(lambda: answered(h, payload) is not None, timeout=30)
    at = answered(h, payload)
    assert at is not None
    return at - before


def hand(rng: random.Random) -> dict:
    winner = rng.choice(PLAYERS)
    seen = {winner} | {p for p in PLAYERS if rng.random() < 0.6}
    maal = " ".join(f"{p}={rng.randint(0, 20)}" for p in PLAYERS)
    return slash("hand", ALICE, winner_name=winner, seen=" ".join(sorted(seen)), maal=maal)


async def main(samples: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(f"sqlite:///{folder}/bench.db")
        fake = FakeDiscord()
        base = await fake.start()
        adapter = DiscordAdapter(Service(store), fake.token, api_url=base,
                                 gateway_url=fake.gateway_url)
        await adapter.login()
        adapter.client.tree.add_command(app_commands.Command(name="ping", description="pong",
                                                             callback=ping))
        h = DiscordHarness(fake, adapter)
        rng = random.Random(3)
        await one(h, slash("newgame", ALICE, players=" ".join(PLAYERS)))
        timings: dict[str, list[float]] = {"/ping": [], "/hand": [], "/board": []}
        for _ in range(samples):  # interleaved, so load on the machine hits all three alike
            timings["/ping"].append(await one(h, slash("ping", ALICE)))
            timings["/hand"].append(await one(h, hand(rng)))
            timings["/board"].append(await one(h, slash("board", ALICE)))
        await adapter.client.close()
        await fake.stop()
        await store.close()
    print(f"discord.py against the local fake Discord, SQLite, {samples} samples each")
    print(describe("/ping", timings["/ping"], None, "/ping"))
    print(describe("/hand", timings["/hand"], timings["/ping"], "/ping"))
    print(describe("/board", timings["/board"], timings["/ping"], "/ping"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    asyncio.run(main(parser.parse_args().samples))
