"""The console: the same commands as the chats, typed on stdin, no account or token needed.

A line `bob: /maal 5` acts as bob; other lines act as --user, who is the console's admin.
What people paste works as written: ` # a comment` ends a line's command, a line may hold
several commands (`/sitout dave   /back dave`), `@bob` names bob (the console knows people by
the names they type), and a line that is not text says so and the console goes on.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import uuid
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TextIO

from bot.core.command import Actor, Command, Reply
from bot.core.errors import UserError
from bot.core.grammar import parse_command_text
from bot.core.handlers import pages as pages_of_call
from bot.core.handlers.call import Call
from bot.core.i18n import _, translator
from bot.core.pages import BOARD, PAD
from bot.core.service import Service
from bot.core.views import read_view
from bot.failures import environment_language

_AS_SOMEONE = re.compile(r"^([^\s:/]{1,64}):\s*(/.*)$", re.DOTALL)
_COMMENT = re.compile(r"(?:^|\s+)#.*$")  # a comment starts with # after a space
_AT_NAME = re.compile(r"(?<![\w@])@([^\s@:=,+]+)")  # + joins a side: @ana+@di
CONSOLE_CHAT = "console"


def split_line(line: str, known: set[str]) -> list[str]:
    """A pasted line as the commands it holds: its comment dropped, split where a known
    command starts after a space (`/sitout dave   /back dave`)."""
    line = _COMMENT.sub("", line).strip()
    if not line:
        return []
    if re.match(r"^(?:[^\s:/]{1,64}:\s*)?/(?:help|start)\b", line):
        return [line]  # "/help /undo" explains undo; it must not undo
    names = "|".join(sorted(known, key=len, reverse=True))
    starts = [m.start() for m in re.finditer(
        rf"(?:(?<=\s)|^)(?:[^\s:/]{{1,64}}:\s*)?/(?:{names})(?=\s|$|@)", line)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    ends = [*starts[1:], len(line)]
    return [line[a:b].strip() for a, b in zip(starts, ends, strict=True)
            if line[a:b].strip()]


def line_to_command(line: str, user: str, chat: str = CONSOLE_CHAT,
                    locale: str | None = None) -> Command:
    """`/hand winner:alice` as `user`, or `bob: /maal 5` as bob; `locale`: the language of
    the console's environment, the sender's language (the chat's setting wins over it)."""
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
        raw = parsed.options.pop("")
        attachment = read_file(raw)
    # `@bob` is the person the console knows as bob (for /link name:Bob @bob, /seat)
    mentions = {f"@{m.group(1)}": Actor(f"console:{m.group(1).lower()}", m.group(1),
                                        by_name=True)
                for m in _AT_NAME.finditer(line)}
    # an origin id per line, so that after a failure the bot can tell whether it was recorded
    return Command(chat=chat, actor=actor, name=parsed.name, options=parsed.options,
                   attachment=attachment, origin_id=f"console:{uuid.uuid4().hex}",
                   mentions=mentions, locale=locale, chat_name=chat, private=True)


def read_file(raw: str) -> Path:
    """The file /import PATH names, once it is found to be a regular file we may read
    (/dev/zero or a fifo would be read forever). /import reads it a chunk at a time, up to
    as much as a million hands take (bot/storage/chats/reading.py), never whole."""
    try:
        path = Path(raw).expanduser()
        if path.exists() and not path.is_file():  # a device or a fifo: never opened
            raise UserError(_("Can't read {file}: it is not a file.", file=raw))
        with path.open("rb"):
            pass  # it is there, and ours to read
    except (OSError, RuntimeError) as error:  # RuntimeError: ~nosuchuser has no home
        why = (getattr(error, "strerror", None) or str(error)).rstrip(".")
        raise UserError(_("Can't read {file}: {why}.", file=raw, why=why)) from None
    return path


def render_plain(reply: Reply) -> str:
    """A reply as text; its error prefix in the reply's language."""
    tr = translator(reply.language)
    text = reply.text if reply.ok else tr("Error: {error}", error=reply.text)
    parts = [text] if reply.text else []
    if reply.table:
        parts.append(reply.table)
    return "\n".join(parts)


def save_file(reply: Reply, folder: Path) -> Path | None:
    """A chart or export is written to a file; the console prints where. A file already
    there (another database's chart-1-3.png) is kept: the new one gets a number."""
    if reply.file is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / reply.file.name
    stem, suffix = reply.file.name.split(".", 1) if "." in reply.file.name else (
        reply.file.name, "")
    copy = 1
    while True:
        try:
            with path.open("xb") as out:  # never over a file that is there
                out.write(reply.file.data)
            return path.resolve()
        except FileExistsError:
            copy += 1
            path = folder / (f"{stem}-{copy}.{suffix}" if suffix else f"{stem}-{copy}")


def _read_line(stdin: TextIO) -> str | None:
    """One line from stdin as text; None at the end. Bytes that aren't UTF-8 give a line
    that says so instead of stopping the console."""
    raw = stdin.buffer.readline() if hasattr(stdin, "buffer") else stdin.readline()
    if not raw:
        return None
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "\x00not-utf8"


class ConsoleFace:
    """The console as the web side sees it: a pad's hand is printed as a typed one's reply
    would be, and the console's one person is its admin."""

    def __init__(self, stdout: TextIO, as_json: bool, user: Actor) -> None:
        self.stdout, self.as_json, self.user = stdout, as_json, user

    async def post(self, chat: str, reply: Reply) -> None:
        _write(self.stdout, reply, None, self.as_json)

    async def is_admin(self, chat: str, actor: Actor) -> bool:
        return actor.id == self.user.id


class ConsolePosts:
    """What a command posts to another chat (a club's other tables): printed after its
    reply, under the chat's name; with --json each carries its "chat"."""

    def __init__(self, stdout: TextIO, as_json: bool) -> None:
        self.stdout, self.as_json = stdout, as_json

    async def post(self, chat: str, reply: Reply) -> None:
        if self.as_json:
            data = reply.to_json()
            data["chat"] = chat
            self.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        else:
            tr = translator(reply.language)
            self.stdout.write(tr("In {chat}:", chat=chat) + "\n" + render_plain(reply)
                              + "\n\n")
        self.stdout.flush()


def console_actor(user: str) -> Actor:
    """The console's own person (--user): its admin."""
    return Actor(id=f"console:{user.lower()}", name=user, is_admin=True, by_name=True)


LINKED = ("newgame", "scorepad", "scoreboard")  # after these, the console shows the links


async def page_links(service: Service, chat: str, user: str) -> tuple[str, str] | None:
    """The console table's scorepad and scoreboard addresses, made if it has none: the same
    as last run's (its secret is kept with its database, bot/console_key.py)."""
    if service.web is None:
        return None
    me = console_actor(user)
    await service.handle(Command(chat, me, "scorepad"))
    await service.handle(Command(chat, me, "scoreboard"))
    pad, board = await current_links(service, chat)
    if pad is None or board is None:
        return None
    return pad, board


async def current_links(service: Service, chat: str) -> tuple[str | None, str | None]:
    """The table's scorepad and scoreboard addresses as they are (None: it has none)."""
    web = service.web
    if web is None:
        return None, None

    async def tokens(call: Call) -> tuple[str | None, str | None]:
        return pages_of_call.token(call, PAD), pages_of_call.token(call, BOARD)

    pad, board = await read_view(service, chat, None, tokens)
    return (web.pad_url(pad) if pad and web.opens_pad(chat) else None,
            web.board_url(board) if board else None)


async def run_console(service: Service, user: str, as_json: bool, stdin: TextIO = sys.stdin,
                      stdout: TextIO = sys.stdout, chat: str = CONSOLE_CHAT,
                      files: Path = Path(".")) -> int:
    interactive = stdin.isatty()
    # the environment's language (LANG=pt_BR.UTF-8): the console's own lines, and the
    # sender's language of every command (a chat's language setting wins over it)
    language = environment_language()
    if interactive:  # the greeting too: the chat's language, else the environment's
        tr = translator(await service.language(chat, language))
        stdout.write(tr("Maalbot console. Try /help, or /newgame marriage players:alice bob "
                        "carol. Ctrl-D quits.") + "\n")
    loop = asyncio.get_running_loop()
    known = set(service.table.names())
    service.posts.posters.setdefault("*", ConsolePosts(stdout, as_json))
    while True:
        if interactive:
            stdout.write("> ")
            stdout.flush()
        line = await loop.run_in_executor(None, _read_line, stdin)
        if line is None:
            return 0
        if line == "\x00not-utf8":
            tr = translator(await service.language(chat, language))  # the chat's, else ours
            _write(stdout, Reply.error(tr("That line isn't UTF-8 text; it was skipped. Type "
                                          "it again."), tr.language), None, as_json)
            continue
        for piece in split_line(line.strip(), known):
            if piece in ("/quit", "/exit"):
                return 0
            name = ""
            try:
                command = replace(line_to_command(piece, user, chat, language),
                                  progress=partial(_progress, stdout, as_json))
                name = command.name.lower()
                reply = await service.handle(command)
            except UserError as error:  # the line itself: it doesn't parse, or a file to
                # /import is unreadable; said in the chat's language, else the environment's
                tr = translator(await service.language(chat, language))
                reply = Reply.error(tr.render(error.message), tr.language)
            try:
                path = save_file(reply, files)
            except OSError as error:
                path, reply = None, _not_written(reply, files, error)
            links = await current_links(service, chat) if reply.ok and name in LINKED \
                else (None, None)
            _write(stdout, reply, path, as_json, *links)
            await service.posts.sent()  # what it posted to the club's other tables, after


async def _progress(stdout: TextIO, as_json: bool, line: str) -> None:
    """How far long work has got (a big /import): a line of its own, before the reply;
    with --json an object marked "progress", so a reader can tell it from a reply."""
    stdout.write(json.dumps({"ok": True, "progress": True, "text": line}, ensure_ascii=False)
                 + "\n" if as_json else line + "\n")
    stdout.flush()


def _not_written(reply: Reply, files: Path, error: OSError) -> Reply:
    """The file of `reply` could not be written: said in the reply's language."""
    tr = translator(reply.language)
    return Reply.error(tr("Can't write the file to {folder}: {why}.", folder=str(files),
                          why=str(error.strerror)), reply.language)


def _write(stdout: TextIO, reply: Reply, path: Path | None, as_json: bool,
           pad: str | None = None, board: str | None = None) -> None:
    """The reply, and the pages' links it comes with (after /newgame, /scorepad and
    /scoreboard: never after every reply), each unless its text has it already."""
    if as_json:
        data = reply.to_json()
        if path is not None:
            data["file"] = str(path)
        if pad is not None:
            data["pad"] = pad
        if board is not None:
            data["board_link"] = board
        stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        tr = translator(reply.language)
        text = render_plain(reply)
        lines = [text]
        if path is not None:
            lines.append(tr("File: {path}", path=str(path)))
        if pad is not None and pad not in text:
            lines.append(tr("Scorepad: {link}", link=pad))
        if board is not None and board not in text:
            lines.append(tr("Scoreboard: {link}", link=board))
        stdout.write("\n".join(lines) + "\n\n")
    stdout.flush()
