"""The chat's own settings: /settings (timezone, language), /link and /rules."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.core import events, i18n
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.grammar import clip, split_list
from bot.core.handlers.call import Call, Outcome
from bot.core.handlers.sessions import rules_line
from bot.core.i18n import AUTO, LANGUAGES, Msg, Tr, _, translator
from bot.core.players import check_name
from bot.core.rules import ADDITION, Preset

MAX_TIMEZONE = 64  # the longest IANA name is 32 characters


@cache
def _timezones() -> dict[str, str]:
    """Each IANA name by its lowercase, and by its last part alone where only one zone ends
    so ("kathmandu" -> Asia/Kathmandu)."""
    names = sorted(available_timezones())
    cities: dict[str, list[str]] = {}
    for name in names:
        cities.setdefault(name.rsplit("/", 1)[-1].lower(), []).append(name)
    found = {city: zones[0] for city, zones in cities.items() if len(zones) == 1}
    found.update((name.lower(), name) for name in names)
    return found


def timezone_named(typed: str) -> str | None:
    """The IANA name a person means: "asia/kathmandu" and "Kathmandu" are Asia/Kathmandu
    (phones capitalise, or not; people know their city)."""
    return _timezones().get(typed.lower().replace(" ", "_"))


def language_name(tr: Tr, language: str) -> str:
    """"ne (नेपाली)", or for auto what it means."""
    if language in LANGUAGES:
        return f"{language} ({LANGUAGES[language]})"
    # TRANSLATORS: /settings language:auto, the default
    return tr("auto (each person's own language)")


def languages_line(tr: Tr) -> str:
    return tr("Languages: {languages}.", languages=", ".join(
        [language_name(tr, AUTO), *(language_name(tr, code) for code in LANGUAGES)]))


def settings_line(tr: Tr, call: Call) -> str:
    current = call.settings
    return tr("timezone: {timezone} · language: {language} · board: {board}",
              timezone=current.timezone, language=language_name(tr, current.language),
              board=current.board)


async def settings(call: Call) -> Outcome:
    options, current = call.options, call.settings
    if not options:
        return Outcome(Reply(settings_line(call.tr, call) + "\n" + languages_line(call.tr)))
    if "board" in options:
        current.board = options["board"]
    if "language" in options:
        current.language = options["language"]
        # the answer is in the language just chosen (auto: the sender's own)
        call.tr = translator(i18n.choose(current.language, call.command.locale),
                             call.game.key)
    if "timezone" in options:
        typed = options["timezone"].strip()
        name = timezone_named(typed)
        try:
            if name is None or len(name) > MAX_TIMEZONE:
                raise ValueError(typed)
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise UserError(_("`{name}` is not a timezone; use a name like Asia/Kathmandu, "
                              "Europe/London or UTC.", name=clip(typed))) from None
        current.timezone = name
    await call.tx.save_settings(current)
    reply = Reply(call.tr("Settings saved. {settings}", settings=settings_line(call.tr, call)))
    if "language" in options:  # the chat's menu is in its language: a platform redoes it
        reply.menu = call.session.game if call.session is not None else ""
    return Outcome(reply, changed=True)


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
            raise UserError(_("Mention the person to link, e.g. /link name:Bob @bob (or "
                              "leave it out to link the name to yourself)."))
        target = mentioned
    guests: dict[str, str] = {}  # the guest names (seats typed by name) played here
    for session in await call.tx.chat_sessions():
        for player in session.players:
            if player.user_id is None:
                guests[player.name.lower()] = player.name
    if name.lower() not in guests:
        listing = ", ".join(sorted(guests.values(), key=str.lower)) or _("none yet")
        raise UserError(_("No guest called {name} has played here; guests: {guests}.",
                          name=name, guests=listing))
    name = guests[name.lower()]
    before = call.settings.links.get(name.lower())
    if before is not None and before["id"] == target.id:
        return Outcome(Reply(call.tr("The guest {name} is {person} in /stats and the ledger "
                                     "already.", name=name, person=target.name)))
    call.settings.links[name.lower()] = {"id": target.id, "name": target.name}
    await call.tx.save_settings(call.settings)
    await call.tx.clubs.games_changed(call.command.chat)  # its club: the guest is theirs
    if before is not None:  # a re-link moves the guest's games and money: say so plainly
        return Outcome(Reply(call.tr("{name} was {before} in /stats and the ledger; now "
                                     "{person}: the guest's games, money and payments go "
                                     "with the name.", name=name, before=before["name"],
                                     person=target.name)),
                       changed=True)
    return Outcome(Reply(call.tr("The guest {name} is {person} in /stats and the ledger from "
                                 "now on.", name=name, person=target.name)), changed=True)


def changed_rules(tr: Tr, game: Game, before: Mapping[str, Any],
                  after: Mapping[str, Any]) -> list[str]:
    """"unseen_maal murder", one for each rule of `after` that `before` did not have, in the
    rulebook's order; a key no rule declares (the maal table) by its name."""
    values, book = game.rulebook.complete(after), game.rulebook
    said = [f"{spec.key} {tr.render(spec.show(values[spec.key]))}" for spec in book.specs
            if before.get(spec.key) != values[spec.key]]
    known = {spec.key for spec in book.specs}
    others = sorted((before.keys() | values.keys()) - known)
    return said + [tr("{key} changed", key=key) for key in others
                   if before.get(key) != values.get(key)]


def preset_line(tr: Tr, game: Game, preset: Preset, changed: list[str]) -> str:
    if preset.kind == ADDITION:
        line = tr("Preset {name}: added to the rules in force.", name=preset.name)
    else:  # TRANSLATORS: {kept}: rule keys, "packs, rate, currency"
        line = tr("Preset {name}: a whole table ({kept} kept).", name=preset.name,
                  kept=", ".join(game.rulebook.kept()))
    if not changed:
        return line + " " + tr("Nothing changed: these rules were in force already.")
    return line + " " + tr("Changed: {rules}.", rules=", ".join(changed))


async def rules(call: Call) -> Outcome:
    session, game, tr = call.open_session(), call.game, call.tr
    options = dict(call.options)
    if not options:
        lines = [tr("Rules in force ({game}):", game=Msg(game.title))]
        lines += [f"{k}: {tr.render(v)}" for k, v in game.rulebook.describe(session.rules)]
        lines.append(tr("Presets: {presets}. See /help rules.",
                        presets=", ".join(p.name for p in game.rulebook.presets)))
        return Outcome(Reply("\n".join(lines)))
    updated = dict(session.rules)
    preset = None
    if "preset" in options:
        preset = game.rulebook.preset(options["preset"])
        updated = game.rulebook.with_preset(updated, options.pop("preset"))
    updated = game.rulebook.apply(updated, options)
    game.check_rules(updated, len(session.players), session.game_state)
    await events.rules_changed(call, session.rules, updated)
    before, session.rules = game.rulebook.complete(session.rules), updated
    await call.tx.save_session(session)
    lines = [tr("Rules changed for the {hands} that follow; recorded {hands} keep theirs.",
                **call.words)]
    if session.pending:
        lines[0] += " " + tr("A waiting {hand} is scored with them too.", **call.words)
    if preset is not None:  # what the preset is, and what it changed: the rest may be long
        changed = changed_rules(tr, game, before, updated)
        if not changed:
            lines = []  # nothing to follow: no "rules changed"
        lines.append(preset_line(tr, game, preset, changed))
        return Outcome(Reply("\n".join(lines)), changed=True)
    line = rules_line(tr, game, updated, len(session.players))
    # the summary shows only what differs from the defaults: a rule typed, or changed, back
    # to its default (/rules rate:1) would not show, as if nothing had been done
    shown = {key for key, _ in game.brief_rules(updated, len(session.players))}
    values = game.rulebook.complete(updated)
    said = [f"{spec.key} {tr.render(spec.show(values[spec.key]))}"
            for spec in game.rulebook.specs if spec.key not in shown
            and (spec.key in options or before.get(spec.key) != values[spec.key])]
    lines.append(", ".join([line, *said]) if line else ", ".join(said))
    return Outcome(Reply("\n".join(lines)), changed=True)
