"""This bot's command table: the core's commands and every registered game's."""

from bot.core.commands.core import core_commands
from bot.core.commands.table import CommandTable
from bot.core.games import GAMES

DEFAULT_GAME = "marriage"
TABLE = CommandTable(core_commands(GAMES), GAMES, DEFAULT_GAME)
