"""A club's figures are a pure function of its finished games: whatever happens between
games (a table leaving and joining again, an export imported into a new table of the club,
a person forgotten, a guest /link'ed), the ratings, standings and ledger the process kept
equal those of a process that builds them from the first game (both databases)."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.service import Service
from bot.storage import SqlStore
from tests.club_helpers import CODE, Tables

PEOPLE = ["ana", "ben", "cy", "di"]
SHOWN = ["/rating", "/club standings", "/club ledger", "/records"]

game = st.tuples(
    st.integers(0, 2),  # the table
    st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=4, unique=True),
    st.lists(st.integers(-20, 20), min_size=4, max_size=4),
    st.booleans(),  # the first a guest (typed by name)
)
operation = st.one_of(
    st.tuples(st.just("game"), game),
    st.tuples(st.just("leave"), st.integers(1, 2)),
    st.tuples(st.just("forget"), st.sampled_from(PEOPLE)),
    st.tuples(st.just("import"), st.integers(0, 2)),
    st.tuples(st.just("link"), st.integers(0, 2)),
)


async def shown(service: Service, chat: str) -> list[str]:
    tables = Tables(service)
    return [(r := await tables(chat, line)).text + (r.table or "") for line in SHOWN]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=3, max_size=8))
async def test_what_a_process_kept_equals_a_build_from_the_first_game(store: SqlStore, ops):
    run = uuid.uuid4().hex[:6]
    chats = [f"{run}-t{i}" for i in range(3)]
    service = Service(store)
    tables = Tables(service)
    await tables.club("Friday", *chats)
    out: set[int] = set()
    imported = 0
    for kind, detail in ops:
        if kind == "game":
            table, people, scores, guest = detail
            if table in out:
                continue
            seats = [("" if guest and i == 0 else "@") + who for i, who in enumerate(people)]
            rounds = " ".join(f"{who}={score}" for who, score in zip(people, scores,
                                                                   strict=False))
            await tables.ok(chats[table], f"/newgame points players:{' '.join(seats)}")
            await tables.ok(chats[table], "/rules rate:1 currency:Rs")
            await tables.ok(chats[table], f"/round {rounds}")
            await tables.ok(chats[table], "/endgame")
        elif kind == "leave" and detail not in out:
            await tables.ok(chats[detail], "/club leave")
            out.add(detail)
        elif kind == "forget":
            await tables(chats[0], f"{detail}: /forget")
        elif kind == "import":
            reply = await tables(chats[detail], "/export")
            if reply.ok and reply.file is not None:
                imported += 1
                new = f"{run}-import{imported}"
                path = store_file(reply.file.data, new)
                await tables.ok(new, f"/import {path}")
                code = CODE.search((await tables.ok(chats[0], "/club code")).text)
                assert code is not None
                await tables.ok(new, f"/club join code:{code.group(1)}")
        elif kind == "link":
            reply = await tables(chats[detail], "/link name:ana @ana")
            assert reply.ok or "No guest" in reply.text, reply.text
    here = next(chat for i, chat in enumerate(chats) if i not in out)
    kept = await shown(service, here)
    fresh = await shown(Service(store), here)  # a new process: built from the first game
    assert kept == fresh


def store_file(data: bytes, name: str) -> str:
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / f"{name}.json"
    path.write_bytes(data)
    return str(path)
