"""This bot's command table: the core's commands and every registered game's."""

from bot.core.assembly.core_commands import core_commands
from bot.core.command_table import CommandTable
from bot.core.games import GAMES

DEFAULT_GAME = "marriage"
TABLE = CommandTable(core_commands(GAMES), GAMES, DEFAULT_GAME)
