"""Where a command goes: its spec in the chat's game, or a clear word on why it has none
(a command of another game, no game open, a name the bot doesn't know and the one meant)."""

from __future__ import annotations

import difflib

from bot.core import i18n
from bot.core.command_table import CommandTable
from bot.core.commands.spec import CommandSpec, Needs
from bot.core.errors import UserError
from bot.core.examples import EXAMPLE_NAMES
from bot.core.games.base import Game
from bot.core.grammar import clip
from bot.core.handlers.call import NO_GAME
from bot.core.i18n import Msg, _
from bot.core.session import SessionState

# what people at a table type for a command, where the nearest spelling would mislead
# (/settle is no /setmaal, /standings no /settings, /pay no /players)
MEANT = {
    "settle": "endgame", "settleup": "endgame", "settle_up": "endgame", "finish": "endgame",
    "score": "board", "scores": "board", "standings": "board",
    "total": "board", "totals": "board", "table": "board",
    "pay": "paid", "payment": "paid",
    "owe": "ledger", "owes": "ledger", "owed": "ledger", "debt": "ledger", "debts": "ledger",
    "balance": "ledger", "balances": "ledger",
    "cancel": "undo", "log": "history", "leaderboard": "stats",
    "language": "settings", "lang": "settings", "leave": "sitout",
}


def route(table: CommandTable, name: str, game: Game,
          session: SessionState | None) -> CommandSpec:
    """The spec of command `name` (lower case) in `game`, the chat's (`session`, if open)."""
    spec = table.lookup(name, game)
    if spec is not None:
        if spec.needs == Needs.GAME and session is None:
            raise UserError(NO_GAME)
        return spec
    games = table.games_with(name)
    elsewhere = [Msg(g.title) for g in games]
    if elsewhere and session is not None:
        raise UserError(_("/{command} is for {games}; this chat is playing {game}. See "
                          "/help.", command=name, games=i18n.join(elsewhere, ", "),
                          game=Msg(game.title)))
    if elsewhere:  # /ron before any game: the game it belongs to, not Marriage
        raise UserError(_("No game is open here. /{command} is for {games}: start one "
                          "with {examples}", command=name,
                          games=i18n.join(elsewhere, ", "),
                          examples="   ".join(map(starting, games))))
    raise UserError(unknown_command(name, table.names()))


def starting(game: Game) -> str:
    """"/newgame riichi players:alice bob carol": the game started at its smallest table."""
    names = EXAMPLE_NAMES[0][:max(game.min_players, 2)]
    return f"/newgame {game.key} players:{' '.join(names)}"


def unknown_command(name: str, known: list[str]) -> Msg:
    meant = MEANT.get(name.lower())
    close = [meant] if meant in known else difflib.get_close_matches(name, known, n=1,
                                                                     cutoff=0.6)
    if close:
        return _("I don't know /{command}. Did you mean /{close}? See /help.",
                 command=clip(name), close=close[0])
    return _("I don't know /{command}. Try /help for the commands.", command=clip(name))
