"""Looking back: /chart, /history and /stats."""

from __future__ import annotations

import asyncio
from datetime import datetime

from bot.core import i18n, stats
from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.grammar import clip, parse_int
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import t

HISTORY_ROWS = 20


async def chart(call: Call) -> Outcome:
    session = await call.chosen_session()
    game = call.table.games[session.game]
    assert session.id is not None
    hands = await call.tx.all_hands(session.id)
    if not hands:
        raise UserError(f"No {t(game.hand_word + 's')} yet: nothing to chart.")
    columns = game.chart_columns(session.roster, session.game_state)
    rules = game.rulebook.complete(session.rules)
    title = f"{game.title}: {len(hands)} {game.hand_word}{'s' if len(hands) > 1 else ''}"
    text = f"Running totals after {i18n.plural(len(hands), game.hand_word)}."
    name = f"chart-{session.id}-{len(hands)}.png"
    goal = game.goal(rules, session.game_state)

    async def draw() -> Reply:
        from bot.core.chart import render_chart  # matplotlib: loaded when first needed

        # matplotlib takes a moment: off the event loop, and after the transaction
        png = await asyncio.to_thread(render_chart, columns, hands, rules, title,
                                      game.hand_word, game.point_places, goal)
        return Reply(text, file=Attachment(name, png, "image"))

    return Outcome(Reply(text), later=draw)


async def history(call: Call) -> Outcome:
    session = await call.chosen_session()
    game = call.table.games[session.game]
    assert session.id is not None
    zone = call.settings.zone
    log = await call.tx.history(session.id)
    word = game.edit_key
    if word in call.options:
        no = parse_int(call.options[word], word, 1, max([h.no for h in log] or [1]))
        log = [h for h in log if h.no == no]
    elif len(log) > HISTORY_ROWS:
        log = log[-HISTORY_ROWS:]
    if not log:
        return Outcome(Reply(f"No {t(game.hand_word + 's')} yet."))
    lines = []
    for hand in log:
        when = hand.created_at.astimezone(zone).strftime("%d %b %H:%M") \
            if hand.created_at else ""
        lines.append(f"{t(game.hand_word).capitalize()} {hand.no} · {when} · recorded by "
                     f"{hand.recorded_by_name}: {call.tr.render(hand.summary).splitlines()[0]}")
        if hand.voided_at is not None and hand.void is not None:
            at = hand.voided_at.astimezone(zone).strftime("%d %b %H:%M")
            what = "replaced by an edit" if hand.void.edited else "undone"
            reason = hand.void.reason
            lines.append(f"   {what} {at}" + (f" (reason: {reason})" if reason else ""))
    return Outcome(Reply("\n".join(lines)))


PERIODS = ("month", "year", "all")


async def stats_(call: Call) -> Outcome:
    options, settings = call.options, call.settings
    first = (options.get("", "").split() or [""])[0]
    if "season" in options or first.lower() == "season":
        from bot.core.handlers.seasons import stats_season

        return await stats_season(call)
    zone = settings.zone
    period = options.get("period") or "all"
    now = datetime.now(zone)
    starts = {"month": now.replace(day=1, hour=0, minute=0, second=0, microsecond=0),
              "year": now.replace(month=1, day=1, hour=0, minute=0, second=0,
                                  microsecond=0),
              "all": None}
    played = []
    for past in await call.tx.chat_sessions():
        assert past.id is not None
        played.append((past, await call.tx.all_hands(past.id)))
    table = stats.compute(played, settings.links, starts[period])
    when = {"month": "this month", "year": "this year", "all": "all time"}[period]
    if not table:
        return Outcome(Reply(f"No hands recorded here ({when})."))
    who = options.get("", "").strip()
    if not who:
        lines = [f"Leaderboard ({when}):", *stats.leaderboard(table)]
        return Outcome(Reply("\n".join(lines)))
    people = {key: row.name for rows in table.values() for key, row in rows.items()}
    mentioned = call.command.mentions.get(who) or call.command.mentions.get(who.lower())
    wanted = who.lstrip("@").lower()
    # a linked guest is found by the account's name or by the guest name it was played under
    link = settings.links.get(wanted)
    found = [key for key, name in people.items()
             if (mentioned and key == mentioned.id) or name.lower() == wanted
             or (link is not None and key == link["id"])]
    if not found:
        names = ", ".join(sorted(set(people.values()), key=str.lower))
        raise UserError(f"No stats for `{clip(who)}` ({when}). Players: {names}.")
    return Outcome(Reply("\n".join(stats.describe(table, found[0], when))))
