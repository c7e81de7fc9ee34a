"""Marriage rummy: Marriage scored the Indian way (points per hand, maal by count)."""

from bot.core.games.marriage_rummy.game import MarriageRummyGame

__all__ = ["MarriageRummyGame"]
