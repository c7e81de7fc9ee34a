"""Riichi mahjong: the game around the hands (seats, dealer, honba, sticks, uma)."""

from bot.core.games.riichi.game import RiichiGame

__all__ = ["RiichiGame"]
