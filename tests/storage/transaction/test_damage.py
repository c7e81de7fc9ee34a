"""A record damaged in the middle of the database (issue 38): said as such, by name (which
game, which hand), never "Something went wrong ... try again"; on SQLite recording stops,
`health` fails with exit code 7 and says to restore from a backup, and `health --deep`
finds it before any command has. Made for real: bytes of a real file flipped, and on both
backends a stored value that does not decode."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import uuid
from pathlib import Path

from sqlalchemy import text

from bot.core.command import Actor, Command, Reply
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from bot.core.service.failures import FAILED, NOT_SURE, SLOW
from bot.failures import DAMAGED
from bot.storage import SqlStore, open_store
from bot.storage.engine.problems import DAMAGED as DAMAGED_TEXT
from bot.storage.engine.sqlite_file import damage_marker_of
from bot.storage.store.health import check_health
from bot.storage.transaction.damage import Damage, said
from tests.test_cli import bot, one_line

HOST = Actor("test:host", "host", is_admin=True, by_name=True)
HAND = "/hand winner:alice seen:bob maal:alice={m} bob=1 carol=0"
NAMED = ("The database holds hand {no} of game {game} damaged: it can't be read, so nothing "
         "more is recorded. The host must stop me and restore the database from a backup.")
NAMED_PG = ("The database holds {what} damaged: it can't be read, and nothing was recorded. "
            "The host must restore it from a backup.")
# what people may read at every command, on a damaged database, and what they never may
NEVER = {str(FAILED), str(NOT_SURE), str(SLOW)}


class Chat:
    def __init__(self, service: Service, chat: str = "chat") -> None:
        self.service, self.chat, self.prefix = service, chat, uuid.uuid4().hex[:6]
        self.sent = 0

    async def __call__(self, line: str, origin: str | None = None) -> Reply:
        self.sent += 1
        parsed = parse_command_text(line)
        return await self.service.handle(Command(
            self.chat, HOST, parsed.name, parsed.options,
            origin_id=origin or f"{self.prefix}:{self.sent}"))


async def two_games(store: SqlStore, hands: int = 30) -> None:
    """Game 1 ended, game 2 open, `hands` hands each; hand N of game G has the origin id
    o:G:N: (found in the file by it)."""
    chat = Chat(Service(store))
    for game in (1, 2):
        assert (await chat("/newgame players:alice bob carol")).ok
        assert (await chat("/rules rate:10 currency:Rs")).ok
        for no in range(1, hands + 1):
            reply = await chat(HAND.format(m=no % 7), origin=f"o:{game}:{no}:")
            assert reply.ok, reply.text
        if game == 1:
            assert (await chat("/endgame")).ok  # (the console and tests end at once)
    assert (await chat("/paid bob 100 to:alice")).ok


def flip(db: Path, at: int, count: int = 64) -> None:
    with db.open("r+b") as file:
        file.seek(at)
        data = file.read(count)
        file.seek(at)
        file.write(bytes(b ^ 0xFF for b in data))


def flip_hand(db: Path, game: int, no: int) -> None:
    """64 bytes flipped in the row of that hand, in its page in the middle of the file:
    the end of its summary, just before who recorded it."""
    assert not Path(f"{db}-wal").exists()  # every page is in the file itself
    data = db.read_bytes()
    row = b"test:hosthost" + f"o:{game}:{no}:".encode()  # who recorded it, and its origin
    assert data.count(row) == 1
    at = data.index(row)
    assert len(data) // 4 < at < len(data)  # a page of the middle, not the schema's
    flip(db, at - 64)


def hands_in(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM hands").fetchone()[0]
    finally:
        conn.close()


async def test_a_hand_damaged_in_the_file_is_named_recording_stops_and_health_fails(
        tmp_path: Path):
    db = tmp_path / "maalbot.db"
    url = f"sqlite:///{db}"
    store = await open_store(url)
    try:
        await two_games(store)
    finally:
        await store.close()
    backup = tmp_path / "backup.db"
    shutil.copy(db, backup)
    flip_hand(db, game=2, no=20)
    env = {"DATABASE_URL": url}

    # SQLite's own check sees nothing wrong: only reading the records back does
    plain = bot("health", env=env)
    assert plain.returncode == 0, plain.stdout
    deep = bot("health", "--deep", env=env)
    assert deep.returncode == DAMAGED, deep.stdout + deep.stderr
    report = json.loads(deep.stdout)
    assert not report["ok"] and report["damaged"]
    assert "game 2, hand 20" in report["error"] and "restore it from a backup" in \
        report["error"]

    store = await open_store(url)
    try:
        chat = Chat(Service(store))
        said = NAMED.format(no=20, game=2)
        replies = {line: await chat(line) for line in (
            "/board", "/history", "/stats", "/export", "/chart", "/ledger",
            "/board game:1")}
        for line, reply in replies.items():
            assert reply.ok or reply.text == said, (line, reply.text)
        # those that read hand 20 of game 2 say so; the ledger and game 1 don't read it
        assert [line for line, r in replies.items() if not r.ok] == [
            "/board", "/history", "/stats", "/export", "/chart"]
        assert replies["/board game:1"].board is not None
        assert replies["/board game:1"].board.hand_count == 30
        # recording stops: a new hand, an undo, a payment are refused and not stored
        for line in (HAND.format(m=3), "/undo", "/paid bob 5 to:alice"):
            reply = await chat(line)
            assert not reply.ok and reply.text == said, (line, reply.text)
        # another chat is told the file is damaged, and not of this chat's records
        other = await Chat(Service(store), "another")("/newgame players:dave erin")
        assert not other.ok and other.text == str(DAMAGED_TEXT)
    finally:
        await store.close()
    assert hands_in(db) == 60

    marker = json.loads(damage_marker_of(db).read_text())
    assert marker["damaged"][0]["game"] == 2 and marker["damaged"][0]["no"] == 20
    health = bot("health", env=env)  # what a command found, health says
    assert health.returncode == DAMAGED, health.stdout
    assert "game 2, hand 20" in json.loads(health.stdout)["error"]
    started = bot("console", "--json", "--db", str(db), stdin="/board\n")
    assert started.returncode == DAMAGED and started.stdout == ""
    line = one_line(started)
    assert "game 2, hand 20" in line and "restore it from a backup" in line

    shutil.copy(backup, db)  # the host restores the file: it reads whole, and starts
    restored = bot("console", "--json", "--db", str(db), "--chat", "chat",
                   stdin="/board\n")
    assert restored.returncode == 0, restored.stderr
    assert json.loads(restored.stdout)["board"]["hand_count"] == 30
    assert not damage_marker_of(db).exists()
    assert bot("health", "--deep", env=env).returncode == 0


def _middle_flips(size: int, seed: int) -> int:
    rng = random.Random(seed)
    pages = size // 4096
    return rng.randrange(pages // 4, 3 * pages // 4) * 4096 + rng.randrange(0, 4096 - 64)


async def test_bytes_flipped_anywhere_in_the_middle_never_get_try_again(tmp_path: Path):
    """64 bytes flipped at random places of the middle pages of a file whose kept replies
    were pruned (hands are most of it): every command is answered, accepted, or refused
    as damaged; never "try again"; and once damage is said, nothing more is recorded."""
    base = tmp_path / "base.db"
    store = await open_store(f"sqlite:///{base}")
    try:
        await two_games(store, hands=90)  # hands on most pages of the middle
    finally:
        await store.close()
    conn = sqlite3.connect(base, isolation_level=None)
    try:  # as retention leaves them once no platform can deliver their update again
        conn.execute("UPDATE origins SET reply = NULL")
        conn.execute("VACUUM")
    finally:
        conn.close()
    said_damage = 0
    for seed in range(int(os.environ.get("DAMAGE_EXAMPLES", "12"))):
        db = tmp_path / f"s{seed}.db"
        shutil.copy(base, db)
        flip(db, _middle_flips(db.stat().st_size, seed))
        try:
            store = await open_store(f"sqlite:///{db}")
        except Exception as error:  # quick_check or the schema: the start refuses
            assert type(error).__name__ == "DatabaseDamaged", error
            continue
        try:
            chat = Chat(Service(store))
            replies = [await chat(line) for line in (
                "/board", "/history", "/history page:2", "/stats", "/ledger", "/export",
                "/chart", "/board game:1", HAND.format(m=2))]
        finally:
            await store.close()
        texts = [r.text for r in replies if not r.ok]
        assert not NEVER & set(texts), (seed, texts)
        assert all("damaged" in t for t in texts), (seed, texts)
        if texts:
            said_damage += 1
            assert not replies[-1].ok  # the hand after it was not recorded
            assert damage_marker_of(db).exists()
    assert said_damage  # the flips did reach records


async def test_a_record_that_does_not_decode_is_named_on_both_backends(database_url: str):
    store = await open_store(database_url)
    try:
        await two_games(store, hands=15)
        async with store.engine.begin() as conn:  # as a bug, or a hand, could leave them
            session = (await conn.execute(text(
                "SELECT id FROM sessions WHERE status = 'open'"))).scalar()
            await conn.execute(text("UPDATE hands SET state_before = '{\"foul\": [1,' "
                                    "WHERE session_id = :s AND no = 2"), {"s": session})
            await conn.execute(text("UPDATE payments SET amount = 'ten'"))
        store.windows.put("chat", None)
        chat = Chat(Service(store))
        sqlite = store.backend == "sqlite"
        hand = NAMED.format(no=2, game=2) if sqlite else \
            NAMED_PG.format(what="hand 2 of game 2")
        assert (await chat("/history")).text == hand
        assert (await chat("/board")).ok  # its last hands don't hold hand 2
        payment = NAMED_PG.format(what="payment 1")
        if sqlite:
            payment = NAMED.replace("hand {no} of game {game}", "payment 1")
        assert (await chat("/ledger history")).text == payment  # the one it met
        if sqlite:  # the file: nothing more recorded, and said of the first found
            assert (await chat(HAND.format(m=1))).text == hand
        else:  # one record that does not decode: the rest is recorded on
            assert (await chat(HAND.format(m=1))).ok
    finally:
        await store.close()
    report = await check_health(database_url, deep=True)
    assert not report["ok"] and report["damaged"], report
    assert "game 2, hand 2" in report["error"] and "payments row" in report["error"]


def test_a_record_is_named_only_where_it_can_be_and_only_to_its_own_chat():
    """Pages that don't read, or a row whose game is not known, are said as the file's
    damage, never as "hand ? of game ?"; another chat's record is not named at all."""
    hand = Damage("hands", "summary: not UTF-8", chat="a", game=2, no=20, row=50,
                  game_key="riichi")
    assert str(said([hand], "a", stopped=False)) == NAMED_PG.format(
        what="result 20 of game 2")  # Riichi's word for a hand
    assert said([hand], "b", stopped=True) is DAMAGED_TEXT
    for unnamed in (Damage("hands", "database disk image is malformed (read 40 rows)",
                           chat="a"),
                    Damage("?", "a value read by a command did not read back", chat="a"),
                    Damage("inbox", "not an update", chat="a", row=7)):
        assert said([unnamed], "a", stopped=True) is DAMAGED_TEXT, unnamed
    assert str(said([Damage("payments", "amount", chat="a", no=3, row=9)], "a",
                    stopped=False)) == NAMED_PG.format(what="payment 3")
