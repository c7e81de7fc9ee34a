"""Marriage's and marriage rummy's amounts in a kept summary are numbers, written as the
language shown writes them: rummy's half points 12.5 are 12,5 in Portuguese."""

from bot.core.command import Actor
from bot.core.games.base import Game, PlayContext, PlayOutcome
from bot.core.games.marriage import MarriageGame
from bot.core.games.marriage_rummy.game import MarriageRummyGame
from bot.core.i18n import decode, encode, translator
from bot.core.players import Player, Roster

PLAYERS = [Player(1, "asha"), Player(2, "bikash"), Player(3, "chetan"), Player(4, "dev")]


def play(game: Game, command: str, options: dict[str, str]) -> PlayOutcome:
    ctx = PlayContext(command=command, options=options, roster=Roster(PLAYERS),
                      hand_players=PLAYERS, rules=game.rulebook.defaults(), pending=None,
                      actor=Actor(id="test:asha", name="asha"), actor_player=PLAYERS[0])
    spec = next(s for s in game.declare() if s.name == command)
    assert spec.play is not None
    return spec.play(ctx)


def test_the_maal_of_a_kept_summary_in_portuguese():
    outcome = play(MarriageGame(), "hand", {"winner": "asha", "seen": "bikash chetan",
                                            "maal": "asha=12 bikash=5 chetan=0"})
    assert outcome.result is not None
    summary = decode(encode(outcome.result.summary))
    assert str(summary) == ("asha won; seen bikash, chetan; unseen dev (maal murdered); "
                            "maal asha 12, bikash 5, chetan 0")
    assert translator("pt-BR", "marriage").render(summary) == (
        "asha venceu; quem viu: bikash, chetan; quem não viu: dev (maal anulado); "
        "maal asha 12, bikash 5, chetan 0")


def test_rummy_half_points_in_portuguese_and_hindi():
    # dev had no turn: 25 in hand counts half, 12.5 exactly
    outcome = play(MarriageRummyGame(), "hand", {"winner": "bikash", "no_turn": "dev",
                                                 "points": "asha=10 chetan=7 dev=25"})
    assert outcome.result is not None
    summary = decode(encode(outcome.result.summary))
    assert str(summary) == "bikash showed; in hand asha 10, chetan 7, dev 12.5"
    assert translator("pt-BR", "marriage_rummy").render(summary) == (
        "bikash bateu; na mão asha 10, chetan 7, dev 12,5")
    assert translator("hi", "marriage_rummy").render(summary).endswith("dev 12.5")
