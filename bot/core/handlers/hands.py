"""Hands: a game's own commands (which record, wait or just answer), /undo and /edit."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.core import events, flows, permissions, summaries
from bot.core.command import Reply
from bot.core.errors import UserError
from bot.core.games.base import KEEP, Game, HandResult, PlayContext, PlayOutcome
from bot.core.grammar import clip, parse_int
from bot.core.handlers.board_commands import board_reply, money_of, waiting_line, waiting_names
from bot.core.handlers.call import NO_GAME, Call, Outcome, ask, starter
from bot.core.i18n import Msg, Tr, _, _n, join
from bot.core.i18n.words import numbered, placeholders
from bot.core.permissions import Rule
from bot.core.players import Roster
from bot.core.points import show
from bot.core.session import HandRecord, SessionState, Void, WaitingHand

MAX_REASON = 200  # characters
STALE = _("The table changed since this was asked; nothing was done. Ask again.")


def _reason(typed: str | None) -> str | None:
    """An undo's or edit's reason, kept with the hand and shown in /history on a phone: a
    line, not a page (one typed 4,000 characters long was kept and shown whole)."""
    if typed and len(typed) > MAX_REASON:
        raise UserError(_("`{key}` is at most {limit} characters.", key="reason",
                          limit=MAX_REASON))
    return typed or None


def _changes(outcome: PlayOutcome) -> bool:
    return (outcome.result is not None or outcome.pending is not KEEP
            or outcome.rules is not None or outcome.state is not KEEP)


async def play(call: Call) -> Outcome:
    """A game's command: the game reads it; whatever it changes is kept here."""
    spec, game, command = call.spec, call.game, call.command
    assert spec.play is not None
    session = call.session
    if session is None:  # a command that needs no game (a calculator): it may only answer
        # with the table's own rules (packs, alter, maal table) from its last such game
        past = [s for s in await call.tx.chat_sessions() if s.game == game.key]
        rules = game.rulebook.complete(past[-1].rules) if past else game.rulebook.defaults()
        outcome = spec.play(PlayContext(
            command=spec.name, options=command.options, roster=Roster([]), hand_players=[],
            rules=rules, pending=None, actor=command.actor, actor_player=None,
            mentions=command.mentions))
        if _changes(outcome):
            raise UserError(NO_GAME)
        return Outcome(Reply(call.tr.render(outcome.text)))
    rules = game.rulebook.complete(session.rules)
    pending = session.pending
    playing = [p for p in session.players if not p.sitting_out]
    if spec.records and len(playing) < game.min_players and pending is None:
        raise UserError(_n(
            "{game} needs at least {n} player in a {hand}; playing: {players}. Others sit "
            "down with /join or come back with /back.",
            "{game} needs at least {n} players in a {hand}; playing: {players}. Others sit "
            "down with /join or come back with /back.", game.min_players,
            game=Msg(game.title), hand=call.words["hand"], players=Roster(playing).listing()))
    outcome = spec.play(PlayContext(
        command=spec.name, options=command.options, roster=session.roster,
        hand_players=playing, rules=rules, pending=pending.entry if pending else None,
        actor=command.actor, actor_player=call.roles.seat, mentions=command.mentions,
        state=session.game_state, totals=session.totals))
    if not _changes(outcome):
        return Outcome(Reply(call.tr.render(outcome.text)))
    permissions.check(spec.may, call.roles, _("use /{command} here", command=spec.name),
                      hand_count=session.hand_count, waiting=pending is not None)
    if outcome.rules is not None:
        await events.rules_changed(call, session.rules, outcome.rules)  # /setmaal
        session.rules = outcome.rules
    began = False
    if outcome.pending is not KEEP:
        if outcome.pending is None:
            session.pending = None
        elif pending is not None:
            pending.entry = outcome.pending
        else:
            began = True
            session.pending = WaitingHand(command.actor.id, command.actor.name,
                                          command.origin_id, outcome.pending)
    if outcome.result is None:
        if outcome.state is not KEEP:
            session.game_state = outcome.state
        await call.tx.save_session(session)
        if session.pending is not None and outcome.pending is not KEEP:
            return Outcome(await _waiting_reply(call, session, outcome, began), True)
        return Outcome(Reply(call.tr.render(outcome.text)), True)
    result = outcome.result
    hand = HandRecord(
        no=session.hand_count + 1, players=result.players, inputs=result.inputs, rules=rules,
        deltas=result.deltas, summary=result.summary,
        recorded_by=pending.by if pending else command.actor.id,
        recorded_by_name=pending.by_name if pending else command.actor.name,
        origin_id=pending.origin if pending else command.origin_id,
        state_before=session.game_state,
    )
    assert session.id is not None
    await money_of(call, session)
    await call.tx.add_hand(session.id, hand)
    if outcome.state is not KEEP:
        session.game_state = outcome.state
    session.apply(hand, game.point_places)
    await call.tx.save_session(session)
    tr = call.tr
    summary = tr.render(hand.summary)
    head = (tr("{entry}: {summary}", entry=numbered(game.hand_word, hand.no),
               summary=summary)
            + f"\n{deltas_line(game, session, hand.deltas, tr)}")
    previous = await call.tx.hand(session.id, hand.no - 1) if hand.no > 1 else None
    twice = previous is not None and previous.inputs == hand.inputs
    if twice:  # the same message sent twice, most likely: undo is one tap away
        head += "\n" + tr("This is the same as {hand} {no}. If it was sent twice, /undo "
                          "takes this one back.", **call.words, no=hand.no - 1)
    reply = await board_reply(call, session, head)
    if twice:
        reply.question = undo_question(call, hand, summary)
    return Outcome(reply, True)


async def _waiting_reply(call: Call, session: SessionState, outcome: PlayOutcome,
                         began: bool) -> Reply:
    """A hand still waiting: the reply is short, whose input is missing and how to give it
    (in the syntax of the prompt), then whatever the game adds (maal counted from cards).
    The board is not repeated: the live board (or /board) shows it, waiting line and all."""
    game, tr = call.game, call.tr
    lines = [tr.render(outcome.text)] if outcome.text else []
    waiting = waiting_names(game, session)
    if game.waiting_input and waiting:
        lines.insert(0, flows.waiting_text(tr, session.hand_count + 1, game.waiting_input,
                                           game.hand_word, game.waiting_command, waiting))
    else:  # the game's own line on what the hand waits for (Call Break: tricks from ...)
        rules = game.rulebook.complete(session.rules)
        assert session.pending is not None
        note = tr.render(game.pending_note(session.pending.entry, session.roster, rules))
        if note:
            lines.append(waiting_line(tr, game, session, note))
    text = "\n".join(line for line in lines if line)
    reply = await board_reply(call, session, text, wait_began=began)
    reply.text, reply.table = text, None
    return reply


def undo_question(call: Call, hand: HandRecord, summary: str | None = None) -> flows.Question:
    """"Undo hand 3 (alice won...)?" (`summary`: the hand's, already rendered)."""
    assert call.session is not None and call.session.id is not None
    tr = call.tr
    if summary is None:
        summary = tr.render(summaries.shown(call.game, call.session.roster, hand))
    return flows.confirm(
        flows.Step.UNDO, tr("Undo {hand} {no} ({summary})?", **call.words, no=hand.no,
                            summary=summary.splitlines()[0]),
        tr("Yes, undo"), call.session.id, hand.no, starter(call), tr,
        version=call.session.version)


def _asked(session: SessionState, no: int) -> dict[str, int]:
    """What a confirmation of this table names: the session, the hand (0: the waiting one)
    and the session's version, which every change to it increments (bot/core/flows.py)."""
    assert session.id is not None
    return {"session": session.id, "hand": no, "version": session.version}


def _undo_word(call: Call) -> None:
    """The words after /undo, as people type them: payment (Payment), payment 3 (as
    payment:3); anything else is refused in the words people type, not option names."""
    raw = call.options.get("", "")
    words = raw.strip().lower().split()
    if not words:
        return
    options = dict(call.command.options)
    if words[0] == "payment" and len(words) <= 2:
        if len(words) == 2:
            if not words[1].isdigit() or int(words[1]) < 1 or "payment" in options:
                raise UserError(_("Undo one payment: /undo payment, or /undo payment:3 "
                                  "(3 as /ledger history numbers it); not `{text}`.",
                                  text=clip(raw)))
            options["payment"] = words[1]
        options[""] = "payment"
        call.command = replace(call.command, options=options)
        return
    said = _("/undo takes payment (the latest payment you recorded), payment:3 (payment 3 of "
             "/ledger history) or reason:WHY; not `{text}`.", text=clip(raw))
    if difflib.get_close_matches(words[0], ["payment"], cutoff=0.6):
        raise UserError(join([said, _("Did you mean /undo payment? It undoes one payment at "
                                      "a time.")], " "))
    raise UserError(said)


async def undo(call: Call) -> Outcome:
    _undo_word(call)
    command = call.command
    # /undo payment (or payment:N), a bare /undo with no game open, or the tap confirming
    # one (session 0)
    if call.options.get("") == "payment" or "payment" in call.options \
            or call.session is None \
            or (command.expect or {}).get("session") == 0:
        from bot.core.handlers.ledger_commands import undo_payment

        return await undo_payment(call)
    session, game = call.open_session(), call.game
    reason = _reason(command.options.get("reason"))
    asked = command.expect
    # a bare /undo on a platform with buttons asks first; a typed reason is a decision made
    asking = command.buttons and asked is None and reason is None
    assert session.id is not None
    if session.pending is not None:
        if asked is not None and asked != _asked(session, 0):
            raise UserError(STALE)
        permissions.check(Rule.RECORDER, call.roles,
                          _("drop the waiting {hand}", **call.words),
                          recorded_by=session.pending.by)
        if asking:
            return ask(flows.confirm(
                flows.Step.UNDO, call.tr("Drop the {hand} that is waiting?", **call.words),
                call.tr("Yes, drop it"), session.id, 0, starter(call), call.tr,
                version=session.version))
        session.pending = None
        await call.tx.save_session(session)
        dropped = call.tr("Dropped the waiting {hand}.", **call.words)
        return Outcome(await board_reply(call, session, dropped), True)
    if session.hand_count == 0:
        raise UserError(_("There is no {hand} to undo yet.", **call.words))
    hand = await call.tx.hand(session.id, session.hand_count)
    assert hand is not None, "hand_count and the hand log disagree"
    if asked is not None and asked != _asked(session, hand.no):
        raise UserError(STALE)
    permissions.check(Rule.RECORDER, call.roles,
                      _("undo {hand} {no} (recorded by {name})", **call.words, no=hand.no,
                        name=hand.recorded_by_name), hand=hand)
    if asking:
        return ask(undo_question(call, hand))
    await money_of(call, session)
    await call.tx.void_hand(session.id, hand.no, command.actor.id, Void(False, reason))
    session.take_back(hand, game.point_places)
    session.game_state = hand.state_before
    waiting = game.waiting_before(hand)
    if waiting is not None:  # what went into the hand is waiting again, as before it
        session.pending = WaitingHand(hand.recorded_by, hand.recorded_by_name, None, waiting)
    await call.tx.save_session(session)
    # its first line, as the question asked it: the maal counted from cards follows it
    # on lines of their own, which would stand inside the brackets
    text = call.tr("Undid {hand} {no} ({summary}).", **call.words, no=hand.no,
                   summary=call.tr.render(
                       summaries.shown(game, session.roster, hand)).splitlines()[0])
    return Outcome(await board_reply(call, session, text), True)


async def edit(call: Call) -> Outcome:
    """Re-enter one hand, then re-derive every later live hand from its stored inputs with
    the state and totals carried into it (as /undo restores them), so a change passes on:
    a foul charged in the next hand, riichi sticks and honba, a Tranca race already won.
    Every hand that comes out different is voided and added again (the log is append-only),
    the totals and the game state follow, and the reply says which hands changed."""
    session, game, command = call.open_session(), call.game, call.command
    options = dict(command.options)
    word = game.edit_key  # the option that says which (hand:, round:, result:)
    words = placeholders(word)
    if word not in options:
        raise UserError(_("Say which {hand}: /edit {key}:3 ...", **words, key=word))
    if session.hand_count == 0:
        raise UserError(_("There are no {hands} to edit yet.", **words))
    no = parse_int(options.pop(word), word, 1, session.hand_count)
    reason = _reason(options.pop("reason", None))
    assert session.id is not None
    live = await call.tx.all_hands(session.id)
    assert [h.no for h in live] == list(range(1, session.hand_count + 1)), \
        "hand_count and the hand log disagree"
    old = live[no - 1]
    permissions.check(Rule.HAND_PLAYER, call.roles, _("edit {hand} {no}", **words, no=no),
                      hand=old)
    running: dict[int, int] = {}
    for hand in live[: no - 1]:
        _add(running, hand.deltas, +1)
    outcome = game.reenter(PlayContext(
        command=game.result_command, options=options, roster=session.roster,
        hand_players=[p for p in session.players if p.seat in old.players],
        rules=game.rulebook.complete(old.rules), pending=None, actor=command.actor,
        actor_player=call.roles.seat, mentions=command.mentions, editing=old.inputs,
        state=old.state_before, totals=dict(running)))
    if outcome.result is None:
        raise UserError(outcome.text or _("That edit does not make a complete {hand}.",
                                          **words))
    new = HandRecord(
        no=no, players=outcome.result.players, inputs=outcome.result.inputs, rules=old.rules,
        deltas=outcome.result.deltas, summary=outcome.result.summary,
        recorded_by=command.actor.id, recorded_by_name=command.actor.name,
        origin_id=command.origin_id, state_before=old.state_before,
    )
    replaced = [(old, new)]
    state = old.state_before if outcome.state is KEEP else outcome.state
    _add(running, new.deltas, +1)
    for i, later in enumerate(live[no:], no):
        again = _rescore(game, session, call, later, state, running, words, no)
        if again is None:  # depends on nothing before it: stays as recorded
            _add(running, later.deltas, +1)
            state = live[i + 1].state_before if i + 1 < len(live) else session.game_state
            continue
        result, after = again
        redone = HandRecord(
            no=later.no, players=result.players, inputs=result.inputs, rules=later.rules,
            deltas=result.deltas, summary=result.summary, recorded_by=later.recorded_by,
            recorded_by_name=later.recorded_by_name, origin_id=later.origin_id,
            state_before=state)
        was = summaries.shown(game, session.roster, later)  # as kept, or derived
        if not _same((later.deltas, was, later.inputs, later.state_before),
                     (redone.deltas, redone.summary, redone.inputs, redone.state_before)):
            replaced.append((later, redone))
        _add(running, result.deltas, +1)
        state = after
    # kept in the hand log as a message, shown in the reader's language
    said = {"hand": placeholders(word)["hand"], "no": no}
    why = _("follows the edit of {hand} {no}: {reason}", **said, reason=reason) if reason \
        else _("follows the edit of {hand} {no}", **said)
    await money_of(call, session)
    for was, now in replaced:
        await call.tx.void_hand(session.id, was.no, command.actor.id,
                                Void(True, reason if was is old else why))
        await call.tx.add_hand(session.id, now)
        session.replace(was, now, game.point_places)
    session.game_state = state
    await call.tx.save_session(session)
    tr = call.tr
    lines = [tr("{entry} changed: {summary}", entry=numbered(word, no),
                summary=tr.render(new.summary)),
             tr("{now} (was {before})", now=deltas_line(game, session, new.deltas, tr),
                before=deltas_line(game, session, old.deltas, tr))]
    if len(replaced) > 1:
        lines.append(tr("Re-scored with what {hand} {no} now carries forward:", **words,
                        no=no))
        lines += [tr("{entry}: {now} (was {before})", entry=numbered(word, now.no),
                     now=deltas_line(game, session, now.deltas, tr),
                     before=deltas_line(game, session, was.deltas, tr))
                  if not _same(was.deltas, now.deltas)
                  # the same points, but what it says changed (Riichi: another dealer)
                  else tr("{entry}: {summary} (points unchanged)", entry=numbered(word, now.no),
                          summary=tr.render(now.summary))
                  for was, now in replaced[1:]]
    elif len(live) > no:
        lines.append(tr("The {hands} after it are unchanged.", **words))
    return Outcome(await board_reply(call, session, "\n".join(lines)), True)


def _rescore(game: Game, session: SessionState, call: Call, hand: HandRecord,
             state: dict[str, Any] | None, running: Mapping[int, int],
             words: Mapping[str, Msg], edited: int
             ) -> tuple[HandResult, dict[str, Any] | None] | None:
    """A later hand scored again with the re-derived state and totals: its result and the
    state it passes on; None when the game says it depends on nothing before it."""
    try:
        outcome = game.rescore(PlayContext(
            command=game.result_command, options={}, roster=session.roster,
            hand_players=[p for p in session.players if p.seat in hand.players],
            rules=game.rulebook.complete(hand.rules), pending=None,
            actor=call.command.actor, actor_player=None, editing=hand.inputs, state=state,
            totals=dict(running)))
    except UserError as error:
        raise UserError(_("Not changed: with that edit of {hand} {edited}, {hand} {no} can't "
                          "stand as recorded: {error} /undo back to it first if the later "
                          "{hands} go.", **words, edited=edited, no=hand.no,
                          error=error.message)) from None
    if outcome is None:
        return None
    if outcome.result is None:
        raise UserError(_("Not changed: with that edit of {hand} {edited}, {hand} {no} would "
                          "no longer be complete.", **words, edited=edited, no=hand.no))
    after = state if outcome.state is KEEP else outcome.state
    return outcome.result, after


def _same(a: Any, b: Any) -> bool:
    """Equal as stored (JSON turns tuples into lists and keys into strings)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True,
                                                                     default=str)


def _add(totals: dict[int, int], deltas: Mapping[int, int], sign: int) -> None:
    for key, value in deltas.items():
        totals[key] = totals.get(key, 0) + sign * value


def deltas_line(game: Game, session: SessionState, deltas: Mapping[int, int],
                tr: Tr | None = None) -> str:
    """"alice +12  bob -12": each column's points, as `tr`'s language writes numbers."""
    labels = dict(game.columns(session.roster, session.game_state))
    return "  ".join(f"{labels.get(k, k)} {show(v, game.point_places, tr=tr)}"
                     for k, v in deltas.items())
