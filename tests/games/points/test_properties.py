"""Properties of whole games of points on both databases, whatever is typed: the totals are
the sum of the rounds; where the rounds add up to zero (zero_sum, winner_takes:yes) every
kept round does; where the target knocks players out, nobody out scores again and the
places follow the order they went out in."""

import uuid

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.core.service import Service
from bot.storage import SqlStore
from tests.conftest import Table
from tests.games.points.checks import kept, out_of, places_follow_the_outs

PLAYERS = ["asha", "bikash", "chetan", "dev"]
TABLES = {
    "race": "/rules target:120",
    "zero": "/rules winner_takes:yes",
    "zero_sum": "/rules zero_sum:yes missing:zero",
    "out": "/rules wins:low target:60 at_target:eliminates missing:zero",
}


def _round(values: list[int], winner: int | None) -> str:
    if winner is not None:
        return f"/round winner:{PLAYERS[winner]} " + " ".join(
            f"{p}={v}" for i, (p, v) in enumerate(zip(PLAYERS, values, strict=True))
            if i != winner)
    return "/round " + " ".join(f"{p}={v}" for p, v in zip(PLAYERS, values, strict=True))


points = st.lists(st.integers(-20, 40), min_size=4, max_size=4)
operations = st.lists(
    st.one_of(
        st.builds(_round, points, st.none()),
        st.builds(_round, st.lists(st.integers(0, 40), min_size=4, max_size=4),
                  st.integers(0, 3)),
        # zero-sum rounds: three numbers and the fourth that balances them
        st.builds(lambda v: _round([*v, -sum(v)], None),
                  st.lists(st.integers(-20, 20), min_size=3, max_size=3)),
        # some of the players (the others 0 where missing:zero): rounds go on when
        # somebody is out
        st.builds(lambda named: "/round " + " ".join(f"{p}={v}" for p, v in named),
                  st.lists(st.tuples(st.sampled_from(PLAYERS), st.integers(0, 30)),
                           min_size=1, max_size=3, unique_by=lambda t: t[0])),
        st.just("/undo"),
        st.builds(lambda n, p, v: f"/edit round:{n} points:{p}={v}", st.integers(1, 5),
                  st.sampled_from(PLAYERS), st.integers(0, 40)),
    ),
    min_size=1, max_size=14,
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(TABLES)), ops=operations)
# an edit that puts bikash out a round sooner: the rounds after it follow
@example(kind="out", ops=["/round bikash=30", "/round bikash=20 asha=5",
                          "/edit round:1 points:bikash=45"])
async def test_whole_games_keep_their_sums_zero_sums_and_eliminations(
        store: SqlStore, kind: str, ops: list[str]):
    """Catches: an /edit that leaves the later rounds' elimination as it was (verified by
    planting it: rescore returning None)."""
    table = Table(Service(store), chat=f"prop-{uuid.uuid4().hex}")
    await table.ok(f"/newgame points players:{' '.join(PLAYERS)}")
    await table.ok(TABLES[kind])
    for line in ops:
        await table(line)  # refusals are fine: they change nothing
    board = await table.board()
    session, hands = await kept(store, table.chat)
    assert [h.no for h in hands] == list(range(1, board["hand_count"] + 1))
    sums = dict.fromkeys(PLAYERS, 0)
    for hand in hands:
        assert set(hand.deltas) == {1, 2, 3, 4}  # every column in every round
        for seat, value in hand.deltas.items():
            sums[PLAYERS[seat - 1]] += value
    assert board["totals"] == sums
    if kind in ("zero", "zero_sum"):
        assert all(sum(h.deltas.values()) == 0 for h in hands)
    if kind == "out":
        out = out_of(session)
        running = dict.fromkeys(range(1, 5), 0)
        for hand in hands:
            for seat, went in out.items():
                if went < hand.no:  # out before this round: in it no more
                    assert seat not in hand.players and hand.deltas[seat] == 0
            for seat, value in hand.deltas.items():
                running[seat] += value
            for seat, total in running.items():  # out in the round it reached 60
                if seat not in out or out[seat] > hand.no:
                    assert total < 60 or seat not in hand.players
        places_follow_the_outs(session)
