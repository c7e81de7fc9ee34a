"""Properties of whole sessions: totals equal the sum of hands, undo restores the board."""

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.service import Service
from bot.storage import SqlStore
from tests.conftest import Table

PLAYERS = ["asha", "bikash", "chandra", "dipa"]

def _hand_line(winner: str, seen: list[str], maal: list[int], dublee: bool, foul: str | None,
               unseen_zero: bool = False) -> str:
    """`unseen_zero`: an unseen player's maal is 0, as a table where unseen maal is murdered
    gives it (more would be refused: it would count for nothing)."""
    given = {p: (0 if unseen_zero and p != winner and p not in seen else v)
             for p, v in zip(PLAYERS, maal, strict=True) if p != foul}
    return (f"/hand winner:{winner} seen:{' '.join(seen)} "
            + "maal:" + " ".join(f"{p}={v}" for p, v in given.items())
            + (" dublee:yes" if dublee else "")
            + (f" foul:{foul}" if foul else ""))


_hand_parts = (
    st.sampled_from(PLAYERS[:3]),
    st.lists(st.sampled_from(PLAYERS), unique=True, max_size=4),
    st.lists(st.integers(0, 60), min_size=4, max_size=4),
    st.booleans(),
    st.sampled_from([None, None, None, "dipa"]),
)
# any maal (under murder a hand giving an unseen player maal is refused, and changes nothing)
hand_lines = st.builds(_hand_line, *_hand_parts)
# hands every rule book takes
murder_lines = st.builds(_hand_line, *_hand_parts, unseen_zero=st.just(True))
operations = st.lists(
    st.one_of(
        hand_lines,
        murder_lines,  # so that most examples have hands to edit and undo
        st.just("/undo"),
        st.builds(lambda n, v: f"/edit hand:{n} maal:asha={v}", st.integers(1, 4),
                  st.integers(0, 30)),
        # a new winner always changes the hand (the winner is seen: their maal counts)
        st.builds(lambda n, w, v: f"/edit hand:{n} winner:{w} maal:{w}={v}",
                  st.integers(1, 3), st.sampled_from(PLAYERS[:3]), st.integers(0, 30)),
        st.sampled_from(["/rules preset:kidnap", "/rules preset:maalcounter",
                         "/rules preset:standard", "/rules seen:4 unseen:12"]),
    ),
    min_size=1, max_size=12,
)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
async def test_totals_are_the_sum_of_the_hands_and_every_hand_is_zero_sum(
        store: SqlStore, ops: list[str]):
    """Catches: an /edit that adds the new hand's points without taking the old ones off
    (verified by planting it)."""
    table = Table(Service(store), chat=f"prop-{uuid.uuid4().hex}")
    await table.ok(f"/newgame players:{' '.join(PLAYERS)}")
    for line in ops:
        await table(line)  # errors are fine (an /edit of a hand that isn't there, say)
    board = await table.board()
    async with store.transaction(table.chat) as tx:
        session = await tx.open_session()
        assert session is not None
        hands = await tx.all_hands(session.id)
    assert [h.no for h in hands] == list(range(1, board["hand_count"] + 1))
    for hand in hands:
        assert sum(hand.deltas.values()) == 0
    sums = {p: 0 for p in PLAYERS}
    for hand in hands:
        for seat, points in hand.deltas.items():
            sums[PLAYERS[seat - 1]] += points
    assert board["totals"] == sums


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.lists(murder_lines, max_size=5), line=murder_lines,
       foul_when=st.sampled_from(["now", "next"]))
async def test_undo_restores_the_earlier_board(store: SqlStore, before: list[str], line: str,
                                               foul_when: str):
    """Catches: an undo that adds the hand's points again instead of taking them off, and
    one that keeps the game state the hand left (with foul_when:next, a foul owed by the
    hand before is then never charged) (each verified by planting it)."""
    table = Table(Service(store), chat=f"prop-{uuid.uuid4().hex}")
    await table.ok(f"/newgame players:{' '.join(PLAYERS)}")
    await table.ok(f"/rules foul_when:{foul_when}")
    for earlier in before:
        await table.ok(earlier)
    board = await table.board()
    await table.ok(line)
    after = await table.board()
    await table.ok("/undo")
    assert await table.board() == board
    # as if it had never been played: the same hand again scores the same
    await table.ok(line)
    assert await table.board() == after
