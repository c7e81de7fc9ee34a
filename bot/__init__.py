"""Maalbot: a scorekeeper for card and tile game nights (Discord, Telegram, console)."""

__version__ = "0.1.0"
