"""What the store can't do, said so a person knows what happened and the host what to do.

A failure the host must mend (a read-only file, rights taken away, a full disk, a damaged
or vanished file) is not "try again in a moment": `problem` names it. Each message says
whether anything was recorded; none names a path (they are shown in chats).

A stored value that does not read back (not UTF-8, not JSON, not the shape of its record)
is `Unreadable`: the database holds it damaged (bot/storage/transaction/damage.py says which
record)."""

from __future__ import annotations

import sqlite3
from typing import Any

from bot.core import stored_json
from bot.core.i18n import Msg, _

GONE = _("The database file was removed or replaced while I was running, so nothing more "
         "is recorded. The host must restore it from a backup and restart me.")
DAMAGED = _("The database file is damaged, so nothing more is recorded. The host must stop "
            "me and restore it from a backup.")
READ_ONLY = _("The database is read-only: nothing was recorded. The host must let the bot's "
              "user write to it (the file and its folder).")
NO_RIGHTS = _("I may no longer open the database: nothing was recorded. The host must give "
              "the bot's user back its rights to the file and its folder.")
FULL = _("The database's disk is full: nothing was recorded. The host must free some space; "
         "then it works again.")
BUSY = _("The database is busy (another program holds it): nothing was recorded. Try again "
         "in a moment; if it goes on, the host must see what holds it.")


class Unreadable(Exception):
    """A stored value or record that does not read back as what was written; its table
    and row, where the reader knows them."""

    def __init__(self, why: str, table: str | None = None, row: object = None) -> None:
        super().__init__(why)
        self.table, self.row = table, row


def loads(text: str | bytes) -> Any:
    """A stored JSON value read back; one that does not read is Unreadable."""
    try:
        return stored_json.loads(text)
    except Exception as error:  # not text, not JSON: whatever the reader says
        raise Unreadable(f"not JSON: {str(error)[:80]}") from error


def unreadable(error: BaseException) -> bool:
    """`error` is the database holding something damaged: a value that does not read back
    (our readers', or SQLite's "Could not decode to UTF-8"), or pages that don't read."""
    for found in causes(error):
        if isinstance(found, Unreadable):
            return True
        code = getattr(found, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_CORRUPT,
                                                     sqlite3.SQLITE_NOTADB):
            return True
        text = str(found).lower()
        if "could not decode to utf-8" in text or "disk image is malformed" in text \
                or "couldn't parse datetime" in text:
            return True
    return False


def causes(error: BaseException) -> list[BaseException]:
    """`error` and what it was raised from or during, each once."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


class DatabaseDamaged(Exception):
    """The database is damaged or lost its hands: stop, restore from a backup (exit code
    7). `message` says what was found and what to do (to the host: it may name paths)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


class StoreProblem(Exception):
    """A failure of the database itself, found before anything was written (a vanished
    file): `message` says what, in the reader's language."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


def problem(error: BaseException) -> Msg | None:
    """The message for a failure the host must mend (or a busy database), else None."""
    chain = causes(error)
    for found in chain:
        if isinstance(found, StoreProblem):
            return found.message
    if unreadable(error):
        return DAMAGED
    text = " ".join(str(e) for e in chain).lower()
    # SQLite's primary result codes (an extended one keeps its primary in its low byte)
    codes = {code & 0xFF for e in chain
             if isinstance(code := getattr(e, "sqlite_errorcode", None), int)}
    kinds = {type(e).__name__ for e in chain}
    if codes & {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB} \
            or "malformed" in text or "file is not a database" in text:
        return DAMAGED
    if codes & {sqlite3.SQLITE_FULL} or "database or disk is full" in text \
            or "DiskFullError" in kinds or "no space left" in text:
        return FULL
    if codes & {sqlite3.SQLITE_READONLY} or "readonly database" in text \
            or "ReadOnlySQLTransactionError" in kinds:
        return READ_ONLY
    if codes & {sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH} \
            or "unable to open database file" in text \
            or "InsufficientPrivilegeError" in kinds:
        return NO_RIGHTS
    if codes & {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED} or "database is locked" in text:
        return BUSY
    return None
