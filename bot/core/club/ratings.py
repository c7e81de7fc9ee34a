"""One OpenSkill rating per member and game (the `openskill` package's Plackett-Luce model,
with its defaults: mu 25, sigma 25/3), moved by every finished game of the club's tables
in the order they ended. A game's final places are its ranks (tied places share a rank);
Tranca's sides are teams. A guest (a seat typed by name) plays as a newcomer whose rating
is not kept; a game with fewer than two members is not rated. Shown as mu - 3 sigma (the
package's `ordinal`), provisional until 5 games."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
PROVISIONAL = 5  # games rated before a rating is more than provisional


class Rated:
    """A member's rating in one game, and how it moved: (game number in the club's
    order, mu, sigma) after each game rated. Kept as the package's own rating object, so a
    game rates it without making a new one (each is given a uuid)."""

    __slots__ = ("games", "history", "rating")

    def __init__(self, mu: float = MODEL.mu, sigma: float = MODEL.sigma, games: int = 0,
                 history: list[tuple[int, float, float]] | None = None,
                 rating: PlackettLuceRating | None = None) -> None:
        self.rating = rating if rating is not None else _rating(mu, sigma)
        self.games = games
        self.history = history if history is not None else []

    @property
    def mu(self) -> float:
        return float(self.rating.mu)

    @property
    def sigma(self) -> float:
        return float(self.rating.sigma)

    @property
    def shown(self) -> float:
        """What the lists show: mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


_NEWCOMER = MODEL.rating()


def _rating(mu: float, sigma: float) -> PlackettLuceRating:
    """A rating of the package's, without the uuid each new one is given: the newcomer's
    copied (the package copies the ratings it is given in any case)."""
    made = copy.deepcopy(_NEWCOMER)
    made.mu, made.sigma = mu, sigma
    return made


@dataclass(frozen=True, slots=True)
class Move:
    """One member's rating before and after a game."""

    member: str
    before: tuple[float, float]  # mu, sigma
    after: tuple[float, float]
    games: int  # games rated, this one included
    rating: PlackettLuceRating  # after, as the package gives it

    @property
    def shown_before(self) -> float:
        return self.before[0] - 3 * self.before[1]

    @property
    def shown_after(self) -> float:
        return self.after[0] - 3 * self.after[1]


def rate(ratings: Mapping[str, Rated], teams: Sequence[Sequence[str | None]],
         ranks: Sequence[int]) -> list[Move]:
    """The moves of one game: `teams` in the game's columns (each a list of members; None
    for a guest), `ranks` their places (1 is first, equal places tie). Nothing moves where
    fewer than two members played."""
    members = [m for team in teams for m in team if m is not None]
    if len(set(members)) < 2 or len(teams) < 2:
        return []
    before = {m: ratings.get(m) or Rated() for m in members}
    played = [[before[m].rating if m is not None else _NEWCOMER for m in team]
              for team in teams]
    after = MODEL.rate(played, ranks=list(ranks))
    moves = []
    for team, rated in zip(teams, after, strict=True):
        for member, new in zip(team, rated, strict=True):
            if member is not None:
                old = before[member]
                moves.append(Move(member, (old.mu, old.sigma), (new.mu, new.sigma),
                                  old.games + 1, new))
    return moves


def apply(ratings: dict[str, Rated], moves: Sequence[Move], number: int) -> None:
    """The moves of game `number` (its place in the club's order) kept."""
    for move in moves:
        rated = ratings.get(move.member)
        if rated is None:
            rated = ratings[move.member] = Rated()
        rated.rating = move.rating
        rated.games = move.games
        rated.history.append((number, *move.after))
