"""Riichi's numbers follow the language shown: 6,100 in English is 6.100 in Portuguese and
+43.0 is +43,0; Hindi groups by lakhs (1,21,000). English stays as it always was, "+0" and
"+0.0" included, and a kept summary keeps its numbers as numbers."""

import pytest

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.games.base import PlayContext
from bot.core.games.riichi.game import RULEBOOK, RiichiGame
from bot.core.i18n import decode, encode, translator
from bot.core.players import Roster
from tests.games.riichi.test_riichi_i18n import _play, _roster

PT = translator("pt-BR", "riichi")
HI = translator("hi", "riichi")
EAST_1 = {"round": 0, "honba": 0, "sticks": 0, "over": False}
OVER = {"round": 8, "honba": 0, "sticks": 0, "over": True}


def test_the_points_of_a_win_in_portuguese_and_hindi():
    # alice deals East 1 and tsumos a double yakuman: 2 x 48,000 = 96,000, 32,000 from each
    outcome = _play("tsumo", {"winner": "alice", "yakuman": "2"}, state=EAST_1)
    kept = decode(encode(outcome.result.summary))
    assert str(kept) == "East 1: alice tsumo, yakuman x2, 96,000"
    assert PT.render(kept) == "Leste 1: alice tsumo, yakuman x2, 96.000"
    # the board after it: alice 25,000 + 96,000 = 121,000, a lakh and 21 thousand in Hindi
    game, rules = RiichiGame(), RULEBOOK.defaults()
    totals = outcome.result.deltas
    status = game.status(totals, rules, {**EAST_1, "honba": 1}, _roster())
    assert str(status) == ("East 1, 1 honba · sticks on the table 0 · scores: alice 121,000 "
                           "· bob -7,000 · carol -7,000 · dave -7,000")
    assert PT.render(status) == ("Leste 1, 1 honba · palitos na mesa 0 · placar: alice "
                                 "121.000 · bob -7.000 · carol -7.000 · dave -7.000")
    assert "alice 1,21,000 · bob -7,000" in HI.render(status)


def test_the_final_results_keep_their_signs_and_write_decimals_with_a_comma():
    game, rules = RiichiGame(), RULEBOOK.defaults()
    # 40,000 / 25,000 / 20,000 / 15,000 against back 30,000, uma +15 +5 -5 -15, oka +20:
    # alice 10 + 15 + 20 = +45.0; bob -5 + 5 = +0.0 (written with its sign, as always)
    totals = {1: 15000, 2: 0, 3: -5000, 4: -10000}
    lines = game.final_lines(totals, rules, OVER, _roster())
    assert [str(line) for line in lines] == [
        "Final (uma +15 +5 -5 -15, back 30,000, oka +20 to first):",
        "1. alice 40,000 -> +45.0", "2. bob 25,000 -> +0.0", "3. carol 20,000 -> -15.0",
        "4. dave 15,000 -> -30.0"]
    assert [PT.render(line) for line in lines] == [
        "Final (uma +15 +5 -5 -15, back 30.000, oka +20 para o primeiro):",
        "1. alice 40.000 -> +45,0", "2. bob 25.000 -> +0,0", "3. carol 20.000 -> -15,0",
        "4. dave 15.000 -> -30,0"]


def test_sanma_with_an_uma_of_nothing_and_an_oka_with_a_half():
    game = RiichiGame()
    # three players, start 30,000, back 35,500: oka (35,500 - 30,000) x 3 = 16.5; the
    # uma3 of the rulebook is 15 0 -15, its 0 written +0 as before
    rules = {**RULEBOOK.defaults(), "start": 30000, "back": 35500}
    roster = Roster(list(_roster())[:3])
    lines = game.final_lines({1: 10000, 2: -3000, 3: -7000}, rules, OVER, roster)
    assert str(lines[0]) == "Final (uma +15 +0 -15, back 35,500, oka +16.5 to first):"
    assert PT.render(lines[0]) == ("Final (uma +15 +0 -15, back 35.500, oka +16,5 para o "
                                   "primeiro):")
    # alice 40,000: 4.5 + 15 + 16.5 = +36.0; bob 27,000: -8.5 + 0 = -8.5
    assert PT.render(lines[1]) == "1. alice 40.000 -> +36,0"
    assert PT.render(lines[2]) == "2. bob 27.000 -> -8,5"


def test_a_riichi_below_the_stick_names_the_points_in_portuguese():
    roster = _roster()
    ctx = PlayContext(command="riichi", options={"": "bob"}, roster=roster,
                      hand_players=list(roster), rules=RULEBOOK.defaults(), pending=None,
                      actor=Actor("console:alice", "alice"), actor_player=roster.by_seat(1),
                      state=None, totals={2: -24500})
    spec = next(s for s in RiichiGame().commands if s.name == "riichi")
    with pytest.raises(UserError) as error:
        spec.play(ctx)
    message = error.value.message
    assert str(message) == ("bob has 500 points: a riichi needs the 1,000 stick (rule "
                            "riichi_below:yes allows riichi below it).")
    assert PT.render(message) == ("bob tem 500 pontos: um riichi precisa do palito de 1.000 (a "
                                  "regra riichi_below:yes permite riichi abaixo disso).")
