"""Forgetting: a person (`/forget`), or a whole chat (`/forget chat`).

A person: their account id and @username leave every chat's records, chat by chat, each in
its own chat's transaction (so a command there waits, and sees all or nothing of it). Their
seats stay, as guest seats of the name they played under, so everyone else's scores, stats
and ledger stay whole: the games' money and their payments are keyed by that guest name
(`name:...`, as /stats and the ledger key a guest). Where another seat, link or payment of
the chat has that name already, theirs gets a number (alice2), so nobody else's records
ever take theirs in. Who recorded, undid or started something is "forgotten" (no account
has that id), their display names there become the guest name, links to them go, the kept
replies that named them are emptied, and the Telegram updates they sent that were kept are
deleted. Running it again finds nothing more: a process that stopped half-way is finished by
the next /forget.

A chat: every game, hand, payment, season, setting and kept reply of it and of its topics
is deleted. Each game leaves an empty row (its kind and dates; no players, no hands, no
chat): a game's number is never given again, so no process can take a new game for a
forgotten one it had cached (bot/storage/transaction/hot.py, HandWindows).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Text, cast, delete, func, or_, select, update

from bot.core import stored_json
from bot.core.players import suggest_name
from bot.core.session import DROPPED, WaitingHand
from bot.storage.engine.database import READ_ONLY
from bot.storage.engine.tables import (
    chat_settings,
    hands,
    inbox,
    origins,
    pages,
    payments,
    rule_sets,
    seasons,
    sessions,
)
from bot.storage.transaction.clubs import chats_changed, forget_club_table, forget_in_clubs
from bot.storage.transaction.inbox import DONE, FAILED
from bot.storage.transaction.rekey import chat_keys, inbox_chat, read_settings, write_settings

FORGOTTEN = "forgotten"  # who did it, once forgotten: no actor has this id (no platform:)
NO_NAME = "—"  # their name where they had no seat to give one
MIN_NAME_MATCH = 3  # a kept reply naming them: names shorter than this match too much


@dataclass
class PersonForgotten:
    chats: int = 0
    seats: int = 0
    records: int = 0  # hands, payments, seasons and games that named them otherwise
    replies: int = 0  # kept replies emptied
    updates: int = 0  # kept Telegram updates deleted


@dataclass
class ChatForgotten:
    games: int = 0
    hands: int = 0
    payments: int = 0
    seasons: int = 0
    keys: int = 0  # the chat and its topics that had records


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _mentions(column: Any, needle: str) -> Any:
    """A first, coarse look (what it finds is checked exactly in Python): the column's
    text holds `needle` as a JSON string."""
    return func.lower(cast(column, Text)).like(_like(f'"{needle.lower()}"'), escape="\\")


async def forget_person(store: Any, person: str, handle: str | None) -> PersonForgotten:
    """Forget the account `person` ("telegram:101") and its username `handle`."""
    handle = (handle or "").strip().lstrip("@").lower() or None
    done = PersonForgotten()
    async with store.engine.connect() as conn:
        await conn.execution_options(**{READ_ONLY: True})
        chats = await _chats_of(conn, person, handle)
    for chat in chats:
        async with store.transaction(chat) as tx:
            await tx.prefetch(None)  # the chat's lock, as its commands take it
            if await _forget_in_chat(tx.conn, chat, person, handle, done):
                done.chats += 1
        store.windows.put(chat, None)
    done.updates = await _forget_updates(store.engine, person)
    async with store.engine.begin() as conn:  # their accounts' links, club roles, codes
        await forget_in_clubs(conn, person, FORGOTTEN)
    return done


async def _chats_of(conn: Any, person: str, handle: str | None) -> list[str]:
    """Every chat with a record of the person (a superset: checked chat by chat)."""
    seated = or_(sessions.c.created_by == person, _mentions(sessions.c.players, person),
                 _mentions(sessions.c.pending, person))
    if handle:
        seated = or_(seated, _mentions(sessions.c.players, handle))
    queries = [
        select(sessions.c.chat).where(seated),
        select(sessions.c.chat).select_from(
            hands.join(sessions, hands.c.session_id == sessions.c.id))
        .where(or_(hands.c.recorded_by == person, hands.c.voided_by == person)),
        select(payments.c.chat).where(or_(
            payments.c.payer == person, payments.c.payee == person,
            payments.c.recorded_by == person, payments.c.voided_by == person)),
        select(seasons.c.chat).where(or_(seasons.c.started_by == person,
                                         seasons.c.ended_by == person)),
        select(chat_settings.c.chat).where(_mentions(chat_settings.c.data, person)),
    ]
    found: set[str] = set()
    for query in queries:
        found |= {row[0] for row in await conn.execute(query.distinct())}
    return sorted(found)


class _Person:
    """The person as one chat's records name them, and the guest they become there."""

    def __init__(self, person: str, handle: str | None) -> None:
        self.id, self.handle = person, handle
        self.guest: str | None = None
        self.names: set[str] = set()  # the display names they had here, to find in replies

    def seat(self, player: Mapping[str, Any]) -> bool:
        """Their seat: by their account, or typed as their @username and never claimed."""
        if player.get("user_id") == self.id:
            return True
        return player.get("user_id") is None and self.handle is not None \
            and (player.get("handle") or "").lower() == self.handle

    def name(self, old: str | None) -> str:
        """What shows where their display name was."""
        if old and old != self.guest:
            self.names.add(old)
        return self.guest or NO_NAME

    def key(self, key: str, name: str) -> tuple[str, str]:
        """A payment's person: them by account becomes their guest name's key."""
        if key != self.id:
            return key, name
        guest = self.name(name)
        return f"name:{guest.lower()}", guest


async def _forget_in_chat(conn: Any, chat: str, person: str, handle: str | None,
                          done: PersonForgotten) -> bool:
    them = _Person(person, handle)
    games = (await conn.execute(select(
        sessions.c.id, sessions.c.players, sessions.c.created_by, sessions.c.pending)
        .where(sessions.c.chat == chat).order_by(sessions.c.id))).all()
    paid = (await conn.execute(select(payments).where(payments.c.chat == chat))).all()
    settings = await read_settings(conn, chat)
    them.guest = _guest_name(them, games, paid, settings.links)
    changed = False
    for game in games:
        changed |= await _forget_in_game(conn, game, them, done)
    ids = [game.id for game in games]
    if ids:
        for row in (await conn.execute(select(
                hands.c.id, hands.c.recorded_by, hands.c.recorded_by_name, hands.c.voided_by)
                .where(hands.c.session_id.in_(ids), or_(hands.c.recorded_by == person,
                                                        hands.c.voided_by == person)))).all():
            values = _as_forgotten(row, person, them, "recorded_by", "voided_by")
            await conn.execute(update(hands).where(hands.c.id == row.id).values(values))
            done.records += 1
            changed = True
    for row in paid:
        values = _as_forgotten(row, person, them, "recorded_by", "voided_by")
        for key_column, name_column in (("payer", "payer_name"), ("payee", "payee_name")):
            key, name = them.key(getattr(row, key_column), getattr(row, name_column))
            if key != getattr(row, key_column):
                values |= {key_column: key, name_column: name}
        if values:
            await conn.execute(update(payments).where(payments.c.id == row.id).values(values))
            done.records += 1
            changed = True
    for row in (await conn.execute(select(seasons).where(seasons.c.chat == chat, or_(
            seasons.c.started_by == person, seasons.c.ended_by == person)))).all():
        values = _as_forgotten(row, person, them, "started_by", "ended_by")
        await conn.execute(update(seasons).where(seasons.c.id == row.id).values(values))
        done.records += 1
        changed = True
    links = {name: link for name, link in settings.links.items() if link.get("id") != person}
    if links != settings.links:
        them.name(next(link["name"] for link in settings.links.values()
                       if link.get("id") == person))
        settings.links = links
        await write_settings(conn, chat, settings)
        changed = True
    done.replies += await _forget_replies(conn, chat, them)
    if changed:  # their seats are a guest's now: the club counts the games again
        await chats_changed(conn, [chat], forget_games=True)
    return changed


def _as_forgotten(row: Any, person: str, them: _Person, by: str, other_by: str
                  ) -> dict[str, Any]:
    """A row's changes where `person` did it (`by`, with its `by`_name: their guest name)
    or undid or ended it (`other_by`, which keeps no name)."""
    values: dict[str, Any] = {}
    if getattr(row, by) == person:
        values |= {by: FORGOTTEN, f"{by}_name": them.name(getattr(row, f"{by}_name"))}
    if getattr(row, other_by) == person:
        values[other_by] = FORGOTTEN
    return values


def _guest_name(them: _Person, games: Iterable[Any], paid: Iterable[Any],
                links: Mapping[str, Mapping[str, str]]) -> str | None:
    """The name they go by here from now on: their latest seat's (else a payment's), unless
    it is someone else's here too."""
    base = None
    others: list[str] = []
    own: set[str] = set()  # their seats' guest keys (a seat typed as @them is one already)
    for game in games:
        for player in game.players:
            if them.seat(player):
                base = player["name"]
                own.add(f"name:{player['name'].lower()}")
            else:
                others.append(player["name"])
    for row in paid:
        for key, name in ((row.payer, row.payer_name), (row.payee, row.payee_name)):
            if key == them.id:
                base = base or name
            elif key.startswith("name:") and key not in own:
                others.append(name)
    others += [name for name, link in links.items() if link.get("id") != them.id]
    return suggest_name(base, others) if base else None


async def _forget_in_game(conn: Any, game: Any, them: _Person, done: PersonForgotten) -> bool:
    players, changed = [], False
    taken = [p["name"] for p in game.players if not them.seat(p)]
    for player in game.players:
        if them.seat(player):
            guest = suggest_name(them.guest or player["name"], taken)  # once in a game
            taken.append(guest)
            if player["name"] != guest:
                them.names.add(player["name"])
            player = {**player, "name": guest, "user_id": None, "handle": None}
            done.seats += 1
            changed = True
        players.append(player)
    values: dict[str, Any] = {}
    if changed:
        values["players"] = players
    if game.created_by == them.id:
        values["created_by"] = FORGOTTEN
    waiting = WaitingHand.from_json(game.pending)
    if waiting is not None and waiting.by == them.id:
        waiting.by, waiting.by_name = FORGOTTEN, them.name(waiting.by_name)
        values["pending"] = waiting.to_json()
    if not values:
        return False
    if "players" not in values:
        done.records += 1
    # a new version: every process drops the hands it kept of the game (hot.py)
    await conn.execute(update(sessions).where(sessions.c.id == game.id)
                       .values(version=sessions.c.version + 1, **values))
    return True


async def _forget_replies(conn: Any, chat: str, them: _Person) -> int:
    """Replies kept for a message sent again (origins) that named them: emptied. Their
    outcome stays, so the message is still never counted twice."""
    needles = {them.id}
    if them.handle:
        needles.add(f"@{them.handle}")
    needles |= {name for name in them.names if len(name) >= MIN_NAME_MATCH}
    count = 0
    for row in (await conn.execute(select(origins.c.origin_id, origins.c.reply)
                                   .where(origins.c.chat == chat))).all():
        reply = row.reply or {}
        text = stored_json.dumps(reply)
        if any(needle in text for needle in needles):
            kept = {"ok": bool(reply.get("ok")), "text": "", "error": "",
                    "language": reply.get("language", "en")}
            await conn.execute(update(origins).where(origins.c.origin_id == row.origin_id)
                               .values(reply=kept))
            count += 1
    return count


async def _forget_updates(engine: Any, person: str) -> int:
    """The Telegram updates the person sent, kept in the inbox after they were handled (for
    two days, bot/storage/transaction/inbox.py): deleted now. One still being handled is left."""
    platform, _, number = person.partition(":")
    if platform != "telegram" or not number.isdecimal():
        return 0
    user_id = int(number)
    async with engine.begin() as conn:
        rows = (await conn.execute(select(inbox.c.bot_id, inbox.c.update_id, inbox.c.payload)
                                   .where(inbox.c.state.in_((DONE, FAILED)),
                                          cast(inbox.c.payload, Text).like(_like(number)))
                                   )).all()
        gone = [(row.bot_id, row.update_id) for row in rows if _has_user(row.payload, user_id)]
        for bot_id, update_id in gone:
            await conn.execute(delete(inbox).where(inbox.c.bot_id == bot_id,
                                                   inbox.c.update_id == update_id))
    return len(gone)


def _has_user(value: Any, user_id: int) -> bool:
    """Does this update hold the Telegram user `user_id` (a User object, anywhere in it)?"""
    if isinstance(value, Mapping):
        if value.get("id") == user_id and "is_bot" in value:
            return True
        return any(_has_user(v, user_id) for v in value.values())
    if isinstance(value, list):
        return any(_has_user(v, user_id) for v in value)
    return False


async def forget_chat(store: Any, chat: str) -> ChatForgotten:
    """Delete every record of chat `chat` and of its topics."""
    done = ChatForgotten()
    async with store.engine.connect() as conn:
        await conn.execution_options(**{READ_ONLY: True})
        keys = await chat_keys(conn, chat)
    for key in keys:
        async with store.transaction(key) as tx:
            await tx.prefetch(None)
            await _delete_chat(tx.conn, key, done)
        store.windows.put(key, None)
    done.keys = len(keys)
    bare = inbox_chat(chat)
    if bare is not None:
        async with store.engine.begin() as conn:
            await conn.execute(delete(inbox).where(inbox.c.chat == bare,
                                                   inbox.c.state.in_((DONE, FAILED))))
    return done


async def _delete_chat(conn: Any, key: str, done: ChatForgotten) -> None:
    rows = (await conn.execute(
        select(sessions.c.id, sessions.c.status).where(sessions.c.chat == key))).all()
    ids = [row[0] for row in rows]
    if ids:
        result = await conn.execute(delete(hands).where(hands.c.session_id.in_(ids)))
        done.hands += result.rowcount
        # their rules too (a game forgotten never takes a hand again: rule_sets.Known)
        await conn.execute(delete(rule_sets).where(rule_sets.c.session_id.in_(ids)))
        # the empty row each game leaves (see above)
        await conn.execute(update(sessions).where(sessions.c.id.in_(ids)).values(
            chat=FORGOTTEN, status="ended", players=[], rules={}, pending=None, totals={},
            hand_count=0, game_state=None, money=None, board_ref=None, created_by=FORGOTTEN,
            ended_at=func.coalesce(sessions.c.ended_at, datetime.now(UTC)),
            version=sessions.c.version + 1))
        # the games it had, as it listed them: not one closed with no hand recorded
        done.games += sum(row[1] != DROPPED for row in rows)
    for table, counter in ((payments, "payments"), (seasons, "seasons")):
        result = await conn.execute(delete(table).where(table.c.chat == key))
        setattr(done, counter, getattr(done, counter) + result.rowcount)
    for table in (origins, chat_settings, pages):  # its pages' links open nothing now
        await conn.execute(delete(table).where(table.c.chat == key))
    await forget_club_table(conn, key)
