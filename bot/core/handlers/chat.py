"""The chat's own settings: /settings (timezone, language), /link and /rules."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core import i18n
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.grammar import clip, split_list
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.sessions import rules_line
from bot.core.i18n import t
from bot.core.players import check_name

MAX_TIMEZONE = 64  # the longest IANA name is 32 characters


async def settings(call: Call) -> Outcome:
    options, current = call.options, call.settings
    if not options:
        return Outcome(Reply(t("settings", timezone=current.timezone,
                               language=current.language, board=current.board)))
    if "board" in options:
        current.board = options["board"]
    if "language" in options:
        current.language = options["language"]
        i18n.language.set(current.language)
    if "timezone" in options:
        name = options["timezone"].strip()
        try:
            if len(name) > MAX_TIMEZONE:
                raise ValueError(name)
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise UserError(f"`{clip(name)}` is not a timezone; use a name like "
                            "Asia/Kathmandu, Europe/London or UTC.") from None
        current.timezone = name
    await call.tx.save_settings(current)
    return Outcome(Reply(t("settings_saved", timezone=current.timezone,
                           language=current.language, board=current.board)), changed=True)


async def link(call: Call) -> Outcome:
    options = call.options
    # "/link name:Bob @bob": a value runs to the next key, so the person may ride on name:
    given = split_list(options.get("name", ""))
    name = check_name(given[0] if given else "")
    target = call.command.actor
    words = split_list(options.get("", "")) or given[1:]
    if words:
        mentioned = call.command.mentions.get(words[0]) or call.command.mentions.get(
            words[0].lower())
        if mentioned is None:
            raise UserError("Mention the person to link, e.g. /link name:Bob @bob (or "
                            "leave it out to link the name to yourself).")
        target = mentioned
    guests: dict[str, str] = {}  # the guest names (seats typed by name) played here
    for session in await call.tx.chat_sessions():
        for player in session.players:
            if player.user_id is None:
                guests[player.name.lower()] = player.name
    if name.lower() not in guests:
        listing = ", ".join(sorted(guests.values(), key=str.lower)) or "none yet"
        raise UserError(f"No guest called {name} has played here; guests: {listing}.")
    name = guests[name.lower()]
    before = call.settings.links.get(name.lower())
    if before is not None and before["id"] == target.id:
        return Outcome(Reply(f"The guest {name} is {target.name} in /stats and the ledger "
                             "already."))
    call.settings.links[name.lower()] = {"id": target.id, "name": target.name}
    await call.tx.save_settings(call.settings)
    if before is not None:  # a re-link moves the guest's games and money: say so plainly
        return Outcome(Reply(f"{name} was {before['name']} in /stats and the ledger; now "
                             f"{target.name}: the guest's games, money and payments go "
                             "with the name."),
                       changed=True)
    return Outcome(Reply(f"The guest {name} is {target.name} in /stats and the ledger from "
                         "now on."), changed=True)


async def rules(call: Call) -> Outcome:
    session, game = call.open_session(), call.game
    options = dict(call.options)
    if not options:
        lines = [f"Rules in force ({game.title}):"]
        lines += [f"{k}: {v}" for k, v in game.rulebook.describe(session.rules)]
        lines.append("Presets: " + ", ".join(p.name for p in game.rulebook.presets)
                     + ". See /help rules.")
        return Outcome(Reply("\n".join(lines)))
    updated = dict(session.rules)
    if "preset" in options:
        updated = game.rulebook.with_preset(updated, options.pop("preset"))
    updated = game.rulebook.apply(updated, options)
    session.rules = updated
    await call.tx.save_session(session)
    note = t("waiting_note") if session.pending else ""
    return Outcome(Reply(t("rules_changed", note=note, rules=rules_line(game, updated))),
                   changed=True)
