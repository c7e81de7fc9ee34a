"""The scorebook as a file: /export (JSON or CSV) and /import."""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.core import i18n
from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.games import get_game
from bot.core.handlers.call import Call, Outcome

COMPRESS_OVER = 1_000_000  # bytes
MAX_UNPACKED = 200_000_000  # an import bigger than this is not a real export


async def export(call: Call) -> Outcome:
    options = call.options
    fmt = options.get("format") or "json"
    everything = options.get("") == "yes"
    chosen = await call.tx.chat_sessions() if everything else (
        [call.session] if call.session is not None else [])
    if not chosen:
        raise UserError("No game is open here; /export all exports the past ones.")
    ids = [s.id for s in chosen if s.id is not None]
    data = await call.tx.export(ids, everything)
    if everything:  # the ledger's balances, for people to read (an import recomputes them)
        from bot.core.handlers.ledger import load
        from bot.core.money import json_number

        book = await load(call)
        # keyed by person, not by name: two people may go by the same name
        data["balances"] = {
            currency: {k: {"name": book.name(k), "balance": json_number(v)}
                       for k, v in sorted(row.items()) if v}
            for currency, row in sorted(book.balances().items())}
    body = json.dumps(data, ensure_ascii=False, indent=1, default=str).encode() \
        if fmt == "json" else _csv(data, call.settings.zone).encode()
    name = f"maalbot-{len(ids)}-sessions.{fmt}"
    if len(body) > COMPRESS_OVER:  # big sessions travel compressed: chat file limits are ~5 MB
        body, name = gzip.compress(body, mtime=0), name + ".gz"
    what = i18n.plural(len(ids), "session")
    return Outcome(Reply(f"Export of {what} ({fmt}).", file=Attachment(name, body)))


async def import_(call: Call) -> Outcome:
    if call.command.attachment is None:
        raise UserError("Send the JSON file of an /export with /import.")
    plain = _unpacked(call.command.attachment)
    try:
        data = json.loads(plain)
    except ValueError:  # not JSON, or not text at all
        raise UserError("Not imported: that file is not an /export (it isn't JSON). Send "
                        "the .json or .json.gz file /export made.") from None
    try:
        count = await call.tx.restore(data)  # checked whole first: nothing written if wrong
    except (ValueError, KeyError, TypeError, EOFError, gzip.BadGzipFile) as error:
        raise UserError(f"Not imported: {error}") from None
    return Outcome(Reply(f"Imported {i18n.plural(count, 'session')}. /board shows the open "
                         "one, /stats all of them."), changed=True)


def _unpacked(data: bytes) -> bytes:
    """An export as sent: plain JSON, or gzipped (.json.gz); never more than fits."""
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
            plain = unzipped.read(MAX_UNPACKED + 1)
    except (EOFError, OSError):
        raise UserError("Not imported: the .gz file is broken; send the file /export made "
                        "again.") from None
    if len(plain) > MAX_UNPACKED:
        raise UserError(f"Not imported: the file unpacks to over {MAX_UNPACKED // 1_000_000} "
                        "MB.")
    return plain


def _csv(data: Mapping[str, Any], zone: ZoneInfo) -> str:
    """One row per player per hand: for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["session", "game", "hand", "time", "player", "points", "recorded_by",
                     "status"])
    for session in data["sessions"]:
        names = {p["seat"]: p["name"] for p in session["players"]}
        game = get_game(session["game"])
        for hand in session["hands"]:
            when = datetime.fromisoformat(hand["created_at"]).astimezone(zone) \
                .strftime("%Y-%m-%d %H:%M") if hand.get("created_at") else ""
            status = "live" if not hand.get("voided_at") else (hand.get("void_reason")
                                                                or "undone")
            for seat, points in sorted(hand["deltas"].items(), key=lambda kv: int(kv[0])):
                label = names.get(int(seat), seat) if game.player_columns else f"side {seat}"
                value = points / 10 ** game.point_places if game.point_places else points
                writer.writerow([session["id"], session["game"], hand["no"], when, label,
                                 value, hand["recorded_by_name"], status])
    return out.getvalue()
