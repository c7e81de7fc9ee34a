"""A game's event log: what changed its money or seats between hands (rule and rate
changes, sitting out and coming back, joins, seats given or taken), with who and when, for
/history. Append-only, kept beside the hand log (bot/storage/transaction/events.py); each handler
that makes such a change records it with one call to `record`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.core.errors import UserError
from bot.core.games.base import Game
from bot.core.i18n import Tr
from bot.core.session import SessionEvent, SessionState

if TYPE_CHECKING:
    from bot.core.handlers.call import Call

RULES, SITOUT, BACK, JOIN, SEAT = "rules", "sitout", "back", "join", "seat"
KINDS = (RULES, SITOUT, BACK, JOIN, SEAT)


async def record(call: Call, kind: str, session: SessionState | None = None,
                 **data: Any) -> None:
    """Keep one change to the open game (or `session`) in its event log."""
    session = session or call.session
    assert session is not None and session.id is not None
    actor = call.command.actor
    await call.tx.add_event(session.id, SessionEvent(kind, data, actor.id, actor.name,
                                                     session.hand_count))


async def rules_changed(call: Call, before: Mapping[str, Any],
                        after: Mapping[str, Any]) -> None:
    """Keep a change of the open game's rules (the rate, the currency, the maal table...),
    if anything changed."""
    changes = rule_changes(call.game.rulebook.complete(before), after)
    if changes:
        await record(call, RULES, changes=changes)


def rule_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list]:
    """{key: [before, after]} for each rule that changed (before None: it had no value;
    after None: a whole-table preset dropped it, back to the game's own maal table)."""
    return {key: [before.get(key), after.get(key)] for key in [*after, *(
        key for key in before if key not in after)] if before.get(key) != after.get(key)}


def describe(event: SessionEvent, game: Game, tr: Tr) -> str:
    """The change in words, in the reader's language: "rate 10 → 2", "dave sat out"."""
    data = event.data
    if event.kind == RULES:
        parts = []
        for key, (old, new) in sorted(data.get("changes", {}).items()):
            if isinstance(new, Mapping) or isinstance(old, Mapping):  # Marriage's maal table
                if not (isinstance(old, Mapping) and isinstance(new, Mapping)):  # or default
                    parts.append(tr("{key} changed", key=key))
                    continue
                parts += [f"{sub} {_listed(old.get(sub))} → {_listed(new.get(sub))}"
                          for sub in sorted(set(old) | set(new)) if old.get(sub) != new.get(sub)]
                continue
            try:
                show = game.rulebook.spec(key).show
            except UserError:  # a key a later version dropped: as stored
                def show(value: Any) -> str:
                    return str(value)
            now = tr.render(show(new)) or tr("none")
            if old is None:
                parts.append(f"{key} {now}")
            else:
                parts.append(f"{key} {tr.render(show(old)) or tr('none')} → {now}")
        return tr("rules: {changes}", changes=", ".join(parts))
    if event.kind == SITOUT:
        names = data.get("names", [])
        return tr.plural("{names} sat out", "{names} sat out", len(names),
                         names=", ".join(names))
    if event.kind == BACK:
        names = data.get("names", [])
        return tr.plural("{names} came back", "{names} came back", len(names),
                         names=", ".join(names))
    if event.kind == JOIN:
        return tr("{name} joined at seat {seat}", name=data.get("name", "?"),
                  seat=data.get("seat", "?"))
    if event.kind == SEAT:
        name, seat = data.get("name", "?"), data.get("seat", "?")
        person = data.get("person")
        if person is None:
            return tr("seat {seat} ({name}) is a guest seat now", seat=seat, name=name)
        if data.get("claimed"):
            return tr("{person} took seat {seat} ({name})", person=person, seat=seat,
                      name=name)
        return tr("seat {seat} ({name}) given to {person}", seat=seat, name=name,
                  person=person)
    return event.kind


def _listed(value: Any) -> str:
    """A maal table's entry as /setmaal takes it: 2/5/10, or - for none."""
    if isinstance(value, list):
        return "/".join(map(str, value)) or "-"
    return "-" if value is None else str(value)
