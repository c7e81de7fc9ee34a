"""The console's pages outlive a restart: its secret is kept beside its database (readable by
its owner only) and it listens on one port run after run (WEB_PORT, else CONSOLE_PORT or the
next free one), so yesterday's links open today. It prints the links when it starts and
after /newgame, /scorepad and /scoreboard, never after every reply."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import stat
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.console_key import console_secret, key_path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"^(Scorepad|Scoreboard): (\S+)$")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def a_night(tmp_path: Path, port: int, lines: list[str]) -> tuple[list[str], int]:
    """The console's output for `lines` (on stdin, then its end), each link it printed
    opened while it runs; and how many of those answered 200."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "DATABASE_URL", "BUTTON_SECRET")}
    env.update(PYTHONPATH=str(ROOT), WEB_PORT=str(port), XDG_DATA_HOME=str(tmp_path / "data"))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "night.db"),
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    out: list[str] = []
    opened = 0
    try:
        async with asyncio.timeout(60), aiohttp.ClientSession() as http:
            while len([line for line in out if LINK.match(line)]) < 2:  # at the start
                out.append((await process.stdout.readline()).decode().rstrip("\n"))
            for found in filter(None, map(LINK.match, list(out))):
                async with http.get(found.group(2).split("#")[0]) as page:
                    opened += page.status == 200
            process.stdin.write("".join(f"{line}\n" for line in lines).encode())
            process.stdin.close()
            out += (await process.stdout.read()).decode().splitlines()
            assert await process.wait() == 0, (await process.stderr.read()).decode()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return out, opened


def links(out: list[str]) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(LINK.match, out) if m]


async def test_yesterdays_links_open_today_and_are_printed_when_they_are_asked_for(
        tmp_path: Path):
    port = free_port()
    first, opened = await a_night(tmp_path, port, [
        "/newgame marriage players:asha bikash", "/hand winner:asha seen:bikash maal:asha=3",
        "/board", "/scorepad", "/scoreboard"])
    assert opened == 2
    printed = links(first)
    # at the start, after /newgame and /scorepad: both; after /scoreboard, whose reply has
    # its own, the pad's; never after /hand or /board
    assert [kind for kind, _ in printed] == ["Scorepad", "Scoreboard"] * 3 + ["Scorepad"]
    assert sum(printed[1][1] in line for line in first) == 4
    assert len(set(printed)) == 2
    key = key_path(f"sqlite:///{tmp_path / 'night.db'}", tmp_path / "data")
    assert key is not None and key.parent == tmp_path and key.exists()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    again, opened = await a_night(tmp_path, port, ["/board"])
    assert set(links(again)) == set(printed) and opened == 2  # the same links, and they open


def test_a_key_is_kept_once_and_read_back(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'a.db'}"
    first = console_secret(url, tmp_path / "data")
    assert len(first) == 32 and console_secret(url, tmp_path / "data") == first
    other = console_secret(f"sqlite:///{tmp_path / 'b.db'}", tmp_path / "data")
    assert other != first  # a key per database
    postgres = "postgresql://me:secret@db.example.org/maalbot"
    kept = key_path(postgres, tmp_path / "data")
    assert kept is not None and kept.parent == tmp_path / "data"
    assert "secret" not in kept.name
    assert console_secret(postgres, tmp_path / "data") == console_secret(postgres,
                                                                          tmp_path / "data")


@pytest.mark.parametrize("taken", [False, True])
async def test_the_console_listens_on_its_port_or_the_next_free_one(
        taken: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import argparse

    import bot.__main__ as launcher
    from bot.core.service import Service
    from bot.settings import Settings
    from bot.storage import open_store

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        first = holder.getsockname()[1]
        if taken:
            holder.listen()
        else:
            holder.close()
        monkeypatch.setattr(launcher, "CONSOLE_PORT", first)
        monkeypatch.delenv("WEB_PORT", raising=False)
        store = await open_store(f"sqlite:///{tmp_path / 'p.db'}")
        service = Service(store)
        args = argparse.Namespace(json=True, user="host", chat="console")
        server = await launcher._console_pages(Settings(_env_file=None), args, service)
        try:
            assert server is not None
            assert server.port > first if taken else server.port == first
            assert service.web is not None and service.web.base_url.endswith(
                f":{server.port}")
        finally:
            if server is not None:
                await server.stop()
            await store.close()
