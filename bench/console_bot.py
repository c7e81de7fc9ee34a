"""The bot as another process for the web benches: `python -m bot console` with WEB_PORT on a
temporary SQLite file, a Marriage game open, and the links it printed to its pages. Its
memory and its CPU are its own, as on a host."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO

PLAYERS = "asha bikash chandra dipa"


@dataclass
class ConsoleBot:
    process: subprocess.Popen[str]
    base: str    # http://127.0.0.1:PORT
    board: str   # the scoreboard's link
    pad: str     # the scorepad's link
    table: str   # the pad link's token, as the pad's page sends it

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(20)


def _drain(stream: IO[str]) -> None:
    for _ in stream:
        pass


def start() -> ConsoleBot:
    folder = Path(tempfile.mkdtemp())
    port = 20000 + os.getpid() % 20000
    # the pages' bounds raised: every page of a bench comes from this one address
    env = {**os.environ, "WEB_PORT": str(port), "LOG_LEVEL": "WARNING",
           "WEB_PER_ADDRESS": "100000", "WEB_MAX_FEEDS": "100000"}
    bot = subprocess.Popen([sys.executable, "-m", "bot", "console", "--db",
                            str(folder / "bench.db")], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                           cwd=folder)
    assert bot.stdin is not None and bot.stdout is not None
    bot.stdin.write(f"/newgame marriage players:{PLAYERS}\n")
    bot.stdin.flush()
    links: dict[str, str] = {}
    while len(links) < 2:
        line = bot.stdout.readline()
        if not line:
            raise SystemExit("the bot stopped before it printed its pages' links")
        found = re.match(r"(Scorepad|Scoreboard): (\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
    # what it says next is read and dropped: a pipe nobody reads fills and stops the bot
    for stream in (bot.stdout, bot.stderr):
        threading.Thread(target=_drain, args=(stream,), daemon=True).start()
    pad = links["Scorepad"]
    return ConsoleBot(bot, f"http://127.0.0.1:{port}", links["Scoreboard"], pad,
                      pad.split("#t=")[1])
