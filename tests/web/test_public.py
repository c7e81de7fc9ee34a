"""The web server in public, probed as an attacker would, over real sockets: connections idle,
half-sent or stalled are closed within the idle and body timeouts (set small here; the
defaults are the issue's: a half-sent request closed within 30 s); connections and live feeds
are counted in all and per address (behind a trusted proxy, by X-Forwarded-For) and turned
away with a 503 and a sentence; a feed whose page closed is let go at once; the pad's API
takes JSON from its own page only; no answer names a library version."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.core.command import Actor, Command
from bot.core.service import Service
from bot.storage import SqlStore, open_store
from bot.web.limits import Limits
from bot.web.server import WebServer

PUBLIC = "https://maal.example.org"
SMALL = Limits(idle_seconds=0.4, body_seconds=0.4, per_address=4, feeds=3, strikes=3)
DEADLINE = 15.0  # seconds a condition is waited for: generous, never the thing measured
BOARD = re.compile(r"/s/([A-Za-z0-9_-]{43})")
ME = Actor("console:host", "host", is_admin=True, by_name=True)


@pytest.fixture
async def sqlite_store(tmp_path) -> AsyncIterator[SqlStore]:
    """One database is enough where only the server's sockets are looked at."""
    store = await open_store(f"sqlite:///{tmp_path / 'public.db'}")
    try:
        yield store
    finally:
        await store.close()


async def serve(store: SqlStore, limits: Limits = SMALL, **kw: Any) -> WebServer:
    service = Service(store)
    server = WebServer(service, base_url=PUBLIC, secret=service.secret, port=0,
                       local=("console", ME), limits=limits, **kw)
    await server.start()
    return server


@pytest.fixture
async def server(sqlite_store: SqlStore) -> AsyncIterator[WebServer]:
    found = await serve(sqlite_store)
    try:
        yield found
    finally:
        await found.stop()


async def board_path(server: WebServer) -> str:
    """The console table's scoreboard, as a path on the server."""
    service = server.service
    await service.handle(Command("console", ME, "newgame", {"": "marriage",
                                                            "players": "alice bob carol"}))
    reply = await service.handle(Command("console", ME, "scoreboard"))
    found = BOARD.search(reply.text)
    assert found, reply.text
    return f"/s/{found.group(1)}"


async def until(condition: Any, deadline: float = DEADLINE) -> None:
    """Wait for `condition()` to hold, looking every 20 ms, up to `deadline` seconds."""
    async with asyncio.timeout(deadline):
        while not condition():
            await asyncio.sleep(0.02)


async def closed(server: WebServer, sent: bytes, pause: float = 0.0,
                 trickle: bytes = b"") -> bytes:
    """What the server answers on a connection sent `sent` (then `trickle` a byte every
    `pause` seconds) before it closes it: read to the end, within the deadline."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(sent)
        async with asyncio.timeout(DEADLINE):
            for byte in trickle:
                await asyncio.sleep(pause)
                if writer.is_closing() or reader.at_eof():
                    break
                try:
                    writer.write(bytes([byte]))
                    await writer.drain()
                except ConnectionError:
                    break
            return await reader.read()
    finally:
        writer.close()


def test_the_default_timeouts_close_a_half_sent_request_within_30_seconds():
    limits = Limits()
    assert limits.idle_seconds <= 30 and limits.body_seconds <= 30


async def test_idle_half_sent_and_stalled_connections_are_closed(server: WebServer):
    # an idle connection, a half-sent request line, a half-sent header: closed, unanswered
    for sent in (b"", b"GET /pad HT", b"GET /pad HTTP/1.1\r\nHost: x\r\nX-Long: abc"):
        assert await closed(server, sent) == b"", sent
    # a header sent a byte at a time, each within the timeout: the timeout runs from the
    # connection's start, so trickling does not keep it open
    assert await closed(server, b"GET /pad HTTP/1.1\r\n", pause=0.1,
                        trickle=b"X-Slow: " + b"a" * 400) == b""
    # an idle keep-alive after an answer
    answer = await closed(server, b"GET /static/pad.css HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200")
    # a body that stalls: 408 and a sentence, then closed
    answer = await closed(server, b"POST /pad/api/state HTTP/1.1\r\nHost: x\r\n"
                                  b"Content-Type: application/json\r\nContent-Length: 100"
                                  b"\r\n\r\n{\"table\":")
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"took too long" in answer


async def test_one_address_holds_only_its_share_of_connections(server: WebServer):
    held = [await asyncio.open_connection("127.0.0.1", server.port)
            for _ in range(SMALL.per_address)]
    await until(lambda: server.gate.open == SMALL.per_address)
    try:
        refused = await closed(server, b"GET /pad HTTP/1.1\r\nHost: x\r\n\r\n")
        assert refused.startswith(b"HTTP/1.1 503"), refused[:100]
        assert refused.endswith(b"The bot's pages are busy: try again in a minute.")
    finally:
        for _, writer in held:
            writer.close()
    await until(lambda: server.gate.open == 0)  # let go as they close
    answer = await closed(server, b"GET /pad HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200")


async def test_the_server_holds_only_so_many_connections_in_all(sqlite_store: SqlStore):
    server = await serve(sqlite_store, Limits(idle_seconds=5, connections=2, per_address=10))
    try:
        held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(2)]
        await until(lambda: server.gate.open == 2)
        refused = await closed(server, b"GET /pad HTTP/1.1\r\nHost: x\r\n\r\n")
        assert refused.startswith(b"HTTP/1.1 503")
        for _, writer in held:
            writer.close()
    finally:
        await server.stop()


async def test_live_feeds_are_bounded_and_a_closed_one_is_let_go_at_once(
        sqlite_store: SqlStore):
    # one feed fewer than connections per address, so the feeds' own limit is what refuses
    limits = Limits(idle_seconds=5, per_address=10, feeds=3)
    server = await serve(sqlite_store, limits)
    path = await board_path(server)
    try:
        async with aiohttp.ClientSession() as http:
            feeds = [await http.get(f"http://127.0.0.1:{server.port}{path}/events")
                     for _ in range(3)]
            assert all(f.status == 200 for f in feeds)
            await until(lambda: server.feeds.total == 3)
            async with http.get(f"http://127.0.0.1:{server.port}{path}/events",
                                headers={"Accept-Language": "pt-BR"}) as refused:
                assert refused.status == 503
                assert "painéis" in await refused.text() or "placar" in await refused.text()
            # a page that closes is let go at once, not at the next ping (15 s)
            feeds[0].close()
            await until(lambda: server.feeds.total == 2 and server.watcher.pages == 2,
                        deadline=5.0)
            again = await http.get(f"http://127.0.0.1:{server.port}{path}/events")
            assert again.status == 200
            for feed in [*feeds[1:], again]:
                feed.close()
            await until(lambda: server.feeds.total == 0, deadline=5.0)
    finally:
        await server.stop()


async def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(
        sqlite_store: SqlStore):
    limits = Limits(idle_seconds=5, per_address=2, feeds=10)
    server = await serve(sqlite_store, limits, trusted_proxies=["127.0.0.1"])
    path = await board_path(server)
    url = f"http://127.0.0.1:{server.port}{path}/events"
    try:
        async with aiohttp.ClientSession() as http:
            alice = [await http.get(url, headers={"X-Forwarded-For": "203.0.113.7"})
                     for _ in range(2)]
            assert all(f.status == 200 for f in alice)
            async with http.get(url, headers={"X-Forwarded-For": "203.0.113.7"}) as third:
                assert third.status == 503
            # what a client writes before the proxy's own hop is not believed: the proxy
            # appends the address it saw, and that one is counted
            async with http.get(url, headers={
                    "X-Forwarded-For": "198.51.100.1, 203.0.113.7"}) as forged:
                assert forged.status == 503
            bob = await http.get(url, headers={"X-Forwarded-For": "203.0.113.8"})
            assert bob.status == 200
            for feed in [*alice, bob]:
                feed.close()
    finally:
        await server.stop()


async def test_a_forwarded_address_from_anyone_else_is_not_believed(server: WebServer):
    path = await board_path(server)
    url = f"http://127.0.0.1:{server.port}{path}/events"
    async with aiohttp.ClientSession() as http:
        feeds = [await http.get(url, headers={"X-Forwarded-For": f"203.0.113.{n}"})
                 for n in range(3)]
        assert all(f.status == 200 for f in feeds)
        assert server.feeds.of("127.0.0.1") == 3  # all of them the peer's
        for feed in feeds:
            feed.close()


async def ask(server: WebServer, method: str, path: str, **kw: Any) -> tuple[int, str]:
    """(status, text) of one request to `server`, on a connection of its own."""
    async with aiohttp.ClientSession() as http, \
            http.request(method, f"http://127.0.0.1:{server.port}{path}", **kw) as answer:
        return answer.status, await answer.text()


async def post(server: WebServer, body: bytes, content_type: str,
               **headers: str) -> tuple[int, str]:
    return await ask(server, "POST", "/pad/api/state", data=body,
                     headers={"Content-Type": content_type, **headers})


async def test_the_pads_api_takes_json_from_its_own_page_only(server: WebServer):
    await board_path(server)  # the console's table, which its pad opens with the link alone
    token = await server.service.handle(Command("console", ME, "scorepad"))
    body = json.dumps({"table": token.pad}).encode()
    status, text = await post(server, body, "application/json")
    assert status == 200, text
    for kind in ("text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x"):
        status, text = await post(server, body, kind)
        assert status == 415 and "JSON only" in json.loads(text)["error"], kind
    status, text = await post(server, body, "application/json; charset=x-unknown")
    assert status == 415 and "UTF-8" in json.loads(text)["error"]
    for elsewhere in ("https://evil.example", "null", "http://maal.example.org"):
        status, text = await post(server, body, "application/json", Origin=elsewhere)
        assert status == 403 and "another site" in json.loads(text)["error"], elsewhere
    for here in (PUBLIC, "https://web.telegram.org", f"http://127.0.0.1:{server.port}"):
        status, text = await post(server, body, "application/json", Origin=here)
        assert status == 200, (here, text)


async def test_bad_input_is_a_4xx_and_a_sentence_never_a_traceback(
        server: WebServer, caplog: pytest.LogCaptureFixture):
    nested = b"[" * 1000 + b"]" * 1000
    status, text = await post(server, nested, "application/json")
    assert status == 400 and json.loads(text)["error"] == \
        "The scorepad's server expects a JSON object."
    status, text = await post(server, b"\xff\xfe{}", "application/json")
    assert status == 400 and "UTF-8" in json.loads(text)["error"]
    status, _ = await post(server, b"{" + b" " * 70_000 + b"}", "application/json")
    assert status == 413
    status, _ = await ask(server, "GET", f"/static/{'a' * 256}.css")
    assert status == 404
    answer = await closed(server, b"GET / HTTP/1.1\r\nX: " + b"a" * 9000 + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 400") or answer.startswith(b"HTTP/1.1 400")
    assert not [r for r in caplog.records if r.levelno >= 40 or r.exc_info]


async def test_no_answer_names_a_library_or_its_version(server: WebServer):
    path = await board_path(server)
    answers = [await closed(server, f"GET {p} HTTP/1.1\r\nHost: x\r\nConnection: close"
                                    f"\r\n\r\n".encode())
               for p in ("/pad", "/static/pad.css", "/nothing", path, "/s/" + "A" * 43)]
    answers.append(await closed(server, b"NOT\x01HTTP\r\n\r\n"))
    for answer in answers:
        head = answer.split(b"\r\n\r\n")[0].decode()
        servers = [line for line in head.split("\r\n") if line.lower().startswith("server:")]
        assert servers == ["Server: maalbot"], head


# --- the scorepad's init data, at a bot with a Mini App ----------------------------------

TOKEN = "123456:TEST-TOKEN"


def signed(user: dict[str, Any], start: str) -> str:
    from tests.web.webapp import init_data

    return init_data(user, TOKEN, start)


async def telegram_table(server: WebServer, chat: str, starter: Actor) -> str:
    """A game at the Telegram group `chat` started by `starter`: its scorepad's token."""
    reply = await server.service.handle(Command(
        chat, starter, "newgame", {"": "marriage", "players": "alice bob carol"}))
    assert reply.ok and reply.pad, reply.text
    return reply.pad


async def test_the_same_submit_id_at_another_table_is_another_hand(store: SqlStore):
    service = Service(store)
    server = WebServer(service, base_url=PUBLIC, secret=service.secret, port=0,
                       telegram_token=TOKEN, limits=SMALL)
    await server.start()
    alice = Actor("telegram:11", "alice")
    user = {"id": 11, "first_name": "alice", "language_code": "en"}
    try:
        tables = [await telegram_table(server, f"telegram:-100{n}", alice) for n in (1, 2)]
        async with aiohttp.ClientSession() as http:
            for token in tables:
                async with http.post(f"http://127.0.0.1:{server.port}/pad/api/send", json={
                        "init_data": signed(user, token), "command": "hand",
                        "submit": "same-id-0001", "options": {
                            "winner": "alice", "seen": "bob",
                            "maal": "alice=10 bob=2 carol=0", "dublee": "yes"}}) as answer:
                    found = await answer.json()
                    assert answer.status == 200 and not found["duplicate"], found
        # each table has its hand: shared/rules/marriage.md's example, +41 -14 -27
        for n in (1, 2):
            board = await service.handle(Command(f"telegram:-100{n}", alice, "board"))
            assert board.board is not None
            assert board.board.totals == {"alice": 41, "bob": -14, "carol": -27}
    finally:
        await server.stop()


async def test_refused_init_data_costs_an_address_its_tries(sqlite_store: SqlStore):
    service = Service(sqlite_store)
    server = WebServer(service, base_url=PUBLIC, secret=service.secret, port=0,
                       telegram_token=TOKEN, limits=SMALL, trusted_proxies=["127.0.0.1"])
    await server.start()
    user = {"id": 11, "first_name": "alice", "language_code": "en"}
    try:
        token = await telegram_table(server, "telegram:-1001", Actor("telegram:11", "alice"))
        good = signed(user, token)
        forged = good.replace("alice", "mallory")
        url = f"http://127.0.0.1:{server.port}/pad/api/state"
        async with aiohttp.ClientSession() as http:
            async def state(raw: str, address: str) -> int:
                async with http.post(url, json={"init_data": raw},
                                     headers={"X-Forwarded-For": address}) as answer:
                    return answer.status

            assert [await state(forged, "203.0.113.7") for _ in range(SMALL.strikes)] \
                == [401] * SMALL.strikes
            assert await state(good, "203.0.113.7") == 429  # even good data, for a while
            assert await state(good, "203.0.113.8") == 200  # another address is not barred
    finally:
        await server.stop()


def test_strikes_are_forgotten_once_their_window_has_passed():
    from bot.web.limits import Strikes

    now = [1000.0]
    strikes = Strikes(2, 60.0, clock=lambda: now[0])
    strikes.strike("a")
    strikes.strike("a")
    assert strikes.barred("a") and not strikes.barred("b")
    now[0] += 61
    assert not strikes.barred("a")


async def test_signed_init_data_not_as_telegram_sends_it_is_a_400(server: WebServer,
                                                                  caplog):
    server.telegram_token = TOKEN
    for user in ({"id": 11, "first_name": "alice", "username": ["a", "b"]},
                 {"id": 11, "first_name": "alice", "username": {"a": 1}},
                 {"id": "11", "first_name": "alice"}, {"id": 11, "first_name": 7}, [11]):
        status, text = await ask(server, "POST", "/pad/api/state",
                                 json={"init_data": signed(user, "A" * 43)})  # type: ignore
        assert status == 400 and json.loads(text)["error"], user
    # a language hint nested past recursion's end, unsigned: a 401, not a 503
    deep = "user=" + "%5B" * 3000 + "&hash=00"
    status, _ = await ask(server, "POST", "/pad/api/state", json={"init_data": deep})
    assert status == 401
    assert not [r for r in caplog.records if r.levelno >= 40]
