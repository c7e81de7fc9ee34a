"""A refusal says who may now: the table's rules are a player's to change before the first
hand and the starter's or an admin's after it, and a refusal says the one that applies."""

from __future__ import annotations

from tests.conftest import Table


async def test_a_refused_rules_change_says_who_may_now(table: Table):
    await table.ok("/newgame marriage players:alice bob carol")
    # before the first hand: any player may; someone not at the table is told that
    said = await table.error("/rules seen:4", by="zed")
    assert said == ("Only a player at the table, the person who started the game or a chat "
                    "admin can use /rules here.")
    await table.ok("/rules seen:4", by="bob")
    await table.ok("/hand winner:alice seen:bob maal:alice=1 bob=1")
    # after it: a player no longer may, and is told who may
    said = await table.error("/rules seen:3", by="bob")
    assert said == ("Only the person who started the game or a chat admin can use /rules "
                    "here once hands are recorded.")
    said = await table.error("/setmaal tiplu:3 8", by="bob")
    assert said.endswith("can use /setmaal here once hands are recorded.")
    await table.ok("/rules seen:3")  # the starter (host) still may
