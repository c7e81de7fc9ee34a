"""The docs' pictures are drawn from replies as the adapters render them."""

from PIL import Image

from bot.core.command import Reply
from bot.core.flows import Ask, Choice, Question, Step, Token
from bot.docs import pictures

TABLE = "  # Asha Bikash\n  1  +10    -10\n-----------------\n  Σ  +10    -10"


def board() -> Reply:
    question = Question(Ask.ACTIONS, "", Token(Step.BOARD, 0, (1,)),
                        (Choice("Next hand", "next"), Choice("Undo", "undo")))
    return Reply("Nepali Marriage: 1 hand", table=TABLE, question=question)


def test_telegram_shows_the_html_and_the_keyboard_the_adapter_sends() -> None:
    post = pictures.telegram_post(board())
    assert post.blocks == [("text", "Nepali Marriage: 1 hand"), ("pre", TABLE)]
    assert post.buttons == [[("Next hand", ""), ("Undo", "")]]


def test_discord_shows_the_embed_and_the_buttons_the_adapter_sends() -> None:
    post = pictures.discord_post(board())
    assert post.title == "Board" and post.blocks == []
    assert post.embed == [("text", "Nepali Marriage: 1 hand"), ("pre", TABLE)]
    # the board's buttons: Next hand primary, Undo secondary (bot/discord_adapter/components)
    assert post.buttons == [[("Next hand", "primary"), ("Undo", "secondary")]]


def test_an_error_is_ephemeral_on_discord() -> None:
    assert pictures.discord_post(Reply.error("No game is open.")).ephemeral


def test_a_painted_chat_is_as_wide_as_the_app_and_grows_with_its_posts() -> None:
    one = [pictures.telegram_post(board())]
    small = pictures.Painter(pictures.TELEGRAM, False).render(one)
    tall = pictures.Painter(pictures.TELEGRAM, False).render(one * 2)
    assert isinstance(small, Image.Image) and small.width == pictures.TELEGRAM.width
    assert tall.height > small.height


def test_nepali_is_drawn_with_the_devanagari_font() -> None:
    face = pictures.SANS
    runs = list(face.runs("हात 3: आशा"))
    assert [font is face.deva for _, font in runs] == [True, False, True]
    # DejaVu has no Devanagari: without the fallback the word would be drawn as boxes
    assert face.width("आशा") == face.deva.getlength("आशा")


def test_the_pictures_script_draws_every_picture(tmp_path) -> None:
    # what the README says remakes the pictures runs as written, the web pages' included
    import pytest

    from tests.web.browser import chromium_problem

    problem = chromium_problem()
    if problem:
        pytest.skip(problem)
    made = {path.name for path in pictures.main_made(tmp_path)}
    assert {"telegram-board.png", "discord-board.png", "chart.png", "web-scorepad.png",
            "web-scoreboard.png", "web-scoreboard-tv.png", "web-club.png",
            "web-club-member.png", "web-club-tv.png"} <= made
    phone = Image.open(tmp_path / "web-scoreboard.png")
    assert phone.size == (390, 844)
    assert Image.open(tmp_path / "web-club.png").size == (390, 844)
    assert Image.open(tmp_path / "web-club-tv.png").size == (1920, 1080)
