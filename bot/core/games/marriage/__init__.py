"""Nepali Marriage."""

from bot.core.games.marriage.game import MarriageGame

__all__ = ["MarriageGame"]
