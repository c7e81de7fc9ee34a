"""The club's ratings against the openskill package itself: games written out here, rated
here with openskill's Plackett-Luce model (its defaults) in the order they ended, each
game's places as its ranks (ties shared, sides as teams, a guest a newcomer never kept, a
game of one member not rated), equal to what /rating says after the same games were played
at two tables of one club (both databases)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.core.service import Service
from tests.club_helpers import Tables

# The games, in the order they end: (table, /newgame, rounds, who placed where)
GAMES = [
    ("t1", "/newgame points players:@ana @ben @cy", ["/round ana=10 ben=5 cy=0"],
     [["ana"], ["ben"], ["cy"]], [1, 2, 3]),
    # ben and cy tie for first: one rank
    ("t2", "/newgame points players:@ben @cy @di", ["/round ben=3 cy=3 di=1"],
     [["ben"], ["cy"], ["di"]], [1, 1, 3]),
    # sides: ana+di against ben+cy, who win
    ("t2", "/newgame points teams:@ana+@di @ben+@cy", ["/round A=5 B=7"],
     [["ana", "di"], ["ben", "cy"]], [2, 1]),
    # eve is a guest (typed by name): a newcomer in the game, her rating never kept
    ("t1", "/newgame points players:@ana eve @cy", ["/round ana=1 eve=9 cy=5"],
     [["ana"], [None], ["cy"]], [3, 1, 2]),
    # one member among guests: not rated
    ("t1", "/newgame points players:@ana fred gus", ["/round ana=9 fred=1 gus=0"],
     None, None),
]


def expected() -> dict[str, tuple[float, float, int]]:
    model = PlackettLuce()  # mu 25, sigma 25/3
    ratings: dict[str, object] = {}
    games: dict[str, int] = {}
    for _table, _new, _rounds, teams, ranks in GAMES:
        if teams is None:
            continue
        played = [[ratings.get(who) or model.rating() if who else model.rating()
                   for who in team] for team in teams]
        after = model.rate(played, ranks=ranks)
        for team, rated in zip(teams, after, strict=True):
            for who, new in zip(team, rated, strict=True):
                if who is not None:
                    ratings[who] = new
                    games[who] = games.get(who, 0) + 1
    return {who: (r.mu, r.sigma, games[who]) for who, r in ratings.items()}  # type: ignore[attr-defined]


async def test_ratings_equal_openskill_on_the_games_played(service: Service):
    tables = Tables(service)
    await tables.club("Friday", "t1", "t2")
    for table, newgame, rounds, _teams, _ranks in GAMES:
        await tables.game(table, newgame, *rounds)
    wanted = expected()
    assert set(wanted) == {"ana", "ben", "cy", "di"}  # eve, fred and gus never rated
    for who, (mu, sigma, games) in wanted.items():
        said_mu, said_sigma = await tables.rated("t1", who)
        assert (said_mu, said_sigma) == (round(mu, 2), round(sigma, 2)), who
        reply = await tables.ok("t2", f"/rating {who}")
        assert f"{games} game" in reply.text
    refused = await tables.error("t1", "/rating eve")
    assert "guest" in refused


@pytest.mark.parametrize("who", ["ana"])
async def test_endgame_says_each_members_new_rating(service: Service, who: str):
    tables = Tables(service)
    await tables.club("Friday", "t1", "t2")
    ended = await tables.game("t1", GAMES[0][1], *GAMES[0][2])
    model = PlackettLuce()
    after = model.rate([[model.rating()], [model.rating()], [model.rating()]],
                       ranks=[1, 2, 3])
    shown = after[0][0].mu - 3 * after[0][0].sigma  # ana's, first
    assert f"Friday ratings: ana {shown:.1f} (+{shown:.1f})" in ended.text
    # a table in no club says nothing of ratings
    lone = await tables.game("t9", GAMES[0][1], *GAMES[0][2])
    assert "ratings" not in lone.text
