"""Riichi in other languages: what the game returns is lazy text, kept as messages and
rendered in the reader's language (Portuguese written out here), and the riichi catalogues
translate every message of the template with the same placeholders."""

import re

import pytest
from babel.messages.pofile import read_po

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.games.base import PlayContext
from bot.core.games.riichi.game import RULEBOOK, RiichiGame
from bot.core.i18n import Msg, decode, encode, translator
from bot.core.i18n.catalogues import po_path, pot_path
from bot.core.players import Player, Roster

PT = translator("pt-BR", "riichi")
NAMES = ("alice", "bob", "carol", "dave")


def _roster() -> Roster:
    return Roster([Player(seat, name) for seat, name in enumerate(NAMES, 1)])


def _play(command: str, options: dict[str, str], state: dict | None = None,
          pending: dict | None = None):
    roster = _roster()
    ctx = PlayContext(command=command, options=options, roster=roster,
                      hand_players=list(roster), rules=RULEBOOK.defaults(), pending=pending,
                      actor=Actor("console:alice", "alice"), actor_player=roster.by_seat(1),
                      state=state)
    spec = next(s for s in RiichiGame().commands if s.name == command)
    return spec.play(ctx)


def test_a_ron_summary_is_kept_as_a_message_and_shown_in_portuguese():
    # East 1 with 1 honba and a stick on the table; carol declares riichi (a second stick).
    # alice deals and wins 3 han 30 fu by ron: 6 x 960 = 5,760 -> 5,800, + 300 a honba
    outcome = _play("ron", {"winner": "alice", "from": "bob", "han": "3", "fu": "30"},
                    state={"round": 0, "honba": 1, "sticks": 1, "over": False},
                    pending={"riichi": [3]})
    summary = outcome.result.summary
    assert isinstance(summary, Msg)
    assert str(summary) == ("East 1, 1 honba: alice ron from bob, 3 han 30 fu, 6,100; "
                            "2 sticks to alice; riichi carol")
    kept = decode(encode(summary))  # as the store keeps it, read back later
    assert PT.render(kept) == ("Leste 1, 1 honba: alice ron de bob, 3 han 30 fu, 6.100; "
                               "2 palitos para alice; riichi carol")


def test_a_tsumo_a_draw_and_a_chombo_in_portuguese():
    state = {"round": 5, "honba": 0, "sticks": 0, "over": False}  # South 2: bob deals
    tsumo = _play("tsumo", {"winner": "carol", "yakuman": "1"}, state=state)
    assert PT.render(tsumo.result.summary) == "Sul 2: carol tsumo, yakuman x1, 32.000"
    draw = _play("draw", {"tenpai": "none"}, state=state)
    assert PT.render(draw.result.summary) == "Sul 2: empate, tenpai ninguém"
    chombo = _play("chombo", {"": "dave"}, state=state)
    assert PT.render(chombo.result.summary) == "Sul 2: chombo de dave"


def test_the_final_lines_status_and_errors_in_portuguese():
    game, rules, roster = RiichiGame(), RULEBOOK.defaults(), _roster()
    totals = {1: 12000, 2: -12000, 3: 0, 4: 0}
    state = {"round": 8, "honba": 0, "sticks": 1, "over": True}
    lines = game.final_lines(totals, rules, state, roster)
    # alice 37,000 + the leftover stick 1,000 = 38,000: 8 + uma 15 + oka 20 = +43.0
    assert str(lines[0]) == ("Final (uma +15 +5 -5 -15, back 30,000, oka +20 to first, "
                             "1 leftover stick to alice):")
    assert PT.render(lines[0]) == ("Final (uma +15 +5 -5 -15, back 30.000, oka +20 para o "
                                   "primeiro, 1 palito restante para alice):")
    assert PT.render(lines[1]) == "1. alice 38.000 -> +43,0"
    status = game.status(totals, rules, state, roster)
    assert PT.render(status) == ("Partida encerrada: /endgame para os placares finais · "
                                 "palitos na mesa 1 · placar: alice 37.000 · bob 13.000 · "
                                 "carol 25.000 · dave 25.000")
    assert PT.render(game.pending_note({"riichi": []}, roster, rules)) == \
        "tem riichi declarado por ninguém"
    with pytest.raises(UserError) as error:
        _play("ron", {"winner": "alice", "from": "alice", "han": "1", "fu": "30"})
    assert PT.render(error.value.message) == \
        "alice não pode vencer no próprio descarte: isso é /tsumo."


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@pytest.mark.parametrize("locale", ["ne", "hi", "pt_BR"])
def test_the_riichi_catalogues_translate_every_message(locale):
    with pot_path("riichi").open("rb") as handle:
        template = read_po(handle)
    with po_path("riichi", locale).open("rb") as handle:
        catalogue = read_po(handle, locale=locale)
    wanted = [m for m in template if m.id]
    assert wanted
    for message in wanted:
        found = catalogue.get(message.id)
        assert found is not None, message.id
        assert "fuzzy" not in found.flags, message.id
        if isinstance(message.id, tuple):
            forms = found.string
            assert isinstance(forms, tuple) and len(forms) == catalogue.num_plurals
            sources = [message.id[0], *[message.id[1]] * (len(forms) - 1)]
        else:
            forms, sources = (found.string,), (message.id,)
        for source, form in zip(sources, forms, strict=True):
            assert form, message.id
            assert set(_FIELD.findall(form)) == set(_FIELD.findall(source)), (message.id, form)
