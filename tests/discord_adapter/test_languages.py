"""Discord in the person's language: command and option names and descriptions synced with
Hindi and Portuguese localizations (discord.py's Translator), and replies in the language
of the interaction's locale when the channel has set none. A catalogue of the test's own
stands in for the translations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.core.assembly.built import TABLE
from bot.core.service import Service
from bot.discord_adapter import DiscordAdapter
from bot.discord_adapter.adapter import chat_key
from bot.discord_adapter.locales import SlashTranslator, localised_names, msgids, valid_name
from bot.discord_adapter.tree import slash_commands
from bot.storage import SqlStore
from tests.discord_helpers import ALICE, DiscordHarness, component, custom_ids, slash
from tests.fakes.catalogue import temporary_catalogue
from tests.fakes.discord_api import CHANNEL_ID, FakeDiscord, Invalid, check_commands

COMMANDS = slash_commands(TABLE)
BY_NAME = {c.name: c for c in COMMANDS}
HAND_HELP = BY_NAME["hand"].text.msgid  # type: ignore[union-attr]
WINNER_HELP = next(o for o in BY_NAME["hand"].options if o.name == "winner").text.msgid  # type: ignore[union-attr]
RULES_HELP = BY_NAME["rules"].text.msgid  # type: ignore[union-attr]
LONG = "registrar uma mão com quem ganhou, quem viu e o maal de cada um, " * 3
CATALOGUE = {
    "hi": {
        "/hand": "/हाथ", "winner:": "विजेता:", HAND_HELP: "एक हाथ दर्ज करें",
        WINNER_HELP: "किसने जीता", "/board": "Board Now",  # not a name: English stays
        "/undo": "/newgame",  # another command's: English stays
        "/rules": "/नियम", RULES_HELP: "नियम देखें या बदलें", "Board": "बोर्ड",
    },
    "pt_BR": {"/hand": "/Mão", HAND_HELP: LONG, "Board": "Placar"},
    "ne": {"/hand": "/हात"},  # Nepali is not one of Discord's locales
}


@asynccontextmanager
async def discord_in(store: SqlStore) -> AsyncIterator[DiscordHarness]:
    fake = FakeDiscord()
    base = await fake.start()
    adapter = DiscordAdapter(Service(store), fake.token, api_url=base,
                             gateway_url=fake.gateway_url)
    await adapter.login()  # syncs the commands
    try:
        yield DiscordHarness(fake, adapter)
    finally:
        await adapter.stop()
        await fake.stop()


def localizations(item: dict[str, Any], field: str) -> dict[str, str]:
    return item.get(f"{field}_localizations") or {}


async def test_commands_are_synced_with_hindi_and_portuguese_names(store: SqlStore,
                                                                   tmp_path: Path):
    with temporary_catalogue(tmp_path, CATALOGUE):
        async with discord_in(store) as dc:
            synced = {c["name"]: c for c in dc.fake.commands["global"]}
            hand = synced["hand"]
            assert localizations(hand, "name") == {"hi": "हाथ", "pt-BR": "mão"}  # lowercase
            said = localizations(hand, "description")
            assert said["hi"] == "एक हाथ दर्ज करें"
            # Discord's most is 100: cut there, between words
            assert len(said["pt-BR"]) <= 100 and said["pt-BR"].endswith("quem ganhou…")
            assert hand["description"] == BY_NAME["hand"].description  # English stays default
            winner = next(o for o in hand["options"] if o["name"] == "winner")
            assert localizations(winner, "name") == {"hi": "विजेता"}
            assert localizations(winner, "description") == {"hi": "किसने जीता"}
            assert localizations(synced["board"], "name") == {}  # "Board Now" is no name
            assert localizations(synced["undo"], "name") == {}  # would clash with /newgame
            # a command split per game: the group's name and help, its subcommands' stay
            assert localizations(synced["rules"], "name") == {"hi": "नियम"}
            assert localizations(synced["rules"], "description") == {"hi": "नियम देखें या बदलें"}
            # only the Discord locales we have catalogues for, never Nepali's
            for command in synced.values():
                for item in [command, *command.get("options", [])]:
                    for field in ("name", "description"):
                        assert set(localizations(item, field)) <= {"hi", "pt-BR"}


async def test_a_reply_in_the_language_of_the_interaction(store: SqlStore, tmp_path: Path):
    with temporary_catalogue(tmp_path, CATALOGUE):
        async with discord_in(store) as dc:
            async with dc.adapter.service.store.transaction(chat_key(CHANNEL_ID)) as tx:
                settings = await tx.settings()
                settings.language = "auto"  # no language set: each person gets theirs
                await tx.save_settings(settings)
            await dc.reply_to(slash("newgame", ALICE, players="alice bob carol"))
            for locale, title in (("pt-BR", "Placar"), ("hi", "बोर्ड"), ("en-US", "Board")):
                ask = slash("board", ALICE)
                ask["locale"] = locale
                callback = await dc.reply_to(ask)
                assert callback["data"]["embeds"][0]["title"] == title, locale


def test_names_follow_discords_rules():
    assert valid_name("हाथ") and valid_name("mão") and valid_name("set_maal-2")
    assert valid_name("ยกเลิก")  # Thai, its vowel marks too
    for bad in ("Mão", "two words", "", "x" * 33, "hand!", "/hand"):
        assert not valid_name(bad), bad


def test_every_name_and_option_has_a_message_to_translate():
    found = set(msgids(COMMANDS))
    assert {"/hand", "/rules", "winner:", "seen:"} <= found
    for command in COMMANDS:
        assert f"/{command.name}" in found


def test_the_fake_refuses_what_discord_refuses():
    def command(**extra: Any) -> dict[str, Any]:
        return {"name": "hand", "description": "record a hand", "type": 1, **extra}

    check_commands([command(name_localizations={"hi": "हाथ"})])
    for bad in ({"name_localizations": {"ne": "हात"}},  # not a Discord locale
                {"name_localizations": {"pt-BR": "Mão"}},  # not lowercase
                {"name_localizations": {"hi": "दो शब्द"}},  # a space
                {"description_localizations": {"hi": "x" * 101}},
                {"description_localizations": {"hi": ""}}):
        with pytest.raises(Invalid):
            check_commands([command(**bad)])
    with pytest.raises(Invalid, match="unique"):
        check_commands([command(name_localizations={"hi": "undo"}),
                        {**command(), "name": "undo"}])


def test_clashing_translations_leave_english(tmp_path: Path):
    from bot.core.i18n import translator

    assert [c.name for c in COMMANDS].index("undo") < [c.name for c in COMMANDS].index("hand")
    with temporary_catalogue(tmp_path, {"hi": {
            "/undo": "/x", "/hand": "/x",  # the same name twice: the first keeps it
            "/board": "/undo",  # free in Hindi, where /undo is /x
            "/help": "/newgame"}}):  # /newgame's, shown in English: refused
        names = localised_names(COMMANDS, translator("hi"))
    assert names[("undo",)] == "x"
    assert ("hand",) not in names
    assert names[("board",)] == "undo"
    assert ("help",) not in names


def _msgids(command: object) -> set[str]:
    """The messages of a command's help and its options' (and its subcommands')."""
    from bot.core.i18n import Msg

    found = set()
    for item in [command, *getattr(command, "options", ()), *getattr(command, "subcommands", ())]:
        text = getattr(item, "text", None)
        if isinstance(text, Msg):
            found.add(text.msgid)
        if item is not command:
            found |= _msgids(item) if getattr(item, "subcommands", None) is not None else set()
    return found


async def test_help_too_long_in_another_language_stays_english(store: SqlStore,
                                                               tmp_path: Path):
    """Discord counts 8,000 characters a command: with every text of /edit 100 characters
    long in Portuguese it would be over, so /edit's help stays English (and the sync works);
    /rules, cut to its budget in English, is cut as short in Portuguese: it stays under."""
    long = {msgid: "p " * 15 for msgid in _msgids(BY_NAME["rules"])}
    long |= {msgid: "p " * 50 for msgid in _msgids(BY_NAME["edit"])}
    long[HAND_HELP] = "registrar uma mão"
    with temporary_catalogue(tmp_path, {"pt_BR": long}):
        async with discord_in(store) as dc:
            synced = {c["name"]: c for c in dc.fake.commands["global"]}
            edit = synced["edit"]
            translator = dc.adapter.client.tree.translator
            assert isinstance(translator, SlashTranslator)
            assert translator.english_help() == {"edit"}
            assert len(long) > 20 and translator.characters(BY_NAME["edit"]) > 8000
            assert localizations(edit, "description") == {}
            for sub in edit["options"]:
                assert localizations(sub, "description") == {}
                assert all(localizations(o, "description") == {} for o in sub["options"])
            assert localizations(synced["hand"], "description") == {"pt-BR": "registrar uma mão"}
            assert translator.characters(BY_NAME["rules"]) <= 7_500
            shown = [o for sub in synced["rules"]["options"] for o in sub["options"]]
            assert any(localizations(o, "description") for o in shown)


def test_every_command_is_well_under_discords_limit_in_every_language():
    translator = SlashTranslator(COMMANDS)
    assert max(translator.characters(c) for c in COMMANDS) <= 7_500
    assert translator.english_help() == set()


async def test_the_shipped_catalogues_sync_as_discord_accepts_them(store: SqlStore):
    """The real Hindi and Portuguese catalogues (not a test one): every localised name and
    description passes the fake's Discord rules, and the words are the translators'."""
    async with discord_in(store) as dc:
        synced = {c["name"]: c for c in dc.fake.commands["global"]}
        check_commands(dc.fake.commands["global"])
        assert localizations(synced["newgame"], "name") == {"hi": "नया-खेल",
                                                             "pt-BR": "nova_partida"}
        assert localizations(synced["join"], "name") == {"hi": "जुड़ें", "pt-BR": "entrar"}
        described = localizations(synced["join"], "description")
        assert set(described) == {"hi", "pt-BR"} and all(described.values())


def _shown_on_discord(fake: FakeDiscord) -> list[str]:
    """Every text the bot sent to Discord: contents, embeds, button and select labels."""
    texts: list[str] = []
    for call in fake.captured:
        body = call.body if isinstance(call.body, dict) else {}
        body = body.get("data", body) if isinstance(body.get("data"), dict) else body
        texts.append(str(body.get("content") or ""))
        for embed in body.get("embeds") or []:
            texts += [str(embed.get(k) or "") for k in ("title", "description")]
            texts += [str(f.get(k) or "") for f in embed.get("fields") or []
                      for k in ("name", "value")]
        for row in body.get("components") or []:
            for item in row.get("components", []):
                texts += [str(item.get("label") or ""), str(item.get("placeholder") or "")]
    return [t for t in texts if t]


async def test_a_tranca_evening_on_discord_in_the_players_portuguese(store: SqlStore):
    """No language set in the channel: a player whose Discord speaks Portuguese (Brazil)
    is answered in it, from the new game to the final standings, buttons included."""
    from tests.telegram_adapter.test_evenings import english_vocabulary, grammar_of, latin_words

    def brazilian(payload: dict[str, Any]) -> dict[str, Any]:
        payload["locale"] = "pt-BR"
        return payload

    async with discord_in(store) as dc:
        await dc.reply_to(brazilian(slash("newgame", ALICE, game="tranca",
                                          teams="ana+bruno carla+davi")))
        await dc.reply_to(brazilian(slash("round", ALICE, side="A", table=365, hand="40",
                                          clean=1, out=True)))
        await dc.reply_to(brazilian(slash("round", ALICE, side="B", table=240, hand="85")))
        await dc.reply_to(brazilian(slash("round", ALICE, side="Q", table=10)))  # a mistake
        await dc.reply_to(brazilian(slash("board", ALICE)))
        await dc.reply_to(brazilian(slash("rules", ALICE)))
        ask = brazilian(slash("endgame", ALICE))
        asked = await dc.reply_to(ask)
        buttons = custom_ids(asked["data"])
        yes = next(label for label in buttons if label.lower().startswith("sim"))
        ended = await dc.reply_to(brazilian(component(dc.message_of(ask), buttons[yes],
                                                      ALICE)))
        assert "Placar final" in str(ended) or "final" in str(ended).lower()
        english = english_vocabulary(("maalbot", "tranca"), "pt_BR") - grammar_of("tranca")
        leftovers = {(w, t[:100]) for t in _shown_on_discord(dc.fake)
                     for w in latin_words(t, set())
                     if w.lower() in english and w.lower() not in {"ana", "bruno", "carla",
                                                                    "davi", "alice"}}
        assert not leftovers, "\n".join(f"{w!r} in {t!r}" for w, t in sorted(leftovers))
