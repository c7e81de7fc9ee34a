"""Call Break in other languages: its messages render in Brazilian Portuguese and Nepali
(the catalogue check for both games is tests/games/tranca/test_translations.py)."""

from bot.core.games.callbreak.game import CallBreakGame
from bot.core.i18n import translator
from bot.core.players import Player, Roster


def test_call_break_speaks_brazilian_portuguese_and_nepali():
    game = CallBreakGame()
    roster = Roster([Player(seat=i, name=n) for i, n in enumerate(("ana", "ben", "cleo",
                                                                    "dev"), 1)])
    rules = game.rulebook.defaults()
    pending = {"players": [1, 2, 3, 4], "bids": {"1": 3, "2": 4, "3": 2, "4": 3},
               "tricks": {"1": 5}}
    assert translator("pt-BR", "callbreak").render(game.pending_note(pending, roster, rules)) \
        == "tem os pedidos ana 3, ben 4, cleo 2, dev 3; espera as vazas de ben, cleo, dev " \
           "(faltam 8 de 13)"
    assert translator("ne", "callbreak").render(game.status({}, rules, {"played": 0},
                                                            roster)) \
        == "5 राउन्ड; सबैभन्दा बढी जम्मा अंक हुने जित्छ।"
    assert translator("pt-BR", "callbreak").render(
        game.status({1: 32, 2: 32, 3: 0, 4: -40}, rules, {"played": 5}, roster)) \
        == "Todas as 5 rodadas jogadas: ana e ben empatam em primeiro com +3,2."
    assert translator("pt-BR", "callbreak").text(game.title) == "Call Break"
    assert translator("ne", "callbreak").text(game.title) == "कल ब्रेक"


async def test_a_call_break_round_in_nepali(table):
    await table.ok("/settings language:ne")
    await table.ok("/newgame callbreak players:ana ben cleo dev")
    reply = await table.ok("/bid 3 4 2 3")
    assert "कल: ana 3, ben 4, cleo 2, dev 3 (13 मध्ये 12 कल गरियो)।" in reply.text
    error = await table.error("/tricks 5 2 3 4")
    assert "हातको जोड 14 भयो; एउटा राउन्डमा 13 हात हुन्छन्। फेरि गन्नुहोस्।" in error
