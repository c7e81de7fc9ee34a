"""Properties of whole Dhumbal games on both databases, whatever is typed: the totals are
the sum of the rounds; a show scores 0 when every other hand is higher and the count plus
the penalty when not; nobody out plays again, everyone who reached the limit is out, and
the places follow the order players went out in."""

import uuid

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.core.service import Service
from bot.storage import SqlStore
from tests.conftest import Table
from tests.games.points.checks import kept, out_of, places_follow_the_outs

PLAYERS = ["asha", "bikash", "chetan", "dev"]
LIMIT = 60


def _round(counts: list[int], shower: int | None, playing: list[bool]) -> str:
    named = [(p, c) for p, c, on in zip(PLAYERS, counts, playing, strict=True) if on]
    line = "/round " + " ".join(f"{p}={c}" for p, c in named)
    if shower is not None and named:
        line += f" show:{named[shower % len(named)][0]}"
    return line


operations = st.lists(
    st.one_of(
        st.builds(_round, st.lists(st.integers(0, 30), min_size=4, max_size=4),
                  st.one_of(st.none(), st.integers(0, 3)),
                  st.lists(st.booleans(), min_size=4, max_size=4)),
        st.just("/undo"),
        st.builds(lambda n, p, v: f"/edit round:{n} points:{p}={v}", st.integers(1, 5),
                  st.sampled_from(PLAYERS), st.integers(0, 30)),
    ),
    min_size=1, max_size=16,
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
@example(ops=["/round asha=30 bikash=2 chetan=3 dev=4", "/round asha=25 bikash=2 chetan=3 dev=4",
              "/edit round:1 points:asha=35", "/round bikash=3 chetan=4 dev=5 show:bikash"])
async def test_whole_games_keep_their_sums_shows_and_eliminations(store: SqlStore,
                                                                 ops: list[str]):
    table = Table(Service(store), chat=f"prop-{uuid.uuid4().hex}")
    await table.ok(f"/newgame dhumbal players:{' '.join(PLAYERS)}")
    await table.ok(f"/rules limit:{LIMIT} show_max:0")
    for line in ops:
        await table(line)  # refusals are fine: they change nothing
    board = await table.board()
    session, hands = await kept(store, table.chat)
    sums = dict.fromkeys(range(1, 5), 0)
    out = out_of(session)
    for hand in hands:
        counts = {int(k): v for k, v in hand.inputs["points"].items()}
        show = hand.inputs.get("show")
        for seat in hand.deltas:
            if seat not in counts:
                assert hand.deltas[seat] == 0  # not in the round: 0
            elif seat != show:
                assert hand.deltas[seat] == counts[seat]  # the others score their count
        if show is not None:
            held = all(v > counts[show] for s, v in counts.items() if s != show)
            assert hand.deltas[show] == (0 if held else counts[show] + 25)
        for seat, went in out.items():
            if went < hand.no:
                assert seat not in counts
        for seat, value in hand.deltas.items():
            sums[seat] += value
        for seat in counts:  # a player in the round who reached the limit went out in it
            if sums[seat] >= LIMIT:
                assert out.get(seat) == hand.no
    assert board["totals"] == {PLAYERS[s - 1]: v for s, v in sums.items()}
    places_follow_the_outs(session)
