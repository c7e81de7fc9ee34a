"""Replies in the chat's language: chosen once per command (the chat's setting, else the
sender's platform language), rendered through the message catalogues, never leaking from
one chat into another.

The catalogues are not translated yet, so these tests install a small catalogue of their
own (a temporary `.po`) and check that the replies go through it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.core.command import Actor, Command, Reply
from bot.core.grammar import parse_command_text
from bot.core.i18n import catalogues
from bot.core.service import Service
from tests.conftest import Table
from tests.fakes.catalogue import clear, write_catalogue

NEW = "/newgame marriage players:alice bob carol"
Install = Callable[[str, dict], None]


@pytest.fixture
def catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """install(locale, {msgid: msgstr}) puts a core catalogue in place for `locale` (a
    plural message: {(singular, plural): (form0, form1)})."""
    real = catalogues.domains()
    root = tmp_path / "locale"
    # only this test's messages: the games' real catalogues are left out (English)
    monkeypatch.setattr(catalogues, "domains",
                        lambda: {**{name: tmp_path / "none" for name in real},
                                 catalogues.CORE_DOMAIN: root})

    def install(locale: str, messages: dict) -> None:
        write_catalogue(root, locale, messages)
        clear()

    clear()
    yield install
    monkeypatch.undo()
    clear()


# Nepali from the old catalogue, for the messages these tests look for.
NEPALI = {
    "New {game} game. Players: {players}.": "नयाँ {game} खेल। खेलाडी: {players}।",
    "No game is open here. Start one with /newgame marriage players:alice bob carol":
        "यहाँ कुनै खेल खुला छैन। /newgame marriage players:alice bob carol ले सुरु गर्नुहोस्।",
    "No player called `{name}`.": "`{name}` नामको खेलाडी छैन।",
    "Players: {players}.": "खेलाडी: {players}।",
    "A {game} game is already open here ({count}, players {players}). End it with /endgame "
    "before starting another.": "यहाँ {game} खेल पहिल्यै खुला छ ({count}, खेलाडी {players})। "
                                "अर्को सुरु गर्नुअघि /endgame ले यसलाई सक्नुहोस्।",
    ("{n} hand", "{n} hands"): ("{n} हात", "{n} हात"),
    "To settle up:": "हिसाब मिलाउन:",
    "{payer} pays {payee} {amount}": "{payer} ले {payee} लाई {amount} तिर्ने",
    "{entry}: who won?": "{entry}: कसले जित्यो?",
    "Hand {no}": "हात {no}",
    "No, keep it": "होइन, राख्नुहोस्",
    "Settings saved. {settings}": "सेटिङ सुरक्षित भयो। {settings}",
    "Only {who} can {what}.": "{who} ले मात्र {what} गर्न सक्नुहुन्छ।",
    "a chat admin": "च्याट एडमिन",
}


def command(chat: str, line: str, by: str = "host", locale: str | None = None,
            buttons: bool = False, origin: str | None = None) -> Command:
    parsed = parse_command_text(line)
    actor = Actor(id=f"test:{by}", name=by, is_admin=by == "host", by_name=True)
    return Command(chat, actor, parsed.name, parsed.options, origin, locale=locale,
                   buttons=buttons)


async def test_a_chat_set_to_nepali_is_answered_through_the_catalogue(
        table: Table, catalogue: Install):
    catalogue("ne", NEPALI)
    saved = await table.ok("/settings language:ne")
    assert saved.language == "ne"
    assert saved.text.startswith("सेटिङ सुरक्षित भयो। ")  # the answer is in the new language
    assert "language: ne (नेपाली)" in saved.text
    assert "यहाँ कुनै खेल खुला छैन" in await table.error("/board")
    new = await table.ok(NEW)
    assert new.language == "ne" and new.text.startswith("नयाँ Nepali Marriage खेल। खेलाडी: ")
    assert "`zed` नामको खेलाडी छैन। खेलाडी: alice, bob, carol।" in await table.error(
        "/hand winner:zed maal:zed=1")
    # values that are messages (the count) come out in the same language
    assert "पहिल्यै खुला छ (0 हात, खेलाडी alice, bob, carol)" in await table.error(NEW)
    # what the catalogue lacks stays English: never a key, never empty
    assert "Record a hand with /hand winner:alice" in new.text
    # permissions: the who and the what are messages of their own
    assert "च्याट एडमिन ले मात्र" in await table.error("/settings timezone:UTC", by="bob",
                                                       admin=False)
    await table.ok("/hand winner:alice seen:bob carol maal:alice=3 bob=1 carol=0")
    end = await table.ok("/endgame")
    assert "हिसाब मिलाउन:" in end.text and " ले alice लाई " in end.text
    await table.ok("/settings language:en")
    assert "(finished)" in (await table.ok("/board")).text  # the game just ended


async def test_questions_carry_text_in_the_answers_language(service: Service,
                                                            catalogue: Install):
    catalogue("ne", NEPALI)
    await service.handle(command("q", "/settings language:ne"))
    await service.handle(command("q", NEW))
    asked = await service.handle(command("q", "/hand", buttons=True))
    assert asked.language == "ne" and asked.question is not None
    assert asked.question.text == "हात 1: कसले जित्यो?"
    undo = await service.handle(command("q", "/endgame", buttons=True))
    assert undo.question is not None
    assert "होइन, राख्नुहोस्" in [c.label for c in undo.question.choices]


async def test_the_senders_language_unless_the_chat_has_one(service: Service,
                                                            catalogue: Install):
    catalogue("pt_BR", {"No game is open here. Start one with /newgame marriage "
                        "players:alice bob carol": "[pt] nenhum jogo"})
    reply = await service.handle(command("fresh", "/board", locale="pt-BR"))
    assert reply.language == "pt-BR" and reply.text == "[pt] nenhum jogo"
    # a platform's own spelling of the locale ("pt_br", "pt") finds it too
    assert (await service.handle(command("fresh", "/board", locale="pt"))).language == "pt-BR"
    # an unknown locale: English
    assert (await service.handle(command("fresh", "/board", locale="fr"))).language == "en"
    # the chat's setting wins over the sender's language
    await service.handle(command("fresh", "/settings language:hi"))
    reply = await service.handle(command("fresh", "/board", locale="pt-BR"))
    assert reply.language == "hi" and "[pt]" not in reply.text
    # back to auto: the sender's own again
    saved = await service.handle(command("fresh", "/settings language:auto", locale="pt-BR"))
    assert saved.ok and saved.language == "pt-BR"
    assert "language: auto" in saved.text


async def test_language_choices_are_typed_in_any_case(table: Table):
    assert (await table.ok("/settings language:pt-br")).language == "pt-BR"
    listed = await table.error("/settings language:fr")  # answered in Portuguese now
    assert "`language` aceita auto, en, ne, hi, pt-BR; não `fr`." in listed
    shown = (await table.ok("/settings")).text
    assert "Idiomas: auto" in shown and "ne (नेपाली)" in shown


async def test_the_language_never_leaks_between_chats(service: Service, catalogue: Install):
    catalogue("ne", NEPALI)
    await service.handle(command("nepali", "/settings language:ne"))
    await service.handle(command("auto", "/settings language:auto"))

    async def ask(chat: str, locale: str | None) -> Reply:
        await asyncio.sleep(0)  # let the other chat's command interleave
        return await service.handle(command(chat, "/board", locale=locale))

    calls = []
    for i in range(6):
        calls.append(("nepali", ask("nepali", "en" if i % 2 else None)))
        calls.append(("auto", ask("auto", "hi" if i % 2 else None)))
    replies = await asyncio.gather(*(c for _, c in calls))
    for (chat, _), reply, i in zip(calls, replies, [j // 2 for j in range(12)], strict=True):
        if chat == "nepali":
            assert reply.language == "ne" and "यहाँ कुनै खेल" in reply.text
        else:
            assert reply.language == ("hi" if i % 2 else "en")
            assert reply.text.startswith("No game is open here")


async def test_a_failure_is_told_in_the_senders_language(service: Service,
                                                         catalogue: Install,
                                                         monkeypatch: pytest.MonkeyPatch):
    from bot.core.service import failures

    catalogue("ne", {str(failures.NOT_SURE): "[ne] थाहा छैन"})

    async def broken(*_: object) -> Reply:
        raise RuntimeError("a bug")

    monkeypatch.setattr(service, "_handle", broken)
    reply = await service.handle(command("x", "/board", locale="ne"))
    assert not reply.ok and reply.text == "[ne] थाहा छैन" and reply.language == "ne"


async def test_help_in_a_round_game_says_round(table: Table):
    await table.ok("/newgame tranca teams:ram+sita bikram+gita")
    help_ = (await table.ok("/help")).text
    assert "/board - the last rounds and the totals" in help_
    history = (await table.ok("/help history")).text
    assert "round: 1 to 1,000,000 - which round in full" in history
    settings = (await table.ok("/help settings")).text
    assert "With auto, the default" in settings and "pt-BR (Português (Brasil))" in settings
