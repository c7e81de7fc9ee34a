"""/help that fits a phone (issue 30): at most 1,500 characters in English with topics for
the rest, no line over 300 characters, the same shape in every language; /help seat says
how a seat is taken and given."""

from __future__ import annotations

import pytest

from bot.core.assembly.built import TABLE
from bot.core.games import GAMES
from bot.core.handlers.help import render, wrap
from bot.core.i18n import translator

LANGUAGES = ("ne", "hi", "pt-BR")


def shape(text: str) -> list[str]:
    """What a help's lines are, whatever the language: the commands they start with."""
    return [line.split()[0] if line.startswith("/") else "" for line in text.splitlines()]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_short_help_fits_and_names_its_topics(game: str):
    english = render(translator("en", game), TABLE, "", GAMES[game])
    assert len(english) <= 1_500
    assert max(map(len, english.splitlines())) <= 300
    assert f"/help {game}" in english and "/help seat" in english
    assert "/help rules" in english and "/help money" in english
    for language in LANGUAGES:
        other = render(translator(language, game), TABLE, "", GAMES[game])
        assert shape(other) == shape(english)  # the same commands, line for line
        assert max(map(len, other.splitlines())) <= 300
        assert len(other) <= 1_700  # translations run a little longer than English


@pytest.mark.parametrize("topic", ["seat", "money", "rules", "marriage", "words", "hand"])
@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_every_topic_has_no_line_over_300(topic: str, language: str):
    text = wrap(render(translator(language), TABLE, topic, GAMES["marriage"]))
    assert text and max(map(len, text.splitlines())) <= 300


def test_help_seat_says_how_a_seat_is_taken_and_given():
    text = render(translator("en"), TABLE, "seat", GAMES["marriage"])
    # taken: the button or /join before the first hand; after it, the starter confirms
    assert 'tap the "sit here" button under /newgame, or type /join NAME' in text
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
