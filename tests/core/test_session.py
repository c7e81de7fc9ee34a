"""The session's typed records as the hand log keeps them."""

from __future__ import annotations

import pytest

from bot.core.session import Void
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
