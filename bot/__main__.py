"""`python -m bot [console|run|migrate|health|backup|restore]`: build everything and run it.

With no subcommand: the chat platforms whose tokens are set, or the console when none is.
Whatever goes wrong is one line on stderr and an exit code of its own (bot/failures.py);
a traceback only with LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import io
import json
import logging
import os
import sys
import traceback
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.core.i18n import Tr, _, _n
from bot.failures import (
    BAD_SETTING,
    DAMAGED,
    FILE,
    NOTHING,
    OK,
    UNHEALTHY,
    Failure,
    cli_tr,
    database_failure,
)
from bot.logs import setup_logging
from bot.progress import Progress
from bot.settings import Settings, setting_problem

log = logging.getLogger("bot")
CONSOLE_PORT = 8731  # the console's pages, unless WEB_PORT says: the same port every run
CONSOLE_PORTS = 20  # taken (another console, another program): the next free of so many


def default_files() -> Path:
    """Where the console writes charts and exports: the user's data folder, never the
    project's tree or wherever it happens to be run."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "maalbot" / "files"


def _parser(tr: Tr) -> argparse.ArgumentParser:
    """The arguments, their help in the environment's language (`tr`)."""
    parser = argparse.ArgumentParser(prog="python -m bot",
                                     description=tr("Maalbot scorekeeper"))
    sub = parser.add_subparsers(dest="command")
    console = sub.add_parser("console",
                             help=tr("keep score in this terminal (no token needed)"))
    console.add_argument("--db", help=tr("SQLite file to use (default: DATABASE_URL)"))
    console.add_argument("--user", default="host",
                         help=tr("your name at the table (default host)"))
    console.add_argument("--json", action="store_true",
                         help=tr("print one JSON object per reply"))
    console.add_argument("--chat", default="console", help=tr("which chat's session to use"))
    console.add_argument("--no-web", action="store_true",
                         help=tr("no scorepad or scoreboard pages on 127.0.0.1"))
    console.add_argument("--files", default=None,
                         help=tr("folder for charts and exports (default {folder})",
                                 folder=str(default_files())))
    sub.add_parser("run", help=tr("run the chat platforms whose tokens are set"))
    sub.add_parser("migrate", help=tr("bring the database up to date"))
    health = sub.add_parser("health",
                            help=tr("check the database; print JSON; exit 0 when healthy"))
    health.add_argument("--deep", action="store_true",
                        help=tr("also run SQLite's integrity_check and read every stored "
                                "record back"))
    backup = sub.add_parser("backup", help=tr("write every chat (or one) as JSON"))
    backup.add_argument("--chat", help=tr("only this chat, e.g. telegram:-100123 or "
                                          "discord:456"))
    backup.add_argument("--out", help=tr("file to write (default: standard output); "
                                         "ending in .gz: compressed"))
    restore = sub.add_parser("restore", help=tr("restore a backup into empty chats"))
    restore.add_argument("file", help=tr("a file written by backup"))
    restore.add_argument("--chat", help=tr("a one-chat file: restore into this chat instead "
                                           "of the original; a file of every chat: restore "
                                           "only this chat"))
    return parser


async def _store(url: str):  # type: ignore[no-untyped-def]
    from bot.storage import open_store

    try:
        return await open_store(url)
    except Exception as error:
        raise database_failure(url, error) from error


async def _console(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import run_console
    from bot.core.service import Service

    if settings.log_level != "DEBUG":  # the console's replies are on stdout; keep stderr quiet
        logging.getLogger("bot.core.service").setLevel(logging.WARNING)
        logging.getLogger("bot.web").setLevel(logging.WARNING)
    from bot.console_key import console_secret

    url = f"sqlite:///{args.db}" if args.db else settings.database_url
    store = await _store(url)
    # its pages' links outlive a restart: BUTTON_SECRET, else a key kept with the database
    secret = settings.button_key() if settings.button_secret else \
        console_secret(url, default_files().parent)
    service = Service(store, secret=secret)
    server = None
    try:
        # a person's console has its pages; --json (scripts, tests) only when WEB_PORT asks
        if not args.no_web and (not args.json or settings.web_port):
            server = await _console_pages(settings, args, service)
        return await run_console(service, args.user, args.json, chat=args.chat,
                                 files=Path(args.files) if args.files else default_files())
    finally:
        if server is not None:
            await server.stop()
        await store.close()


async def _console_pages(settings: Settings, args: argparse.Namespace,
                         service: Any) -> Any:
    """The console's web pages on 127.0.0.1 (WEB_PORT, else CONSOLE_PORT or the next free
    port after it: the same each run, so yesterday's links open today), and their links
    for the console's table: stdout for a person, stderr beside --json's replies."""
    from bot.console import ConsoleFace, console_actor, page_links
    from bot.runner import web_limits
    from bot.web.faces import platform_of
    from bot.web.server import WebServer

    tr = cli_tr()
    face = ConsoleFace(sys.stdout, args.json, console_actor(args.user))
    ports = [settings.web_port] if settings.web_port else \
        range(CONSOLE_PORT, CONSOLE_PORT + CONSOLE_PORTS)
    problem: OSError | None = None
    for port in ports:
        base = settings.web_url or f"http://127.0.0.1:{port}"
        server = WebServer(service, base_url=base, secret=service.secret, host="127.0.0.1",
                           port=port, faces={platform_of(args.chat): face},
                           local=(args.chat, console_actor(args.user)),
                           limits=web_limits(settings))
        try:
            await server.start()
            break
        except OSError as error:  # taken: the next one
            problem = error
            await server.stop()
    else:  # none free: the console works without its pages
        print(tr("No web pages: {why}", why=str(problem)), file=sys.stderr)
        return None
    links = await page_links(service, args.chat, args.user)
    if links is not None:
        out = sys.stderr if args.json else sys.stdout
        print(tr("Scorepad: {link}", link=links[0]), file=out)
        print(tr("Scoreboard: {link}", link=links[1]), file=out)
    return server


async def _migrate(settings: Settings) -> int:
    from bot.storage.engine.database import create_engine
    from bot.storage.transaction.migrations import current_version, upgrade

    url = settings.database_url
    try:
        engine = create_engine(url)
    except Exception as error:
        raise database_failure(url, error) from error
    try:
        applied = await upgrade(engine)
        version = await current_version(engine)
    except Exception as error:
        raise database_failure(url, error) from error
    finally:
        await engine.dispose()
    tr = cli_tr()
    if applied:
        print(tr("Database at schema version {version} (applied {applied}).",
                 version=version, applied=", ".join(map(str, applied))))
    else:
        print(tr("Database at schema version {version} (nothing to apply).", version=version))
    return OK


async def _health(settings: Settings, deep: bool) -> int:
    from bot.storage.store.health import check_health

    try:
        report = await check_health(settings.database_url, deep=deep)
    except Exception as error:
        raise database_failure(settings.database_url, error) from error
    print(json.dumps(report))
    if report["ok"]:
        return OK
    return DAMAGED if report.get("damaged") else UNHEALTHY  # damaged: restore from a backup


async def _backup(settings: Settings, args: argparse.Namespace) -> int:
    from bot.storage.chats.backup import backup_chat
    from bot.storage.engine.database import create_engine
    from bot.storage.transaction.migrations import upgrade

    url = settings.database_url
    if args.chat is None:
        return await _backup_all(url, args.out)
    progress = Progress()
    with _output(args.out) as write:  # a chat with no games: no file, the old one kept
        try:
            engine = create_engine(url)
            try:
                await upgrade(engine)  # a database never used yet has nothing, not an error
                count = await backup_chat(engine, args.chat, write, _backing_up(progress))
            finally:
                await engine.dispose()
                progress.end()
        except Exception as error:
            raise database_failure(url, error) from error
        if not count:
            raise Failure(NOTHING, _("Chat {chat} has no games to back up (chats look like "
                                     "telegram:-100123 or discord:456).", chat=args.chat))
    print(cli_tr().render(_n("{n} session of {chat} backed up.",
                             "{n} sessions of {chat} backed up.", count,
                             chat=args.chat)), file=sys.stderr)
    return OK


async def _backup_all(url: str, out: str | None) -> int:
    """Every chat into one file (a schedule runs this: docs/hosting/running.md,
    "A backup every night")."""
    from bot.storage.chats.backup import backup_all
    from bot.storage.engine.database import create_engine
    from bot.storage.transaction.migrations import upgrade

    progress = Progress()
    with _output(out) as write:
        try:
            engine = create_engine(url)
            try:
                await upgrade(engine)
                chats, sessions = await backup_all(engine, write, _backing_up(progress))
            finally:
                await engine.dispose()
                progress.end()
        except Exception as error:
            raise database_failure(url, error) from error
    tr = cli_tr()
    print(tr.render(_("{chats} backed up ({sessions}).",
                      chats=_n("{n} chat", "{n} chats", chats),
                      sessions=_n("{n} session", "{n} sessions", sessions))), file=sys.stderr)
    return OK


def _backing_up(progress: Progress) -> Callable[[int, int], None]:
    tr = cli_tr()
    return lambda done, total: progress(tr("Backing up: {done} of {total} hands…",
                                           done=tr.number(done), total=tr.number(total)))


@contextmanager
def _output(out: str | None) -> Iterator[Callable[[str], None]]:
    """Where a backup goes, piece by piece: standard output, or a file written beside its
    name and put in its place only once whole (a backup stopped half-way never takes the
    place of the last good one); gzip-compressed when the name ends in .gz."""
    if out is None:
        yield sys.stdout.write
        sys.stdout.write("\n")
        return
    target = Path(out)
    part = target.with_name(f".{target.name}.part")
    try:
        raw = part.open("wb")
    except OSError as error:
        raise Failure(FILE, _("Can't write {file}: {why}.", file=out,
                              why=str(error.strerror))) from error
    try:
        with raw, (gzip.open(raw, "wt", encoding="utf-8") if out.endswith(".gz")
                   else io.TextIOWrapper(raw, encoding="utf-8")) as text:
            yield text.write
        os.replace(part, target)
    except OSError as error:
        part.unlink(missing_ok=True)
        raise Failure(FILE, _("Can't write {file}: {why}.", file=out,
                              why=str(error.strerror))) from error
    except BaseException:
        part.unlink(missing_ok=True)
        raise


async def _restore(settings: Settings, args: argparse.Namespace) -> int:
    from bot.storage.chats.restore import is_every, restore_file
    from bot.storage.chats.validate import RestoreError
    from bot.storage.engine.database import create_engine
    from bot.storage.transaction.migrations import upgrade

    tr = cli_tr()
    progress = Progress()
    try:
        path, shape = _restore_shape(args.file, tr, progress)
        url = settings.database_url

        def restoring(done: int, total: int) -> None:
            progress(tr("Restoring: {done} of {total} hands…", done=tr.number(done),
                        total=tr.number(total)))

        try:
            engine = create_engine(url)
            try:
                await upgrade(engine)
                chats, count = await restore_file(engine, path, shape, args.chat, restoring)
            finally:
                await engine.dispose()
        except RestoreError as error:  # one transaction: the hands before it went too
            raise Failure(FILE, _("Not restored: {why}. Nothing was written.",
                                  why=error.message)) from error
        except Exception as error:
            raise database_failure(url, error) from error
    finally:
        progress.end()
    if is_every(shape):
        print(tr.render(_("{chats} restored ({sessions}).",
                          chats=_n("{n} chat", "{n} chats", len(chats)),
                          sessions=_n("{n} session", "{n} sessions", count))),
              file=sys.stderr)
    else:
        print(tr.render(_n("{n} session restored into {chat}.",
                           "{n} sessions restored into {chat}.", count,
                           chat=chats[0])), file=sys.stderr)
    return OK


def _restore_shape(file: str, tr: Tr, progress: Progress) -> tuple[Path, Any]:
    """The file's shape, its hands dropped as they are read (reading.py), telling how far
    the first read has gone."""
    from bot.storage.chats.reading import outline
    from bot.storage.chats.validate import RestoreError

    path = Path(file)
    steps = outline(path, every=True)
    try:
        while True:
            try:
                read = next(steps)
            except StopIteration as done:
                return path, done.value
            progress(tr.plural("Reading and checking the file: {n} hand so far…",
                               "Reading and checking the file: {n} hands so far…", read))
    except OSError as error:
        raise Failure(FILE, _("Can't read {file}: {why}.", file=file,
                              why=str(error.strerror or error))) from error
    except RestoreError as error:
        raise Failure(FILE, _("{file} is not a backup ({why}).", file=file,
                              why=error.message)) from error
    finally:
        steps.close()


async def _run(settings: Settings) -> int:
    tokens = settings.platforms()
    if not any(tokens.values()):
        raise Failure(BAD_SETTING, _("No platform token is set: set TELEGRAM_TOKEN and/or "
                                     "DISCORD_TOKEN (environment or .env), or run "
                                     "`python -m bot console`."))
    from bot.runner import run

    return await run(settings)


def main(argv: list[str] | None = None) -> int:
    tr = cli_tr()
    args = _parser(tr).parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        print(tr("Bad setting: {problem}", problem=setting_problem(error)), file=sys.stderr)
        return BAD_SETTING
    setup_logging(settings.log_level, settings.log_format)
    command = args.command
    if command is None:
        if any(settings.platforms().values()):
            command = "run"
        else:
            command = "console"
            args = _parser(tr).parse_args(["console"])
    runners: dict[str, Callable[[], Awaitable[int]]] = {
        "console": lambda: _console(settings, args),
        "run": lambda: _run(settings),
        "migrate": lambda: _migrate(settings),
        "health": lambda: _health(settings, args.deep),
        "backup": lambda: _backup(settings, args),
        "restore": lambda: _restore(settings, args),
    }
    debug = settings.log_level == "DEBUG"
    try:
        return asyncio.run(runners[command]())
    except KeyboardInterrupt:
        return 130
    except Failure as failure:
        if debug:
            traceback.print_exc()
        print(tr.render(failure.message), file=sys.stderr)
        return failure.code
    except Exception as error:  # a bug: one line, the traceback only when asked for
        if debug:
            traceback.print_exc()
        print(tr("Unexpected error: {kind}: {error} (LOG_LEVEL=DEBUG shows the details).",
                 kind=type(error).__name__, error=str(error)[:200]), file=sys.stderr)
        return UNHEALTHY


if __name__ == "__main__":
    sys.exit(main())
