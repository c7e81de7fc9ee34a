"""Tranca and Call Break in other languages: messages render in Brazilian Portuguese, and
each language's catalogue of both games translates every message with its placeholders."""

import re

import pytest
from babel.messages.pofile import read_po

from bot.core.cards import parse_cards
from bot.core.errors import UserError
from bot.core.games.tranca.game import TrancaGame, _result
from bot.core.games.tranca.scoring import check_meld
from bot.core.i18n import _, decode, encode, translator
from bot.core.i18n.catalogues import po_path, pot_path
from bot.core.players import Player, Roster
from tests.games.tranca.test_tranca import RULES

DOMAINS = ("tranca", "callbreak")
LOCALES = ("pt_BR", "ne", "hi")
FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def test_tranca_speaks_brazilian_portuguese():
    pt = translator("pt-BR", "tranca")
    with pytest.raises(UserError) as refused:
        check_meld(parse_cards("4H 6H 8H"), RULES)
    assert pt.render(refused.value.message) == (
        "[4H 6H 8H] não é um jogo: a sequência tem 2 buracos.")
    roster = Roster([Player(seat=1, name="ana"), Player(seat=2, name="ben")])
    game, state = TrancaGame(), {"sides": [[1], [2]]}
    rules = {**RULES, "target": 500}
    assert pt.render(game.status({1: 600, 2: 100}, rules, state, roster)) == (
        "A: ana · B: ben. Meta 500. A vence com 600! /endgame para arquivar a partida (não "
        "há mais rodadas; /undo ou /edit para corrigir uma).")
    assert pt.render(game.status({1: 600, 2: 600}, rules, state, roster)) == (
        "A: ana · B: ben. Meta 500. A e B empataram acima da meta com 600: joguem mais uma "
        "rodada.")
    assert pt.render(game.pending_note({"sides": {"1": {}}}, roster, rules)) == (
        "já tem o lado A; esperando os outros")
    assert pt.text(game.title) == "Tranca" and pt.text(game.hand_word) == "rodada"


async def test_a_tranca_evening_in_nepali(table):
    # (/settings language:pt-BR is refused as `pt-br` by the core for now: Nepali here)
    await table.ok("/settings language:ne")
    await table.ok("/newgame tranca players:ana ben")
    reply = await table.ok("/round side:A table:300 hand:20 clean:1 red3:1")
    assert "पक्ष A: +580 (टेबल +300, हातमा -20, सफा क्यानास्टा +200, रातो ३ +100)\n" \
        "राउन्ड 1: पक्ष A आइसक्यो; पक्ष B को पर्खाइमा।" in reply.text
    assert "क्यानास्टा बिना कुनै पक्षले खेल सक्न (बाटिडा गर्न) सक्दैन।" in await table.error(
        "/round side:B table:10 out:yes")
    reply = await table.ok("/round side:B table:100 hand:0 morto:no")
    assert reply.board.hands[0]["points"] == {"A": 580, "B": 0}
    # the round's kept summary and the status line, both in Nepali
    assert "A +580 (टेबल +300, हातमा -20, सफा क्यानास्टा +200, रातो ३ +100); " \
        "B +0 (टेबल +100, मोर्टो नलिएको -100)" in reply.text
    assert "A: ana · B: ben। लक्ष्य 3,500।" in reply.text


def test_a_tranca_summary_is_kept_as_a_message():
    entered = {"1": {"score": 580, "parts": [["table", 300], ["in hand", -20],
                                              ["clean canastras", 200], ["red 3s", 100]]},
               "2": {"score": 0, "parts": []}}
    summary = decode(encode(_result([1, 2], entered).summary))
    assert str(summary) == ("A +580 (table +300, in hand -20, clean canastras +200, "
                            "red 3s +100); B +0 (nothing)")
    assert translator("pt-BR", "tranca").render(summary) == (
        "A +580 (mesa +300, na mão -20, canastras limpas +200, três vermelhos +100); "
        "B +0 (nada)")


def test_english_is_the_source():
    assert translator("en", "tranca").render(_("{items} and {last}", items="A", last="B")) \
        == "A and B"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated_with_its_placeholders(domain, locale):
    with pot_path(domain).open("rb") as handle:
        template = read_po(handle)
    with po_path(domain, locale).open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    have = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    assert wanted <= set(have), sorted(wanted - set(have))
    for key in wanted:
        message = have[key]
        assert not message.fuzzy, key
        if isinstance(message.id, str):
            assert message.string, key
            assert fields(message.string) == fields(message.id), key
        else:
            _singular, plural = message.id
            forms = message.string
            assert len(forms) == catalog.num_plurals and all(forms), key
            for form in forms:  # {n} may be spelled out in a form ("a gap")
                assert fields(form) - {"n"} == fields(plural) - {"n"}, (key, form)
            assert fields(forms[-1]) == fields(plural), key
