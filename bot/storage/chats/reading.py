"""An export's JSON read a step at a time, from text in memory or streamed from a file.

A small file is read whole (`reading`, `parse_export`): its hands one by one, so other
chats' commands run between steps. A big one (`outline`, `walk_hands`: importer.py), and
every backup `restore` reads (restore.py), is never held whole: it is unpacked and
decoded a chunk at a time, and read twice, once for its shape without the hands (a few
bytes a hand), once for the hands themselves, each dropped once written. Only the buffer,
the current value and a batch are ever in memory.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import re
import zlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from json.decoder import JSONDecodeError, scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import IO, Any

from bot.core.i18n import _
from bot.storage.chats import validate
from bot.storage.chats.validate import RestoreError

STEP = 500  # hands read between two steps
CHUNK = 1 << 20  # characters read from a file at a time
# the most a file may unpack to: a million hands (the validator's limit) as the bot writes
# them took 1,390 MB (Marriage, bench/import_bench.py); the cap stops a small .gz that
# unpacks without end
MAX_UNPACKED = 5_000_000_000  # bytes
MAX_VALUE = 64_000_000  # characters of one value read whole (a hand, a session's fields)
_SPACE = re.compile(r"[ \t\n\r]*")
GZIP = b"\x1f\x8b"

# what an export is sent as: its bytes (plain or gzipped), or the path of a file holding them
Source = bytes | Path


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")  # NaN and Infinity: not JSON


def _binary(source: Source) -> IO[bytes]:
    """The source's bytes, unpacked if gzipped."""
    raw: IO[bytes] = io.BytesIO(source) if isinstance(source, bytes) else source.open("rb")
    if raw.read(2) == GZIP:
        raw.seek(0)
        return gzip.GzipFile(fileobj=raw, mode="rb")
    raw.seek(0)
    return raw


def chunks(source: Source) -> Iterator[str]:
    """The source as text, a chunk at a time: RestoreError once it unpacks past
    MAX_UNPACKED bytes, or if it is a broken .gz."""
    limit = MAX_UNPACKED
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    read = 0
    try:
        with _binary(source) as binary:
            while True:
                data = binary.read(CHUNK)
                read += len(data)
                if read > limit:
                    raise RestoreError(_("the file unpacks to over {n} MB",
                                         n=f"{limit // 1_000_000:,}"))
                text = decoder.decode(data, final=not data)
                if text:
                    yield text
                if not data:
                    return
    except (EOFError, zlib.error, gzip.BadGzipFile):
        raise RestoreError(_("the .gz file is broken; send the file /export made "
                             "again")) from None


class _Reader:
    """JSON read from text that comes a chunk at a time: what is read is dropped from the
    buffer, and a value is decoded once the buffer holds all of it."""

    def __init__(self, pieces: Iterator[str]) -> None:
        self.pieces = pieces
        self.text, self.at, self.ended = "", 0, False
        self.decoder = json.JSONDecoder(parse_constant=_no_constant)

    def _more(self) -> bool:
        """Read on: at least as much again as the buffer holds, so that a long value is
        decoded a few times, not once a chunk. False at the end of the text."""
        if self.ended:
            return False
        kept = self.text[self.at:]
        added: list[str] = []
        size = 0
        while size <= len(kept):
            piece = next(self.pieces, None)
            if piece is None:
                self.ended = True
                break
            added.append(piece)
            size += len(piece)
        self.text, self.at = kept + "".join(added), 0
        return bool(added)

    def peek(self) -> str:
        while True:
            self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.text) or not self._more():
                return self.text[self.at:self.at + 1]

    def take(self, expected: str) -> None:
        if self.peek() != expected:
            raise ValueError(f"expected {expected!r} at {self.at}")
        self.at += 1

    def _whole(self, decode: Any) -> Any:
        """decode(text, at) -> (value, end), once the buffer holds the whole value."""
        while True:
            try:
                value, end = decode(self.text, self.at)
                # a number or a word that ends the buffer may go on in the next chunk
                if end < len(self.text) or self.ended:
                    self.at = end
                    return value
            except JSONDecodeError as error:
                cut = error.pos >= len(self.text) - 6 or error.msg.startswith("Unterminated")
                if self.ended or not cut:
                    raise
            if len(self.text) - self.at > MAX_VALUE:
                raise ValueError("a value longer than any export holds")
            self._more()

    def value(self) -> Any:
        self.peek()
        return self._whole(self.decoder.raw_decode)

    def key(self) -> str:
        self.take('"')
        return str(self._whole(scanstring))

    def members(self) -> Iterator[str]:
        """An object's keys; the caller reads each one's value before asking for the next."""
        self.take("{")
        if self.peek() == "}":
            self.at += 1
            return
        while True:
            if self.peek() != '"':
                raise ValueError(f"expected a key at {self.at}")
            key = self.key()
            self.take(":")
            yield key
            end = self.peek()
            self.at += 1
            if end == "}":
                return
            if end != ",":
                raise ValueError(f"expected ',' or '}}' at {self.at - 1}")

    def elements(self) -> Iterator[None]:
        """An array's places; the caller reads each value."""
        self.take("[")
        if self.peek() == "]":
            self.at += 1
            return
        while True:
            yield None
            end = self.peek()
            self.at += 1
            if end == "]":
                return
            if end != ",":
                raise ValueError(f"expected ',' or ']' at {self.at - 1}")

    def end(self) -> None:
        if self.peek():
            raise ValueError(f"extra data at {self.at}")


def _words(steps: Generator[Any, None, Any]) -> Generator[Any, None, Any]:
    """A read of the file with our words for a file that is not an export's JSON."""
    try:
        found = yield from steps
    except RecursionError:
        raise RestoreError(_("the file nests its values deeper than any export")) from None
    except ValueError as error:  # not JSON, or not text at all (UnicodeDecodeError is one)
        if isinstance(error, RestoreError):
            raise
        raise RestoreError(_("that file is not an /export (it isn't JSON): send the .json "
                             "or .json.gz file /export made")) from None
    return found


def reading(raw: bytes | str) -> Generator[int, None, Any]:
    """The file's JSON, as json.loads reads it; yields the hands read so far every STEP
    hands. RestoreError when it is not JSON, or nests deeper than any export."""
    def read() -> Generator[int, None, Any]:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        reader = _Reader(iter([text]))
        found = yield from _read(reader)
        reader.end()
        return found

    return _words(read())


def _read(reader: _Reader) -> Generator[int, None, Any]:
    if reader.peek() != "{":
        return reader.value()
    # an export: its sessions' hands one at a time, anything else whole
    found: dict[str, Any] = {}
    hands = 0
    for key in reader.members():
        if key != "sessions" or reader.peek() != "[":
            found[key] = reader.value()
            continue
        sessions: list[Any] = []
        for _place in reader.elements():
            if reader.peek() != "{":
                sessions.append(reader.value())
                continue
            session: dict[str, Any] = {}
            for name in reader.members():
                if name != "hands" or reader.peek() != "[":
                    session[name] = reader.value()
                    continue
                session[name] = []
                for _hand in reader.elements():
                    session[name].append(reader.value())
                    hands += 1
                    if hands % STEP == 0:
                        yield hands
            sessions.append(session)
        found[key] = sessions
    return found


def parse_export(raw: bytes | str) -> Any:
    """reading() in one go."""
    return finished(reading(raw))


def finished(steps: Generator[Any, None, Any]) -> Any:
    """What a read returns, run in one go (its steps are for an event loop's turns)."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


@dataclass
class Outline:
    """A file read without its hands: the file's top level (its sessions without their
    hands, when it is an export), and per session its hand count and the hand ids another
    hand names as its replacement."""

    data: Any = None
    counts: list[int] = field(default_factory=list)
    named: list[set[int]] = field(default_factory=list)
    chats: list[Outline] = field(default_factory=list)  # a backup of every chat's exports


def _too_many_sessions() -> RestoreError:
    return RestoreError(_("`sessions` must be a list of at most {n} sessions",
                          n=f"{validate.MAX_SESSIONS:,}"))


def _too_many_payments() -> RestoreError:
    return RestoreError(_("`payments` must be a list of at most {n}",
                          n=f"{validate.MAX_PAYMENTS:,}"))


def _too_many_seasons() -> RestoreError:
    return RestoreError(_("`seasons` must be a list of at most {n}",
                          n=f"{validate.MAX_SEASONS:,}"))


class _Repeated(ValueError):
    """A key twice in an object the import streams (json.loads would keep the last)."""


def outline(source: Source, every: bool = False) -> Generator[int, None, Outline]:
    """The file read once through, its hands dropped as they are read; yields the hands
    read so far every STEP hands. With `every` (a backup of every chat: `restore`), its
    `chats` are each read as an export (Outline.chats). RestoreError as `reading` gives
    it."""
    return _words(_outline(_Reader(chunks(source)), every))


def _outline(reader: _Reader, every: bool) -> Generator[int, None, Outline]:
    found = Outline()
    if reader.peek() != "{":
        found.data = reader.value()
    else:
        yield from _object(reader, found, every)
    reader.end()
    return found


def _object(reader: _Reader, found: Outline, every: bool, before: int = 0
            ) -> Generator[int, None, int]:
    """The object at the reader into `found`: an export's sessions without their hands.
    Yields the hands read so far in the file (`before` it, those of the chats read first);
    returns its own."""
    found.data = top = {}
    hands = 0
    for key in reader.members():
        if key in top:
            raise _Repeated(key)
        if every and key == "chats" and reader.peek() == "[":
            top[key] = []
            for _place in reader.elements():  # each chat an export, outlined as one
                chat = Outline()
                if reader.peek() == "{":
                    hands += yield from _object(reader, chat, False, before + hands)
                else:
                    chat.data = reader.value()
                found.chats.append(chat)
                top[key].append(chat.data)
            continue
        if key in ("payments", "seasons") and reader.peek() == "[":
            top[key] = []  # each one small, and never more than the file may have
            most = validate.MAX_PAYMENTS if key == "payments" else validate.MAX_SEASONS
            for _place in reader.elements():
                top[key].append(reader.value())
                if len(top[key]) > most:
                    raise (_too_many_payments() if key == "payments" else _too_many_seasons())
            continue
        if key != "sessions" or reader.peek() != "[":
            top[key] = reader.value()
            continue
        top[key] = []
        for _place in reader.elements():
            if len(top[key]) == validate.MAX_SESSIONS:
                raise _too_many_sessions()
            if reader.peek() != "{":
                top[key].append(reader.value())
                found.counts.append(0)
                found.named.append(set())
                continue
            session: dict[str, Any] = {}
            count, named = 0, set()
            for name in reader.members():
                if name in session:
                    raise _Repeated(name)
                if name != "hands" or reader.peek() != "[":
                    session[name] = reader.value()
                    continue
                session[name] = []  # its hands come in walk_hands
                for _hand in reader.elements():
                    hand = reader.value()
                    count += 1
                    replaced = hand.get("replaced_by") if isinstance(hand, dict) else None
                    if isinstance(replaced, int):
                        named.add(replaced)
                    hands += 1
                    if hands > validate.MAX_HANDS:  # said before the rest is read
                        raise RestoreError(_("more than {n} hands in all",
                                             n=f"{validate.MAX_HANDS:,}"))
                    if hands % STEP == 0:
                        yield before + hands
            top[key].append(session)
            found.counts.append(count)
            found.named.append(named)
    return hands


def walk_hands(source: Source) -> Iterator[tuple[int, Any]]:
    """The hands of an export `outline` read, as (session index, hand), in the file's
    order; RestoreError (changed()) if it is no longer JSON, as it was then."""
    try:
        yield from _walk(_Reader(chunks(source)))
    except (ValueError, RecursionError) as error:
        if isinstance(error, RestoreError):
            raise
        raise changed() from None


def walk_every(source: Source) -> Iterator[tuple[int, int, Any]]:
    """The hands of a backup of every chat `outline` read, as (chat index, session index,
    hand), in the file's order; RestoreError (changed()) as walk_hands gives it."""
    try:
        yield from _walk_every(_Reader(chunks(source)))
    except (ValueError, RecursionError) as error:
        if isinstance(error, RestoreError):
            raise
        raise changed() from None


def _walk_every(reader: _Reader) -> Generator[tuple[int, int, Any], None, None]:
    for chat in _objects_in(reader, "chats"):
        for index, hand in _walk(reader):
            yield chat, index, hand


def changed() -> RestoreError:
    """The file read again is not the file read first (the console's, rewritten)."""
    return RestoreError(_("the file changed while it was being imported"))


def _walk(reader: _Reader) -> Generator[Any, None, None]:
    for index in _objects_in(reader, "sessions"):
        for name in reader.members():
            if name != "hands" or reader.peek() != "[":
                reader.value()
                continue
            for _hand in reader.elements():
                yield index, reader.value()


def _objects_in(reader: _Reader, key: str) -> Iterator[int]:
    """In the object at the reader, the objects of the list at `key`: the index of each,
    the reader at its start (the caller reads it whole before the next); the rest skipped."""
    for name in reader.members():
        if name != key or reader.peek() != "[":
            reader.value()
            continue
        for index, _place in enumerate(reader.elements()):
            if reader.peek() != "{":
                reader.value()
                continue
            yield index
