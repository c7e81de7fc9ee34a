"""The scorebook as a file: /export (JSON or CSV) and /import."""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import Tr, _, _n
from bot.core.session import Void

COMPRESS_OVER = 1_000_000  # bytes
MAX_UNPACKED = 200_000_000  # an import bigger than this is not a real export


async def export(call: Call) -> Outcome:
    options = call.options
    fmt = options.get("format") or "json"
    which = (options.get("") or options.get("game") or "").strip().lower()
    everything = which in ("all", "yes")  # "yes": /export all:yes, as it was once typed
    if everything:
        chosen = await call.tx.chat_sessions()
    elif which or call.session is not None:  # last, a number, or the open game
        chosen = [await call.chosen_session()]
    else:
        chosen = []
    if not chosen:
        raise UserError(_("No game is open here: /export last exports the last finished "
                          "one, /export all every game of this chat."))
    ids = [s.id for s in chosen if s.id is not None]
    extra: dict[str, Any] = {}
    if everything:  # the ledger's balances, for people to read (an import recomputes them)
        from bot.core.handlers.ledger import load
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
    if call.command.attachment is None:
        raise UserError(_("Send the JSON file of an /export with /import."))
    plain = _unpacked(call.command.attachment)
    try:
        data = json.loads(plain)
    except ValueError:  # not JSON, or not text at all
        raise UserError(_("Not imported: that file is not an /export (it isn't JSON). Send "
                          "the .json or .json.gz file /export made.")) from None
    had = await call.tx.chat_sessions()
    tr = call.tr
    if had:
        raise UserError(_("Not imported: this chat already has {games}; /import brings an "
                          "export into a chat with none.",
                          games=_n("{n} game", "{n} games", len(had))))
    try:
        count = await call.tx.restore(data)  # checked whole first: nothing written if wrong
    except (ValueError, KeyError, TypeError, EOFError, gzip.BadGzipFile) as error:
        # a RestoreError says what is wrong with the file as lazy text (its `message`)
        why = getattr(error, "message", None) or str(error)
        raise UserError(_("Not imported: {why}", why=why)) from None
    opened = any(s.status == "open" for s in await call.tx.chat_sessions())
    if opened:
        text = tr("Imported {sessions}. /board shows the open one, /stats all of them.",
                  sessions=sessions(count, tr))
    else:
        text = tr("Imported {sessions}. /board last shows the last one, /stats all of them.",
                  sessions=sessions(count, tr))
    return Outcome(Reply(text), changed=True)


def _unpacked(data: bytes) -> bytes:
    """An export as sent: plain JSON, or gzipped (.json.gz); never more than fits."""
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
            plain = unzipped.read(MAX_UNPACKED + 1)
    except (EOFError, OSError):
        raise UserError(_("Not imported: the .gz file is broken; send the file /export made "
                          "again.")) from None
    if len(plain) > MAX_UNPACKED:
        raise UserError(_("Not imported: the file unpacks to over {n} MB.",
                          n=MAX_UNPACKED // 1_000_000))
    return plain


async def _csv_rows(parts: AsyncIterator[tuple[str, dict[str, Any]]],
                    zone: ZoneInfo, tr: Tr) -> AsyncIterator[str]:
    """One row per player per hand, for a spreadsheet, as the hands come (the columns and
    status words are keys for a spreadsheet; a reason is shown as the reader reads it)."""
    out = io.StringIO()
    writer = csv.writer(out)

    def line(values: list[Any]) -> str:
        out.seek(0)
        out.truncate()
        writer.writerow(values)
        return out.getvalue()

    yield line(["session", "game", "hand", "time", "player", "points", "recorded_by",
                "status"])
    session: dict[str, Any] = {}
    names: dict[int, str] = {}
    game = None
    async for kind, value in parts:
        if kind == "session":
            session, game = value, get_game(value["game"])
            names = {p["seat"]: p["name"] for p in value["players"]}
            continue
        if kind != "hand" or game is None:
            continue
        hand = value
        when = _moment(hand.get("created_at")).astimezone(zone).strftime("%Y-%m-%d %H:%M") \
            if hand.get("created_at") else ""
        status = "live" if not hand.get("voided_at") else _status(hand.get("void_reason"), tr)
        for seat, points in sorted(hand["deltas"].items(), key=lambda kv: int(kv[0])):
            label = names.get(int(seat), seat) if game.player_columns else f"side {seat}"
            shown = points / 10 ** game.point_places if game.point_places else points
            yield line([session["id"], session["game"], hand["no"], when, label, shown,
                        hand["recorded_by_name"], status])


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
