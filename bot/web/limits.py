"""What bounds the web server in public: how long a connection may idle or a body take, how
many connections, live feeds and refused init data it takes, in all and from one address.

The numbers are a `Limits` (the tests set them small); `Addresses` says who a request comes
from (its peer, or the address a trusted proxy names in `X-Forwarded-For`); `Gate` counts
the connections as aiohttp's server makes and loses them and turns away, with a 503, those
past a limit before any request is read; `Tally` counts what a request holds (a live feed)
per address; `Strikes` counts refused init data per address, so guessing costs time.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import resource
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

# seconds a connection may be open with no whole request in it: before the first, between
# two (keep-alive), or while a request line or its headers come in a byte at a time
IDLE_SECONDS = 15.0
BODY_SECONDS = 10.0  # seconds a request's body may take to arrive, once its headers are in
PER_ADDRESS = 64  # connections (behind a proxy: requests in flight) from one address
MAX_FEEDS = 4000  # live feeds in all (about 20 kB each: bench/pages_bench.py)
STRIKES = 10  # refused init data an address may send in STRIKE_SECONDS before a 429
STRIKE_SECONDS = 60.0
KEPT_ADDRESSES = 10_000  # addresses whose strikes are remembered (the oldest go first)
SPARE_FILES = 128  # of the process's file limit: the database, the platforms, the logs


def most_connections() -> int:
    """Connections in all: as many as the process's file limit leaves room for, so accepting
    one never fails for want of a file (at most 10,000)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = soft - SPARE_FILES if soft != resource.RLIM_INFINITY else 10_000
    return max(16, min(10_000, room))


@dataclass(frozen=True)
class Limits:
    idle_seconds: float = IDLE_SECONDS
    body_seconds: float = BODY_SECONDS
    connections: int = 0  # 0: most_connections()
    per_address: int = PER_ADDRESS
    feeds: int = MAX_FEEDS
    strikes: int = STRIKES
    strike_seconds: float = STRIKE_SECONDS

    def most(self) -> int:
        return self.connections or most_connections()


class Addresses:
    """Who a request comes from. Behind a reverse proxy every connection is the proxy's: its
    `X-Forwarded-For` names the client, but only a proxy the host names (WEB_TRUSTED_PROXY)
    is believed; anyone else could write the header."""

    def __init__(self, trusted: Collection[str] = ()) -> None:
        self.trusted = [ipaddress.ip_network(t.strip(), strict=False) for t in trusted
                        if t.strip()]

    def trusts(self, peer: str | None) -> bool:
        if not self.trusted or not peer:
            return False
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.trusted)

    def of(self, request: web.BaseRequest) -> str:
        """The client's address: the last one in X-Forwarded-For that is not a trusted
        proxy's (the proxy appends what it saw), when the peer is a trusted proxy."""
        peer = request.remote or ""
        if not self.trusts(peer):
            return peer
        hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",")]
        for hop in reversed(hops):
            if hop and not self.trusts(hop):
                return hop[:64]
        return peer


class Tally:
    """What is held now, in all and per address (live feeds; requests behind a proxy)."""

    def __init__(self) -> None:
        self.total = 0
        self._by: dict[str, int] = {}

    def of(self, address: str) -> int:
        return self._by.get(address, 0)

    @contextlib.contextmanager
    def holding(self, address: str) -> Iterator[None]:
        self.total += 1
        self._by[address] = self._by.get(address, 0) + 1
        try:
            yield
        finally:
            self.total -= 1
            left = self._by[address] - 1
            if left:
                self._by[address] = left
            else:
                del self._by[address]


class Strikes:
    """Refused init data per address, in a window of `seconds`: past `most`, the address is
    turned away until the window has moved on."""

    def __init__(self, most: int, seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.most, self.seconds, self.clock = most, seconds, clock
        self._seen: OrderedDict[str, list[float]] = OrderedDict()

    def _recent(self, address: str) -> list[float]:
        since = self.clock() - self.seconds
        kept = [t for t in self._seen.get(address, ()) if t > since]
        if kept:
            self._seen[address] = kept
        else:
            self._seen.pop(address, None)
        return kept

    def barred(self, address: str) -> bool:
        return len(self._recent(address)) >= self.most

    def strike(self, address: str) -> None:
        self._seen.setdefault(address, []).append(self.clock())
        self._seen.move_to_end(address)
        while len(self._seen) > KEPT_ADDRESSES:
            self._seen.popitem(last=False)


class Gate:
    """The connections of one aiohttp server, counted as it makes and loses them; one past
    the limit (in all, or from one address that is not a trusted proxy) is answered 503 with
    `busy` and closed before any request is read: a client that opens connections and sends
    nothing holds at most `per_address` of them, for at most the idle timeout each."""

    def __init__(self, limits: Limits, addresses: Addresses, busy: str) -> None:
        self.limits, self.addresses = limits, addresses
        body = busy.encode()
        self._refusal = (b"HTTP/1.1 503 Service Unavailable\r\nServer: maalbot\r\n"
                         b"Content-Type: text/plain; charset=utf-8\r\nRetry-After: 30\r\n"
                         b"Connection: close\r\nContent-Length: " + str(len(body)).encode()
                         + b"\r\n\r\n" + body)
        self.most = limits.most()  # the file limit is read once
        self.open = 0
        self._peers: dict[Any, str] = {}
        self._by: dict[str, int] = {}

    def watch(self, server: web.Server) -> None:
        """Count `server`'s connections. aiohttp's Server is told of each one by its
        protocol (connection_made, connection_lost) and offers no other hook: its two
        methods are wrapped on this one instance."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            made(handler, transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            counted = not self.addresses.trusts(address)
            if self.open >= self.most or (
                    counted and self._by.get(address, 0) >= self.limits.per_address):
                transport.write(self._refusal)
                transport.close()
                return
            self.open += 1
            self._peers[handler] = address if counted else ""
            if counted:
                self._by[address] = self._by.get(address, 0) + 1

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            address = self._peers.pop(handler, None)
            if address is not None:
                self.open -= 1
                if address:
                    left = self._by[address] - 1
                    if left:
                        self._by[address] = left
                    else:
                        del self._by[address]
            lost(handler, exc)

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]
