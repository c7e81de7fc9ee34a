"""Whatever people (or platforms) send: a reply or a clear error, never a crash, and
rejected input changes nothing."""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import Update

from bot.core.command import Actor, Command
from bot.core.grammar import parse_command_text
from bot.core.service import TABLE, Service, known_commands
from bot.storage import SqlStore
from bot.telegram_adapter import TelegramAdapter
from bot.telegram_adapter.ratelimit import ChatRateLimiter
from tests.discord_helpers import DiscordHarness, slash
from tests.fakes.discord_api import user
from tests.fakes.telegram_api import FakeTelegram
from tests.telegram_helpers import GROUP

# FUZZ_EXAMPLES=1000 for a longer run than CI's
SETTINGS = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
KEYS = ["winner", "seen", "maal", "dublee", "foul", "players", "game", "preset", "hand",
        "reason", "tiplu", "cards", "tunnella", "seen", "unseen", "rate", "currency", "name",
        "points", "honours", "dublee_route", "unseen_maal", "foul_when", "packs", "x"]
nasty = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
    st.sampled_from(["alice", "@everyone", "-5", "9" * 300, "bob=3", "alice=10 bob=x",
                     "8H 8H 8H 8H", "jk", "<@123>", "\x00\x07", "🎲", "NaN", "1e9", "=",
                     "alice bob carol", "yes", "0.25", "x" * 10_000, "None", "∞"]),
)
# each command's own options (in the default game, the one the fuzzed chat plays), so that
# bad values reach the code that reads them, not only the check for unknown options
OWN_KEYS = {name: [option.key for option in spec.options] or KEYS
            for name in sorted(known_commands())
            if (spec := TABLE.lookup(name, TABLE.default_game)) is not None}
any_keys = st.tuples(st.sampled_from([*sorted(known_commands()), "nonsense"]),
                     st.dictionaries(st.sampled_from(KEYS), nasty, max_size=4))
own_keys = st.sampled_from(sorted(OWN_KEYS)).flatmap(lambda name: st.tuples(
    st.just(name), st.dictionaries(st.sampled_from(OWN_KEYS[name]), nasty, max_size=4)))
command_text = st.tuples(
    st.one_of(any_keys, own_keys),
    st.one_of(st.none(), nasty),
).map(lambda t: "/" + t[0][0] + ((" " + t[1]) if t[1] else "")
      + "".join(f" {k}:{v}" for k, v in t[0][1].items()))


async def _version(store: SqlStore, chat: str) -> tuple:
    async with store.transaction(chat) as tx:
        session = await tx.open_session()
        return (session.version, session.hand_count) if session else (None, None)


@SETTINGS
@given(lines=st.lists(command_text, min_size=1, max_size=6))
async def test_any_command_text_gets_an_answer_and_rejected_input_changes_nothing(
        store: SqlStore, lines: list[str]):
    """Catches: bad input failing in our code ("Something went wrong") where it should be
    refused, and a refused command's writes committed (each verified by planting it)."""
    service = Service(store)
    chat = f"fuzz-{uuid.uuid4().hex}"
    actor = Actor("test:alice", "alice", is_admin=True)
    await service.handle(Command(chat, actor, "newgame", {"players": "alice bob carol"}))
    for line in lines:
        try:
            parsed = parse_command_text(line)
        except Exception as error:  # the grammar refuses with a UserError and nothing else
            assert type(error).__name__ == "UserError", repr(error)
            continue
        before = await _version(store, chat)
        reply = await service.handle(Command(chat, actor, parsed.name, parsed.options,
                                             origin_id=uuid.uuid4().hex))
        assert isinstance(reply.text, str) and reply.text
        assert not reply.text.startswith("Something went wrong"), (line, reply.text)
        if not reply.ok:
            assert await _version(store, chat) == before, line


# --- Telegram ----------------------------------------------------------------------------

@pytest.fixture
async def telegram(store: SqlStore) -> AsyncIterator[TelegramAdapter]:
    fake = FakeTelegram()
    base = await fake.start()
    adapter = TelegramAdapter(Service(store), fake.token, base, poll_timeout=1,
                              rate_limiter=ChatRateLimiter(group_max_rate=10**6,
                                                          overall_max_rate=10**6))
    await adapter.start()
    try:
        yield adapter
    finally:
        await adapter.stop()
        await fake.stop()


huge_ids = st.one_of(st.integers(1, 2**31), st.integers(2**52, 2**63 - 1))
names = st.one_of(st.text(min_size=1, max_size=30), st.just("x" * 10_000),
                  st.just("<b>&amp;</b>"), st.just("\u202e\u0000"))


@st.composite
def telegram_updates(draw) -> dict:
    text = draw(st.one_of(command_text, nasty))
    message: dict = {
        "message_id": draw(st.integers(1, 2**31)), "date": 0, "text": text,
        "chat": {"id": draw(st.sampled_from([GROUP, 42, -(2**52)])), "type": "supergroup",
                 "title": "G"},
        "from": {"id": draw(huge_ids), "is_bot": False, "first_name": draw(names)},
    }
    if draw(st.booleans()):
        message["from"]["username"] = draw(st.text(min_size=1, max_size=32))
    entities = []
    if text.startswith("/"):
        entities.append({"type": "bot_command", "offset": 0, "length": len(text.split()[0])
                         if text.split() else 1})
    if draw(st.booleans()):  # mentions with offsets that may not fit the text
        entities.append({"type": "text_mention", "offset": draw(st.integers(0, 50)),
                         "length": draw(st.integers(1, 50)),
                         "user": {"id": draw(huge_ids), "is_bot": False,
                                  "first_name": draw(names)}})
    message["entities"] = entities
    kind = draw(st.sampled_from(["message", "edited_message", "callback_query"]))
    if kind == "callback_query":
        return {"update_id": 1, "callback_query": {
            "id": "q", "from": message["from"], "chat_instance": "c",
            "data": draw(st.one_of(st.text(max_size=64), st.sampled_from(
                ["hw|1|2", "hs|1|2|999999|3", "hd|5|1|0", "cu|1", "ce|0", "hx|1", "zz|x"]))),
            "message": {**message, "from": {"id": 1, "is_bot": True, "first_name": "Bot"}}}}
    return {"update_id": 1, kind: message}


@SETTINGS
@given(updates=st.lists(telegram_updates(), min_size=1, max_size=5))
async def test_raw_telegram_updates_never_crash_the_bot(telegram: TelegramAdapter,
                                                         updates: list[dict],
                                                         caplog: pytest.LogCaptureFixture):
    """Catches: button data without exactly one `|` failing in our code (verified by
    planting it). A failed tap is answered "Something went wrong" and logged with its
    traceback, never counted as an error update, so the log is read too."""
    caplog.set_level(logging.ERROR, logger="bot")
    for data in updates:
        await telegram.app.process_update(Update.de_json(data, telegram.app.bot))
    assert telegram.errors == 0
    failed = [r for r in caplog.records if r.name.startswith("bot") and r.exc_info]
    assert not failed, failed[0].getMessage()


# --- Discord -----------------------------------------------------------------------------

@st.composite
def interactions(draw) -> dict:
    who = user(draw(st.integers(10, 2**62)), draw(names))
    name = draw(st.sampled_from(["newgame", "hand", "maal", "rules", "edit", "join", "undo",
                                 "board", "check", "setmaal", "sitout", "help"]))
    options = draw(st.dictionaries(
        st.sampled_from(["players", "winner_name", "seen", "maal", "value", "tiplu", "cards",
                         "name", "reason", "topic", "preset", "currency", "rate"]),
        nasty, max_size=3))
    if name == "edit":
        options["hand"] = draw(st.integers(-(2**40), 2**40))  # bounds Discord should enforce
    if name == "rules" and draw(st.booleans()):
        options["seen"] = draw(st.integers(-(2**40), 2**40))
    return slash(name, who, **options)


@SETTINGS
@given(payloads=st.lists(interactions(), min_size=1, max_size=4))
async def test_raw_discord_interactions_always_get_an_answer(
        dc: DiscordHarness, payloads: list[dict]):
    """Catches: a slash command's non-ASCII text option failing in our code (verified by
    planting it)."""
    await dc.reply_to(slash("newgame", user(1, "alice"), players="alice bob"))
    for payload in payloads:
        await asyncio.wait_for(dc.reply_to(payload), 15)
    assert dc.adapter.errors == 0
