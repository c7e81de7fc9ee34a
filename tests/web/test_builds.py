"""One build, and one look-up of a link, per version of a table however many of its open
pages ask at once (2,000 pages at a hand: bench/pages_bench.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.web.builds import Builds


async def test_many_pages_asking_at_once_look_their_link_up_once():
    asked: list[str] = []

    async def page(digest: str) -> tuple[str, str] | None:
        asked.append(digest)
        await asyncio.sleep(0)  # the database answers later, as it does
        return ("chat", "board")

    service = SimpleNamespace(store=SimpleNamespace(page=page))
    builds = Builds()
    found = await asyncio.gather(*(builds.opens(service, "d" * 64, (1, 2))  # type: ignore[arg-type]
                                   for _ in range(200)))
    assert found == [True] * 200 and asked == ["d" * 64]
    assert await builds.opens(service, "d" * 64, (1, 3))  # type: ignore[arg-type]
    assert len(asked) == 2  # a new version of the table is asked again
