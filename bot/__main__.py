"""`python -m bot [console|run|migrate]`: build everything and run it.

With no subcommand: the chat platforms whose tokens are set, or the console when none is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path

from bot.logs import setup_logging
from bot.settings import Settings

log = logging.getLogger("bot")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Maalbot scorekeeper")
    sub = parser.add_subparsers(dest="command")
    console = sub.add_parser("console", help="keep score in this terminal (no token needed)")
    console.add_argument("--db", help="SQLite file to use (default: DATABASE_URL)")
    console.add_argument("--user", default="host", help="your name at the table (default host)")
    console.add_argument("--json", action="store_true", help="print one JSON object per reply")
    console.add_argument("--chat", default="console", help="which chat's session to use")
    console.add_argument("--files", default=".", help="folder for charts and exports")
    sub.add_parser("run", help="run the chat platforms whose tokens are set")
    sub.add_parser("migrate", help="bring the database up to date")
    sub.add_parser("health", help="check the database; print JSON; exit 0 when healthy")
    backup = sub.add_parser("backup", help="write one chat's sessions as JSON")
    backup.add_argument("--chat", required=True, help="e.g. telegram:-100123 or discord:456")
    backup.add_argument("--out", help="file to write (default: standard output)")
    restore = sub.add_parser("restore", help="restore a backup into an empty chat")
    restore.add_argument("file", help="a file written by backup")
    restore.add_argument("--chat", help="restore into this chat instead of the original")
    return parser


async def _console(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import run_console
    from bot.core.service import Service
    from bot.storage import open_store

    if settings.log_level != "DEBUG":  # the console's replies are on stdout; keep stderr quiet
        logging.getLogger("bot.core.service").setLevel(logging.WARNING)
    url = f"sqlite:///{args.db}" if args.db else settings.database_url
    store = await open_store(url)
    try:
        return await run_console(Service(store), args.user, args.json, chat=args.chat,
                                 files=Path(args.files))
    finally:
        await store.close()


async def _migrate(settings: Settings) -> int:
    from bot.storage.database import create_engine
    from bot.storage.migrations import current_version, upgrade

    engine = create_engine(settings.database_url)
    try:
        applied = await upgrade(engine)
        version = await current_version(engine)
    finally:
        await engine.dispose()
    done = f"applied {', '.join(map(str, applied))}" if applied else "nothing to apply"
    print(f"Database at schema version {version} ({done}).")
    return 0


async def _health(settings: Settings) -> int:
    from bot.storage.health import check_health

    report = await check_health(settings.database_url)
    print(json.dumps(report))
    return 0 if report["ok"] else 1


async def _backup(settings: Settings, args: argparse.Namespace) -> int:
    from bot.storage.backup import export_chat
    from bot.storage.database import create_engine

    engine = create_engine(settings.database_url)
    try:
        data = await export_chat(engine, args.chat)
    finally:
        await engine.dispose()
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        print(text)
    print(f"{len(data['sessions'])} session(s) of {args.chat} backed up.", file=sys.stderr)
    return 0


async def _restore(settings: Settings, args: argparse.Namespace) -> int:
    from bot.storage.backup import RestoreError, import_chat
    from bot.storage.database import create_engine
    from bot.storage.migrations import upgrade

    with open(args.file, encoding="utf-8") as source:
        data = json.load(source)
    engine = create_engine(settings.database_url)
    try:
        await upgrade(engine)
        count = await import_chat(engine, data, args.chat)
    except RestoreError as error:
        print(f"Not restored: {error}", file=sys.stderr)
        return 1
    finally:
        await engine.dispose()
    print(f"{count} session(s) restored into {args.chat or data['chat']}.", file=sys.stderr)
    return 0


async def _run(settings: Settings) -> int:
    tokens = settings.platforms()
    if not any(tokens.values()):
        print("No platform token is set: set TELEGRAM_TOKEN and/or DISCORD_TOKEN "
              "(environment or .env), or run `python -m bot console`.", file=sys.stderr)
        return 2
    from bot.runner import run

    return await run(settings)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = Settings()
    except Exception as error:  # pydantic's ValidationError names the bad setting
        print(f"Bad setting: {error}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, settings.log_format)
    command = args.command
    if command is None:
        if any(settings.platforms().values()):
            command = "run"
        else:
            command = "console"
            args = _parser().parse_args(["console"])
    runner = {
        "console": lambda: _console(settings, args),
        "run": lambda: _run(settings),
        "migrate": lambda: _migrate(settings),
        "health": lambda: _health(settings),
        "backup": lambda: _backup(settings, args),
        "restore": lambda: _restore(settings, args),
    }[command]
    try:
        return asyncio.run(runner())
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
