"""The console: the same commands as the chats, typed on stdin, no account or token needed.

A line `bob: /maal 5` acts as bob; other lines act as --user, who is the console's admin.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import uuid
from pathlib import Path
from typing import TextIO

from bot.core.command import Actor, Command, Reply
from bot.core.errors import UserError
from bot.core.grammar import parse_command_text
from bot.core.service import Service

_AS_SOMEONE = re.compile(r"^([^\s:/]{1,64}):\s*(/.*)$", re.DOTALL)
CONSOLE_CHAT = "console"


def line_to_command(line: str, user: str, chat: str = CONSOLE_CHAT) -> Command:
    """`/hand winner:alice` as `user`, or `bob: /maal 5` as bob."""
    name = user
    match = _AS_SOMEONE.match(line)
    if match:
        name, line = match.group(1), match.group(2)
    parsed = parse_command_text(line)
    actor = Actor(id=f"console:{name.lower()}", name=name, is_admin=name.lower() == user.lower(),
                  by_name=True)
    attachment = None
    if parsed.name == "import" and parsed.options.get(""):
        # the console's way of sending a file: /import path/to/export.json
        path = Path(parsed.options[""]).expanduser()
        try:
            attachment = path.read_bytes()
        except OSError as error:
            raise UserError(f"Can't read {path}: {error.strerror}.") from None
        parsed.options.pop("")
    # an origin id per line, so that after a failure the bot can tell whether it was recorded
    return Command(chat=chat, actor=actor, name=parsed.name, options=parsed.options,
                   attachment=attachment, origin_id=f"console:{uuid.uuid4().hex}")


def render_plain(reply: Reply) -> str:
    prefix = "" if reply.ok else "Error: "
    parts = [prefix + reply.text] if reply.text else []
    if reply.table:
        parts.append(reply.table)
    return "\n".join(parts)


def save_file(reply: Reply, folder: Path) -> Path | None:
    """A chart or export is written to a file; the console prints where."""
    if reply.file is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / reply.file.name
    path.write_bytes(reply.file.data)
    return path.resolve()


async def run_console(service: Service, user: str, as_json: bool, stdin: TextIO = sys.stdin,
                      stdout: TextIO = sys.stdout, chat: str = CONSOLE_CHAT,
                      files: Path = Path(".")) -> int:
    interactive = stdin.isatty()
    if interactive:
        stdout.write("Maalbot console. Try /help, or /newgame marriage players:alice bob "
                     "carol. Ctrl-D quits.\n")
    loop = asyncio.get_running_loop()
    while True:
        if interactive:
            stdout.write("> ")
            stdout.flush()
        line = await loop.run_in_executor(None, stdin.readline)
        if not line:
            return 0
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line in ("/quit", "/exit"):
            return 0
        try:
            reply = await service.handle(line_to_command(line, user, chat))
        except UserError as error:
            reply = Reply.error(error.message)
        path = save_file(reply, files)
        if as_json:
            data = reply.to_json()
            if path is not None:
                data["file"] = str(path)
            stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        else:
            saved = f"\nFile: {path}" if path is not None else ""
            stdout.write(render_plain(reply) + saved + "\n\n")
        stdout.flush()
