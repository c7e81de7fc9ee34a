"""Call Break (Nepal, India, Bangladesh): bids, tricks, scores in tenths."""

from bot.core.games.callbreak.game import CallBreakGame

__all__ = ["CallBreakGame"]
