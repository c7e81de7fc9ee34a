"""A long command's progress on stderr (`python -m bot restore`, `backup`): a line every
few seconds, as a big /import tells its own.

A restore of 250,000 hands is then not minutes of silence. On a terminal the line is
rewritten in place; anywhere else (a log, a schedule's mail) each is a line of its own.
The command's own last line says how it ended."""

from __future__ import annotations

import sys
import time
from typing import TextIO

EVERY = 3.0  # seconds between two lines: the first only once a command has taken that long
CLEAR = "\x1b[K"  # to the end of the line: what a longer line before left there goes


class Progress:
    """Call it with a line as often as there is news; it shows one every EVERY seconds."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):  # no isatty, or closed: not a terminal
            self.tty = False
        self.said = time.monotonic()
        self.open = False  # a line rewritten in place, not ended yet

    def __call__(self, line: str) -> None:
        now = time.monotonic()
        if now - self.said < EVERY:
            return
        self.said = now
        if self.tty:
            self.stream.write(f"\r{line}{CLEAR}")
            self.open = True
        else:
            self.stream.write(f"{line}\n")
        self.stream.flush()

    def end(self) -> None:
        """Before the command's last line (done or failed): the line rewritten in place is
        ended, so the last one does not start on top of it."""
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False
