"""Several processes, crashes, concurrent migrations, backups and health (both backends)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from aiohttp import ClientSession

from bot.core.command import Actor, Command
from bot.core.service import Service
from bot.runner import serve_health
from bot.storage import open_store
from bot.storage.transaction.migrations import MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = "asha bikash chandra"


def _env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=database_url)
    return env


def hand_line(i: int) -> str:
    names = PLAYERS.split()
    winner = names[i % 3]
    return f"/hand winner:{winner} seen:{' '.join(names)} maal:asha={i % 7} bikash={i % 5} " \
           f"chandra={i % 3}"


async def console(database_url: str, tmp_path: Path, lines: list[str]) -> list[dict]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", "--json", "--chat", "shared",
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp_path, env=_env(database_url))
    out, err = await process.communicate(("\n".join(lines) + "\n").encode())
    assert process.returncode == 0, err.decode()
    return [json.loads(line) for line in out.decode().splitlines()]


async def consistent_board(database_url: str) -> dict:
    """The board of chat "shared", after checking hands are 1..n and totals their sum."""
    store = await open_store(database_url)
    try:
        async with store.transaction("shared") as tx:
            session = await tx.open_session()
            assert session is not None and session.id is not None
            hands = await tx.all_hands(session.id)
        assert [h.no for h in hands] == list(range(1, session.hand_count + 1))
        sums: dict[int, int] = {}
        for hand in hands:
            assert sum(hand.deltas.values()) == 0
            for seat, points in hand.deltas.items():
                sums[seat] = sums.get(seat, 0) + points
        assert {k: v for k, v in session.totals.items() if v or k in sums} == \
            {k: sums.get(k, 0) for k in session.totals}
        reply = await Service(store).handle(Command("shared", Actor("t:r", "r"), "board"))
        assert reply.board is not None
        return reply.board.to_json()
    finally:
        await store.close()


async def test_two_processes_on_one_chat_lose_and_double_nothing(database_url, tmp_path):
    await console(database_url, tmp_path, [f"/newgame players:{PLAYERS}"])
    first, second = await asyncio.gather(
        console(database_url, tmp_path, [hand_line(i) for i in range(0, 40)]),
        console(database_url, tmp_path, [hand_line(i) for i in range(40, 80)]),
    )
    replies = first + second
    recorded = [r for r in replies if r["ok"]]
    for reply in replies:  # anything refused must say to try again, never fail silently
        assert reply["ok"] or "try again" in reply["error"], reply
    board = await consistent_board(database_url)
    assert board["hand_count"] == len(recorded)
    numbers = sorted(int(r["text"].split(":")[0].split()[1]) for r in recorded)
    assert numbers == list(range(1, len(recorded) + 1))  # every hand number exactly once


async def test_a_killed_process_keeps_every_acknowledged_hand(database_url, tmp_path):
    await console(database_url, tmp_path, [f"/newgame players:{PLAYERS}"])
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", "--json", "--chat", "shared",
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp_path, env=_env(database_url))
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(("\n".join(hand_line(i) for i in range(300)) + "\n").encode())
    await process.stdin.drain()
    acknowledged = 0
    while acknowledged < 25:
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert json.loads(line)["ok"]
        acknowledged += 1
    process.kill()  # SIGKILL, in the middle of the stream
    await process.wait()
    board = await consistent_board(database_url)
    assert acknowledged <= board["hand_count"] < 300
    # the session carries on after a restart
    again = await console(database_url, tmp_path, [hand_line(1)])
    assert again[0]["ok"] and again[0]["board"]["hand_count"] == board["hand_count"] + 1


async def test_migrate_from_three_processes_at_once(database_url, tmp_path):
    processes = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "migrate", cwd=tmp_path, env=_env(database_url),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    results = [await p.communicate() for p in processes]
    for process, (out, err) in zip(processes, results, strict=True):
        assert process.returncode == 0, err.decode()
        assert f"schema version {MIGRATIONS[-1][0]}" in out.decode()
    applied = [out.decode() for out, _ in results if "nothing to apply" not in out.decode()]
    assert len(applied) == 1  # exactly one of them did the work
    health = subprocess.run([sys.executable, "-m", "bot", "health"], capture_output=True,
                            text=True, cwd=tmp_path, env=_env(database_url), timeout=60)
    assert health.returncode == 0 and json.loads(health.stdout)["ok"] is True


async def test_backup_and_restore_a_chat(database_url, tmp_path):
    await console(database_url, tmp_path, [f"/newgame players:{PLAYERS}", hand_line(1),
                                           hand_line(2), "/undo", hand_line(3),
                                           "/rules rate:0.5"])
    before = await consistent_board(database_url)
    backup = tmp_path / "shared.json"
    env = _env(database_url)
    done = subprocess.run([sys.executable, "-m", "bot", "backup", "--chat", "shared", "--out",
                           str(backup)], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    data = json.loads(backup.read_text())
    assert len(data["sessions"][0]["hands"]) == 3  # the undone hand is kept, as undone
    refused = subprocess.run([sys.executable, "-m", "bot", "restore", str(backup)],
                             capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert refused.returncode == 4 and "already has 1 session" in refused.stderr
    restored = subprocess.run([sys.executable, "-m", "bot", "restore", str(backup), "--chat",
                               "copy"], capture_output=True, text=True, cwd=tmp_path, env=env,
                              timeout=60)
    assert restored.returncode == 0, restored.stderr
    store = await open_store(database_url)
    try:
        copy = await Service(store).handle(Command("copy", Actor("t:r", "r"), "board"))
    finally:
        await store.close()
    assert copy.board is not None and copy.board.to_json() == before


async def test_the_health_endpoint(database_url):
    store = await open_store(database_url)
    runner = await serve_health(store, 0)
    try:
        port = runner.addresses[0][1]
        async with ClientSession() as http, http.get(f"http://127.0.0.1:{port}/health") as r:
            assert r.status == 200
            assert (await r.json())["ok"] is True
    finally:
        await runner.cleanup()
        await store.close()


async def test_backup_of_every_chat_and_restore_checked_as_import_checks(database_url,
                                                                        tmp_path):
    """`python -m bot backup` (no --chat): every chat in one file, as a schedule runs it;
    `restore` of it into an empty database puts each chat back, checking each chat as
    /import does (a forged one: nothing restored at all)."""
    from tests.conftest import POSTGRES_URL, _make_schema

    for chat, lines in (("shared", [f"/newgame players:{PLAYERS}", hand_line(1), hand_line(2),
                                    "/undo", hand_line(3), "/rules rate:0.5 currency:Rs",
                                    hand_line(4), "/paid chandra 1 to:asha"]),
                        ("second", ["/newgame tranca teams:ana+cai bea+dev"])):
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "console", "--json", "--chat", chat,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=tmp_path, env=_env(database_url))
        out, err = await process.communicate(("\n".join(lines) + "\n").encode())
        assert all(json.loads(r)["ok"] for r in out.decode().splitlines()), err.decode()
    before = await consistent_board(database_url)
    env = _env(database_url)
    backup = tmp_path / "every.json.gz"
    done = subprocess.run([sys.executable, "-m", "bot", "backup", "--out", str(backup)],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "2 chats backed up (2 sessions)."
    import gzip

    data = json.loads(gzip.decompress(backup.read_bytes()))
    assert data["format"] == "maalbot-all-chats"
    assert [c["chat"] for c in data["chats"]] == ["second", "shared"]
    assert not list(tmp_path.glob(".*.part"))  # written beside, then put in its place

    if database_url.startswith("sqlite"):
        other = f"sqlite:///{tmp_path / 'other.db'}"
    else:
        schema = f"o_{os.getpid()}_{id(tmp_path) % 10_000}"
        await _make_schema(False, schema)
        other = f"{POSTGRES_URL}?search_path={schema}"
    try:
        forged = json.loads(json.dumps(data))
        shared = next(c for c in forged["chats"] if c["chat"] == "shared")
        shared["sessions"][0]["money"] = {"Rs": {"1": "1000005"}}
        (tmp_path / "forged.json").write_text(json.dumps(forged))
        refused = subprocess.run([sys.executable, "-m", "bot", "restore",
                                  str(tmp_path / "forged.json")], capture_output=True,
                                 text=True, cwd=tmp_path, env=_env(other), timeout=60)
        assert refused.returncode == 4, refused.stderr
        assert "chat shared: session 1 (Nepali Marriage): money: the money is not what the " \
               "hands make" in refused.stderr
        restored = subprocess.run([sys.executable, "-m", "bot", "restore", str(backup)],
                                  capture_output=True, text=True, cwd=tmp_path,
                                  env=_env(other), timeout=60)
        assert restored.returncode == 0, restored.stderr
        assert restored.stderr.strip() == "2 chats restored (2 sessions)."
        assert await consistent_board(other) == before
        again = subprocess.run([sys.executable, "-m", "bot", "restore", str(backup)],
                               capture_output=True, text=True, cwd=tmp_path,
                               env=_env(other), timeout=60)
        assert again.returncode == 4 and "already has 1 session" in again.stderr
    finally:
        if not database_url.startswith("sqlite"):
            await _make_schema(True, schema)
