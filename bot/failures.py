"""What goes wrong on the command line, in one line a person can act on, with an exit code
of its own. Tracebacks are for LOG_LEVEL=DEBUG only."""

from __future__ import annotations

import socket
from typing import NoReturn

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

# Exit codes (documented in the README, "Running it").
OK, UNHEALTHY, BAD_SETTING, DATABASE, FILE, PLATFORM, NOTHING = 0, 1, 2, 3, 4, 5, 6


class Failure(Exception):
    """A failure to report as one line and exit with `code`."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def fail(code: int, message: str) -> NoReturn:
    raise Failure(code, message)


def _where(url: str) -> str:
    try:
        parsed = make_url(url)
    except ArgumentError:
        return url
    if parsed.get_backend_name() == "sqlite":
        return f"the SQLite file {parsed.database}"
    return f"PostgreSQL at {parsed.host or 'localhost'}:{parsed.port or 5432}"


def database_failure(url: str, error: BaseException) -> Failure:
    """What a database error means for the person who typed DATABASE_URL."""
    if isinstance(error, Failure):
        return error
    if isinstance(error, ArgumentError):
        return Failure(BAD_SETTING, "DATABASE_URL is not a database URL: write it as "
                                    "sqlite:///maalbot.db or postgresql://user@host/dbname.")
    if isinstance(error, ValueError) and "DATABASE_URL" in str(error):
        return Failure(BAD_SETTING, f"{error}: use sqlite:///maalbot.db or "
                                    "postgresql://user@host/dbname.")
    text = " ".join(str(e) for e in _chain(error))
    kinds = {type(e).__name__ for e in _chain(error)}
    where = _where(url)
    if "unable to open database file" in text:
        return Failure(DATABASE, f"Can't open {where}: does its folder exist, and may this "
                                 "user write there?")
    if kinds & {"ConnectionRefusedError", "ConnectionError", "OSError", "gaierror",
                "TimeoutError", "CannotConnectNowError"} or isinstance(error, socket.gaierror):
        return Failure(DATABASE, f"Can't reach {where}: is the server running, and is "
                                 "DATABASE_URL right?")
    if "InvalidAuthorizationSpecificationError" in kinds or "password authentication" in text:
        return Failure(DATABASE, f"{where} refused the user: {_first_line(text)}. Check the "
                                 "user (and password) in DATABASE_URL.")
    if "InvalidCatalogNameError" in kinds:
        return Failure(DATABASE, f"{where}: {_first_line(text)}. Create it first "
                                 "(createdb NAME) or fix DATABASE_URL.")
    if "InvalidSchemaNameError" in kinds:
        return Failure(DATABASE, f"{where}: the search_path schema in DATABASE_URL does not "
                                 "exist. Create it (CREATE SCHEMA name) or leave it out.")
    return Failure(DATABASE, f"The database ({where}) failed: {_first_line(text)}")


def _chain(error: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "unknown error"
    if line.startswith("(") and ") " in line:  # "(sqlalchemy....Error) role ..." -> "role ..."
        line = line.split(") ", 1)[1]
    return line[:200]
