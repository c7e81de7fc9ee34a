"""What a handler gets (Call) and gives back (Outcome)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.core.club.kept import ClubsKept
from bot.core.command import Command, Reply
from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.i18n import Msg, Tr, _, _n
from bot.core.i18n.words import placeholders
from bot.core.pages import WebSide
from bot.core.permissions import Roles
from bot.core.session import ChatSettings, ChatTransaction, SessionState, Store

NO_GAME = _("No game is open here. Start one with /newgame marriage players:alice bob carol")

if TYPE_CHECKING:
    from bot.core.command_table import CommandTable
    from bot.core.commands.spec import CommandSpec
    from bot.core.flows import Question


# The running command's time limit (the service's asyncio.timeout) and its length: long
# work that keeps making progress (an /import written in batches) moves it on.
LIMIT: ContextVar[tuple[asyncio.Timeout, float] | None] = ContextVar("command_limit",
                                                                     default=None)


def more_time() -> None:
    """The command may go on as long again from now as it was given at its start (never
    less than it already may): stuck only if one step takes the whole limit."""
    found = LIMIT.get()
    if found is not None:
        limit, seconds = found
        until = asyncio.get_running_loop().time() + seconds
        when = limit.when()
        if when is not None and when < until:
            limit.reschedule(until)


@dataclass(frozen=True)
class FollowUp:
    """A command for another chat, and what its refusal is said as under this reply
    (`label`: the table it was for, already in the reply's language)."""

    command: Command
    label: str


@dataclass
class Outcome:
    """A reply, and whether the command changed anything (only then is its origin kept).
    `later` makes the reply once the transaction is over: slow work that only needs what
    was read (drawing a chart) must not hold the chat, or on SQLite every chat, up."""

    reply: Reply
    changed: bool = False
    later: Callable[[], Awaitable[Reply]] | None = None
    # What is kept for a command sent again, where the reply holds what must not be kept
    # (a one-time code): said again as this, never as the code
    kept: Reply | None = None
    # Commands for other chats, each run once this transaction has committed, in a
    # transaction of its own (a club's tables: the games a tournament's round starts); each
    # one's answer is posted in its chat, a refusal said under this reply
    then: list[FollowUp] = field(default_factory=list)
    # Replies to post in other chats (a round's standings at every table)
    posts: list[tuple[str, Reply]] = field(default_factory=list)

    async def finished(self) -> Reply:
        """The reply, made now where it was left `later` (after the chat's turn is over)."""
        if self.later is None:
            return self.reply
        reply = await self.later()
        reply.language = self.reply.language
        return reply


@dataclass
class Call:
    """One command being handled, inside its chat's transaction."""

    tx: ChatTransaction
    table: CommandTable
    command: Command
    spec: CommandSpec
    session: SessionState | None
    game: Game  # the open game's, or the default for commands that need none
    settings: ChatSettings
    roles: Roles
    board_rows: int
    tr: Tr  # the language of this command's answer, chosen once by the service
    # the whole store, for work after this chat's transaction, in transactions of its own
    # (/forget's across chats, a big /import's batches)
    store: Store | None = None
    # the bot's web pages, if it serves any (/scoreboard, /scorepad, the pad's button)
    web: WebSide | None = None
    # the clubs' figures this process keeps (bot/core/club/kept.py)
    clubs: ClubsKept | None = None

    def __post_init__(self) -> None:
        # the open game as its table plays it (the points game's name, sides, money)
        if self.session is not None and self.session.game == self.game.key:
            self.game = self.game.for_session(self.session.rules, self.session.game_state)

    @property
    def options(self) -> Mapping[str, str]:
        return self.command.options

    @property
    def words(self) -> dict[str, Msg]:
        """{hand}, {hands}, {Hand}, {Hands}: the game's word for a hand, for messages that
        speak of hands in every game ("Undo {hand} {no}?")."""
        return placeholders(self.game.hand_word)

    def game_of(self, session: SessionState) -> Game:
        """The game of `session` (the open one, or a past one a look-back names) as its
        table played it."""
        return self.table.games[session.game].for_session(session.rules, session.game_state)

    def open_session(self) -> SessionState:
        if self.session is None:
            raise UserError(NO_GAME)
        return self.session

    async def chosen_session(self) -> SessionState:
        """The game a look-back command (/board, /chart, /history, /export) is about: the
        one it names (game:last, or a number: one of the chat's games, finished ones too),
        else the open one, else the one that ended last, until the next one starts (what a
        table looks at right after /endgame). The one place that decides it."""
        wanted = (self.options.get("") or self.options.get("game") or "").strip().lower()
        if not wanted and self.session is not None:
            return self.session
        games = await self.tx.chat_sessions()
        if not wanted:
            if not games:
                raise UserError(NO_GAME)
            return games[-1]  # no game open: the chat's latest, which has ended
        if not games:
            raise UserError(_("No game has been played in this chat yet."))
        if wanted == "last":
            ended = [s for s in games if s.status != "open"]
            return ended[-1] if ended else games[-1]
        if not wanted.isdecimal() or not 1 <= int(wanted) <= len(games):
            # /board 99: say the number was taken for a game's, not a hand's
            raise UserError(_n("There is no game `{given}`: this chat has played {n} game; "
                               "give last or 1.",
                               "There is no game `{given}`: this chat has played {n} games; "
                               "give last or a number from 1 to {n}.", len(games),
                               given=wanted[:20]))
        return games[int(wanted) - 1]

    def rules(self) -> dict[str, Any]:
        """The open game's rules, with defaults for keys added since it started."""
        return self.game.rulebook.complete(self.open_session().rules)


def starter(call: Call) -> int:
    """The sender's platform number, for a question only they (and admins) may answer."""
    return platform_number(call.command.actor.id)


def platform_number(actor_id: str) -> int:
    tail = actor_id.rpartition(":")[2]
    return int(tail) if tail.isdecimal() else 0


def ask(question: Question) -> Outcome:
    """A question instead of an answer (platforms with buttons ask before acting)."""
    return Outcome(Reply(question.text, question=question))
