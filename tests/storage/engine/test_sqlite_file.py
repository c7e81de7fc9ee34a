"""The SQLite file can't fail silently (issue 29): each fault made for real, on a real file:
its folder removed while the bot runs, the file truncated to zero, bytes flipped in the
middle, a read-only file, a full disk; and a write lock held by a second process (both
backends)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.storage.engine.database as database
from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.failures import DAMAGED
from bot.storage import open_store
from bot.storage.engine.problems import BUSY, FULL, GONE, READ_ONLY
from bot.storage.engine.sqlite_file import marker_of
from bot.storage.store.health import check_health, engine_health
from tests.test_cli import bot, one_line

HOST = Actor("test:host", "host", is_admin=True, by_name=True)
HAND = "/hand winner:alice seen:bob maal:alice=3 bob=1"


class Chat:
    def __init__(self, service: Service) -> None:
        self.service, self.sent = service, 0

    async def __call__(self, line: str):  # type: ignore[no-untyped-def]
        self.sent += 1
        parsed = parse_command_text(line)
        return await self.service.handle(Command("chat", HOST, parsed.name, parsed.options,
                                                 origin_id=f"o{self.sent}"))


def console_lines(db: Path, *lines: str) -> subprocess.CompletedProcess[str]:
    return bot("console", "--json", "--db", str(db), stdin="\n".join(lines) + "\n")


def record(db: Path, hands: int) -> None:
    done = console_lines(db, "/newgame players:alice bob carol", *[HAND] * hands)
    assert done.returncode == 0 and done.stdout.count('"ok": true') == hands + 1, done.stderr


async def test_a_removed_folder_stops_recording_says_so_and_health_fails(tmp_path: Path):
    folder = tmp_path / "data"
    folder.mkdir()
    store = await open_store(f"sqlite:///{folder / 'maalbot.db'}")
    try:
        chat = Chat(Service(store))
        assert (await chat("/newgame players:alice bob carol")).ok
        assert (await chat(HAND)).ok
        assert (await engine_health(store.engine, store.file))["ok"]
        shutil.rmtree(folder)  # every file of the database goes with it
        reply = await chat(HAND)
        assert not reply.ok and reply.text == str(GONE)  # never "Hand 2", into nowhere
        assert (await chat("/board")).text == str(GONE)
        report = await engine_health(store.engine, store.file)
        assert not report["ok"] and "removed or replaced" in report["error"]
        folder.mkdir()  # a new folder and file at the same path are not the same file
        (folder / "maalbot.db").write_bytes(b"")
        assert (await chat(HAND)).text == str(GONE)
    finally:
        await store.close()


def test_a_file_truncated_to_zero_is_never_taken_for_a_new_one(tmp_path: Path):
    db = tmp_path / "maalbot.db"
    record(db, 30)
    assert json.loads(marker_of(db).read_text())["held_hands_since"]
    os.truncate(db, 0)
    health = bot("health", env={"DATABASE_URL": f"sqlite:///{db}"})
    assert health.returncode == DAMAGED, health.stderr  # restore it from a backup
    report = json.loads(health.stdout)
    assert not report["ok"] and "held hands" in report["error"] and "now holds none" in \
        report["error"]
    started = console_lines(db, "/board")
    assert started.returncode == DAMAGED and started.stdout == ""
    line = one_line(started)  # one line, no traceback: what happened and what to do
    assert "held hands" in line and "Restore it from a backup" in line
    assert f"delete {marker_of(db)}" in line
    assert db.stat().st_size == 0  # and nothing was made of it
    # a new, empty database in its place (tables, no hands) is no better
    db.unlink()
    marker = marker_of(db).read_text()
    marker_of(db).unlink()
    assert console_lines(db, "/board").returncode == 0  # a new database: its tables
    marker_of(db).write_text(marker)
    assert console_lines(db, "/board").returncode == DAMAGED
    marker_of(db).unlink()  # the host means to start afresh: said by deleting the marker
    assert console_lines(db, "/board").returncode == 0


def test_bytes_flipped_in_the_middle_stop_the_start_and_fail_health(tmp_path: Path):
    db = tmp_path / "maalbot.db"
    record(db, 200)
    size = db.stat().st_size
    with db.open("r+b") as file:  # a run of pages in the middle, overwritten
        file.seek(size // 2 // 4096 * 4096)
        file.write(os.urandom(3 * 4096))
    health = bot("health", env={"DATABASE_URL": f"sqlite:///{db}"})
    assert health.returncode == DAMAGED
    assert "is damaged (SQLite's check:" in json.loads(health.stdout)["error"]
    started = console_lines(db, HAND)
    assert started.returncode == DAMAGED, started.stderr
    assert "Restore the file from a backup" in one_line(started) or \
        "restore the file from a backup" in one_line(started)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB filesystem of its own (tmpfs), for a disk that fills up for real."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"can't mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


async def test_a_full_disk_says_so_and_works_again_once_there_is_room(small_disk: Path):
    store = await open_store(f"sqlite:///{small_disk / 'maalbot.db'}")
    try:
        chat = Chat(Service(store))
        assert (await chat("/newgame players:alice bob carol")).ok
        assert (await chat(HAND)).ok
        filler = small_disk / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=4096"], capture_output=True)
        for _ in range(3):  # however often: what the host must do, never "try again"
            reply = await chat(HAND)
            assert not reply.ok and reply.text == str(FULL), reply.text
        filler.unlink()
        again = await chat(HAND)
        assert again.ok and again.text.startswith("Hand 2:"), again.text  # none was lost
    finally:
        await store.close()


def test_a_read_only_file_says_what_the_host_must_do_without_a_traceback(tmp_path: Path):
    db = tmp_path / "maalbot.db"
    record(db, 1)
    # the file alone made read-only (a bind mount of it, read-only): root can't write it
    bound = subprocess.run(f"mount --bind {db} {db} && mount -o remount,ro,bind {db}",
                           shell=True, capture_output=True, text=True)
    if bound.returncode != 0:
        pytest.skip(f"can't bind-mount here: {bound.stderr.strip()}")
    try:
        ran = console_lines(db, HAND, "/board")
    finally:
        subprocess.run(["umount", str(db)], capture_output=True)
    replies = [json.loads(line) for line in ran.stdout.splitlines()]
    assert replies[0] == {"ok": False, "error": str(READ_ONLY), "language": "en"}
    assert replies[1]["ok"] and replies[1]["board"]["hand_count"] == 1  # reading still works
    assert "Traceback" not in ran.stderr
    assert ran.stderr.count("\n") == 1 and "attempt to write a readonly database" in ran.stderr


HOLD = """
import sys, time
url = sys.argv[1]
if url.startswith("sqlite"):
    import sqlite3
    db = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")  # the write lock, as another program would take it
else:
    import asyncio, asyncpg
    async def hold():
        base, _, schema = url.partition("?search_path=")
        conn = await asyncpg.connect(base.replace("postgresql://", "postgres://"))
        await conn.execute("BEGIN")
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('chat', 0))")
        print("held", flush=True)
        await asyncio.sleep(30)
    asyncio.run(hold())
print("held", flush=True)
time.sleep(30)
"""


async def test_a_write_lock_held_elsewhere_for_30_s_is_said_not_recorded(database_url: str,
                                                                          monkeypatch):
    """Another process holds the write lock (SQLite) or the chat's lock (PostgreSQL) for
    30 s. The command gives up after its statement limit (here 2 s, 15 in the bot), and the
    check after it reads without waiting for that lock: "nothing was recorded", at once."""
    monkeypatch.setattr(database, "STATEMENT_SECONDS", 2)
    store = await open_store(database_url)
    holder = None
    try:
        chat = Chat(Service(store))
        assert (await chat("/newgame players:alice bob carol")).ok
        holder = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOLD, database_url, stdout=subprocess.PIPE)
        assert holder.stdout is not None
        assert (await asyncio.wait_for(holder.stdout.readline(), 30)).strip() == b"held"
        started = time.monotonic()
        reply = await chat(HAND)
        waited = time.monotonic() - started
        assert not reply.ok and "nothing was recorded" in reply.text, reply.text
        if store.backend == "sqlite":
            assert reply.text == str(BUSY)
        assert waited < 10, waited  # the statement limit, not twice, and never 30 s
        holder.kill()
        await holder.wait()
        holder = None
        board = await chat("/board")
        assert board.board is not None and board.board.hand_count == 0  # said, and so
        assert (await chat(HAND)).text.startswith("Hand 1:")
    finally:
        if holder is not None:
            holder.kill()
            await holder.wait()
        await store.close()


async def test_health_runs_quick_check_and_reports_a_missing_file(tmp_path: Path):
    db = tmp_path / "nothing.db"
    report = await check_health(f"sqlite:///{db}")
    assert not report["ok"] and "does not exist" in report["error"]
    assert not db.exists()  # a health check never makes the file it looks for
