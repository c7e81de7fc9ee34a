"""Telegram in the person's language: the command menus per language (and per chat), the
adapter's own words (buttons, notices), chosen by the sender's language_code when the chat
has set no language. A catalogue of the test's own stands in for the translations."""

from __future__ import annotations

from pathlib import Path

import pytest
from telegram import BotCommand
from telegram.error import BadRequest

from bot.core.assembly.built import TABLE
from bot.core.service import Service
from bot.storage import SqlStore
from bot.telegram_adapter.adapter import chat_key
from tests.conftest import running_telegram
from tests.fakes.catalogue import temporary_catalogue
from tests.telegram_adapter.test_adapter import NEW
from tests.telegram_helpers import ALICE, GROUP, Harness

ALICE_HI = {**ALICE, "language_code": "hi"}  # the same person, her app in Hindi
ALICE_PT = {**ALICE, "language_code": "pt-br"}
EDITED = ("I don't re-read edited messages, so nothing changed. Send the command again, or "
          "correct a recorded hand with /edit hand:N.")
HAND_HELP = dict(TABLE.menu())["hand"]
MARRIAGE_HAND_HELP = dict(TABLE.menu(TABLE.games["marriage"]))["hand"]
CATALOGUE = {
    "hi": {"Cancel": "रद्द करें", HAND_HELP: "हाथ दर्ज करें", MARRIAGE_HAND_HELP: "हाथ दर्ज करें",
           EDITED: "संपादित संदेश नहीं पढ़े जाते।"},
    "pt_BR": {"Cancel": "Cancelar", HAND_HELP: "registrar uma mão",
              MARRIAGE_HAND_HELP: "registrar uma mão"},
}


async def automatic_language(tg: Harness) -> None:
    """The chat has set no language: each person is answered in theirs."""
    async with tg.service.store.transaction(chat_key(GROUP)) as tx:
        settings = await tx.settings()
        settings.language = "auto"
        await tx.save_settings(settings)


def described(menu: list[dict[str, str]]) -> dict[str, str]:
    return {c["command"]: c["description"] for c in menu}


async def test_a_menu_in_each_language_and_buttons_in_the_senders(store: SqlStore,
                                                                   tmp_path: Path):
    with temporary_catalogue(tmp_path, CATALOGUE):
        async with running_telegram(Service(store)) as tg:
            # the default menu, in English, and one per language we speak (ISO 639-1)
            english = described(tg.fake.menu(""))
            assert english["hand"] == HAND_HELP
            assert described(tg.fake.menu("hi"))["hand"] == "हाथ दर्ज करें"
            assert described(tg.fake.menu("pt"))["hand"] == "registrar uma mão"
            assert described(tg.fake.menu("ne"))["hand"] == HAND_HELP  # nothing translated
            for code in ("hi", "pt", "ne"):
                assert list(described(tg.fake.menu(code))) == list(english)
            await automatic_language(tg)

            await tg.say(ALICE_HI, NEW)
            await tg.say(ALICE_HI, "/hand")
            ask = await tg.said("who won?")
            assert set(tg.buttons(ask)) == {"alice", "bob", "carol", "रद्द करें"}
            # the chat's menu (its game's commands) outranks the default one in every
            # language, so it is there in each language too
            chat_menu = await tg.fake.wait_until(lambda: tg.fake.menu("pt", chat_id=GROUP))
            assert described(chat_menu)["hand"] == "registrar uma mão"
            assert described(tg.fake.menu("hi", chat_id=GROUP))["hand"] == "हाथ दर्ज करें"
            assert described(tg.fake.menu("", chat_id=GROUP))["hand"] == MARRIAGE_HAND_HELP
            assert described(tg.fake.menu("ne", chat_id=GROUP))["hand"] == MARRIAGE_HAND_HELP

            # the same chat, the same moment: a Portuguese app, Portuguese buttons
            await tg.say(ALICE_PT, "/hand")
            await tg.fake.wait_until(lambda: len([
                p for p in tg.fake.sent(chat_id=GROUP) if "who won?" in p["text"]]) == 2)
            asked = [p for p in tg.fake.sent(chat_id=GROUP) if "who won?" in p["text"]]
            assert "Cancelar" in tg.buttons(asked[-1])
            # and an English one (no language_code), English
            await tg.say(ALICE, "/hand")
            await tg.fake.wait_until(lambda: len([
                p for p in tg.fake.sent(chat_id=GROUP) if "who won?" in p["text"]]) == 3)
            asked = [p for p in tg.fake.sent(chat_id=GROUP) if "who won?" in p["text"]]
            assert "Cancel" in tg.buttons(asked[-1])

            # what the adapter says on its own goes by the sender's language too
            await tg.say(ALICE_HI, "/board", edited=True)
            await tg.said("संपादित संदेश नहीं पढ़े जाते।")

            # a finished game's chat falls back to the default menus, in every language
            await tg.say(ALICE, "/endgame")
            ask = await tg.said("End the game")
            await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
            await tg.fake.wait_until(lambda: not any(
                key[0] == f"chat:{GROUP}" for key in tg.fake.menus))


async def test_the_fake_bot_api_checks_menus_as_telegram_does(tg: Harness):
    bot = tg.adapter.app.bot
    good = [BotCommand("hand", "record a hand")]
    for code in ("pt-BR", "PT", "hin"):  # Telegram wants two lowercase letters
        with pytest.raises(BadRequest, match=r"(?i)language_code_invalid"):
            await bot.set_my_commands(good, language_code=code)
    with pytest.raises(BadRequest, match=r"description: 257 characters, not 1-256"):
        await bot.set_my_commands([BotCommand("hand", "x" * 257)], language_code="hi")
    assert len(tg.fake.refused) == 4  # kept, to fail the test that made them
    tg.fake.refused.clear()
    assert await bot.set_my_commands(good, language_code="hi")
    assert tg.fake.menu("hi") == [{"command": "hand", "description": "record a hand"}]
    assert [c.command for c in await bot.get_my_commands(language_code="hi")] == ["hand"]
    assert await bot.delete_my_commands(language_code="hi")
    assert tg.fake.menu("hi") == []
    assert tg.fake.menu("")  # the default menu is a menu of its own


async def test_what_the_adapter_says_itself_follows_the_chats_language(tg: Harness):
    """A line that doesn't parse is answered before any command runs: in a chat set to
    Nepali, in Nepali, whatever the sender's app speaks; and the chat's menu, for everyone
    whose app language has no menu of its own, is in Nepali too."""
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await tg.reply_to(await tg.say(ALICE, NEW))  # the game's menu is set in English first
    await tg.reply_to(await tg.say(ALICE, "/settings language:ne"))  # and redone in Nepali
    twice = await tg.reply_to(await tg.say(ALICE, "/hand winner:ram winner:sita"))
    assert "`winner:` दुई पटक दिइयो; एक पटक मात्र दिनुहोस्।" in twice["text"]
    def chat_menus() -> list[dict]:
        return [c.params for c in tg.fake.calls if c.method == "setMyCommands"
                and (c.params.get("scope") or {}).get("type") == "chat"
                and not c.params.get("language_code")]

    menus = await tg.fake.wait_until(lambda: chat_menus() if len(chat_menus()) > 1 else None)
    hand = next(c for c in menus[-1]["commands"] if c["command"] == "hand")
    assert hand["description"] == "हात लेख्नुहोस्: जित्ने, सिन खेलाडी, माल"


async def test_menu_texts_with_the_games_word_are_translated_too(tg: Harness):
    """A summary holding the game's word ("sit out the next {hands}") is translated from
    its declared text, like any other: in the default menus and in a Tranca chat's."""
    assert described(tg.fake.menu(""))["sitout"] == "sit out the next hands"
    assert described(tg.fake.menu("pt"))["sitout"] == "ficar de fora de mãos daqui em diante"
    assert described(tg.fake.menu("hi"))["sitout"] == "आगे के हाथ न खेलें (बाहर बैठें)"
    assert described(tg.fake.menu("ne"))["sitout"] == "अबका हातमा बाहिर बस्ने"
    await tg.say(ALICE, "/newgame tranca teams:alice+carol bob+dave")
    chat_menu = await tg.fake.wait_until(lambda: tg.fake.menu("pt", chat_id=GROUP))
    assert described(chat_menu)["sitout"] == "ficar de fora de rodadas daqui em diante"
    assert described(tg.fake.menu("", chat_id=GROUP))["sitout"] == "sit out the next rounds"
