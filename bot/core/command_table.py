"""Every command the bot answers, from one place: the core's and each game's.

A command name means one spec per game (`/hand` is Marriage's or marriage rummy's; `/rules`
takes the chat's game's rule keys). Adapters ask the table what a command is in a game, which
games have it, and what to put in a menu; `bot/discord_adapter/tree.py` turns the variants
of a name into the shapes Discord's limits need. It stands above the games it reads and below
the handlers that are handed it; the table of this bot is built in `bot/core/assembly/`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from bot.core.commands.spec import CommandSpec, spec_text
from bot.core.games.base import Game
from bot.core.permissions import needs_admin_status

if TYPE_CHECKING:
    from bot.core.i18n import Tr


class CommandTable:
    def __init__(self, core: Iterable[CommandSpec], games: Mapping[str, Game],
                 default_game: str) -> None:
        self.core = {spec.name: spec for spec in core}
        self.games = dict(games)
        self.default_game = self.games[default_game]
        self._own: dict[str, dict[str, CommandSpec]] = {
            key: {spec.name: spec for spec in game.commands} for key, game in games.items()}
        for key, own in self._own.items():
            clash = own.keys() & self.core.keys()
            if clash:
                raise TypeError(f"{key} declares core command(s) {sorted(clash)}")
        names = list(self.core)
        for own in self._own.values():
            names += [n for n in own if n not in names]
        self._names = tuple(names)
        self._known = frozenset(names)

    def names(self) -> list[str]:
        """Every command name answered, the core's first, in declaration order."""
        return list(self._names)

    def knows(self, name: str) -> bool:
        return name in self._known

    def lookup(self, name: str, game: Game) -> CommandSpec | None:
        """`name` as it stands in a chat playing `game`, or None if that game has no such
        command."""
        spec = self.core.get(name) or self._own[game.key].get(name)
        return spec.for_game(game) if spec is not None else None

    def games_with(self, name: str) -> list[Game]:
        """The games in which `name` is answered."""
        if name in self.core:
            return list(self.games.values())
        return [g for g in self.games.values() if name in self._own[g.key]]

    def variants(self, name: str) -> dict[str, CommandSpec]:
        """game key -> `name` as it stands in that game, for every game that has it."""
        found = {}
        for game in self.games_with(name):
            spec = self.lookup(name, game)
            assert spec is not None
            found[game.key] = spec
        return found

    def for_game(self, game: Game) -> list[CommandSpec]:
        """What a chat playing `game` can use, the core's first."""
        return [spec for name in [*self.core, *self._own[game.key]]
                if (spec := self.lookup(name, game)) is not None]

    def menu(self, game: Game | None = None, tr: Tr | None = None) -> list[tuple[str, str]]:
        """(name, summary) for a platform's command menu: one game's, or every game's, in
        the language of `tr` (English if none)."""
        from bot.core.i18n import ENGLISH

        specs = self.for_game(game) if game is not None else [
            next(iter(self.variants(name).values())) for name in self.names()]
        return [(s.name, spec_text(tr or ENGLISH, s.summary, game)) for s in specs
                if not s.hidden]

    def read_only(self, name: str) -> bool:
        """Whether `name` only reads, in every game that has it."""
        variants = self.variants(name)
        return bool(variants) and all(spec.read_only for spec in variants.values())

    def asks_admin(self, name: str) -> bool:
        """Whether the answer to `name` can depend on the sender being a chat admin, in any
        game: the adapter fetches admin status for exactly these."""
        return any(needs_admin_status(spec.may) for spec in self.variants(name).values())
