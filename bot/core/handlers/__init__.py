"""The core's command handlers, a module per concern: sessions and seats, hands, the board,
looking back, chat settings and rules, exchange (export and import), help, and the answers
to the bot's questions (flows). Each handler takes a Call and returns an Outcome."""
