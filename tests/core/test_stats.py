"""/stats, pure: points as people read them (a game that keeps tenths is summed as 3.2,
never as its raw 32), money hand by hand at each hand's rate and per currency, and the
points of different games never added together."""

from bot.core import stats
from bot.core.i18n import translator
from bot.core.players import Player
from bot.core.session import ENDED, HandRecord, SessionState

EN = translator("en")


def _session(no: int, game: str, hands: list[tuple[dict[int, int], dict]],
             status: str = "open", entered: list[dict] | None = None) -> tuple:
    state = SessionState(chat="c", game=game, players=[Player(1, "asha"), Player(2, "bina")],
                         rules={}, created_by="x", id=no, status=status)
    for deltas, _ in hands:
        for seat, delta in deltas.items():
            state.totals[seat] = state.totals.get(seat, 0) + delta
    entered = entered or [{"winner": 1}] * len(hands)
    records = [HandRecord(i, [1, 2], inputs, rules, deltas, "", "x", "x")
               for i, ((deltas, rules), inputs) in enumerate(zip(hands, entered, strict=True), 1)]
    return state, records


def test_tenths_are_summed_as_points_and_paid_at_each_hands_rate():
    # Call Break keeps tenths. Round 1: asha bid 3 took 5 (+3.2), bina bid 4 took 3 (-4);
    # round 2: asha bid 2 took 3 (+2.1), bina bid 1 took 10 (+1.9). asha 3.2 + 2.1 = 5.3,
    # bina -4.0 + 1.9 = -2.1; a round is a win for each player who made the bid.
    # Money is each score less the table's average: round 1 (average -0.4) at 10 a point:
    # asha 3.6 x 10 = 36, bina -36; round 2 (average 2.0) at 20: asha 0.1 x 20 = 2, bina -2
    bids = [{"players": [1, 2], "bids": {"1": 3, "2": 4}, "tricks": {"1": 5, "2": 3}},
            {"players": [1, 2], "bids": {"1": 2, "2": 1}, "tricks": {"1": 3, "2": 10}}]
    played = [_session(1, "callbreak", [({1: 32, 2: -40}, {"rate": "10", "currency": "Rs"}),
                                        ({1: 21, 2: 19}, {"rate": "20", "currency": "Rs"})],
                       entered=bids)]
    table = stats.compute(played, {}, None)
    assert stats.leaderboard(table, EN) == ["Call Break (1 game):",
                                        "1. asha +5.3 (2 rounds, 2 wins, +38 Rs)",
                                        "2. bina -2.1 (2 rounds, 1 win, -38 Rs)"]
    assert stats.describe(table, "name:bina", "all time", EN)[1:] == [
        "Call Break: 1 game, 2 rounds, 1 win (50%)",
        "  net -2.1 points (-38 Rs where played for money)",
        # round 1 at 10 a point, round 2 at 20: which points came at which rate
        "  by rate: -4.0 at 10 Rs (1 round), +1.9 at 20 Rs (1 round)"]


def test_games_are_never_added_together_nor_currencies():
    whole = _session(1, "marriage", [({1: 1200, 2: -1200}, {"rate": "0.5", "currency": "Rs"})],
                     ENDED)
    # asha bid 1 and took 6 (+1.5); bina bid 1 and took 0 (-1): deltas in tenths
    tenths = _session(2, "callbreak", [({1: 15, 2: -10}, {"rate": "2", "currency": "$"})],
                      entered=[{"players": [1, 2], "bids": {"1": 1, "2": 1},
                                "tricks": {"1": 6, "2": 0}}])
    dollars = _session(3, "marriage", [({1: -100, 2: 100}, {"rate": "1", "currency": "$"})])
    table = stats.compute([whole, tenths, dollars], {}, None)
    # Marriage: 1,200 - 100 = 1,100 for asha; 600 Rs and -100 $ side by side, never summed
    assert stats.leaderboard(table, EN) == [
        "Nepali Marriage (2 games):",
        "1. asha +1,100 (2 hands, 2 wins, -100 $, +600 Rs)",
        "2. bina -1,100 (2 hands, 0 wins, +100 $, -600 Rs)",
        "Call Break (1 game):",
        "1. asha +1.5 (1 round, 1 win, +2.50 $)",  # (1.5 - 0.25) x 2: less the average
        "2. bina -1.0 (1 round, 0 wins, -2.50 $)"]
