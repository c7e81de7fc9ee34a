"""/stats sums points as people read them: a game that keeps tenths (point_places 1) is
summed as 3.2, never as its raw 32, and money is rate x points; whole-point games read as
before."""

from dataclasses import dataclass

import pytest

from bot.core import stats
from bot.core.games.marriage.game import MarriageGame
from bot.core.players import Player
from bot.core.session import HandRecord, SessionState


@dataclass
class _Game:
    """Just what /stats asks of a game."""

    point_places: int
    player_columns = True
    rulebook = MarriageGame.rulebook  # rate and currency, as every game has them

    def winners(self, hand: HandRecord) -> list[int]:
        return [1]


def _session(no: int, game: str, deltas: list[dict[int, int]], rate: str) -> tuple:
    state = SessionState(chat="c", game=game, players=[Player(1, "asha"), Player(2, "bina")],
                         rules={"rate": rate}, created_by="x", id=no)
    hands = [HandRecord(i, [1, 2], {}, {}, d, "", "x", "x") for i, d in enumerate(deltas, 1)]
    return state, hands


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = {"tenths": _Game(1), "whole": _Game(0)}
    monkeypatch.setattr(stats, "get_game", lambda key: chosen[key])


def test_tenths_are_summed_as_points_and_paid_at_the_rate(games: None):
    # two rounds in tenths: asha 3.2 + 2.1 = 5.3, bina -4.0 + 1.9 = -2.1; at rate 10
    played = [_session(1, "tenths", [{1: 32, 2: -40}, {1: 21, 2: 19}], "10")]
    table = stats.compute(played, {}, None)
    assert stats.leaderboard(table, "Rs") == ["1. asha +5.3 (2 hands, 2 wins, 53 Rs)",
                                              "2. bina -2.1 (2 hands, 0 wins, -21 Rs)"]
    assert stats.describe(table["name:bina"], "Rs", "all time")[1:] == [
        "net -2.1 points (-21 Rs where played for money)",
        "best night ? -2.1; worst night ? -2.1"]


def test_whole_points_read_as_before_and_mix_with_tenths(games: None):
    whole = _session(1, "whole", [{1: 1200, 2: -1200}], "1")
    assert stats.leaderboard(stats.compute([whole], {}, None), "") == [
        "1. asha +1,200 (1 hand, 1 win)", "2. bina -1,200 (1 hand, 0 wins)"]
    # a night of each: 1,200 + 0.5 = 1,200.5 for asha, shown with the tenth
    tenths = _session(2, "tenths", [{1: 5, 2: -5}], "1")
    table = stats.compute([whole, tenths], {}, None)
    assert stats.leaderboard(table, "")[0] == "1. asha +1,200.5 (2 hands, 2 wins)"
