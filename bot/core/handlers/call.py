"""What a handler gets (Call) and gives back (Outcome)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core.command import Command, Reply
from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.i18n import t
from bot.core.permissions import Roles
from bot.core.session import ChatSettings, ChatTransaction, SessionState

if TYPE_CHECKING:
    from bot.core.commands.spec import CommandSpec
    from bot.core.commands.table import CommandTable


@dataclass
class Outcome:
    """A reply, and whether the command changed anything (only then is its origin kept)."""

    reply: Reply
    changed: bool = False


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

    @property
    def options(self) -> Mapping[str, str]:
        return self.command.options

    def open_session(self) -> SessionState:
        if self.session is None:
            raise UserError(t("no_game"))
        return self.session

    def rules(self) -> dict[str, Any]:
        """The open game's rules, with defaults for keys added since it started."""
        return self.game.rulebook.complete(self.open_session().rules)
