"""Seasons: /season (see it), /season start name:Autumn, /season end, and /stats season."""

from __future__ import annotations

import asyncio
import importlib
from datetime import datetime

from bot.core import seasons, stats
from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import _
from bot.core.session import OPEN, SeasonRecord


def _day(moment: datetime | None, call: Call) -> str:
    """A season's day in the chat's timezone, as the reader's language writes it."""
    return call.tr.date(moment.astimezone(call.settings.zone)) if moment else "?"


async def _games_in(call: Call, season: SeasonRecord) -> int:
    return sum(season.holds(s) for s in await call.tx.chat_sessions())


async def season(call: Call) -> Outcome:
    tr = call.tr
    action = call.options.get("")
    if action == "start":
        return await _start(call)
    if action == "end":
        return await _end(call)
    if "name" in call.options:
        raise UserError(_("To start a season: /season start name:Autumn"))
    found = await call.tx.seasons()
    if not found:
        return Outcome(Reply(tr("No season yet. An admin starts one with /season start "
                                "name:Autumn; the games that end while it is open are in "
                                "it.")))
    last = found[-1]
    games = stats.games(await _games_in(call, last), tr)
    if last.ended_at is None:
        return Outcome(Reply(tr("Season {name}, since {day} (started by {who}): {games} so "
                                "far. /stats season ranks it; /season end ends it.",
                                name=last.name, day=_day(last.started_at, call),
                                who=last.started_by_name, games=games)))
    return Outcome(Reply(tr("No season is open. The last: {name}, {start} to {end} ({games}); "
                            "/stats season ranks it. /season start name:NAME starts another.",
                            name=last.name, start=_day(last.started_at, call),
                            end=_day(last.ended_at, call), games=games)))


async def _start(call: Call) -> Outcome:
    tr = call.tr
    name = seasons.season_name(call.options.get("name", ""))
    found = await call.tx.seasons()
    if found and found[-1].ended_at is None:
        raise UserError(_("Season {name} is open (since {day}): /season end first.",
                          name=found[-1].name, day=_day(found[-1].started_at, call)))
    if any(seasons.season_key(s.name) == seasons.season_key(name) for s in found):
        raise UserError(_("There was a season called {name} here already; pick another name "
                          "(e.g. with the year).", name=clip(name)))
    actor = call.command.actor
    await call.tx.add_season(SeasonRecord(name, actor.id, actor.name))
    if call.session is not None:
        text = tr("Season {name} starts: the games that end from now until /season end are "
                  "in it. The game open now is in it when it ends. /stats season ranks it.",
                  name=name)
    else:
        text = tr("Season {name} starts: the games that end from now until /season end are "
                  "in it. /stats season ranks it.", name=name)
    return Outcome(Reply(text), changed=True)


async def _end(call: Call) -> Outcome:
    tr = call.tr
    found = await call.tx.seasons()
    if not found or found[-1].ended_at is not None:
        raise UserError(_("No season is open. /season start name:Autumn starts one."))
    current = found[-1]
    assert current.id is not None
    games = await _games_in(call, current)
    if call.session is not None:
        games -= 1  # the open game is not in it: it has not ended
    await call.tx.end_season(current.id, call.command.actor.id)
    if call.session is not None:
        text = tr("Season {name} is over: {games}. The open game is not in it: it is in the "
                  "season open when it ends. /stats season:{name} ranks it.",
                  name=current.name, games=stats.games(games, tr))
    else:
        text = tr("Season {name} is over: {games}. /stats season:{name} ranks it.",
                  name=current.name, games=stats.games(games, tr))
    return Outcome(Reply(text), changed=True)


async def stats_season(call: Call) -> Outcome:
    """/stats season (the open season, else the last) or /stats season:NAME."""
    tr = call.tr
    words = call.options.get("", "").split()
    if words and words[0].lower() == "season":
        words = words[1:]
    if words:  # a season ranks everyone; one person's record is /stats NAME
        raise UserError(_("/stats season ranks everyone in a season, not one person: /stats "
                          "{name} is their record (period: month, year or all).",
                          name=clip(words[0])))
    if "period" in call.options:
        raise UserError(_("A season is its own period: /stats season:NAME ranks it; period: "
                          "is for /stats and /stats NAME."))
    wanted = " ".join(call.options.get("season", "").split())
    found = await call.tx.seasons()
    if not found:
        raise UserError(_("No season yet: an admin starts one with /season start "
                          "name:Autumn."))
    if wanted:
        key = seasons.season_key(wanted)
        chosen = next((s for s in found if seasons.season_key(s.name) == key), None)
        if chosen is None:
            raise UserError(_("No season called {name}. Seasons: {seasons}.",
                              name=clip(wanted), seasons=", ".join(s.name for s in found)))
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
    start = _day(chosen.started_at, call)
    span = tr("{start} to {end}", start=start, end=_day(chosen.ended_at, call)) \
        if chosen.ended_at else tr("{start} to now", start=start)
    if not table:
        return Outcome(Reply(tr("Season {name} ({span}) has no games yet.", name=chosen.name,
                                span=span)))
    ranked = seasons.rankings(table, tr)
    open_games = sum(1 for s, _s in played if s.status == OPEN)
    values = {"name": chosen.name, "span": span, "games": stats.games(len(played), tr)}
    head = tr("Season {name} ({span}), {games} ({open} still open):", open=tr.number(
        open_games), **values) if open_games else tr("Season {name} ({span}), {games}:",
                                                      **values)
    blocks = []
    for ranking in ranked:
        games = len({n for r in table[ranking.game.stats_key].values() for n in r.sessions})
        blocks.append(tr("{game} ({games}), by {by}:", game=tr.text(ranking.game.title),
                         games=stats.games(games, tr), by=ranking.by)
                      + "\n" + seasons.render(ranking))
    text, body = head, "\n\n".join(blocks)
    name = f"season-{chosen.id}.png"
    panels = [(f"{tr.text(r.game.title)}: {r.by}", r.people) for r in ranked if r.people]
    title = tr("Season {name}", name=chosen.name)

    async def draw() -> Reply:
        # matplotlib: loaded when first needed, off the event loop (seconds, the first time)
        chart = await asyncio.to_thread(importlib.import_module, "bot.core.chart")
        png = await asyncio.to_thread(chart.render_ranking, title, panels, tr=tr)
        drawn = [chosen.name] + [person for _, people in panels for person, _ in people]
        said = await asyncio.to_thread(chart.caption, text, drawn, tr)
        return Reply(said, table=body, file=Attachment(name, png, "image"))

    if not panels:
        return Outcome(Reply(text, table=body))
    return Outcome(Reply(text, table=body), later=draw)
