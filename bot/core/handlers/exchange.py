"""The scorebook as a file: /export (JSON or CSV) and /import."""

from __future__ import annotations

import csv
import gzip
import io
import re
import time
from collections.abc import AsyncIterator
from contextlib import nullcontext
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.games.base import Game
from bot.core.handlers.call import Call, Outcome, more_time
from bot.core.i18n import Msg, Tr, _, _n
from bot.core.money import against_average, hand_money
from bot.core.session import Void

COMPRESS_OVER = 1_000_000  # bytes
GZIP = b"\x1f\x8b"  # how a gzipped file starts


async def export(call: Call) -> Outcome:
    options = call.options
    fmt = options.get("format") or "json"
    which = (options.get("") or options.get("game") or "").strip().lower()
    if which == "club":
        return await export_club(call)
    everything = which in ("all", "yes")  # "yes": /export all:yes, as it was once typed
    # all, or the game the look-back commands show (named, open, or the one just ended)
    chosen = await call.tx.chat_sessions() if everything else [await call.chosen_session()]
    if not chosen and not (everything and (await call.tx.payments() or
                                           await call.tx.seasons())):
        # (every game closed with no hand, a payment or a season kept: the file has those)
        raise UserError(_("No game has been played in this chat yet."))
    ids = [s.id for s in chosen if s.id is not None]
    extra: dict[str, Any] = {}
    if everything:  # the ledger's balances, for people to read (an import recomputes them)
        from bot.core.handlers.ledger_commands import load
        from bot.core.money import json_number

        book = await load(call)
        # keyed by person, not by name: two people may go by the same name
        extra["balances"] = {
            currency: {k: {"name": book.name(k), "balance": json_number(v)}
                       for k, v in sorted(row.items()) if v}
            for currency, row in sorted(book.balances().items())}
    # streamed: rows are read a page at a time and written out as they come, compressed
    # once past COMPRESS_OVER, so a 10,000-hand session is never held whole, let alone twice
    sink = Sink(COMPRESS_OVER)
    if fmt == "json":
        async for chunk in call.tx.export_json(ids, everything, extra):
            sink.write(chunk.encode())
    else:
        async for row in _csv_rows(call.tx.export_parts(ids, everything), call.settings.zone,
                                   call.tr):
            sink.write(row.encode())
    body, packed = sink.close()
    name = f"maalbot-{len(ids)}-sessions.{fmt}" + (".gz" if packed else "")
    tr = call.tr
    return Outcome(Reply(tr("Export of {sessions} ({format}).",
                            sessions=sessions(len(ids), tr), format=fmt),
                         file=Attachment(name, body)))


async def export_club(call: Call) -> Outcome:
    """The club's file: every table's games, and the club (bot/storage/chats/club_file.py):
    `python -m bot restore` makes it again in a fresh database, with the same figures."""
    from bot.core.handlers.club.common import book, this_club

    club = await this_club(call)
    clubs = book(call)
    tables = await clubs.tables(club.id)
    persons = await clubs.persons()
    members = {p for p in persons.values()}
    section = {
        "name": club.name, "owner": club.owner, "owner_name": club.owner_name,
        "admins": club.admins,
        "tables": [{"chat": t.chat, "name": t.name, "joined_by": t.joined_by,
                    "joined_at": t.joined_at.isoformat() if t.joined_at else None}
                   for t in tables],
        "seasons": [{"name": s.name, "started_at": s.started_at.isoformat(),
                     "started_by": "club", "started_by_name": "",
                     "ended_at": s.ended_at.isoformat() if s.ended_at else None,
                     "ended_by": "club" if s.ended_at else None}
                    for s in await clubs.seasons(club.id)],
        "accounts": {a: p for a, p in persons.items() if p in members},
        "tournaments": [{"name": t.name, "status": t.status,
                         "created_at": t.created_at.isoformat() if t.created_at else None,
                         "data": t.data()} for t in await clubs.tournaments(club.id)]}
    sink = Sink(COMPRESS_OVER)
    async for chunk in call.tx.export_club(section, [t.chat for t in tables]):
        sink.write(chunk.encode())
    body, packed = sink.close()
    name = f"maalbot-club-{len(tables)}-tables.json" + (".gz" if packed else "")
    return Outcome(Reply(call.tr("Export of the club {club}: its {tables}, their games and "
                                 "the club; python -m bot restore makes it again.",
                                 club=club.name,
                                 tables=call.tr.plural("{n} table", "{n} tables",
                                                       len(tables))),
                         file=Attachment(name, body)))


def sessions(n: int, tr: Tr) -> str:
    return tr.plural("{n} session", "{n} sessions", n)


class Sink:
    """Bytes written as they come: plain while small, gzip-compressed from the moment they
    pass `limit` (big sessions travel compressed: chat file limits are ~5 MB)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.buffer = io.BytesIO()
        self.packer: gzip.GzipFile | None = None

    def write(self, data: bytes) -> None:
        if self.packer is None and self.buffer.tell() + len(data) > self.limit:
            plain = self.buffer.getvalue()
            self.buffer = io.BytesIO()
            self.packer = gzip.GzipFile(fileobj=self.buffer, mode="wb", mtime=0)
            self.packer.write(plain)
        (self.packer or self.buffer).write(data)

    def close(self) -> tuple[bytes, bool]:
        """The bytes, and whether they are compressed."""
        if self.packer is not None:
            self.packer.close()
        return self.buffer.getvalue(), self.packer is not None


async def import_(call: Call) -> Outcome:
    source = call.command.attachment
    if source is None:
        raise UserError(_("Send the JSON file of an /export with /import."))
    plain = _small(source)
    had = await call.tx.chat_sessions()
    if had:
        raise UserError(_("Not imported: this chat already has {games}; /import brings an "
                          "export into a chat with none.",
                          games=_n("{n} game", "{n} games", len(had))))
    if plain is None:
        if call.store is None:
            raise UserError(_("Not imported: the file unpacks to over {n} MB.",
                              n=IN_ONE_GO // 1_000_000))
        # in batches once this command's turn is over, streamed from what was sent: the
        # chat, and on SQLite every chat, is not held up meanwhile
        return Outcome(Reply(""), later=lambda: _in_batches(call, source))
    try:
        count = await call.tx.restore(plain)  # checked whole first: nothing written if wrong
    except (ValueError, KeyError, TypeError) as error:
        raise UserError(_not_imported(error)) from None
    opened = any(s.status == "open" for s in await call.tx.chat_sessions())
    return Outcome(_imported(call.tr, count, opened), changed=True)


IN_ONE_GO = 1_000_000  # bytes (about 650 hands): a bigger file is imported in batches
PROGRESS_EVERY = 3.0  # seconds between two lines of progress of a big /import


def _not_imported(error: Exception) -> Msg:
    # a RestoreError says what is wrong with the file as lazy text (its `message`)
    why = getattr(error, "message", None) or str(error)
    return _("Not imported: {why}", why=why)


def _imported(tr: Tr, count: int, opened: bool) -> Reply:
    if not count:  # a chat's ledger or seasons, its every game closed with no hand
        return Reply(tr("Imported the ledger and the seasons; the file has no games. "
                        "/ledger shows them."))
    if opened:
        return Reply(tr("Imported {sessions}. /board shows the open one, /stats all of them.",
                        sessions=sessions(count, tr)))
    return Reply(tr("Imported {sessions}. /board last shows the last one, /stats all of them.",
                    sessions=sessions(count, tr)))


async def _in_batches(call: Call, source: bytes | Path) -> Reply:
    """A big file: read, checked and written a step at a time, never held whole; each
    step gives the command more time (it is stuck only if a step takes the whole limit)
    and, every few seconds, a line of progress where the platform shows one."""
    assert call.store is not None
    command, tr = call.command, call.tr
    said = time.monotonic()

    async def step(done: int, total: int | None, phase: str) -> None:
        nonlocal said
        more_time()
        if command.progress is None or time.monotonic() - said < PROGRESS_EVERY:
            return
        said = time.monotonic()
        if total is None:
            line = tr.plural("Reading and checking the file: {n} hand so far…",
                             "Reading and checking the file: {n} hands so far…", done)
        else:
            line = tr("Importing: {done} of {total} hands written…", done=tr.number(done),
                      total=tr.number(total))
        await command.progress(line)

    def reply_for(count: int, opened: bool) -> dict[str, Any]:
        return _imported(tr, count, opened).to_json()

    try:
        kept, before = await call.store.import_file(command.chat, source, command.origin_id,
                                                    reply_for, step)
    except (ValueError, KeyError, TypeError) as error:
        return Reply.error(tr.render(_not_imported(error)), tr.language)
    reply = Reply.from_json(kept)
    reply.duplicate = before
    return reply


def _small(source: bytes | Path) -> bytes | None:
    """An export as sent (plain JSON or gzipped, .json.gz; bytes or the console's file):
    its plain bytes if they are at most IN_ONE_GO, None for a bigger one (streamed)."""
    try:
        raw = io.BytesIO(source) if isinstance(source, bytes) else source.open("rb")
    except OSError as error:  # the console's file, gone or unreadable since it was named
        raise UserError(_("Can't read {file}: {why}.", file=str(source),
                          why=str(error.strerror or error))) from None
    with raw:
        packed = raw.read(2) == GZIP
        raw.seek(0)
        try:
            with gzip.GzipFile(fileobj=raw) if packed else nullcontext(raw) as plain:
                data = plain.read(IN_ONE_GO + 1)
        except (EOFError, OSError):
            raise UserError(_("Not imported: the .gz file is broken; send the file /export "
                              "made again.")) from None
    return data if len(data) <= IN_ONE_GO else None


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV
# Injection"): such a text cell is written with a single quote before it
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows and never runs: a number stays a number (-20 is
    points, read as a number), and so does text that is only a number; any other text
    that starts like a formula (`=HYPERLINK(...)` as a name or a reason) gets a quote."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS) \
            or PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


async def _csv_rows(parts: AsyncIterator[tuple[str, dict[str, Any]]],
                    zone: ZoneInfo, tr: Tr) -> AsyncIterator[str]:
    """One row per player per hand, for a spreadsheet, as the hands come (the columns and
    status words are keys for a spreadsheet; a reason is shown as the reader reads it)."""
    out = io.StringIO()
    writer = csv.writer(out)

    def line(values: list[Any]) -> str:
        out.seek(0)
        out.truncate()
        writer.writerow([safe_cell(v) for v in values])
        return out.getvalue()

    yield line(["session", "game", "hand", "time", "player", "points", "money", "currency",
                "recorded_by", "status"])
    session: dict[str, Any] = {}
    names: dict[int, str] = {}
    game = None
    async for kind, value in parts:
        if kind == "session":
            session = value
            game = get_game(value["game"]).for_session(value.get("rules") or {},
                                                       value.get("game_state"))
            names = {p["seat"]: p["name"] for p in value["players"]}
            continue
        if kind != "hand" or game is None:
            continue
        hand = value
        when = _moment(hand.get("created_at")).astimezone(zone).strftime("%Y-%m-%d %H:%M") \
            if hand.get("created_at") else ""
        status = "live" if not hand.get("voided_at") else _status(hand.get("void_reason"), tr)
        money = _money(game, hand)
        currency = money[0] if money else ""
        for seat, points in sorted(hand["deltas"].items(), key=lambda kv: int(kv[0])):
            label = names.get(int(seat), seat) if game.player_columns else f"side {seat}"
            shown = points / 10 ** game.point_places if game.point_places else points
            # the hand's money at its own rate, beside its points ("" where not for money)
            paid = f"{money[1][int(seat)]:f}" if money else ""
            yield line([session["id"], session["game"], hand["no"], when, label, shown, paid,
                        currency, hand["recorded_by_name"], status])


def _money(game: Game, hand: dict[str, Any]) -> tuple[str, dict[int, Decimal]] | None:
    """(currency, money per column) of an exported hand, as /endgame and the ledger count
    it; None for a hand not played for money or a game paid at the end (Riichi)."""
    if game.money_at_end:
        return None
    deltas = {int(k): v for k, v in hand["deltas"].items()}
    money = hand_money(deltas, hand["rules"], game.point_places)
    if money is not None and game.money_against_average:  # Call Break's
        money = money[0], against_average(money[1], deltas, game.money_sign)
    return money


def _moment(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _status(stored: str | None, tr: Tr) -> str:
    """A voided hand's status as the hand log keeps it (undone, its reason, edited, edited:
    its reason), the reason in the reader's words."""
    void = Void.from_text(stored)
    reason = tr.render(void.reason) if void.reason else ""
    if void.edited:
        return f"edited: {reason}" if reason else "edited"
    if reason.startswith(("edited", "undone")):
        return f"undone: {reason}"  # an undo whose reason was typed as "edited: typo"
    return reason or "undone"
