"""The prompts of a waiting hand: messages a platform sent to ask for what the hand still
needs (Telegram's maal prompt), so that a reply to one is an answer.

While the hand waits, a reply to its prompt answers it. Once it stopped waiting (scored,
dropped, its game ended) its prompts are kept with the chat's settings, the last ANSWERED
hands' (a table that scrolls up a few hands still finds the prompt it replies to), so a
reply that comes too late is told what became of the hand instead of nothing.
"""

from __future__ import annotations

from bot.core import i18n
from bot.core.command import Reply
from bot.core.command_table import CommandTable
from bot.core.flows import Step, Token, seal
from bot.core.handlers.flow_answers import done_with
from bot.core.session import OPEN, ChatTransaction, SessionState, Store, WaitingHand

KEPT = 10  # prompts kept for a waiting hand: a hand is asked again when the table moves on
ANSWERED = 12  # hands whose prompts are kept after they stopped waiting (a few KB at most)


async def note(store: Store, chat: str, ref: str) -> None:
    """A platform sent the question of a waiting hand as message `ref`."""
    async with store.transaction(chat) as tx:
        session = await tx.open_session()
        if session is not None and session.pending is not None:
            session.pending.prompts = [*session.pending.prompts[-(KEPT - 1):], ref]
            await tx.save_session(session)


async def token(store: Store, secret: bytes, chat: str, ref: str) -> str | None:
    """The sealed token of the waiting hand whose prompt is message `ref`, if any."""
    async with store.transaction(chat, write=False) as tx:
        session = await tx.open_session()
    if session is None or session.pending is None or ref not in session.pending.prompts:
        return None
    assert session.id is not None
    return seal(Token(Step.INPUT, 0, (session.id, session.hand_count + 1)), chat, secret)


async def stopped_waiting(tx: ChatTransaction, session: SessionState | None, hand: int,
                          waiting: WaitingHand | None) -> None:
    """After a command: if the hand `waiting` (number `hand` of `session`) was asked for by
    prompts and stopped waiting, its prompts are kept (the last ANSWERED such hands'), with
    whether it was dropped: a hand of the same number scored later is another hand."""
    if waiting is None or not waiting.prompts or session is None \
            or (session.pending is waiting and session.status == OPEN):
        return
    settings = await tx.settings()  # as the command left them
    entry = {"session": session.id, "hand": hand, "prompts": list(waiting.prompts),
             "dropped": session.hand_count < hand}
    settings.answered = [*settings.answered[-(ANSWERED - 1):], entry]
    await tx.save_settings(settings)


async def late_answer(store: Store, table: CommandTable, chat: str, ref: str,
                      locale: str | None) -> Reply | None:
    """A reply to prompt `ref` of one of the last hands that stopped waiting: what became
    of that hand (scored, dropped, its game ended). None for any other message."""
    async with store.transaction(chat, write=False) as tx:
        settings = await tx.settings()
        entry = next((e for e in reversed(settings.answered)
                      if ref in e.get("prompts", ())), None)
        if entry is None:
            return None
        session = await tx.session(int(entry["session"]))
    game = table.games.get(session.game) if session is not None else None
    tr = i18n.translator(i18n.choose(settings.language, locale),
                         game.key if game is not None else None)
    said = done_with(session, game, int(entry["hand"]), bool(entry.get("dropped")))
    return Reply.error(tr.render(said), tr.language)
