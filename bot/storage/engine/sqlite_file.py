"""The SQLite file can't fail silently.

- Its identity (device and inode) is taken when the store opens; before every command the
  path is looked at again (one stat, about a microsecond): a file deleted with its folder,
  or replaced, stops all recording, and says so, where it used to write on into a file
  nobody will ever read.
- `quick_check` (SQLite's own check of its pages) runs at the start and in `health`: a
  damaged file stops the bot with exit code 7 and what to do. `health --deep` runs
  `integrity_check`, which also holds each index to its table.
- A record that a command finds damaged (bot/storage/transaction/damage.py) is written down beside
the
  file, `<file>.damaged`: from then on nothing more is recorded, by any process, and the
  start and `health` read every record again: until the file is
  restored and reads whole, they stop with exit code 7 and name what does not read.
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
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.core.i18n import _
from bot.storage.engine.problems import GONE, DatabaseDamaged, StoreProblem

log = logging.getLogger(__name__)
LOOK_EVERY = 1.0  # seconds between two looks at the `.damaged` marker
MARKER_SUFFIX = ".holds-hands"
DAMAGED_SUFFIX = ".damaged"


def marker_of(path: Path) -> Path:
    return path.with_name(path.name + MARKER_SUFFIX)


def damage_marker_of(path: Path) -> Path:
    return path.with_name(path.name + DAMAGED_SUFFIX)


@dataclass
class SqliteFile:
    path: Path
    identity: tuple[int, int] | None = None  # (device, inode) of the file the store opened
    marked: bool = False  # the marker is there (or could not be written: said once)
    # the `.damaged` marker as last looked at (when, what it named): at most once a second
    looked: tuple[float, list[dict[str, Any]] | None] = (-LOOK_EVERY, None)

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

    def damage(self) -> list[dict[str, Any]] | None:
        """The damaged records found in this file, by this process or another (its
        `.damaged` marker), or None: none found. Looked at once a second at most (reading
        it costs more than a command's writes take to commit; another process's finding is
        seen a second late at most)."""
        now = time.monotonic()
        when, found = self.looked
        if now - when >= LOOK_EVERY:
            found = found_damage(self.path)
            self.looked = (now, found)
        return found

    def found(self, damage: list[dict[str, Any]]) -> None:
        """Damaged records were found: written beside the file, so that nothing more is
        recorded into it, by any process, until it is restored."""
        marker = damage_marker_of(self.path)
        try:
            marker.write_text(json.dumps({
                "database": str(self.path),
                "found_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "damaged": damage,
                "note": "Maalbot: records of this database do not read back. Restore it "
                        "from a backup; the bot reads every record again when it starts, "
                        "and deletes this file once they all read."}, indent=1) + "\n")
        except OSError as error:  # the process still stops recording (the store knows)
            log.warning("could not write %s: %s", marker, error.strerror)

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


def found_damage(path: Path) -> list[dict[str, Any]] | None:
    """The damaged records the file's `.damaged` marker names (None: no marker)."""
    try:
        data = json.loads(damage_marker_of(path).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return []  # a marker that doesn't read: damage was found, what is not known
    found = data.get("damaged") if isinstance(data, dict) else None
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def quick_check(path: Path) -> str | None:
    """What SQLite's quick_check finds wrong with the file, or None when it is sound (or
    not there yet: a new database)."""
    return _check(path, "quick_check")


def integrity_check(path: Path) -> str | None:
    """What SQLite's integrity_check finds wrong: quick_check's, and every index held to
    its table (a number changed in a row). It reads the file more than once over."""
    return _check(path, "integrity_check")


def _check(path: Path, pragma: str) -> str | None:
    """The pragma's findings; and the schema's own text, which neither pragma reads: a
    table's definition overwritten reads as a table without its columns."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        db = sqlite3.connect(path, timeout=15)
        try:
            rows = db.execute(f"PRAGMA {pragma}(5)").fetchall()
            db.text_factory = bytes
            schema = db.execute("SELECT name, sql FROM sqlite_schema").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
        if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            return str(error)  # not a database at all, or pages that don't read
        return None  # busy, read-only, no rights: not damage; opening it says what it is
    except UnicodeDecodeError as error:  # SQLite's own message quotes bytes that aren't text
        return bytes(error.object).decode("utf-8", "replace")[:200]
    # one line: a row may hold several ("*** in database main ***\nOn tree page ...")
    found = [line for r in rows for line in str(r[0]).splitlines() if line.strip()]
    if found != ["ok"]:
        return "; ".join(found)[:200]
    for name, sql in schema:
        try:
            name.decode("utf-8"), sql is None or sql.decode("utf-8")
        except (UnicodeDecodeError, AttributeError):
            return f"the schema's entry {name.decode('utf-8', 'replace')[:40]!r} is not text"
    return None


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


def unreadable_records(where: str, found: list[str], count: int) -> DatabaseDamaged:
    """Records that do not read back (`found`: the first few, one line each)."""
    return DatabaseDamaged(_(
        "The database {where} holds damaged records that can't be read ({count} found; "
        "{first}). Stop the bot and restore it from a backup (copy the file back, or "
        "python -m bot restore FILE into a new database).", where=where, count=count,
        first="; ".join(found[:3])))
