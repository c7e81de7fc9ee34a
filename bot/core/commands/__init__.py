"""The command table: every command declared once (bot/core/commands/core.py and each game's
folder) and what the faces build from it."""

from bot.core.commands.core import core_commands
from bot.core.commands.spec import CommandSpec, Kind, Needs, Option
from bot.core.commands.table import CommandTable
from bot.core.games import GAMES

DEFAULT_GAME = "marriage"
TABLE = CommandTable(core_commands(GAMES), GAMES, DEFAULT_GAME)

__all__ = ["DEFAULT_GAME", "TABLE", "CommandSpec", "CommandTable", "Kind", "Needs", "Option"]
