"""What moving a chat (an upgraded Telegram group) and /forget cost, beside a /board in the
same run and database.

    python bench/rekey_bench.py [--chats 500] [--hands 10] [--database-url postgresql://...]

Fills the database with --chats chats, each with a game of --hands hands, a payment and a
season; one person plays by account in --theirs of them. Then it times moving --moves of
the chats to new keys (each in one transaction under both chats' locks), /forget of that
person (a scan for their chats, then each of them in its own transaction), and /forget chat
of --moves chats; beside them, /board in those chats. Figures only, no pass/fail: the
machine is shared and noisy.
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

from bench.core_bench import PLAYERS, random_hand
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.storage import open_store

HOST = Actor(id="bench:host", name="host", is_admin=True)
PERSON = Actor(id="telegram:4242", name="Asha Rai", handles=("asha",))


async def send(service: Service, chat: str, line: str, origin: str | None,
               who: Actor = HOST, **mentions: Actor) -> float:
    parsed = parse_command_text(line)
    start = time.perf_counter()
    reply = await service.handle(Command(chat, who, parsed.name, parsed.options, origin,
                                         mentions={f"<@{k}>": v for k, v in mentions.items()}))
    assert reply.ok, reply.text
    return time.perf_counter() - start


async def fill(service: Service, chats: list[str], hands: int, theirs: set[str]) -> None:
    rng = random.Random(7)
    for chat in chats:
        players = " ".join(PLAYERS)
        if chat in theirs:  # the person sits as asha, by account
            players = "<@p> " + " ".join(PLAYERS[1:])
        await send(service, chat, "/season start name:Autumn", f"{chat}-s")
        await send(service, chat, f"/newgame players:{players}", f"{chat}-n", p=PERSON)
        await send(service, chat, "/rules rate:1 currency:Rs", f"{chat}-r")
        for no in range(hands):
            line = random_hand(rng)
            if chat in theirs:
                line = line.replace("asha", "Asha_Rai")
            await send(service, chat, line, f"{chat}-{no}")
        await send(service, chat, "/endgame", f"{chat}-e")
        await send(service, chat, f"/paid bikash 1 to:{'Asha_Rai' if chat in theirs else 'asha'}",
                   f"{chat}-p")


def ms(seconds: list[float]) -> str:
    return f"p50 {statistics.median(seconds) * 1000:.2f} ms, max {max(seconds) * 1000:.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=500)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--theirs", type=int, default=10)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    url = args.database_url or f"sqlite:///{folder.name}/bench.db"
    store = await open_store(url)
    service = Service(store)
    try:
        chats = [f"telegram:-{100_000 + i}" for i in range(args.chats)]
        theirs = set(chats[:: max(1, args.chats // args.theirs)][: args.theirs])
        start = time.perf_counter()
        await fill(service, chats, args.hands, theirs)
        print(f"{store.backend}: {args.chats} chats of {args.hands} hands filled in "
              f"{time.perf_counter() - start:.1f} s")
        moving = [c for c in chats if c not in theirs][: args.moves]
        boards, moves = [], []
        for chat in moving:
            boards.append(await send(service, chat, "/board last", None))
            start = time.perf_counter()
            assert await service.move_chat(chat, chat + "0")
            moves.append(time.perf_counter() - start)
        print(f"move a chat: {ms(moves)}   /board last, same chats: {ms(boards)}   "
              f"ratio {statistics.median(moves) / statistics.median(boards):.1f}")
        start = time.perf_counter()
        done = await store.forget_person(PERSON.id, "asha")
        forget = time.perf_counter() - start
        assert done.chats == len(theirs), done
        print(f"/forget of a person in {done.chats} of {args.chats} chats: "
              f"{forget * 1000:.1f} ms ({forget / done.chats * 1000:.2f} ms a chat)")
        wiped = []
        for chat in moving:
            start = time.perf_counter()
            await store.forget_chat(chat + "0")
            wiped.append(time.perf_counter() - start)
        print(f"/forget chat: {ms(wiped)}")
    finally:
        await store.close()
        folder.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
