"""Checks the games of points and Dhumbal share in their property tests."""

from __future__ import annotations

from bot.core.games import GAMES
from bot.core.session import HandRecord, SessionState
from bot.storage import SqlStore


async def kept(store: SqlStore, chat: str) -> tuple[SessionState, list[HandRecord]]:
    """The chat's open game and its live rounds, as the store keeps them."""
    async with store.transaction(chat) as tx:
        session = await tx.open_session()
        assert session is not None
        return session, await tx.all_hands(session.id)


def out_of(session: SessionState) -> dict[int, int]:
    """Who is out (column -> the round they went out in)."""
    return {int(k): v for k, v in (session.game_state or {}).get("out", {}).items()}


def places_follow_the_outs(session: SessionState) -> None:
    """Still in beats out; out later beats out sooner."""
    game = GAMES[session.game]
    out = out_of(session)
    placed = game.placings(session.totals, game.rulebook.complete(session.rules),
                           session.game_state, session.roster)
    for a in placed:
        for b in placed:
            if a not in out and b in out:
                assert placed[a].place < placed[b].place
            if a in out and b in out and out[a] > out[b]:
                assert placed[a].place < placed[b].place
