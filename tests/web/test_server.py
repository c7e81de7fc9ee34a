"""The web server's own part of a pad's hand: the pad is answered once the hand is
recorded, and the group is told after, in the order the hands were recorded, never lost
to a platform that is slow or a bot that stops."""

from __future__ import annotations

import asyncio
import re

from tests.telegram_helpers import GROUP
from tests.web.conftest import Web
from tests.web.test_pad import AS_ALICE, signed, started, totals

# two hands of alice, bob and carol (shared/rules/marriage.md): maal 10, 2, 0, alice wins
# with dublees, bob has seen: +41, -14, -27; then bob wins, all three seen, maal 0 each:
# each loser pays the winner 3 (seen): alice 41-3 = 38, bob -14+6 = -8, carol -27-3 = -30
FIRST = {"winner": "alice", "seen": "bob", "maal": "alice=10 bob=2 carol=0", "dublee": "yes"}
SECOND = {"winner": "bob", "seen": "alice carol", "maal": "alice=0 bob=0 carol=0"}


def hands_posted(web: Web) -> list[int]:
    """The numbers of the hands the group was sent, in the order they were sent."""
    assert web.tg is not None
    return [int(found[1]) for p in web.tg.fake.sent("sendMessage", GROUP)
            if (found := re.match(r"Hand (\d+):", p.get("text", "")))]


async def test_the_pad_is_answered_while_telegram_is_slow_and_the_group_told_in_order(web: Web):
    assert web.tg is not None
    token = await started(web)
    gate = web.tg.fake.held[GROUP] = asyncio.Event()  # Telegram takes nothing in the group
    for n, options in enumerate((FIRST, SECOND)):
        status, answer = await asyncio.wait_for(web.post("/pad/api/send", {
            "init_data": signed(AS_ALICE, token), "command": "hand", "options": options,
            "submit": f"slow-hand-{n:04d}"}), timeout=5)  # not behind Telegram
        assert status == 200 and answer["ok"], answer
        assert answer["text"].startswith(f"Hand {n + 1}")
    assert await totals(web) == {"alice": 38, "bob": -8, "carol": -30}
    # the first hand's message waits on Telegram; the second waits its turn behind it
    assert hands_posted(web) in ([], [1])
    gate.set()
    await web.tg.said("Hand 2")
    assert hands_posted(web) == [1, 2]


async def test_a_hand_recorded_as_the_bot_stops_is_still_posted(web: Web):
    assert web.tg is not None
    token = await started(web)
    gate = web.tg.fake.held[GROUP] = asyncio.Event()
    status, _ = await web.post("/pad/api/send", {
        "init_data": signed(AS_ALICE, token), "command": "hand", "options": FIRST,
        "submit": "last-hand-0001"})
    assert status == 200
    asyncio.get_running_loop().call_later(0.2, gate.set)
    await web.server.stop()  # waits for the group to be told
    assert hands_posted(web) == [1]
