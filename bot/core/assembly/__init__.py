"""This bot put together: the core's own commands (core_commands.py), declared with the
handlers they run, and every registered game's, in one command table (built.py). It stands
above the handlers it names; a game never imports it."""
