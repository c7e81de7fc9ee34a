"""Numbered schema migrations. Each is applied once, in order, inside a transaction.

Add a migration by appending to MIGRATIONS; never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    cast,
    column,
    or_,
    select,
    table,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.core import stored_json
from bot.core.pages import conceal
from bot.storage.engine.tables import inbox, origins

Migration = Callable[[AsyncConnection], Awaitable[None]]
_LOCK_ID = 7_240_001  # PostgreSQL advisory lock: one migrator at a time across processes


async def _0001_initial(conn: AsyncConnection) -> None:
    meta = MetaData()
    Table(
        "sessions", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("chat", Text, nullable=False),
        Column("game", Text, nullable=False),
        Column("status", Text, nullable=False),
        Column("players", JSON, nullable=False),
        Column("rules", JSON, nullable=False),
        Column("pending", JSON),
        Column("totals", JSON, nullable=False),
        Column("hand_count", Integer, nullable=False),
        Column("version", Integer, nullable=False),
        Column("created_by", Text, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("ended_at", DateTime(timezone=True)),
        # One open session per chat, enforced by the database for every process.
        Index("one_open_session_per_chat", "chat", unique=True,
              sqlite_where=text("status = 'open'"), postgresql_where=text("status = 'open'")),
        Index("sessions_by_chat", "chat", "id"),
    )
    Table(
        "hands", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("session_id", Integer, ForeignKey("sessions.id"), nullable=False),
        Column("no", Integer, nullable=False),
        Column("players", JSON, nullable=False),
        Column("inputs", JSON, nullable=False),
        Column("rules", JSON, nullable=False),
        Column("deltas", JSON, nullable=False),
        Column("summary", Text, nullable=False),
        Column("recorded_by", Text, nullable=False),
        Column("recorded_by_name", Text, nullable=False),
        Column("origin_id", Text),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("voided_at", DateTime(timezone=True)),
        Column("voided_by", Text),
        Column("void_reason", Text),
        Column("replaced_by", Integer),
        # Live hands are numbered 1..n without gaps or doubles.
        Index("one_live_hand_per_number", "session_id", "no", unique=True,
              sqlite_where=text("voided_at IS NULL"),
              postgresql_where=text("voided_at IS NULL")),
        Index("hands_by_session", "session_id", "no"),
    )
    Table(
        "origins", meta,
        Column("origin_id", Text, primary_key=True),
        Column("chat", Text, nullable=False),
        Column("reply", JSON, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
    )
    await conn.run_sync(meta.create_all)


async def _0002_game_state(conn: AsyncConnection) -> None:
    # State a game carries from hand to hand (a foul charged in the next hand, riichi
    # sticks, the dealer), and each hand's copy of it from before, so undo can restore it.
    await conn.execute(text("ALTER TABLE sessions ADD COLUMN game_state TEXT"))
    await conn.execute(text("ALTER TABLE hands ADD COLUMN state_before TEXT"))


async def _0003_chat_settings(conn: AsyncConnection) -> None:
    # Per-chat settings (timezone, language) that outlive sessions.
    await conn.execute(text(
        "CREATE TABLE chat_settings (chat TEXT PRIMARY KEY, data TEXT NOT NULL)"))


async def _0004_session_money(conn: AsyncConnection) -> None:
    # Money kept hand by hand at each hand's rate, per currency: {currency: {column: "1.25"}}.
    # NULL for sessions from before: computed once from their hands when first needed.
    await conn.execute(text("ALTER TABLE sessions ADD COLUMN money TEXT"))


async def _0005_inbox(conn: AsyncConnection) -> None:
    # Telegram updates as they arrive, kept before Telegram is told they were received, so a
    # process that dies with a backlog handles it when it comes back.
    meta = MetaData()
    Table(
        "inbox", meta,
        Column("bot_id", BigInteger, primary_key=True),
        Column("update_id", BigInteger, primary_key=True),
        Column("chat", Text, nullable=False),
        Column("payload", JSON, nullable=False),
        Column("state", Text, nullable=False),  # new, working, done, failed
        Column("attempts", Integer, nullable=False),
        Column("not_before", DateTime(timezone=True), nullable=False),
        Column("updated_at", DateTime(timezone=True), nullable=False),
        Index("inbox_unfinished", "bot_id", "state", "update_id"),
    )
    await conn.run_sync(meta.create_all)


async def _0006_board_ref(conn: AsyncConnection) -> None:
    # The platform message that is a game's live board, edited in place after each change.
    await conn.execute(text("ALTER TABLE sessions ADD COLUMN board_ref TEXT"))


RUMMY_SCALE = 10  # marriage_rummy kept whole points; it keeps tenths from migration 7 on


def scale_rummy_points(game: str, totals: dict[str, int], factor: int) -> dict[str, int]:
    """A session's totals (or a hand's deltas) in the units its game keeps now."""
    return {k: v * factor for k, v in totals.items()} if game == "marriage_rummy" else totals


async def _0007_marriage_rummy_tenths(conn: AsyncConnection) -> None:
    # Marriage rummy keeps tenths of a point (a player with no turn pays exactly half: 12.5),
    # so the whole points stored before are scaled by 10 and keep their meaning. Its own
    # table definitions: the migration must not follow later changes to bot/storage/tables.
    sessions = table("sessions", column("id", Integer), column("game", Text),
                     column("totals", JSON))
    hands = table("hands", column("id", Integer), column("session_id", Integer),
                  column("deltas", JSON))
    rows = (await conn.execute(select(sessions.c.id, sessions.c.totals)
                               .where(sessions.c.game == "marriage_rummy"))).all()
    for session_id, totals in rows:
        await conn.execute(update(sessions).where(sessions.c.id == session_id).values(
            totals=scale_rummy_points("marriage_rummy", totals, RUMMY_SCALE)))
        for hand_id, deltas in (await conn.execute(
                select(hands.c.id, hands.c.deltas)
                .where(hands.c.session_id == session_id))).all():
            await conn.execute(update(hands).where(hands.c.id == hand_id).values(
                deltas=scale_rummy_points("marriage_rummy", deltas, RUMMY_SCALE)))


async def _0008_payments(conn: AsyncConnection) -> None:
    # The chat's ledger: payments between people, append-only like hands (undo voids).
    # Games enter the ledger from the ended sessions themselves (their money book), so
    # games ended before this migration count with nothing to backfill.
    meta = MetaData()
    Table(
        "payments", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("chat", Text, nullable=False),
        Column("payer", Text, nullable=False),  # a person's key, as /stats keys them
        Column("payer_name", Text, nullable=False),
        Column("payee", Text, nullable=False),
        Column("payee_name", Text, nullable=False),
        Column("amount", Text, nullable=False),  # a decimal, exactly as recorded
        Column("currency", Text, nullable=False),
        Column("recorded_by", Text, nullable=False),
        Column("recorded_by_name", Text, nullable=False),
        Column("origin_id", Text),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("voided_at", DateTime(timezone=True)),
        Column("voided_by", Text),
        Index("payments_by_chat", "chat", "id"),
    )
    await conn.run_sync(meta.create_all)


async def _0009_seasons(conn: AsyncConnection) -> None:
    # A chat's seasons: a name and a span of time; a game is in the season it ended in (an
    # open game: in the open season). At most one open season per chat.
    meta = MetaData()
    Table(
        "seasons", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("chat", Text, nullable=False),
        Column("name", Text, nullable=False),
        Column("started_at", DateTime(timezone=True), nullable=False),
        Column("started_by", Text, nullable=False),
        Column("started_by_name", Text, nullable=False),
        Column("ended_at", DateTime(timezone=True)),
        Column("ended_by", Text),
        Index("one_open_season_per_chat", "chat", unique=True,
              sqlite_where=text("ended_at IS NULL"),
              postgresql_where=text("ended_at IS NULL")),
        Index("seasons_by_chat", "chat", "id"),
    )
    await conn.run_sync(meta.create_all)


async def _0010_prefetch(conn: AsyncConnection) -> None:
    # PostgreSQL: a command's first round trip takes its chat's lock (a writer) and then
    # reads its origin's reply, the chat's settings and the open session
    # (bot/storage/transaction/hot.py, PostgresDriver). In a function, so the reads come after the
    # lock with snapshots of their own (a VOLATILE function's statements each take one): in the
    # statement that waited for the lock they would see the chat as it was before the last holder's
    # commit.
    if conn.dialect.name != "postgresql":
        return
    await conn.execute(text("""
        CREATE OR REPLACE FUNCTION maalbot_prefetch(p_origin text, p_chat text, p_lock boolean)
        RETURNS TABLE (reply json, settings text, open_session sessions)
        LANGUAGE plpgsql VOLATILE AS $$
        #variable_conflict use_column
        BEGIN
            IF p_lock THEN
                PERFORM pg_advisory_xact_lock(hashtextextended(p_chat, 0));
            END IF;
            RETURN QUERY
            SELECT (SELECT o.reply FROM origins AS o WHERE o.origin_id = p_origin),
                   (SELECT c.data FROM chat_settings AS c WHERE c.chat = p_chat),
                   s
            FROM (SELECT 1) AS one
            LEFT JOIN sessions AS s ON s.chat = p_chat AND s.status = 'open';
        END
        $$"""))


async def _0013_session_events(conn: AsyncConnection) -> None:
    # What changes a game's money or seats between its hands, for /history: rule and rate
    # changes, sitting out and coming back, joins and seats given or taken. Append-only.
    # (11 and 12 are other work's numbers.)
    meta = MetaData()
    Table(
        "session_events", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("session_id", Integer, nullable=False),  # sessions.id
        Column("kind", Text, nullable=False),
        Column("data", Text, nullable=False),  # JSON: what changed, as bot/core/events.py
        Column("by", Text, nullable=False),
        Column("by_name", Text, nullable=False),
        Column("after_hand", Integer, nullable=False),  # live hands when it happened
        Column("created_at", DateTime(timezone=True), nullable=False),
        Index("session_events_by_session", "session_id", "id"),
    )
    await conn.run_sync(meta.create_all)


async def _0015_replies_pruned(conn: AsyncConnection) -> None:
    # A kept reply is emptied once its platform can no longer deliver the same update again;
    # the origin's id stays for good (bot/storage/transaction/retention.py). The reply may be NULL
    # now; the rows still holding one are indexed by age for the pruning. On SQLite the table is
    # made again WITHOUT ROWID: its id is its key, kept once instead of in a table and an
    # index.
    if conn.dialect.name == "sqlite":
        await conn.execute(text(
            "CREATE TABLE origins_new (origin_id TEXT NOT NULL PRIMARY KEY, chat TEXT NOT NULL,"
            " reply JSON, created_at DATETIME NOT NULL) WITHOUT ROWID"))
        await conn.execute(text("INSERT INTO origins_new (origin_id, chat, reply, created_at)"
                                " SELECT origin_id, chat, reply, created_at FROM origins"))
        await conn.execute(text("DROP TABLE origins"))
        await conn.execute(text("ALTER TABLE origins_new RENAME TO origins"))
    else:
        await conn.execute(text("ALTER TABLE origins ALTER COLUMN reply DROP NOT NULL"))
    await conn.execute(text("CREATE INDEX origins_with_reply ON origins (created_at)"
                            " WHERE reply IS NOT NULL"))
    if conn.dialect.name != "postgresql":
        return
    # the prefetch of migration 10, saying a known origin whose reply has gone as such
    # (retention.PRUNED_JSON; a colon is escaped in text())
    await conn.execute(text("""
        CREATE OR REPLACE FUNCTION maalbot_prefetch(p_origin text, p_chat text, p_lock boolean)
        RETURNS TABLE (reply json, settings text, open_session sessions)
        LANGUAGE plpgsql VOLATILE AS $$
        #variable_conflict use_column
        BEGIN
            IF p_lock THEN
                PERFORM pg_advisory_xact_lock(hashtextextended(p_chat, 0));
            END IF;
            RETURN QUERY
            SELECT (SELECT coalesce(o.reply, '{"ok"\\:true,"pruned"\\:true}'::json)
                    FROM origins AS o WHERE o.origin_id = p_origin),
                   (SELECT c.data FROM chat_settings AS c WHERE c.chat = p_chat),
                   s
            FROM (SELECT 1) AS one
            LEFT JOIN sessions AS s ON s.chat = p_chat AND s.status = 'open';
        END
        $$"""))


HAND_ROWS_VIEW = (
    "CREATE VIEW hand_rows AS SELECT h.id, h.session_id, h.no, h.players, h.inputs, "
    "r.rules AS rules, h.deltas, h.summary, h.recorded_by, h.recorded_by_name, h.origin_id, "
    "h.created_at, h.voided_at, h.voided_by, h.void_reason, h.replaced_by, h.state_before "
    "FROM hands AS h LEFT JOIN rule_sets AS r "
    "ON r.session_id = h.session_id AND r.rules_key = h.rules_key")


async def _0016_rules_once(conn: AsyncConnection) -> None:
    # A hand's rules kept once per game and change (rule_sets, keyed by a hash of the rules:
    # bot/storage/transaction/rule_sets.py), a hand naming them by key; and its summary emptied
    # where scoring it again gives the same text (derived when shown: bot/core/summaries.py).
    # The view hand_rows reads hands as they were. Its own table definitions, as 7's.
    from bot.core.summaries import DERIVED, can_derive
    from bot.storage.transaction.rule_sets import insert_ignoring, key_of

    without_rowid = " WITHOUT ROWID" if conn.dialect.name == "sqlite" else ""
    await conn.execute(text(
        "CREATE TABLE rule_sets (session_id INTEGER NOT NULL, rules_key BIGINT NOT NULL,"
        " rules TEXT NOT NULL, PRIMARY KEY (session_id, rules_key))" + without_rowid))
    await conn.execute(text("ALTER TABLE hands ADD COLUMN rules_key BIGINT"))
    sessions = table("sessions", column("id", Integer), column("game", Text),
                     column("players", JSON))
    hands = table("hands", column("id", Integer), column("session_id", Integer),
                  column("no", Integer), column("players", JSON), column("inputs", JSON),
                  column("rules", JSON), column("deltas", JSON), column("summary", Text),
                  column("state_before", Text), column("rules_key", BigInteger))
    changes = []
    for session_id, game, players in (await conn.execute(
            select(sessions.c.id, sessions.c.game, sessions.c.players))).all():
        kept: dict[int, str] = {}
        for row in (await conn.execute(select(hands).where(hands.c.session_id == session_id)
                                       .order_by(hands.c.id))).all():
            key, rules = key_of(row.rules or {})
            kept.setdefault(key, rules)
            hand = {"players": row.players, "inputs": row.inputs, "rules": row.rules,
                    "summary": row.summary, "state_before": None if row.state_before is None
                    else stored_json.loads(row.state_before)}
            change = {"hand": row.id, "k": key}
            if can_derive(game, players or [], hand):
                change["s"] = DERIVED
            changes.append(change)
        if kept:
            await conn.execute(insert_ignoring(conn.dialect.name, [
                {"session_id": session_id, "rules_key": k, "rules": r}
                for k, r in kept.items()]))
    # dropped before the rows are written again: PostgreSQL's new versions of them are
    # then without the column's values (a dropped column's stay in rows never written)
    await conn.execute(text("ALTER TABLE hands DROP COLUMN rules"))
    derived = [c for c in changes if "s" in c]
    if derived:
        await conn.execute(text("UPDATE hands SET rules_key = :k, summary = :s "
                                "WHERE id = :hand"), derived)
    kept_as_is = [c for c in changes if "s" not in c]
    if kept_as_is:
        await conn.execute(text("UPDATE hands SET rules_key = :k WHERE id = :hand"),
                           kept_as_is)
    await conn.execute(text(HAND_ROWS_VIEW))


async def _0017_summaries_checked(conn: AsyncConnection) -> None:
    # A new hand keeps its summary; a background pass leaves it out where it derives
    # (bot/storage/transaction/retention.py), from the hand after the highest id it checked. One
    # row; migration 16 (and /hand until now) checked every hand before.
    await conn.execute(text("CREATE TABLE summaries_checked (last_hand BIGINT NOT NULL)"))
    await conn.execute(text("INSERT INTO summaries_checked (last_hand)"
                            " SELECT coalesce(max(id), 0) FROM hands"))


async def _0018_pages(conn: AsyncConnection) -> None:
    # The web pages of a table (its scorepad, its scoreboard): the link is the key, and only
    # its hash is kept, to find the table a link opens (bot/storage/transaction/pages.py)
    meta = MetaData()
    Table(
        "pages", meta,
        Column("digest", Text, primary_key=True),  # sha256 of the link's token, hex
        Column("chat", Text, nullable=False),
        Column("kind", Text, nullable=False),  # pad or board
        Column("created_at", DateTime(timezone=True), nullable=False),
        Index("pages_by_chat", "chat", "kind"),
    )
    await conn.run_sync(meta.create_all)


async def _0020_dropped_logs(conn: AsyncConnection) -> None:
    # A game closed with no hand recorded keeps only its row (bot/core/handlers/sessions.py,
    # _drop): the undone hands, rule sets and events such games left before go, as nothing
    # can show them.
    dropped = "(SELECT id FROM sessions WHERE status = 'dropped')"
    for name in ("hands", "rule_sets", "session_events"):
        await conn.execute(text(f"DELETE FROM {name} WHERE session_id IN {dropped}"))


async def _0021_no_tokens_kept(conn: AsyncConnection) -> None:
    # A link's token is kept nowhere (bot/core/pages.py, conceal): the replies kept for
    # exactly-once and the inbox's updates kept it in clear until now, for up to two days.
    for kept, key, value in ((origins, [origins.c.origin_id], origins.c.reply),
                             (inbox, [inbox.c.bot_id, inbox.c.update_id], inbox.c.payload)):
        holding = or_(*(cast(value, Text).like(f"%{where}%")
                        for where in ("/s/", "#t=", "startapp=")))
        rows = (await conn.execute(select(*key, value).where(holding))).all()
        for row in rows:
            await conn.execute(update(kept).where(*(c == row[i] for i, c in enumerate(key)))
                               .values({value.name: conceal(row[-1])}))


async def _0022_clubs(conn: AsyncConnection) -> None:
    # A club of tables (bot/core/club/): its tables (a chat is in one club at most), its
    # one-time codes (to join it, or to link a person's accounts: only their hash kept), the
    # accounts linked as one person, its seasons, and a finished game as the club counts it
    # (derived from the game and its hands: written at /endgame, and for the games a table
    # brings or an import adds the first time the club looks at them)
    meta = MetaData()
    Table(
        "clubs", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", Text, nullable=False),
        Column("owner", Text, nullable=False),  # the person who made it (a member key)
        Column("created_at", DateTime(timezone=True), nullable=False),
        # bumped by whatever changes the club's figures other than a game ending (a table
        # joining or leaving, accounts linked, a person forgotten, an import, a season)
        Column("epoch", Integer, nullable=False, server_default="0"),
        Column("data", Text, nullable=False),  # JSON: admins, the page's nonce
    )
    Table(
        "club_tables", meta,
        Column("chat", Text, primary_key=True),
        Column("club_id", Integer, nullable=False),
        Column("name", Text, nullable=False),
        Column("joined_at", DateTime(timezone=True), nullable=False),
        Column("joined_by", Text, nullable=False),
        Index("club_tables_by_club", "club_id"),
    )
    Table(
        "club_codes", meta,
        Column("digest", Text, primary_key=True),  # sha256 of the code, hex
        Column("kind", Text, nullable=False),  # club (join it) or account (link to it)
        Column("subject", Text, nullable=False),  # the club's id, or the account
        Column("made_by", Text, nullable=False),
        Column("expires_at", DateTime(timezone=True), nullable=False),
        Column("used_at", DateTime(timezone=True)),
        Column("used_by", Text),
    )
    Table(
        "account_links", meta,
        Column("account", Text, primary_key=True),
        Column("person", Text, nullable=False),  # the account that gave the code
        Column("linked_at", DateTime(timezone=True), nullable=False),
        Index("account_links_by_person", "person"),
    )
    Table(
        "club_seasons", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("club_id", Integer, nullable=False),
        Column("name", Text, nullable=False),
        Column("started_at", DateTime(timezone=True), nullable=False),
        Column("started_by", Text, nullable=False),
        Column("started_by_name", Text, nullable=False),
        Column("ended_at", DateTime(timezone=True)),
        Column("ended_by", Text),
        Index("club_seasons_by_club", "club_id", "id"),
    )
    Table(
        "game_summaries", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("session_id", Integer, nullable=False, unique=True),
        Column("chat", Text, nullable=False),
        Column("ended_at", DateTime(timezone=True), nullable=False),
        Column("data", Text, nullable=False),  # JSON: bot/core/club/summary.py
        Index("game_summaries_by_chat", "chat", "id"),
        Index("game_summaries_by_end", "ended_at", "session_id"),  # a club's, in end order
    )
    await conn.run_sync(meta.create_all)


async def _0023_tournaments(conn: AsyncConnection) -> None:
    # A club's tournaments (bot/core/club/tournament.py: its players, rounds, tables,
    # results and penalties, one JSON document a tournament, written under the club's lock)
    # and its nights (who tapped "I'm here", the tables seated that night)
    meta = MetaData()
    Table(
        "tournaments", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("club_id", Integer, nullable=False),
        Column("name", Text, nullable=False),
        Column("status", Text, nullable=False),  # open, running, ended
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("version", Integer, nullable=False, server_default="0"),  # +1 a change
        Column("data", Text, nullable=False),
        Index("tournaments_by_club", "club_id", "id"),
    )
    Table(
        "club_nights", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("club_id", Integer, nullable=False),
        Column("started_at", DateTime(timezone=True), nullable=False),
        Column("data", Text, nullable=False),
        Index("club_nights_by_club", "club_id", "id"),
    )
    await conn.run_sync(meta.create_all)


MIGRATIONS: list[tuple[int, str, Migration]] = [
    (1, "initial: sessions, hands, origins", _0001_initial),
    (2, "game state carried between hands", _0002_game_state),
    (3, "chat settings", _0003_chat_settings),
    (4, "money per session at each hand's rate", _0004_session_money),
    (5, "a durable inbox of Telegram updates", _0005_inbox),
    (6, "the live board's message", _0006_board_ref),
    (7, "marriage rummy points in tenths", _0007_marriage_rummy_tenths),
    (8, "the ledger's payments", _0008_payments),
    (9, "seasons", _0009_seasons),
    (10, "PostgreSQL: a command's lock and reads in one round trip", _0010_prefetch),
    (13, "a session's event log: rules, rates, seats", _0013_session_events),
    (15, "kept replies emptied after their platform's window", _0015_replies_pruned),
    (16, "rules kept once per change, summaries derived when shown", _0016_rules_once),
    (17, "summaries derived by a background pass, not at /hand", _0017_summaries_checked),
    (18, "the web pages of a table, by their links' hashes", _0018_pages),
    (20, "the log of a game closed with no hand recorded let go", _0020_dropped_logs),
    (21, "no link's token kept in kept replies or the inbox", _0021_no_tokens_kept),
    (22, "clubs: tables, codes, linked accounts, seasons, finished games", _0022_clubs),
    (23, "a club's tournaments and nights", _0023_tournaments),
]


async def upgrade(engine: AsyncEngine) -> list[int]:
    """Apply what is missing; safe to run from several processes at once. Returns versions."""
    applied_now: list[int] = []
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _LOCK_ID})
        await conn.execute(text(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        ))
        done = {row[0] for row in await conn.execute(text("SELECT version FROM schema_migrations"))}
        for version, name, migration in MIGRATIONS:
            if version in done:
                continue
            await migration(conn)
            await conn.execute(
                text("INSERT INTO schema_migrations (version, name, applied_at) "
                     "VALUES (:v, :n, :t)"),
                {"v": version, "n": name, "t": datetime.now(UTC).isoformat()},
            )
            applied_now.append(version)
    return applied_now


async def current_version(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        try:
            row = (await conn.execute(text("SELECT max(version) FROM schema_migrations"))).first()
        except Exception:
            return 0
        return int(row[0] or 0) if row else 0
