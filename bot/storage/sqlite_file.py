"""The SQLite file can't fail silently.

- Its identity (device and inode) is taken when the store opens; before every command the
  path is looked at again (one stat, about a microsecond): a file deleted with its folder,
  or replaced, stops all recording, and says so, where it used to write on into a file
  nobody will ever read.
- `quick_check` (SQLite's own check of its pages) runs at the start and in `health`: a
  damaged file stops the bot with exit code 7 and what to do.
- A marker beside the file, `<file>.holds-hands`, is written the first time the file holds
  a hand, with when that was. A file that then holds no hand (emptied, truncated to zero,
  replaced by a new one, deleted) is never taken for a new database: the start stops and
  says so, until the file is restored or the marker deleted by someone who means to start
  afresh. (The marker lives beside the file, so a host who copies the folder keeps both;
  one who removes the folder removes both, and a new folder is a new database.)
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.core.i18n import Msg, _
from bot.storage.problems import GONE, StoreProblem

log = logging.getLogger(__name__)
MARKER_SUFFIX = ".holds-hands"


class DatabaseDamaged(Exception):
    """The file is damaged or lost its hands: stop, restore from a backup (exit code 7).
    `message` says what was found and what to do."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


def marker_of(path: Path) -> Path:
    return path.with_name(path.name + MARKER_SUFFIX)


@dataclass
class SqliteFile:
    path: Path
    identity: tuple[int, int] | None = None  # (device, inode) of the file the store opened
    marked: bool = False  # the marker is there (or could not be written: said once)

    def open(self) -> None:
        """Take the file's identity, and whether the marker is there."""
        stat = self.path.stat()
        self.identity = (stat.st_dev, stat.st_ino)
        self.marked = marker_of(self.path).exists()

    def gone(self) -> bool:
        """The file at the path is no longer the one the store writes (or there is none)."""
        if self.identity is None:
            return False
        try:
            stat = os.stat(self.path)
        except OSError:
            return True
        return (stat.st_dev, stat.st_ino) != self.identity

    def check(self) -> None:
        if self.gone():
            raise StoreProblem(GONE)

    def mark(self) -> None:
        """The file holds hands: the marker says so from now on (written once)."""
        if self.marked:
            return
        self.marked = True
        marker = marker_of(self.path)
        try:
            if not marker.exists():
                marker.write_text(json.dumps({
                    "database": str(self.path), "held_hands_since":
                    datetime.now(UTC).isoformat(timespec="seconds"),
                    "note": "Maalbot: this database has held hands. If it holds none now, it "
                            "was emptied or replaced: restore it from a backup. Delete this "
                            "file only to start afresh on purpose."}, indent=1) + "\n")
        except OSError as error:  # a read-only folder: the bot works on, unguarded
            log.warning("could not write %s: %s", marker, error.strerror)


def quick_check(path: Path) -> str | None:
    """What SQLite's quick_check finds wrong with the file, or None when it is sound (or
    not there yet: a new database)."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        db = sqlite3.connect(path, timeout=15)
        try:
            rows = db.execute("PRAGMA quick_check(5)").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            return str(error)  # not a database at all, or pages that don't read
        return None  # busy, read-only, no rights: not damage; opening it says what it is
    # one line: a row may hold several ("*** in database main ***\nOn tree page ...")
    found = [line for r in rows for line in str(r[0]).splitlines() if line.strip()]
    return None if found == ["ok"] else "; ".join(found)[:200]


def held(path: Path) -> str | None:
    """When the file first held a hand, as its marker says; None without a marker."""
    marker = marker_of(path)
    if not marker.exists():
        return None
    try:
        return str(json.loads(marker.read_text()).get("held_hands_since") or "?")
    except (OSError, ValueError, AttributeError):
        return "?"


def lost(path: Path, since: str) -> DatabaseDamaged:
    return DatabaseDamaged(_(
        "The database {file} held hands (the first on {date}) and now holds none: it was "
        "emptied, replaced or deleted. Restore it from a backup (copy the file back, or "
        "python -m bot restore FILE); to start afresh on purpose, delete {marker}.",
        file=str(path), date=since[:10], marker=str(marker_of(path))))


def damaged(path: Path, why: str) -> DatabaseDamaged:
    return DatabaseDamaged(_(
        "The database {file} is damaged (SQLite's check: {why}). Stop the bot and restore "
        "the file from a backup (copy it back, or python -m bot restore FILE into a new "
        "file).", file=str(path), why=why))
