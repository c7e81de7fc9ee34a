"""Names as written beside text that runs the other way (Unicode's UAX #9): a right-to-left
name is isolated (U+2068 ... U+2069) in what Telegram and Discord are sent, so "1. علي" and
"علي +7" keep their order; a refusal never echoes a bidirectional control; a name copied
from a reply, isolates and all, is read as the name."""

from __future__ import annotations

from bot.core.bidi import for_chat, isolate, shown
from bot.core.command import Reply
from bot.core.grammar import parse_command_text
from bot.discord_adapter.render import message_parts
from bot.telegram_adapter.render import reply_chunks
from tests.conftest import Table

ALI = "علي"  # Arabic, right to left
FSI, PDI, RLO = "\u2068", "\u2069", "\u202e"


def test_a_right_to_left_name_is_isolated_from_what_stands_around_it():
    assert isolate(f"1. {ALI}") == f"1. {FSI}{ALI}{PDI}"
    assert isolate(f"{ALI} +7") == f"{FSI}{ALI}{PDI} +7"
    # a name of two words is one run (its words keep their own order); the comma after it
    # and the number before it are the sentence's
    assert isolate(f"Hand 3: {ALI} حسن, 12") == f"Hand 3: {FSI}{ALI} حسن{PDI}, 12"
    assert isolate(f"`{ALI}2` wins") == f"`{FSI}{ALI}2{PDI}` wins"  # its digit is its own
    assert isolate("alice +41, bob -3") == "alice +41, bob -3"  # nothing to isolate
    assert isolate("ऐलिस +41") == "ऐलिस +41"  # Devanagari runs left to right


def test_a_bidirectional_control_is_written_out_never_echoed():
    assert shown(f"ali{RLO}ce") == "ali<U+202E>ce"
    assert for_chat(f"{RLO}{ALI}") == f"<U+202E>{FSI}{ALI}{PDI}"


def test_telegram_and_discord_are_sent_the_names_isolated():
    board = f"  {ALI}  +7\n  bob   -7"
    reply = Reply(f"Hand 1: {ALI} +7", table=board)
    html = reply_chunks(reply)[0]
    assert f"Hand 1: {FSI}{ALI}{PDI} +7" in html and f"{FSI}{ALI}{PDI}  +7" in html
    content, embeds = message_parts(Reply(f"{ALI} +7"))
    assert content == f"{FSI}{ALI}{PDI} +7" and not embeds
    _, embeds = message_parts(reply)
    assert f"{FSI}{ALI}{PDI}  +7" in (embeds[0].description or "")


def test_a_name_copied_with_its_isolates_is_the_name():
    parsed = parse_command_text(f"/hand winner:{FSI}{ALI}{PDI} seen:bob")
    assert parsed.options["winner"] == ALI


async def test_the_name_refusal_does_not_echo_an_override(table: Table):
    said = await table.error(f"/newgame marriage players:ali{RLO}ce bob")
    assert RLO not in said and "ali<U+202E>ce" in said
