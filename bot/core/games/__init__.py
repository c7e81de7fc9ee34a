"""Game plugins. Each game is one module or package here plus one line in the registry."""

from bot.core.games.base import Game, HandResult, PlayContext, PlayOutcome
from bot.core.games.registry import GAMES, get_game

__all__ = ["GAMES", "Game", "HandResult", "PlayContext", "PlayOutcome", "get_game"]
