"""/help that fits a phone: every page at most about 1,200 characters in every language (a
longer topic goes on in pages), no line over 300 characters, no page repeating another, the
same shape in every language; /help seat says how a seat is taken and given."""

from __future__ import annotations

import re

import pytest

from bot.core.assembly.built import TABLE
from bot.core.command import Actor, Command
from bot.core.games import GAMES
from bot.core.grammar import parse_command_text
from bot.core.handlers.help import PAGE, page_of, paged, pages, render, topic_of, wrap
from bot.core.i18n import translator
from bot.core.service import Service
from bot.telegram_adapter.keyboards import markup_for
from tests.conftest import Table

LANGUAGES = ("ne", "hi", "pt-BR")


def shape(text: str) -> list[str]:
    """What a help's lines are, whatever the language: the commands they start with."""
    return [line.split()[0] if line.startswith("/") else "" for line in text.splitlines()]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_short_help_fits_and_names_its_topics(game: str):
    english = render(translator("en", game), TABLE, "", GAMES[game])
    assert len(english) <= PAGE
    assert max(map(len, english.splitlines())) <= 300
    assert f"/help {game}" in english and "/help seat" in english
    assert "/help rules" in english and "/help money" in english
    for language in LANGUAGES:
        other = render(translator(language, game), TABLE, "", GAMES[game])
        assert shape(other) == shape(english)  # the same commands, line for line
        assert max(map(len, other.splitlines())) <= 300
        assert len(other) <= PAGE


@pytest.mark.parametrize("topic", ["seat", "money", "rules", "marriage", "words", "hand"])
@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_every_topic_has_no_line_over_300(topic: str, language: str):
    text = wrap(render(translator(language), TABLE, topic, GAMES["marriage"]))
    assert text and max(map(len, text.splitlines())) <= 300


def test_help_seat_says_how_a_seat_is_taken_and_given():
    text = render(translator("en"), TABLE, "seat", GAMES["marriage"])
    # taken: the button or /join before the first hand; after it, the starter confirms
    assert 'tap the "Sit at NAME" button under /newgame, or type /join NAME' in text
    assert "after it, the game's starter or an admin confirms" in text
    # given: a mention, a text mention, or in reply to their message
    assert "/seat NAME person:@them, or a text mention" in text
    assert "/seat NAME in reply to one of their messages" in text
    assert "/seat - " in text  # and /seat in full under it


def test_a_long_line_is_broken_between_words():
    line = "; ".join(f"word{i} = something said about it" for i in range(30))
    lines = wrap(line).splitlines()
    assert max(map(len, lines)) <= 300 and len(lines) > 1
    assert " ".join(lines).replace("  ", " ") == line


QUOTED = re.compile(r'["“«]([^"“”«»\n]+)["”»]')  # "a button's label", as help names one
SEATS = ("bob", "carol")  # typed by name: each has its "Sit at ..." button


async def keyboard_labels(service: Service, language: str) -> set[str]:
    """The labels of the buttons an evening shows someone whose app speaks `language`, as
    the Telegram keyboards write them, each seat's name as NAME (help's word for it)."""
    host, mo = Actor("telegram:1", "Hana"), Actor("telegram:4", "Mo")
    chat = f"telegram:-{language}"
    labels: set[str] = set()
    for who, line in [(host, "/newgame marriage players:@hana bob carol"),  # the seats
                      (host, "/hand"),  # who won, by taps
                      (host, "/hand winner:hana seen:bob maal:hana=1 bob=1 carol=0"),
                      (mo, "/join bob"),  # after a hand: the starter lets him
                      (host, "/undo"), (host, "/endgame")]:  # each asks first
        parsed = parse_command_text(line)
        reply = await service.handle(Command(chat, who, parsed.name, parsed.options,
                                             buttons=True, locale=language))
        assert reply.ok, reply.text
        if reply.question is not None:
            markup = markup_for(reply.question, "t", translator(reply.language))
            for row in markup.inline_keyboard:
                for button in row:
                    label = button.text
                    for name in SEATS:
                        label = label.replace(name, "NAME")
                    labels.add(label)
    return labels


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
async def test_help_names_buttons_by_the_labels_they_show(service: Service, language: str):
    labels = await keyboard_labels(service, language)
    seat = render(translator(language), TABLE, "seat", GAMES["marriage"])
    assert QUOTED.findall(seat)  # /help seat names the button under /newgame
    for game in GAMES:
        tr = translator(language, game)
        topics = ["", "seat", "money", "rules", "words", *TABLE.games,
                  *(s.name for s in TABLE.for_game(GAMES[game]))]
        for topic in topics:
            named = set(QUOTED.findall(render(tr, TABLE, topic, GAMES[game])))
            assert named <= labels, (game, topic, named - labels, labels)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_mistyped_topic_is_answered_with_the_one_meant(language: str):
    text = render(translator(language), TABLE, "hnad", GAMES["marriage"])
    assert "/help hand" in text and "`hnad`" in text
    listed = text.rsplit(":", 1)[1].rstrip(".।").split(", ")
    assert len(listed) == len(set(listed))  # /rules and /seat once, though topics too
    assert {"rules", "seat", "money", "words", "tranca"} <= {t.strip() for t in listed}
    nothing_like = render(translator(language), TABLE, "xyz", GAMES["marriage"])
    assert "/help " not in nothing_like.split(":")[0] and "`xyz`" in nothing_like


@pytest.mark.parametrize(("asked", "topic"), [
    ("hand winner", "hand"),  # about one of its options: the command in full
    ("/hand@MaalBot", "hand"), ("/HAND", "hand"),
    ("call break", "callbreak"), ("marriage rummy", "marriage_rummy"),
    ("seats", "seats"), ("", ""), ("xyz abc", "xyz abc")])
def test_help_is_asked_about_a_topic_as_people_type_it(asked: str, topic: str):
    assert topic_of(asked, TABLE, GAMES["marriage"]) == topic


async def test_help_about_an_option_shows_its_command(table: Table):
    await table.ok("/newgame marriage players:ram sita hari")
    text = (await table.ok("/help hand winner")).text
    assert text.startswith("/hand - record a hand")
    assert "Usage: /hand winner:ram seen:sita" in text  # the table's own names


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_every_page_of_every_topic_fits_a_phone(language: str):
    for key, game in GAMES.items():
        tr = translator(language, key)
        topics = ["", "seat", "money", "rules", "words", *TABLE.games,
                  *(s.name for s in TABLE.for_game(game) if not s.hidden)]
        for topic in topics:
            text = wrap(render(tr, TABLE, topic, game))
            count = len(pages(text))
            for page in range(1, count + 2):  # one past the last: the last again
                shown = paged(tr, text, topic, page)
                assert len(shown) <= PAGE, (key, topic, page, len(shown))
                assert max(map(len, shown.splitlines())) <= 300
            # the pages together are the whole text, in order, each line once
            foot = -1 if count > 1 else None
            kept = [line for p in range(1, count + 1)
                    for line in paged(tr, text, topic, p).splitlines()[:foot]]
            assert [line.strip() for line in kept if line] == \
                [line.strip() for line in text.splitlines() if line]


def test_a_page_says_where_the_next_is_and_a_number_asks_for_one():
    tr = translator("en")
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(40))
    first, last = paged(tr, text, "rules", 1), paged(tr, text, "rules", 99)
    assert first.endswith("More: /help rules 2") and first.startswith("line 0 ")
    count = len(pages(text))
    assert last.endswith(f"({count}/{count})") and "line 39 " in last
    assert page_of("rules 2") == (2, "rules") and page_of("hand winner") == (1, "hand winner")


def test_a_games_page_lists_its_commands_each_in_full_on_its_own():
    for key, game in GAMES.items():
        page = render(translator("en", key), TABLE, key, game)
        for spec in game.commands:
            if spec.hidden:
                continue
            assert f"/{spec.name} - " in page
            assert "Usage:" not in page and spec.details[:60] not in page, (key, spec.name)
