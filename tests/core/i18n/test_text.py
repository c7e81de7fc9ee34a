"""Kept text: a hand's summary and a void's reason are stored as messages and read back
in any language; what someone typed comes back exactly as typed, and a stored form that
is malformed (an imported file's) is shown as stored, never a crash."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bot.core.i18n import Kept, Num, _, decode, encode, join, kept, translator
from bot.core.session import Void
from tests.conftest import Table

# what people type, and (drawn often on purpose) text that looks like a kept form: plain
# st.text() almost never starts with '{"i18n":', so alone it never tries the wrapping
KEPT_LOOKING = st.one_of(
    st.text(),
    st.text().map(lambda rest: '{"i18n":' + rest),
    st.text().map(lambda msgid: '{"i18n":' + json.dumps({"m": msgid}) + "}"),
)


@given(KEPT_LOOKING)
def test_what_someone_typed_reads_back_as_typed(typed: str):
    """Catches: typed text that looks like a kept form stored unwrapped, so it reads back
    as a message (verified by planting it)."""
    assert decode(encode(typed)) == typed
    assert Void.from_text(Void(False, typed).to_text()).reason in (typed, None)


def test_messages_read_back_and_render_in_another_language():
    kept = join([_("{winner} won", winner="ram"), Num(1234)], "; ")
    assert translator("pt-BR").render(decode(encode(kept))) == \
        translator("pt-BR").render(kept)


def test_malformed_kept_forms_are_shown_as_stored():
    for stored in ('{"i18n":{"#":"abc"}}', '{"i18n":{"m":"x","v":[1]}}',
                   '{"i18n":{"m":"x","p":5,"n":2}}', '{"i18n":{"m":"x","n":true}}',
                   '{"i18n":', '{"i18n":[1,2]}', '{"i18n":{"#":"Infinity"}}'):
        assert decode(stored) == stored


async def test_a_reason_that_looks_like_kept_text_is_kept_as_typed(table: Table):
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok("/hand winner:alice seen:bob maal:alice=5 bob=3 carol=0")
    forged = '{"i18n":{"m":"Cancelled; nothing changed."}}'
    await table.ok(f"/undo reason:{forged}")
    history = (await table.ok("/history")).text
    assert f"(reason: {forged})" in history
    exported = (await table.ok("/export format:csv")).file
    assert exported is not None and "Cancelled; nothing changed." in exported.data.decode()


async def test_a_usage_example_is_translated_before_the_names_go_in(table: Table):
    await table.ok("/settings language:pt-BR")
    await table.ok("/newgame callbreak players:ana bruno carla davi")
    said = await table.error("/round")
    assert "/round bids:ana=3" in said and "   ou   " in said and "   or   " not in said


async def test_rule_numbers_are_written_as_the_language_writes_them(table: Table):
    await table.ok("/settings language:pt-BR")
    await table.ok("/newgame riichi players:ana bruno carla davi")
    shown = (await table.ok("/rules")).text
    # Riichi's usual start is 25,000 points and the return 30,000: Portuguese groups by "."
    assert "start: 25.000" in shown and "back: 30.000" in shown


def test_kept_text_is_read_back_only_when_shown_and_stored_again_as_it_was():
    summary = join([_("{winner} won", winner="ram"), _("maal {amounts}", amounts=Num(1234))],
                   "; ")
    stored = encode(summary)
    later = kept(stored)
    assert isinstance(later, Kept)  # not read back yet
    assert encode(later) == stored  # an edit stores it again unchanged
    for lang in ("en", "pt-BR", "ne"):
        assert translator(lang).render(later) == translator(lang).render(summary)
    assert str(later) == "ram won; maal 1,234"
    assert kept("ram won") == "ram won"  # plain text, as typed before messages were kept
    malformed = '{"i18n":{"#":"abc"}}'
    assert str(kept(malformed)) == malformed
    assert decode(encode(kept(malformed))) == malformed
