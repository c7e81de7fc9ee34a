"""A club as a file (`/export club`): every table of the club as /export all writes a
chat, in one file of every chat's shape (`python -m bot restore` takes it), with the club
itself beside them (its name, owner and admins, its tables, its seasons, the accounts its
members linked, its tournaments). Restored into a fresh database, the club is made again
around its tables, and its figures, a pure function of their games, are the same. What the
club part says is checked whole before anything is written: a forged one is refused with
what is wrong."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select

from bot.core.club.tournament import ENDED, OPEN, RUNNING, Tournament
from bot.core.i18n import _
from bot.storage.chats.backup import ALL_FORMAT, VERSION, export_parts, json_chunks
from bot.storage.chats.validate import RestoreError
from bot.storage.engine.tables import (
    account_links,
    club_seasons,
    club_tables,
    clubs,
    tournaments,
)

MAX_TEXT = 200  # a name or key in the club's part


async def club_json(conn: Any, club: Mapping[str, Any], chats: list[str]) -> AsyncIterator[str]:
    """The club's file, piece by piece (its tables' games a page of hands at a time)."""
    yield json.dumps({"format": ALL_FORMAT, "version": VERSION,
                      "created_at": datetime.now(UTC).isoformat()})[:-1] + ', "chats": ['
    for i, chat in enumerate(chats):
        if i:
            yield ", "
        async for chunk in json_chunks(export_parts(conn, chat, None, True), chat):
            yield chunk
    yield '], "club": ' + json.dumps(club, ensure_ascii=False, default=str) + "}"


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise RestoreError(_("the club's {what} must be text", what=what))
    return value


def _moment(value: Any, what: str, empty: bool = False) -> datetime | None:
    if value is None and empty:
        return None
    try:
        moment = datetime.fromisoformat(_text(value, what))
    except ValueError:
        raise RestoreError(_("the club's {what} must be a date and time", what=what)) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def checked_club(club: Any, chats: list[str]) -> dict[str, Any]:
    """The club's part of a file, every value checked; its tables among the file's chats."""
    if not isinstance(club, Mapping):
        raise RestoreError(_("`club` must be an object"))
    tables = club.get("tables")
    if not isinstance(tables, list) or not tables:
        raise RestoreError(_("the club must have tables"))
    admins = club.get("admins") or {}
    seasons = club.get("seasons") or []
    accounts = club.get("accounts") or {}
    if not isinstance(admins, Mapping) or not isinstance(seasons, list) \
            or not isinstance(accounts, Mapping):
        raise RestoreError(_("the club's admins, seasons and accounts must be as /export "
                             "club writes them"))
    found = {
        "name": _text(club.get("name"), "name"),
        "owner": _text(club.get("owner"), "owner"),
        "owner_name": str(club.get("owner_name") or "")[:MAX_TEXT],
        "admins": {_text(k, "admins"): _text(v, "admins") for k, v in admins.items()},
        "tables": [], "seasons": [],
        "accounts": {_text(k, "accounts"): _text(v, "accounts") for k, v in accounts.items()},
    }
    for table in tables:
        if not isinstance(table, Mapping):
            raise RestoreError(_("the club's tables must be objects"))
        chat = _text(table.get("chat"), "table")
        if chat not in chats:
            raise RestoreError(_("the club's table {chat} is not among the file's chats",
                                 chat=chat[:60]))
        found["tables"].append({"chat": chat, "name": _text(table.get("name"), "table name"),
                                "joined_by": _text(table.get("joined_by"), "table"),
                                "joined_at": _moment(table.get("joined_at"), "table")})
    if len({t["chat"] for t in found["tables"]}) != len(found["tables"]):
        raise RestoreError(_("the club names a table twice"))
    for season in seasons:
        if not isinstance(season, Mapping):
            raise RestoreError(_("the club's seasons must be objects"))
        started = _moment(season.get("started_at"), "season")
        ended = _moment(season.get("ended_at"), "season", empty=True)
        if ended is not None and started is not None and ended < started:
            raise RestoreError(_("a club season ends before it starts"))
        found["seasons"].append({
            "name": _text(season.get("name"), "season"), "started_at": started,
            "started_by": _text(season.get("started_by"), "season"),
            "started_by_name": str(season.get("started_by_name") or "")[:MAX_TEXT],
            "ended_at": ended, "ended_by": season.get("ended_by") if ended else None})
    made = club.get("tournaments") or []
    if not isinstance(made, list):
        raise RestoreError(_("the club's tournaments must be as /export club writes them"))
    found["tournaments"] = [_tournament(t, chats) for t in made]
    return found


def _tournament(made: Any, chats: list[str]) -> dict[str, Any]:
    """A tournament of the club's part, read as the core reads one: its rounds' tables
    among the file's chats."""
    if not isinstance(made, Mapping) or not isinstance(made.get("data"), Mapping):
        raise RestoreError(_("the club's tournaments must be as /export club writes them"))
    name = _text(made.get("name"), "tournament")
    status = made.get("status")
    if status not in (OPEN, RUNNING, ENDED):
        raise RestoreError(_("a club tournament's status is open, running or ended"))
    try:
        read = Tournament.read(0, 0, name, status, None, made["data"])
    except (KeyError, TypeError, ValueError, ArithmeticError):
        raise RestoreError(_("the club's tournament {name} is not as /export club writes "
                             "it", name=name[:60])) from None
    for round_ in read.played:
        for table in round_.tables:
            if table.chat not in chats:
                raise RestoreError(_("the club's tournament {name} plays at {chat}, not "
                                     "among the file's chats", name=name[:60],
                                     chat=table.chat[:60]))
    return {"name": name, "status": status, "data": read.data(),
            "created_at": _moment(made.get("created_at"), "tournament", empty=True)
            or datetime.now(UTC)}


async def restore_club(conn: Any, club: Mapping[str, Any]) -> None:
    """The club of a checked part (checked_club) made again around its tables, in the
    restore's transaction. A table that is another club's already: refused."""
    chats = [t["chat"] for t in club["tables"]]
    taken = (await conn.execute(select(club_tables.c.chat).where(
        club_tables.c.chat.in_(chats)))).scalars().first()
    if taken is not None:
        raise RestoreError(_("chat {chat} is a table of another club already", chat=taken))
    club_id = (await conn.execute(insert(clubs).values(
        name=club["name"], owner=club["owner"], created_at=datetime.now(UTC), epoch=0,
        data={"admins": club["admins"], "owner_name": club["owner_name"]}
    ).returning(clubs.c.id))).scalar_one()
    for table in club["tables"]:
        await conn.execute(insert(club_tables).values(club_id=club_id, **table))
    for season in club["seasons"]:
        await conn.execute(insert(club_seasons).values(club_id=club_id, **season))
    for made in club.get("tournaments") or ():
        await conn.execute(insert(tournaments).values(club_id=club_id, version=0, **made))
    known = set((await conn.execute(select(account_links.c.account))).scalars().all())
    for account, person in club["accounts"].items():
        if account not in known:
            await conn.execute(insert(account_links).values(
                account=account, person=person, linked_at=datetime.now(UTC)))
