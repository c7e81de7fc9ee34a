"""The session's typed records as the hand log keeps them."""

from __future__ import annotations

import pytest

from bot.core.session import HandRecord, SessionState, Void
from tests.conftest import Table


@pytest.mark.parametrize("reason", ["edited: typo", "edited", "undone", "undone: twice",
                                    "wrong winner", None])
def test_an_undo_reads_back_as_an_undo_with_its_reason_as_typed(reason: str | None):
    void = Void.from_text(Void(False, reason).to_text())
    assert void == Void(False, reason)


def test_an_edit_reads_back_as_an_edit():
    assert Void.from_text(Void(True, "typo").to_text()) == Void(True, "typo")
    assert Void.from_text("edited") == Void(True)
    assert Void.from_text("wrong winner") == Void(False, "wrong winner")  # as kept before


async def test_undo_with_a_reason_that_starts_like_an_edit(table: Table):
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok("/hand winner:alice seen:bob maal:alice=3 bob=1")
    await table.ok("/undo reason:edited: typo")
    history = (await table.ok("/history")).text
    assert "(reason: edited: typo)" in history and "undone" in history
    assert "replaced by an edit" not in history
    # it is an undo, as typed: the log does not call it an edit
    session = await table.service.snapshot(table.chat)
    assert session is not None
    async with table.service.store.transaction(table.chat, write=False) as tx:
        hands = await tx.history(session.session.id)
    assert hands[0].void == Void(False, "edited: typo")
    # the CSV's status column says it was undone, not edited
    csv = (await table.ok("/export format:csv")).file
    assert csv is not None and ",undone: edited: typo" in csv.data.decode()


def _hand(no: int, deltas: dict[int, int], rules: dict[str, object]) -> HandRecord:
    return HandRecord(no=no, players=[1, 2], inputs={}, rules=rules, deltas=deltas,
                      summary="", recorded_by="test:a", recorded_by_name="a")


def _session() -> SessionState:
    return SessionState(chat="c", game="marriage", players=[], rules={}, created_by="a",
                        money={})


def test_a_hand_played_undone_and_replaced_moves_totals_money_and_count_together():
    session = _session()
    rs = {"rate": "0.5", "currency": "Rs"}
    first = _hand(1, {1: 10, 2: -10}, rs)
    second = _hand(2, {1: -4, 2: 4}, {"rate": "2", "currency": "Rs"})  # a new rate
    session.apply(first, 0)
    session.apply(second, 0)
    # points 10-4, money 10 x 0.5 - 4 x 2 = -3
    assert (session.totals, session.hand_count) == ({1: 6, 2: -6}, 2)
    assert session.money == {"Rs": {"1": "-3", "2": "3"}}
    session.replace(first, _hand(1, {1: 20, 2: -20}, rs), 0)
    # points 20-4, money 20 x 0.5 - 8 = 2; still two hands
    assert (session.totals, session.hand_count) == ({1: 16, 2: -16}, 2)
    assert session.money == {"Rs": {"1": "2", "2": "-2"}}
    session.take_back(second, 0)
    assert (session.totals, session.hand_count) == ({1: 20, 2: -20}, 1)
    assert session.money == {"Rs": {"1": "10", "2": "-10"}}


def test_points_in_tenths_count_money_per_whole_point():
    session = _session()
    session.apply(_hand(1, {1: 25, 2: -25}, {"rate": "2"}), 1)  # 2.5 points at 2 a point
    assert session.money == {"": {"1": "5", "2": "-5"}}


def test_hands_are_counted_in_order_only():
    session = _session()
    with pytest.raises(AssertionError):
        session.apply(_hand(2, {1: 1}, {}), 0)  # hand 1 is missing
    session.apply(_hand(1, {1: 1}, {}), 0)
    with pytest.raises(AssertionError):
        session.take_back(_hand(2, {1: 1}, {}), 0)
