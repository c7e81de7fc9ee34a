"""The command table: every command declared once (bot/core/commands/core.py and each game's
folder); `bot/core/commands/built.py` assembles this bot's table, and every face builds from
it."""
