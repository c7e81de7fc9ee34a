"""Looking back: /chart, /history and /stats."""

from __future__ import annotations

import asyncio
import importlib
from datetime import UTC, datetime

from bot.core import events, rates, stats, summaries
from bot.core.command import Attachment, Reply
from bot.core.errors import UserError
from bot.core.events import SessionEvent
from bot.core.games.base import Game
from bot.core.grammar import clip, parse_int
from bot.core.handlers.board_commands import money_of
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import Msg, _
from bot.core.i18n.words import numbered
from bot.core.players import Roster
from bot.core.session import HandRecord

HISTORY_ROWS = 20


async def chart(call: Call) -> Outcome:
    session = await call.chosen_session()
    game = call.game_of(session)
    assert session.id is not None
    tr = call.tr
    hands = await call.tx.all_hands(session.id)
    if not hands:
        raise UserError(_nothing_yet(game.hand_word, chart=True))
    columns = game.chart_columns(session.roster, session.game_state)
    rules = game.rulebook.complete(session.rules)
    entries = stats.counted(game.hand_word, len(hands), tr)
    title = tr("{game}: {count}", game=tr.text(game.title), count=entries)
    text = tr("Running totals after {count}.", count=entries)
    name = f"chart-{session.id}-{len(hands)}.png"
    goal = game.goal(rules, session.game_state)

    async def draw() -> Reply:
        # matplotlib takes a moment, loading (seconds, the first time) and drawing: off the
        # event loop, which has interactions to answer within 3 s, and after the transaction
        chart = await asyncio.to_thread(importlib.import_module, "bot.core.chart")
        # Riichi is paid on its final results at the end: no money hand by hand
        money = {} if game.money_at_end else chart.running_money(
            columns, hands, game.point_places, game.money_against_average, game.money_sign)
        png = await asyncio.to_thread(chart.render_chart, columns, hands, rules, title,
                                      game.hand_word, game.point_places, goal, tr=tr,
                                      money=money)
        said = await asyncio.to_thread(  # the fonts' letters: read once, off the loop
            chart.caption, text, [label for _, label in columns] + list(money), tr)
        return Reply(said, file=Attachment(name, png, "image"))

    return Outcome(Reply(text), later=draw)


def _nothing_yet(word: str, chart: bool = False) -> Msg:
    """"No hands yet." (the game's word, written out whole)."""
    if word == "round":
        return _("No rounds yet: nothing to chart.") if chart else _("No rounds yet.")
    if word == "result":
        return _("No results yet: nothing to chart.") if chart else _("No results yet.")
    return _("No hands yet: nothing to chart.") if chart else _("No hands yet.")


async def history(call: Call) -> Outcome:
    """The hand log and the event log in one timeline, oldest first: the newest entries
    that fit a message (HISTORY_ROWS entries, HISTORY_CHARS characters), each whole, and
    how many earlier ones there are and the page that shows them."""
    session = await call.chosen_session()
    game = call.game_of(session)
    assert session.id is not None
    tr = call.tr
    log = await call.tx.history(session.id)
    word = game.edit_key
    happened = await call.tx.events(session.id)
    if word in call.options:  # one hand: its entries only
        no = parse_int(call.options[word], word, 1, max([h.no for h in log] or [1]))
        log, happened = [h for h in log if h.no == no], []
    entries = [(hand.created_at, 0, _hand_entry(call, game, hand, session.roster))
               for hand in log]
    entries += [(event.created_at, 1, _event_entry(call, game, event)) for event in happened]
    if not entries:
        return Outcome(Reply(tr.render(_nothing_yet(game.hand_word))))
    entries.sort(key=lambda e: (e[0] or datetime.min.replace(tzinfo=UTC), e[1]))
    pages = _pages([text for _when, _kind, text in entries])
    page = parse_int(call.options["page"], "page", 1, len(pages)) \
        if "page" in call.options else 1
    shown = pages[page - 1]
    lines = []
    if word not in call.options and page == 1:  # which hands were played at which rate
        live = [h for h in log if h.voided_at is None]
        money = {} if game.money_at_end else await money_of(call, session)
        lines += rates.notes(live, dict(game.columns(session.roster, session.game_state)),
                             session.totals, money, game.hand_word, game.point_places, tr)
    earlier = sum(len(p) for p in pages[page:])
    if earlier:
        which = (call.options.get("") or call.options.get("game") or "").strip()
        more = f"/history {which} page:{page + 1}" if which else f"/history page:{page + 1}"
        lines.append(tr.plural("({n} earlier entry not shown: {command})",
                               "({n} earlier entries not shown: {command})", earlier,
                               command=more))
    lines += shown
    return Outcome(Reply("\n".join(lines)))


HISTORY_CHARS = 1_600  # what a page holds: a Discord message takes 2,000, with the notes


def _pages(entries: list[str]) -> list[list[str]]:
    """The entries cut into pages from the newest: each page the most that fit HISTORY_ROWS
    and HISTORY_CHARS (an entry is never cut; one longer than a page is a page alone),
    oldest first within a page. Page 1 is the newest."""
    pages: list[list[str]] = []
    current: list[str] = []
    size = 0
    for text in reversed(entries):
        if current and (len(current) >= HISTORY_ROWS or size + len(text) + 1 > HISTORY_CHARS):
            pages.append(current[::-1])
            current, size = [], 0
        current.append(text)
        size += len(text) + 1
    pages.append(current[::-1])
    return pages


def _hand_entry(call: Call, game: Game, hand: HandRecord, roster: Roster) -> str:
    """A hand as entered, and what became of it (undone, replaced by an edit)."""
    tr, zone = call.tr, call.settings.zone
    # the moment in the chat's timezone, as the reader's language writes it
    when = tr.datetime(hand.created_at.astimezone(zone)) if hand.created_at else ""
    lines = [tr("{entry} · {when} · recorded by {who}: {summary}",
                entry=tr.render(numbered(game.hand_word, hand.no)), when=when,
                who=hand.recorded_by_name,
                summary=tr.render(summaries.shown(game, roster, hand)).splitlines()[0])]
    if hand.voided_at is not None and hand.void is not None:
        at = tr.datetime(hand.voided_at.astimezone(zone))
        reason = tr.render(hand.void.reason) if hand.void.reason else None
        if hand.void.edited:
            line = tr("replaced by an edit {when} (reason: {reason})", when=at,
                      reason=reason) if reason else tr("replaced by an edit {when}", when=at)
        else:
            line = tr("undone {when} (reason: {reason})", when=at, reason=reason) \
                if reason else tr("undone {when}", when=at)
        lines.append("   " + line)
    return "\n".join(lines)


def _event_entry(call: Call, game: Game, event: SessionEvent) -> str:
    """A change of rules, rate or seats: when, who, what."""
    tr = call.tr
    when = tr.datetime(event.created_at.astimezone(call.settings.zone)) \
        if event.created_at else ""
    # TRANSLATORS: a line of /history: when, who, and what changed ("rules: rate 10 → 2")
    return tr("{when} · {who}: {change}", when=when, who=event.by_name,
              change=events.describe(event, game, tr))


PERIODS = ("month", "year", "all")


async def stats_(call: Call) -> Outcome:
    options, settings = call.options, call.settings
    first = (options.get("", "").split() or [""])[0]
    if "season" in options or first.lower() == "season":
        from bot.core.handlers.season_commands import stats_season

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
    tr = call.tr
    when = {"month": _("this month"), "year": _("this year"), "all": _("all time")}[period]
    if not table:
        # TRANSLATORS: {hands} is the game's word: hands, rounds or results
        return Outcome(Reply(tr("No {hands} recorded here ({when}).", **call.words,
                                when=when)))
    who = options.get("", "").strip()
    if not who:
        lines = [tr("Leaderboard ({when}):", when=when), *stats.leaderboard(table, tr)]
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
        raise UserError(_("No stats for `{name}` ({when}). Players: {players}.",
                          name=clip(who), when=when, players=names))
    return Outcome(Reply("\n".join(stats.describe(table, found[0], tr.render(when), tr))))
