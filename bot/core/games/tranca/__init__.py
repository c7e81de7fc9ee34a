"""Tranca (Brazilian two-pack rummy)."""

from bot.core.games.tranca.game import TrancaGame

__all__ = ["TrancaGame"]
