"""Call Break's scores follow the language shown: +3.2 is +3,2 in Portuguese; English stays
as it was, and nothing is a bare "0" in every language."""

from bot.core.games.callbreak.game import CallBreakGame
from bot.core.i18n import translator
from bot.core.players import Player, Roster


def test_call_break_scores_in_portuguese():
    game = CallBreakGame()
    roster = Roster([Player(seat=i, name=n) for i, n in enumerate(("ana", "ben", "cleo",
                                                                    "dev"), 1)])
    rules = game.rulebook.defaults()
    pt = translator("pt-BR", "callbreak")
    # tenths: 125 is 12.5 points, -40 is -4.0
    won = game.status({1: 125, 2: -30, 3: 10, 4: -20}, rules, {"played": 5}, roster)
    assert str(won) == "All 5 rounds played: ana wins with +12.5!"
    assert pt.render(won) == "Todas as 5 rodadas jogadas: ana vence com +12,5!"
    behind = game.status({1: -40, 2: -40, 3: -50, 4: -60}, rules, {"played": 3}, roster)
    assert str(behind) == "3 of 5 rounds played; ana and ben share the lead with -4.0."
    assert pt.render(behind) == "3 de 5 rodadas jogadas; ana e ben dividem a liderança com -4,0."
    level = game.status({1: 0, 2: -30, 3: -10, 4: -20}, rules, {"played": 2}, roster)
    assert str(level) == "2 of 5 rounds played; ana leads with 0."
    assert pt.render(level) == "2 de 5 rodadas jogadas; ana lidera com 0."
