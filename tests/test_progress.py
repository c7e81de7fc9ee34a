"""`python -m bot restore` and `backup` tell how far they are on stderr, as a big /import
does: a line at a time in a log, one line rewritten on a terminal, then how it ended; a
restore refused late in the file says nothing was written (both backends, through the
command line's own entry, with chunks and batches far smaller than the file)."""

from __future__ import annotations

import asyncio
import io
import json
import os
from pathlib import Path

import pytest

import bot.progress as progress
import bot.storage.chats.backup as backup
import bot.storage.chats.reading as reading
import bot.storage.chats.restore as restore
from bot.__main__ import main
from bot.core.service import Service
from bot.failures import FILE, OK
from bot.storage import open_store
from tests.conftest import Table
from tests.storage.chats.test_import_batches import grown
from tests.storage.chats.test_restore import count
from tests.storage.chats.test_validate import exported, import_into


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, database_url: str) -> str:
    """The command line's settings: this database, English, no .env; a line of progress at
    every step, every 2 hands read and written, chunks far smaller than the file."""
    monkeypatch.chdir(tmp_path)
    for name in [k for k in os.environ if k.startswith(("LC_", "DATABASE_", "TELEGRAM_",
                                                         "DISCORD_", "LOG_", "HEALTH_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("LANG", "C")
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    monkeypatch.setattr(reading, "STEP", 2)  # hands read between two steps
    monkeypatch.setattr(reading, "CHUNK", 256)
    monkeypatch.setattr(reading, "MAX_VALUE", 3_000)
    monkeypatch.setattr(restore, "BATCH", 2)  # hands written at a time
    monkeypatch.setattr(backup, "PAGE", 2)  # hands read at a time
    return database_url


def with_store(url: str, work):  # type: ignore[no-untyped-def]
    """`work(table)` on the database, in an event loop of its own (main runs its own)."""
    async def run():  # type: ignore[no-untyped-def]
        store = await open_store(url)
        try:
            return await work(Table(Service(store)))
        finally:
            await store.close()
    return asyncio.run(run())


async def two_chats(table: Table) -> dict:
    """A backup of every chat: big, 9 hands, then chat-1, 2 hands (chats in name order),
    each renamed `<chat>-copy` to be restored beside them."""
    data = await exported(table)
    assert (await import_into(table.service, "big", json.dumps(grown(data, 9)).encode())).ok
    written: list[str] = []
    assert await backup.backup_all(table.service.store.engine, written.append) == (2, 2)
    every = json.loads("".join(written))
    for chat in every["chats"]:
        chat["chat"] += "-copy"
    return every


def lines(err: str) -> list[str]:
    assert "Traceback" not in err, err
    return err.splitlines()


# read: 9 hands of big-copy, then 2 of chat-1-copy, told every 2 hands of a chat
READ = [f"Reading and checking the file: {n} hands so far…" for n in (2, 4, 6, 8, 11)]


def test_a_restore_tells_the_hands_read_and_written_then_what_it_restored(
        cli: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    every = with_store(cli, two_chats)
    path = tmp_path / "every.json"
    path.write_text(json.dumps(every))
    capsys.readouterr()
    assert main(["restore", str(path)]) == OK
    # written: big-copy's 9 in batches of 2 and its last one alone, then chat-1-copy's 2
    assert lines(capsys.readouterr().err) == [
        *READ,
        *(f"Restoring: {n} of 11 hands…" for n in (2, 4, 6, 8, 9, 11)),
        "2 chats restored (2 sessions).",
    ]
    assert with_store(cli, lambda t: count(t, "big-copy")) == (1, 9)
    assert with_store(cli, lambda t: count(t, "chat-1-copy")) == (1, 2)


def test_a_restore_refused_at_the_last_hand_says_nothing_was_written(
        cli: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    every = with_store(cli, two_chats)
    every["chats"][1]["sessions"][0]["hands"][-1]["deltas"]["1"] += 1  # not zero-sum
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(every))
    capsys.readouterr()
    assert main(["restore", str(path)]) == FILE
    said = lines(capsys.readouterr().err)
    # big-copy's 9 hands went in before the last hand was read: they are gone again
    assert said[:-1] == [*READ, *(f"Restoring: {n} of 11 hands…" for n in (2, 4, 6, 8, 9))]
    assert said[-1] == ("Not restored: chat chat-1-copy: session 1 (Nepali Marriage), hand "
                        "entry 2: the points don't add up to zero. Nothing was written.")
    assert with_store(cli, lambda t: count(t, "big-copy")) == (0, 0)
    assert with_store(cli, lambda t: count(t, "chat-1-copy")) == (0, 0)


def test_on_a_terminal_the_progress_is_one_line_rewritten(
        cli: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    every = with_store(cli, two_chats)
    path = tmp_path / "one.json"
    path.write_text(json.dumps(every["chats"][1]))  # chat-1: 2 hands
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["restore", str(path), "--chat", "again"]) == OK
    assert terminal.getvalue() == (
        "\rReading and checking the file: 2 hands so far…\x1b[K"
        "\rRestoring: 2 of 2 hands…\x1b[K\n"
        "1 session restored into again.\n")
    # refused before anything is read again: the line is ended before the reason
    terminal.truncate(0)
    terminal.seek(0)
    assert main(["restore", str(path), "--chat", "again"]) == FILE
    assert terminal.getvalue() == (
        "\rReading and checking the file: 2 hands so far…\x1b[K\n"
        "Not restored: chat again already has 1 session; restore into an empty chat. "
        "Nothing was written.\n")


def test_a_backup_tells_the_hands_written(cli: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]):
    with_store(cli, two_chats)
    capsys.readouterr()
    out = tmp_path / "big.json"
    assert main(["backup", "--chat", "big", "--out", str(out)]) == OK
    assert lines(capsys.readouterr().err) == [
        *(f"Backing up: {n} of 9 hands…" for n in (2, 4, 6, 8)),
        "1 session of big backed up.",
    ]
    assert len(json.loads(out.read_text())["sessions"][0]["hands"]) == 9
    # every chat: big's 9 hands, then chat-1's 2
    assert main(["backup", "--out", str(tmp_path / "all.json")]) == OK
    assert lines(capsys.readouterr().err) == [
        *(f"Backing up: {n} of 11 hands…" for n in (2, 4, 6, 8, 10)),
        "2 chats backed up (2 sessions).",
    ]


def test_a_quick_command_says_only_how_it_ended(monkeypatch: pytest.MonkeyPatch):
    """Lines come every EVERY seconds, the first only once that long has gone by."""
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    log = io.StringIO()
    told = progress.Progress(log)
    told("1 hand")
    clock[0] += progress.EVERY
    told("2 hands")
    clock[0] += progress.EVERY / 2
    told("3 hands")
    clock[0] += progress.EVERY / 2
    told("4 hands")
    told.end()
    assert log.getvalue() == "2 hands\n4 hands\n"
