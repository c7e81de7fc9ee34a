"""Dhumbal (Jhyap): the Nepali table's game of the lowest hand, a show and a limit."""

from bot.core.games.dhumbal.game import DhumbalGame

__all__ = ["DhumbalGame"]
