"""The command vocabulary: how a command is declared (spec.py) and how its typed options are
read against that declaration (options.py). The core and every game declare their commands
with it; it stands below both. This bot's table of them is put together in
`bot/core/assembly/`."""
