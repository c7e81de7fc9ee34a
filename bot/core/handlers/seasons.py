"""Seasons: /season (see it), /season start name:Autumn, /season end, and /stats season."""

from __future__ import annotations

import asyncio
from datetime import datetime

from bot.core import i18n, seasons, stats
from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome
from bot.core.session import OPEN, SeasonRecord


def _day(moment: datetime | None, call: Call) -> str:
    return moment.astimezone(call.settings.zone).strftime("%d %b %Y") if moment else "?"


async def _games_in(call: Call, season: SeasonRecord) -> int:
    return sum(season.holds(s) for s in await call.tx.chat_sessions())


async def season(call: Call) -> Outcome:
    action = call.options.get("")
    if action == "start":
        return await _start(call)
    if action == "end":
        return await _end(call)
    if "name" in call.options:
        raise UserError("To start a season: /season start name:Autumn")
    found = await call.tx.seasons()
    if not found:
        return Outcome(Reply("No season yet. An admin starts one with /season start "
                             "name:Autumn; the games that end while it is open are in it."))
    last = found[-1]
    games = i18n.plural(await _games_in(call, last), "game")
    if last.ended_at is None:
        return Outcome(Reply(f"Season {last.name}, since {_day(last.started_at, call)} "
                             f"(started by {last.started_by_name}): {games} so far. "
                             "/stats season ranks it; /season end ends it."))
    return Outcome(Reply(f"No season is open. The last: {last.name}, "
                         f"{_day(last.started_at, call)} to {_day(last.ended_at, call)} "
                         f"({games}); /stats season ranks it. /season start name:NAME "
                         "starts another."))


async def _start(call: Call) -> Outcome:
    name = seasons.season_name(call.options.get("name", ""))
    found = await call.tx.seasons()
    if found and found[-1].ended_at is None:
        raise UserError(f"Season {found[-1].name} is open (since "
                        f"{_day(found[-1].started_at, call)}): /season end first.")
    if any(seasons.season_key(s.name) == seasons.season_key(name) for s in found):
        raise UserError(f"There was a season called {clip(name)} here already; pick "
                        "another name (e.g. with the year).")
    actor = call.command.actor
    await call.tx.add_season(SeasonRecord(name, actor.id, actor.name))
    note = " The game open now is in it when it ends." if call.session is not None else ""
    return Outcome(Reply(f"Season {name} starts: the games that end from now until /season "
                         f"end are in it.{note} /stats season ranks it."), changed=True)


async def _end(call: Call) -> Outcome:
    found = await call.tx.seasons()
    if not found or found[-1].ended_at is not None:
        raise UserError("No season is open. /season start name:Autumn starts one.")
    current = found[-1]
    assert current.id is not None
    games = await _games_in(call, current)
    if call.session is not None:
        games -= 1  # the open game is not in it: it has not ended
    await call.tx.end_season(current.id, call.command.actor.id)
    note = (" The open game is not in it: it is in the season open when it ends."
            if call.session is not None else "")
    return Outcome(Reply(f"Season {current.name} is over: {i18n.plural(games, 'game')}."
                         f"{note} /stats season:{current.name} ranks it."), changed=True)


async def stats_season(call: Call) -> Outcome:
    """/stats season (the open season, else the last) or /stats season:NAME."""
    words = call.options.get("", "").split()
    if words and words[0].lower() == "season":
        words = words[1:]
    if words:  # a season ranks everyone; one person's record is /stats NAME
        raise UserError(f"/stats season ranks everyone in a season, not one person: "
                        f"/stats {clip(words[0])} is their record (period: month, year "
                        "or all).")
    if "period" in call.options:
        raise UserError("A season is its own period: /stats season:NAME ranks it; period: "
                        "is for /stats and /stats NAME.")
    wanted = " ".join(call.options.get("season", "").split())
    found = await call.tx.seasons()
    if not found:
        raise UserError("No season yet: an admin starts one with /season start name:Autumn.")
    if wanted:
        key = seasons.season_key(wanted)
        chosen = next((s for s in found if seasons.season_key(s.name) == key), None)
        if chosen is None:
            raise UserError(f"No season called {clip(wanted)}. Seasons: "
                            + ", ".join(s.name for s in found) + ".")
    else:
        chosen = found[-1]
    played = []
    every = await call.tx.chat_sessions()
    for past in every:
        if chosen.holds(past):
            assert past.id is not None
            played.append((past, await call.tx.all_hands(past.id)))
    # people are who /stats says, from every game here (an @username seat joined to the
    # account with that username even if the account sat down outside the season)
    table = stats.compute(played, call.settings.links, None, stats.handle_accounts(every))
    span = f"{_day(chosen.started_at, call)} to " + (
        _day(chosen.ended_at, call) if chosen.ended_at else "now")
    if not table:
        return Outcome(Reply(f"Season {chosen.name} ({span}) has no games yet."))
    ranked = seasons.rankings(table)
    open_games = sum(1 for s, _ in played if s.status == OPEN)
    head = f"Season {chosen.name} ({span}), {i18n.plural(len(played), 'game')}" + (
        f" ({open_games} still open)" if open_games else "") + ":"
    blocks = []
    for ranking in ranked:
        games = len({n for r in table[ranking.game.key].values() for n in r.sessions})
        blocks.append(f"{ranking.game.title} ({i18n.plural(games, 'game')}), by "
                      f"{ranking.by}:\n{seasons.render(ranking)}")
    text, body = head, "\n\n".join(blocks)
    name = f"season-{chosen.id}.png"
    panels = [(f"{r.game.title}: {r.by}", r.people) for r in ranked if r.people]

    async def draw() -> Reply:
        from bot.core.chart import render_ranking  # matplotlib: loaded when first needed

        png = await asyncio.to_thread(render_ranking, f"Season {chosen.name}", panels)
        return Reply(text, table=body, file=Attachment(name, png, "image"))

    if not panels:
        return Outcome(Reply(text, table=body))
    return Outcome(Reply(text, table=body), later=draw)
