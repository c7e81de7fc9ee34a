"""What goes wrong on the command line, in one line a person can act on, with an exit code
of its own. Tracebacks are for LOG_LEVEL=DEBUG only."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from typing import NoReturn

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.core.i18n import Joined, Msg, Text, Tr, _, choose, translator
from bot.storage.engine.problems import causes

# Exit codes (documented in docs/hosting/running.md, "The commands").
OK, UNHEALTHY, BAD_SETTING, DATABASE, FILE, PLATFORM, NOTHING, DAMAGED = 0, 1, 2, 3, 4, 5, 6, 7


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the command line's own messages (and of a console chat that has set
    none): the first of LC_ALL, LC_MESSAGES, LANG that is set, as "pt_BR" of
    "pt_BR.UTF-8"; English for C, POSIX or one we don't speak."""
    environ = os.environ if environ is None else environ
    found = next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)),
                 "")
    return choose(None, found.split(".")[0].split("@")[0] or None)


def cli_tr() -> Tr:
    """The translator for messages that answer no chat (arguments, startup, failures)."""
    return translator(environment_language())


class Failure(Exception):
    """A failure to report as one line and exit with `code`; `message` is lazy text, shown
    in the environment's language (cli_tr)."""

    def __init__(self, code: int, message: Text) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message


def fail(code: int, message: Text) -> NoReturn:
    raise Failure(code, message)


def lazy(error: BaseException) -> Text:
    """An exception's message as raised: a lazy message (`ValueError(_("..."))`) stays one,
    to be shown in the reader's language; anything else is its own words."""
    if len(error.args) == 1 and isinstance(error.args[0], Msg | Joined):
        return error.args[0]
    return str(error)


def _where(url: str) -> Text:
    try:
        parsed = make_url(url)
    except ArgumentError:
        return url
    if parsed.get_backend_name() == "sqlite":
        return _("the SQLite file {file}", file=str(parsed.database))
    return _("PostgreSQL at {host}:{port}", host=parsed.host or "localhost",
             port=str(parsed.port or 5432))


def database_failure(url: str, error: BaseException) -> Failure:
    """What a database error means for the person who typed DATABASE_URL."""
    if isinstance(error, Failure):
        return error
    if isinstance(error, ArgumentError):
        return Failure(BAD_SETTING, _("DATABASE_URL is not a database URL: write it as "
                                      "sqlite:///maalbot.db or postgresql://user@host/dbname."))
    if isinstance(error, ValueError) and "DATABASE_URL" in str(error):
        return Failure(BAD_SETTING, _("{error}: use sqlite:///maalbot.db or "
                                      "postgresql://user@host/dbname.", error=lazy(error)))
    from bot.storage.engine.problems import DAMAGED as DAMAGED_TEXT
    from bot.storage.engine.problems import DatabaseDamaged, problem

    if isinstance(error, DatabaseDamaged):  # what was found, and to restore from a backup
        return Failure(DAMAGED, error.message)
    text = " ".join(str(e) for e in causes(error))
    kinds = {type(e).__name__ for e in causes(error)}
    where = _where(url)
    known = problem(error)
    if known is DAMAGED_TEXT:
        return Failure(DAMAGED, _("{where}: {problem}", where=where, problem=known))
    if known is not None and "unable to open database file" not in text:
        # read-only, rights taken away, a full disk, busy: what the host must do
        return Failure(DATABASE, _("{where}: {problem}", where=where, problem=known))
    if "unable to open database file" in text:
        return Failure(DATABASE, _("Can't open {where}: does its folder exist, and may this "
                                   "user write there?", where=where))
    if kinds & {"ConnectionRefusedError", "ConnectionError", "OSError", "gaierror",
                "TimeoutError", "CannotConnectNowError"} or isinstance(error, socket.gaierror):
        return Failure(DATABASE, _("Can't reach {where}: is the server running, and is "
                                   "DATABASE_URL right?", where=where))
    # the server's own words (first_line) are as the server says them
    if "InvalidAuthorizationSpecificationError" in kinds or "password authentication" in text:
        return Failure(DATABASE, _("{where} refused the user: {why}. Check the user (and "
                                   "password) in DATABASE_URL.", where=where,
                                   why=_first_line(text)))
    if "InvalidCatalogNameError" in kinds:
        return Failure(DATABASE, _("{where}: {why}. Create it first (createdb NAME) or fix "
                                   "DATABASE_URL.", where=where, why=_first_line(text)))
    if "InvalidSchemaNameError" in kinds:
        return Failure(DATABASE, _("{where}: the search_path schema in DATABASE_URL does not "
                                   "exist. Create it (CREATE SCHEMA name) or leave it out.",
                                   where=where))
    return Failure(DATABASE, _("The database ({where}) failed: {why}", where=where,
                               why=_first_line(text)))


def _first_line(text: str) -> Text:
    if not text.strip():
        return _("unknown error")
    line = text.strip().splitlines()[0]
    if line.startswith("(") and ") " in line:  # "(sqlalchemy....Error) role ..." -> "role ..."
        line = line.split(") ", 1)[1]
    return line[:200]
