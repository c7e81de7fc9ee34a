"""A game of points: any game scored by each player's points a round (Uno, Hearts, Rummy
500, a board game), with Dhumbal's show and elimination among its rules."""

from bot.core.games.points.game import PointsGame

__all__ = ["PointsGame"]
