"""The core's command handlers, a module per concern: sessions and seats, hands, the board,
looking back, chat settings and rules, exchange (export and import), help, the ledger,
seasons, and the answers to the bot's questions. Each handler takes a Call and returns an
Outcome. A module that serves a core module of the same subject says what it handles:
board_commands.py (bot/core/board.py), ledger_commands.py, season_commands.py and
flow_answers.py (the answers to bot/core/flows.py's questions)."""
