"""An export's JSON read a step at a time: its hands one by one, so reading a big file
lets other chats' commands run between steps (json.loads reads 38 MB, a 25,000-hand
export, in one go of about a second, and nothing else runs meanwhile)."""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from bot.core.i18n import _
from bot.storage.validate import RestoreError

STEP = 500  # hands read between two steps
_SPACE = re.compile(r"[ \t\n\r]*")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")  # NaN and Infinity: not JSON


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0
        self.decoder = json.JSONDecoder(parse_constant=_no_constant)

    def peek(self) -> str:
        self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
        return self.text[self.at:self.at + 1]

    def take(self, expected: str) -> None:
        if self.peek() != expected:
            raise ValueError(f"expected {expected!r} at {self.at}")
        self.at += 1

    def value(self) -> Any:
        self.peek()
        value, self.at = self.decoder.raw_decode(self.text, self.at)
        return value

    def members(self) -> Iterator[str]:
        """An object's keys; the caller reads each one's value before asking for the next."""
        self.take("{")
        if self.peek() == "}":
            self.at += 1
            return
        while True:
            self.take('"')
            key, self.at = scanstring(self.text, self.at)
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


def reading(raw: bytes | str) -> Generator[int, None, Any]:
    """The file's JSON, as json.loads reads it; yields the hands read so far every STEP
    hands. RestoreError when it is not JSON, or nests deeper than any export."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        found = yield from _read(_Reader(text))
    except RecursionError:
        raise RestoreError(_("the file nests its values deeper than any export")) from None
    except ValueError:  # not JSON, or not text at all (UnicodeDecodeError is one)
        raise RestoreError(_("that file is not an /export (it isn't JSON): send the .json "
                             "or .json.gz file /export made")) from None
    return found


def _read(reader: _Reader) -> Generator[int, None, Any]:
    if reader.peek() != "{":
        found = reader.value()
    else:  # an export: its sessions' hands one at a time, anything else whole
        found = {}
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
    if reader.peek():
        raise ValueError(f"extra data at {reader.at}")
    return found


def parse_export(raw: bytes | str) -> Any:
    """reading() in one go."""
    steps = reading(raw)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
