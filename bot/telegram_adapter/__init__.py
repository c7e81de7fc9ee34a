"""Telegram: python-telegram-bot in groups, mapped onto the core's commands."""

from bot.telegram_adapter.adapter import TelegramAdapter

__all__ = ["TelegramAdapter"]
