"""The games the bot knows, by the name people type in /newgame."""

from __future__ import annotations

from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.games.callbreak import CallBreakGame
from bot.core.games.dhumbal import DhumbalGame
from bot.core.games.marriage.game import MarriageGame
from bot.core.games.marriage_rummy import MarriageRummyGame
from bot.core.games.points import PointsGame
from bot.core.games.riichi import RiichiGame
from bot.core.games.tranca import TrancaGame
from bot.core.grammar import clip
from bot.core.i18n.text import _

GAMES: dict[str, Game] = {
    game.key: game for game in (MarriageGame(), MarriageRummyGame(), TrancaGame(),
                                RiichiGame(), CallBreakGame(), PointsGame(), DhumbalGame())
}
ALIASES = {"nepali": "marriage", "marriage_nepali": "marriage", "rummy": "marriage_rummy",
           "indian": "marriage_rummy", "marriage-rummy": "marriage_rummy",
           "mahjong": "riichi", "sanma": "riichi", "call_break": "callbreak",
           "call-break": "callbreak", "jhyap": "dhumbal", "dumbal": "dhumbal"}


def get_game(name: str) -> Game:
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        return GAMES[key]
    except KeyError:
        raise UserError(_("I don't know the game `{name}`. Games: {games}.", name=clip(name),
                          games=", ".join(GAMES))) from None
