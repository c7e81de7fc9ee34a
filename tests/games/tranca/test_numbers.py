"""Tranca's numbers follow the language shown: a target of 3,500 is 3.500 in Portuguese, a
side's +1,325 is +1.325; English stays as it was ("+0" for a side's nothing), kept
summaries too."""

from bot.core.games.tranca.game import TrancaGame, _result
from bot.core.i18n import decode, encode, translator
from bot.core.players import Player, Roster
from tests.games.tranca.test_tranca import RULES

PT = translator("pt-BR", "tranca")
TWO = Roster([Player(seat=1, name="ana"), Player(seat=2, name="ben")])
SIDES = {"sides": [[1], [2]]}


def test_the_target_and_the_totals_in_portuguese():
    game = TrancaGame()
    status = game.status({1: 3620, 2: 2100}, RULES, SIDES, TWO)
    assert str(status).startswith("A: ana · B: ben. Target 3,500. A wins with 3,620! ")
    assert PT.render(status).startswith("A: ana · B: ben. Meta 3.500. A vence com 3.620! ")
    tied = game.status({1: 3600, 2: 3600}, RULES, SIDES, TWO)
    assert PT.render(tied) == ("A: ana · B: ben. Meta 3.500. A e B empataram acima da meta com "
                               "3.600: joguem mais uma rodada.")
    # six players play to 5,000
    six = Roster([Player(seat=i, name=n) for i, n in
                  enumerate(("ana", "ben", "cleo", "dev", "eva", "fil"), 1)])
    state = {"sides": [[1, 3, 5], [2, 4, 6]]}
    assert "Meta 5.000." in PT.render(game.status({1: 0, 2: 0}, RULES, state, six))


def test_a_round_summary_keeps_its_signed_numbers():
    # A: 1,000 on the table, 75 in hand, two clean canastras (2 x 200): +1,325;
    # B: 100 on the table, the morto not taken (-100): +0, written with its sign as always
    entered = {"1": {"score": 1325, "parts": [["table", 1000], ["in hand", -75],
                                              ["clean canastras", 400]]},
               "2": {"score": 0, "parts": [["table", 100], ["morto not taken", -100]]}}
    summary = decode(encode(_result([1, 2], entered).summary))
    assert str(summary) == ("A +1,325 (table +1,000, in hand -75, clean canastras +400); "
                            "B +0 (table +100, morto not taken -100)")
    assert PT.render(summary) == ("A +1.325 (mesa +1.000, na mão -75, canastras limpas +400); "
                                  "B +0 (mesa +100, morto não pego -100)")
