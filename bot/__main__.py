"""`python -m bot [console|run|migrate]`: build everything and run it.

With no subcommand: the chat platforms whose tokens are set, or the console when none is.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

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
    sub.add_parser("run", help="run the chat platforms whose tokens are set")
    sub.add_parser("migrate", help="bring the database up to date")
    return parser


def _setup_logging(level: str) -> None:
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("sqlalchemy", "aiosqlite", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


async def _console(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import run_console
    from bot.core.service import Service
    from bot.storage import open_store

    url = f"sqlite:///{args.db}" if args.db else settings.database_url
    store = await open_store(url)
    try:
        return await run_console(Service(store), args.user, args.json, chat=args.chat)
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
    _setup_logging(settings.log_level)
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
    }[command]
    try:
        return asyncio.run(runner())
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
