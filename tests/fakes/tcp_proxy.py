"""A TCP proxy in front of PostgreSQL that can fail the way networks do: cut every
connection, stall (stop passing the server's answers on), or drop the answer to a COMMIT
after the server has committed (the client then cannot know whether it was recorded)."""

from __future__ import annotations

import asyncio
import contextlib

# PostgreSQL's CommandComplete message for a COMMIT: 'C', length 11, "COMMIT\0"
COMMIT_DONE = b"C\x00\x00\x00\x0bCOMMIT\x00"


class FaultyProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.stalled = asyncio.Event()  # set: answers are held back
        self.drop_commits = 0  # how many COMMIT answers to swallow (closing the connection)
        self.dropped = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        """Close every connection now, both ways."""
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()

    async def _client(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer, False),
                             self._pipe(up_reader, writer, True), return_exceptions=True)
        for w in (writer, up_writer):
            self._writers.discard(w)
            w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    answers: bool) -> None:
        try:
            await self._copy(reader, writer, answers)
        finally:
            writer.close()  # one side closed: close the other, as the peers expect

    async def _copy(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    answers: bool) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                if answers:
                    while self.stalled.is_set():
                        await asyncio.sleep(0.01)
                    if self.drop_commits and COMMIT_DONE in data:
                        self.drop_commits -= 1
                        self.dropped += 1
                        self.cut()  # the server committed; the client never hears of it
                        return
                writer.write(data)
                await writer.drain()
