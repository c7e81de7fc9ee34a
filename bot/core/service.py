"""The one entry point: a Command in, a Reply out.

The service owns sessions, players, undo, edit, rules, the board and the end of a game; the
game plugin owns the arithmetic and its own commands. Each command runs in one store
transaction: bad input raises UserError and the transaction rolls back, so it changes nothing.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core import help as help_text
from bot.core import i18n, stats
from bot.core.board import board_json, render_table
from bot.core.command import Attachment, Command, Reply
from bot.core.errors import UserError
from bot.core.games import GAMES, get_game
from bot.core.games.base import KEEP, Game, PlayContext
from bot.core.grammar import clip, parse_int, split_list
from bot.core.i18n import t
from bot.core.money import format_money, money_shown, settle_up, to_money
from bot.core.players import Player, Roster, check_name, suggest_name
from bot.core.session import (
    ENDED,
    ChatTransaction,
    DuplicateOrigin,
    HandRecord,
    SessionState,
    Store,
)

log = logging.getLogger(__name__)
BOARD_ROWS = 10
HISTORY_ROWS = 20
DEFAULT_GAME = "marriage"

Handler = Callable[["Service", ChatTransaction, "SessionState | None", Command],
                   Awaitable["Outcome"]]


class Outcome:
    """A reply and whether the command changed anything (only then is its origin recorded)."""

    def __init__(self, reply: Reply, changed: bool = False) -> None:
        self.reply = reply
        self.changed = changed


@dataclass(frozen=True)
class Snapshot:
    """A read-only look at a chat's open session, for adapters that build buttons."""

    session: SessionState
    game: Game
    last_hand: HandRecord | None


def known_commands() -> set[str]:
    """Every command name the bot answers, in any game."""
    return {"help", "start", *CORE_COMMANDS, *(c for g in GAMES.values() for c in g.commands)}


class Service:
    def __init__(self, store: Store, board_rows: int = BOARD_ROWS) -> None:
        self.store = store
        self.board_rows = board_rows

    async def handle(self, command: Command) -> Reply:
        started = time.perf_counter()
        reply = await self._handle_safely(command)
        log.info("command", extra={
            "chat": command.chat, "command": command.name, "origin": command.origin_id,
            "actor": command.actor.id, "ok": reply.ok, "duplicate": reply.duplicate,
            "ms": round((time.perf_counter() - started) * 1000, 2)})
        return reply

    async def _handle_safely(self, command: Command) -> Reply:
        try:
            return await self._handle(command)
        except UserError as error:
            return Reply.error(error.message)
        except DuplicateOrigin:
            # Another process handled the same update at the same moment; give its answer.
            assert command.origin_id is not None
            previous = await self.store.origin_reply(command.origin_id)
            reply = Reply.from_json(previous or {"ok": True, "text": "Already recorded."})
            reply.duplicate = True
            return reply
        except Exception:
            # A bug, or the database went away: the transaction rolled back, so say so.
            log.exception("command failed: chat=%s command=%s origin=%s", command.chat,
                          command.name, command.origin_id)
            return Reply.error("Something went wrong on my side and nothing was recorded. "
                               "Please try again in a moment.")

    async def snapshot(self, chat: str) -> Snapshot | None:
        async with self.store.transaction(chat) as tx:
            session = await tx.open_session()
            if session is None:
                return None
            assert session.id is not None
            last = await tx.hand(session.id, session.hand_count) if session.hand_count else None
        return Snapshot(session, get_game(session.game), last)

    async def _handle(self, command: Command) -> Reply:
        name = command.name.lower()
        if name in ("help", "start"):
            return await self._help(command)
        async with self.store.transaction(command.chat) as tx:
            i18n.language.set((await tx.settings()).get("language", "en"))
            if command.origin_id is not None:
                previous = await tx.origin_reply(command.origin_id)
                if previous is not None:
                    reply = Reply.from_json(previous)
                    reply.duplicate = True
                    return reply
            session = await tx.open_session()
            handler, keys = self._route(name, session)
            _check_keys(name, command.options, keys)
            outcome = await handler(self, tx, session, command)
            if outcome.changed and command.origin_id is not None:
                await tx.record_origin(command.origin_id, outcome.reply.to_json())
            return outcome.reply

    def _route(self, name: str, session: SessionState | None) -> tuple[Handler, frozenset[str]]:
        game = get_game(session.game if session else DEFAULT_GAME)
        if name in CORE_COMMANDS:
            handler, keys = CORE_COMMANDS[name]
            return handler, keys(game) if callable(keys) else keys
        if session is not None and name in game.commands:
            return Service._game_command, game.commands[name].keys
        elsewhere = [g.title for g in GAMES.values() if name in g.commands]
        if session is not None and elsewhere:
            raise UserError(f"/{name} is for {', '.join(elsewhere)}; this chat is playing "
                            f"{game.title}. See /help.")
        known = sorted(known_commands() - {"start"})
        if session is None and any(name in g.commands for g in GAMES.values()):
            raise UserError(t("no_game"))
        raise UserError(f"I don't know /{clip(name)}. Commands: "
                        + ", ".join("/" + c for c in known) + ". Try /help.")

    # --- sessions and players ------------------------------------------------------------

    async def _newgame(self, tx: ChatTransaction, session: SessionState | None,
                       command: Command) -> Outcome:
        options = command.options
        if session is not None:
            game = get_game(session.game)
            raise UserError(t("already_open", title=game.title, players=session.roster.listing(),
                              count=i18n.plural(session.hand_count, game.hand_word)))
        words = split_list(options.get("", ""))
        if "game" in options and words:
            raise UserError("Name the game once: /newgame marriage players:alice bob")
        if len(words) > 1:
            raise UserError("Name the players with players:, e.g. "
                            "/newgame marriage players:alice bob carol")
        game = get_game(options.get("game") or (words[0] if words else DEFAULT_GAME))
        named = any(k in options for k in ("players", *game.newgame_keys))
        players = [] if not named and game.newgame_keys else \
            _seat_players(options.get("players", ""), command, game)
        players, game_state = game.setup(options, players, named)
        rules = game.rulebook.defaults()
        if "preset" in options:
            rules = game.rulebook.with_preset(rules, options["preset"])
        state = SessionState(chat=command.chat, game=game.key, players=players, rules=rules,
                             created_by=command.actor.id, game_state=game_state)
        await tx.save_session(state)
        seated = state.roster.listing()
        more = "" if len(players) >= game.min_players else t("more_join", n=game.min_players)
        return Outcome(Reply(t(
            "new_game", title=game.title, players=seated, more=more,
            rules=_rules_line(game, rules), word=t(game.hand_word),
            usage=game.commands[game.result_command].usage)), changed=True)

    async def _join(self, tx: ChatTransaction, session: SessionState | None,
                    command: Command) -> Outcome:
        session, game = _require_session(session)
        actor = command.actor
        roster = session.roster
        linked = roster.find_user(actor.id)
        if linked is not None:
            raise UserError(f"You are already seated as {linked.name}.")
        wanted = command.options.get("name") or command.options.get("")
        if wanted:
            name = check_name(wanted)
            existing = next((p for p in roster if p.name.lower() == name.lower()), None)
        else:
            existing = roster.for_actor(actor)
            name = existing.name if existing else suggest_name(actor.name, roster.names())
        if existing is not None:
            if existing.user_id is not None:
                raise UserError(f"{existing.name} is someone else's seat; "
                                "pick another name with /join name:NAME.")
            existing.user_id = actor.id
            await tx.save_session(session)
            return Outcome(Reply(f"You are {existing.name} now (seat {existing.seat})."),
                           changed=True)
        if len(roster) >= game.max_players:
            raise UserError(f"{game.title} takes at most {game.max_players} players; "
                            "the table is full.")
        player = Player(seat=_next_seat(session.players), name=name, user_id=actor.id,
                        joined_after=session.hand_count)
        session.players.append(player)
        await tx.save_session(session)
        when = t("from_next") if session.hand_count else t("from_first")
        return Outcome(Reply(t("joins", name=player.name, seat=player.seat, when=when,
                               players=session.roster.listing())), changed=True)

    async def _sitout(self, tx: ChatTransaction, session: SessionState | None,
                      command: Command) -> Outcome:
        return await self._set_sitting_out(tx, session, command, True)

    async def _back(self, tx: ChatTransaction, session: SessionState | None,
                    command: Command) -> Outcome:
        return await self._set_sitting_out(tx, session, command, False)

    async def _set_sitting_out(self, tx: ChatTransaction, session: SessionState | None,
                               command: Command, out: bool) -> Outcome:
        session, _ = _require_session(session)
        roster = session.roster
        names = split_list(command.options.get("", ""))
        if names:
            players = roster.resolve_many(names, command.mentions)
        else:
            me = roster.for_actor(command.actor)
            if me is None:
                raise UserError(f"Say who: /{command.name} NAME. Players: {roster.listing()}.")
            players = [me]
        already = [p.name for p in players if p.sitting_out == out]
        if already:
            state = "sitting out" if out else "playing"
            raise UserError(f"{', '.join(already)} {'is' if len(already) == 1 else 'are'} "
                            f"already {state}.")
        for player in players:
            player.sitting_out = out
        await tx.save_session(session)
        who = ", ".join(p.name for p in players)
        playing = ", ".join(p.name for p in session.players if not p.sitting_out)
        verb = "sits out" if out else "is back"
        note = " A hand already waiting keeps its players." if session.pending else ""
        return Outcome(Reply(f"{who} {verb} from the next hand. Playing: {playing}.{note}"),
                       changed=True)

    async def _players(self, tx: ChatTransaction, session: SessionState | None,
                       command: Command) -> Outcome:
        session, game = _require_session(session)
        lines = [f"{game.title}, {i18n.plural(len(session.players), 'player')}:"]
        for p in session.players:
            notes = []
            if p.joined_after:
                notes.append(f"joined after hand {p.joined_after}")
            if p.user_id is None:
                notes.append("guest")
            if p.sitting_out:
                notes.append("sitting out")
            suffix = f" ({', '.join(notes)})" if notes else ""
            lines.append(f"{p.seat}. {p.name}{suffix}")
        status = game.status(session.totals, game.rulebook.complete(session.rules),
                             session.game_state, session.roster)
        if status:
            lines.append(status)
        return Outcome(Reply("\n".join(lines)))

    # --- hands ---------------------------------------------------------------------------

    async def _game_command(self, tx: ChatTransaction, session: SessionState | None,
                            command: Command) -> Outcome:
        session, game = _require_session(session)
        rules = game.rulebook.complete(session.rules)
        pending = session.pending
        playing = [p for p in session.players if not p.sitting_out]
        if command.name == game.result_command and len(playing) < game.min_players \
                and pending is None:
            raise UserError(f"{game.title} needs at least {game.min_players} players in a hand; "
                            f"playing: {Roster(playing).listing()}. Others sit down with /join "
                            "or come back with /back.")
        ctx = PlayContext(
            command=command.name,
            options=command.options,
            roster=session.roster,
            hand_players=[p for p in session.players if not p.sitting_out],
            rules=rules,
            pending=pending["entry"] if pending else None,
            actor=command.actor,
            actor_player=session.roster.for_actor(command.actor),
            mentions=command.mentions,
            state=session.game_state,
            totals=session.totals,
        )
        outcome = game.play(ctx)
        changed = False
        if outcome.rules is not None:
            session.rules, changed = outcome.rules, True
        if outcome.pending is not KEEP:
            changed = True
            if outcome.pending is None:
                session.pending = None
            else:
                session.pending = {
                    "by": pending["by"] if pending else command.actor.id,
                    "by_name": pending["by_name"] if pending else command.actor.name,
                    "origin": pending["origin"] if pending else command.origin_id,
                    "entry": outcome.pending,
                }
        if outcome.result is None:
            if outcome.state is not KEEP:
                session.game_state, changed = outcome.state, True
            if changed:
                await tx.save_session(session)
            reply = Reply(outcome.text)
            if session.pending is not None and outcome.pending is not KEEP:
                reply = await self._board_reply(tx, session, game, outcome.text)
            return Outcome(reply, changed)
        result = outcome.result
        hand = HandRecord(
            no=session.hand_count + 1,
            players=result.players,
            inputs=result.inputs,
            rules=rules,
            deltas=result.deltas,
            summary=result.summary,
            recorded_by=pending["by"] if pending else command.actor.id,
            recorded_by_name=pending["by_name"] if pending else command.actor.name,
            origin_id=pending["origin"] if pending else command.origin_id,
            state_before=session.game_state,
        )
        assert session.id is not None
        await tx.add_hand(session.id, hand)
        if outcome.state is not KEEP:
            session.game_state = outcome.state
        _add_deltas(session.totals, hand.deltas, +1)
        session.hand_count = hand.no
        await tx.save_session(session)
        head = (t("recorded", Word=t(game.hand_word).capitalize(), no=hand.no,
                  summary=hand.summary) + f"\n{_deltas_line(game, session, hand.deltas)}")
        return Outcome(await self._board_reply(tx, session, game, head), changed=True)

    async def _undo(self, tx: ChatTransaction, session: SessionState | None,
                    command: Command) -> Outcome:
        session, game = _require_session(session)
        reason = command.options.get("reason") or None
        if session.pending is not None:
            _check_may_change(command, session.pending["by"], "the waiting hand")
            session.pending = None
            await tx.save_session(session)
            return Outcome(await self._board_reply(tx, session, game, t("dropped")),
                           changed=True)
        if session.hand_count == 0:
            raise UserError("There is no hand to undo yet.")
        assert session.id is not None
        hand = await tx.hand(session.id, session.hand_count)
        assert hand is not None, "hand_count and the hand log disagree"
        _check_may_change(command, hand.recorded_by, f"hand {hand.no}",
                          recorder_name=hand.recorded_by_name)
        await tx.void_hand(session.id, hand.no, command.actor.id, reason)
        _add_deltas(session.totals, hand.deltas, -1)
        session.hand_count -= 1
        session.game_state = hand.state_before
        await tx.save_session(session)
        text = t("undid", word=t(game.hand_word), no=hand.no, summary=hand.summary)
        return Outcome(await self._board_reply(tx, session, game, text), changed=True)

    async def _edit(self, tx: ChatTransaction, session: SessionState | None,
                    command: Command) -> Outcome:
        session, game = _require_session(session)
        options = dict(command.options)
        word = game.edit_key
        if word not in options:
            raise UserError(f"Say which {word}: /edit {word}:3 ...")
        if session.hand_count == 0:
            raise UserError(f"There are no {word}s to edit yet.")
        no = parse_int(options.pop(word), word, 1, session.hand_count)
        reason = options.pop("reason", None) or None
        assert session.id is not None
        old = await tx.hand(session.id, no)
        assert old is not None
        in_hand = [p for p in session.players if p.seat in old.players]
        actor_player = session.roster.for_actor(command.actor)
        if not (command.actor.is_admin or old.recorded_by == command.actor.id
                or (actor_player is not None and actor_player.seat in old.players)):
            raise UserError(f"Only the players of hand {no}, the person who recorded it "
                            "or a chat admin can edit it.")
        ctx = PlayContext(
            command=game.result_command, options=options, roster=session.roster,
            hand_players=in_hand, rules=game.rulebook.complete(old.rules), pending=None,
            actor=command.actor, actor_player=actor_player, mentions=command.mentions,
            editing=old.inputs, state=old.state_before,
        )
        outcome = game.play(ctx)
        if outcome.result is None:
            raise UserError(outcome.text or "That edit does not make a complete hand.")
        new = HandRecord(
            no=no, players=outcome.result.players, inputs=outcome.result.inputs, rules=old.rules,
            deltas=outcome.result.deltas, summary=outcome.result.summary,
            recorded_by=command.actor.id, recorded_by_name=command.actor.name,
            origin_id=command.origin_id, state_before=old.state_before,
        )
        # What the hand carried forward is left as it was: an edit re-scores this hand only.
        await tx.void_hand(session.id, no, command.actor.id, f"edited: {reason}" if reason
                           else "edited")
        await tx.add_hand(session.id, new)
        _add_deltas(session.totals, old.deltas, -1)
        _add_deltas(session.totals, new.deltas, +1)
        await tx.save_session(session)
        text = (f"{game.hand_word.capitalize()} {no} changed: {new.summary}\n"
                f"{_deltas_line(game, session, new.deltas)} (was "
                f"{_deltas_line(game, session, old.deltas)})")
        return Outcome(await self._board_reply(tx, session, game, text), changed=True)

    async def _board(self, tx: ChatTransaction, session: SessionState | None,
                     command: Command) -> Outcome:
        session, game = _require_session(session)
        return Outcome(await self._board_reply(tx, session, game, ""))

    async def _board_reply(self, tx: ChatTransaction, session: SessionState, game: Game,
                           head: str) -> Reply:
        assert session.id is not None
        hands = await tx.last_hands(session.id, self.board_rows)
        rules = game.rulebook.complete(session.rules)
        columns = game.columns(session.roster, session.game_state)
        table = render_table(columns, hands, session.totals, rules, session.hand_count)
        lines = [head] if head else [t("board_head", title=game.title, count=i18n.plural(
            session.hand_count, game.hand_word))]
        status = game.status(session.totals, rules, session.game_state, session.roster)
        if status:
            lines.append(status)
        waiting = None
        if session.pending is not None:
            note = game.pending_note(session.pending["entry"], session.roster, rules)
            lines.append(f"{game.hand_word.capitalize()} {session.hand_count + 1} {note}.")
            waiting = _waiting_names(game, session, rules)
        board = board_json(game.key, columns, hands, session.totals, rules,
                           session.hand_count, waiting)
        return Reply("\n".join(lines), table=table, board=board)

    # --- looking back --------------------------------------------------------------------

    async def _chart(self, tx: ChatTransaction, session: SessionState | None,
                     command: Command) -> Outcome:
        session, game = _require_session(session)
        assert session.id is not None
        hands = await tx.all_hands(session.id)
        if not hands:
            raise UserError(f"No {game.hand_word}s yet: nothing to chart.")
        rules = game.rulebook.complete(session.rules)
        columns = game.columns(session.roster, session.game_state)
        # the chart's font has no Devanagari: its title stays in English
        title = f"{game.title}: {len(hands)} {game.hand_word}{'s' if len(hands) > 1 else ''}"
        from bot.core.chart import render_chart  # matplotlib: loaded when first needed

        # matplotlib takes a moment: off the event loop
        png = await asyncio.to_thread(render_chart, columns, hands, rules, title,
                                      game.hand_word)
        return Outcome(Reply(f"Running totals after {i18n.plural(len(hands), game.hand_word)}.",
                             file=Attachment(f"chart-{session.id}-{len(hands)}.png", png,
                                             "image")))

    async def _history(self, tx: ChatTransaction, session: SessionState | None,
                       command: Command) -> Outcome:
        session, game = _require_session(session)
        assert session.id is not None
        zone = _zone((await tx.settings()).get("timezone"))
        log = await tx.history(session.id)
        word = game.hand_word
        if "hand" in command.options or word in command.options:
            no = parse_int(command.options.get("hand") or command.options[word], word, 1,
                           max([h.no for h in log] or [1]))
            log = [h for h in log if h.no == no]
        elif len(log) > HISTORY_ROWS:
            log = log[-HISTORY_ROWS:]
        if not log:
            return Outcome(Reply(f"No {word}s yet."))
        lines = []
        for hand in log:
            when = hand.created_at.astimezone(zone).strftime("%d %b %H:%M") \
                if hand.created_at else ""
            lines.append(f"{word.capitalize()} {hand.no} · {when} · recorded by "
                         f"{hand.recorded_by_name}: {hand.summary.splitlines()[0]}")
            if hand.voided_at is not None:
                reason = hand.void_reason or "undone"
                at = hand.voided_at.astimezone(zone).strftime("%d %b %H:%M")
                what = "replaced by an edit" if reason.startswith("edited") else "undone"
                extra = reason.partition(": ")[2] if reason.startswith("edited") else (
                    "" if reason == "undone" else reason)
                lines.append(f"   {what} {at}" + (f" (reason: {extra})" if extra else ""))
        return Outcome(Reply("\n".join(lines)))

    async def _settings(self, tx: ChatTransaction, session: SessionState | None,
                        command: Command) -> Outcome:
        options = dict(command.options)
        current = await tx.settings()
        if "" in options:
            raise UserError("Use /settings timezone:Asia/Kathmandu language:ne "
                            "(see /help settings).")
        if not options:
            return Outcome(Reply(t("settings", timezone=current.get("timezone", "UTC"),
                                   language=current.get("language", "en"))))
        if "language" in options:
            code = options["language"].strip().lower()
            if code not in i18n.LANGUAGES:
                raise UserError("language is " + " or ".join(
                    f"{k} ({v})" for k, v in i18n.LANGUAGES.items()) + ".")
            current["language"] = code
            i18n.language.set(code)
        if "timezone" in options:
            name = options["timezone"].strip()
            try:
                ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                raise UserError(f"`{clip(name)}` is not a timezone; use a name like "
                                "Asia/Kathmandu, Europe/London or UTC.") from None
            current["timezone"] = name
        await tx.save_settings(current)
        return Outcome(Reply(t("settings_saved", timezone=current.get("timezone", "UTC"),
                               language=current.get("language", "en"))), changed=True)

    async def _stats(self, tx: ChatTransaction, session: SessionState | None,
                     command: Command) -> Outcome:
        options = command.options
        settings = await tx.settings()
        zone = _zone(settings.get("timezone"))
        period = (options.get("period") or "all").strip().lower()
        now = datetime.now(zone)
        starts = {"month": now.replace(day=1, hour=0, minute=0, second=0, microsecond=0),
                  "year": now.replace(month=1, day=1, hour=0, minute=0, second=0,
                                      microsecond=0),
                  "all": None}
        if period not in starts:
            raise UserError("period is month, year or all.")
        played = []
        for past in await tx.chat_sessions():
            assert past.id is not None
            played.append((past, await tx.all_hands(past.id)))
        table = stats.compute(played, settings.get("links", {}), starts[period])
        if not table:
            return Outcome(Reply("No hands recorded here yet (Tranca keeps score by side "
                                 "and is not in /stats)."))
        currency = next((get_game(s.game).rulebook.complete(s.rules).get("currency")
                         for s, _ in reversed(played) if get_game(s.game).player_columns),
                        "") or ""
        when = {"month": "this month", "year": "this year", "all": "all time"}[period]
        who = options.get("", "").strip()
        if not who:
            lines = [f"Leaderboard ({when}):", *stats.leaderboard(table, currency)]
            return Outcome(Reply("\n".join(lines)))
        mentioned = command.mentions.get(who) or command.mentions.get(who.lower())
        wanted = who.lstrip("@").lower()
        rows = [r for r in table.values() if (mentioned and r.key == mentioned.id)
                or r.name.lower() == wanted]
        if not rows:
            names = ", ".join(sorted(r.name for r in table.values()))
            raise UserError(f"No stats for `{clip(who)}` ({when}). Players: {names}.")
        return Outcome(Reply("\n".join(stats.describe(rows[0], currency, when))))

    async def _link(self, tx: ChatTransaction, session: SessionState | None,
                    command: Command) -> Outcome:
        options = command.options
        name = check_name(options.get("name", ""))
        target = command.actor
        words = split_list(options.get("", ""))
        if words:
            mentioned = command.mentions.get(words[0]) or command.mentions.get(words[0].lower())
            if mentioned is None:
                raise UserError("Mention the person to link, e.g. /link name:Bob @bob (or "
                                "leave it out to link the name to yourself).")
            target = mentioned
        settings = await tx.settings()
        links = dict(settings.get("links", {}))
        links[name.lower()] = {"id": target.id, "name": target.name}
        settings["links"] = links
        await tx.save_settings(settings)
        return Outcome(Reply(f"The guest {name} is {target.name} in /stats from now on."),
                       changed=True)

    async def _export(self, tx: ChatTransaction, session: SessionState | None,
                      command: Command) -> Outcome:
        options = command.options
        fmt = (options.get("format") or "json").strip().lower()
        if fmt not in ("json", "csv"):
            raise UserError("format is json or csv.")
        everything = options.get("", "").strip().lower() in ("all", "yes")
        chosen = await tx.chat_sessions() if everything else (
            [session] if session is not None else [])
        if not chosen:
            raise UserError("No game is open here; /export all exports the past ones.")
        ids = [s.id for s in chosen if s.id is not None]
        data = await tx.export(ids)
        zone = _zone((await tx.settings()).get("timezone"))
        body = json.dumps(data, ensure_ascii=False, indent=1, default=str).encode() \
            if fmt == "json" else _csv(data, zone).encode()
        what = i18n.plural(len(ids), "session")
        return Outcome(Reply(f"Export of {what} ({fmt}).",
                             file=Attachment(f"maalbot-{len(ids)}-sessions.{fmt}", body)))

    async def _import(self, tx: ChatTransaction, session: SessionState | None,
                      command: Command) -> Outcome:
        if command.attachment is None:
            raise UserError("Send the JSON file of an /export with /import.")
        try:
            data = json.loads(command.attachment)
            count = await tx.restore(data)
        except (ValueError, KeyError, TypeError) as error:
            raise UserError(f"Not imported: {error}") from None
        return Outcome(Reply(f"Imported {i18n.plural(count, 'session')}. /board shows the open "
                             "one, /stats all of them."), changed=True)

    # --- rules ---------------------------------------------------------------------------

    async def _rules(self, tx: ChatTransaction, session: SessionState | None,
                     command: Command) -> Outcome:
        session, game = _require_session(session)
        options = dict(command.options)
        if "" in options:
            raise UserError("Use /rules key:value (e.g. /rules unseen:15 rate:0.25) or "
                            "/rules preset:NAME. See /help rules.")
        if not options:
            lines = [f"Rules in force ({game.title}):"]
            lines += [f"{k}: {v}" for k, v in game.rulebook.describe(session.rules)]
            lines.append("Presets: " + ", ".join(p.name for p in game.rulebook.presets)
                         + ". See /help rules.")
            return Outcome(Reply("\n".join(lines)))
        rules = dict(session.rules)
        if "preset" in options:
            rules = game.rulebook.with_preset(rules, options.pop("preset"))
        rules = game.rulebook.apply(rules, options)
        session.rules = rules
        await tx.save_session(session)
        note = t("waiting_note") if session.pending else ""
        return Outcome(Reply(t("rules_changed", note=note, rules=_rules_line(game, rules))),
                       changed=True)

    # --- the end -------------------------------------------------------------------------

    async def _endgame(self, tx: ChatTransaction, session: SessionState | None,
                       command: Command) -> Outcome:
        session, game = _require_session(session)
        if session.pending is not None:
            who = ", ".join(_waiting_names(game, session, game.rulebook.complete(session.rules)))
            raise UserError(f"A hand is waiting for maal from {who}. Finish it with /maal or "
                            "drop it with /undo, then /endgame.")
        actor_player = session.roster.for_actor(command.actor)
        if actor_player is None and not command.actor.is_admin \
                and session.created_by != command.actor.id:
            raise UserError("Only a player, the person who started the game or a chat admin "
                            "can end it.")
        rules = game.rulebook.complete(session.rules)
        board = await self._board_reply(tx, session, game, "")
        session.status = ENDED
        await tx.save_session(session)
        names = {key: label for key, label in game.columns(session.roster, session.game_state)}
        standings = sorted(names, key=lambda k: (-session.totals.get(k, 0), k))
        rate = str(rules["rate"])
        show_money = money_shown(rules)
        currency = rules.get("currency") or ""

        def amount(points: int) -> str:
            text = f"{points:+d} points" if points else "0 points"
            if show_money:
                text += f" = {format_money(to_money(points, rate), currency)}"
            return text

        lines = [t("game_over", count=i18n.plural(session.hand_count, game.hand_word))]
        final = game.final_lines(session.totals, rules, session.game_state, session.roster)
        if final:
            lines += final  # the game's own final scores (Riichi: uma and oka)
        else:
            lines.append(t("final_standings"))
            lines += [f"{i}. {names[k]} {amount(session.totals.get(k, 0))}"
                      for i, k in enumerate(standings, 1)]
            status = game.status(session.totals, rules, session.game_state, session.roster)
            if status:
                lines.append(status)
        # Only a zero-sum game settles up between players; Tranca scores are a race.
        transfers = settle_up({k: session.totals.get(k, 0) for k in names}) \
            if game.zero_sum else []
        if transfers:
            lines.append(t("settle"))
            for move in transfers:
                what = (format_money(to_money(move.points, rate), currency) if show_money
                        else f"{move.points} points")
                lines.append(t("pays", payer=names[move.payer], payee=names[move.payee],
                               amount=what))
        elif game.zero_sum:
            lines.append(t("nobody_owes"))
        lines.append(t("archived"))
        board.text = "\n".join(lines)
        assert board.board is not None
        board.board["transfers"] = [
            {"from": names[t.payer], "to": names[t.payee], "points": t.points,
             "money": float(to_money(t.points, rate))} for t in transfers
        ]
        board.board["ended"] = True
        return Outcome(board, changed=True)

    # --- help ----------------------------------------------------------------------------

    async def _help(self, command: Command) -> Reply:
        async with self.store.transaction(command.chat) as tx:
            session = await tx.open_session()
            i18n.language.set((await tx.settings()).get("language", "en"))
        game = get_game(session.game if session else DEFAULT_GAME)
        topic = command.options.get("", "").strip().lstrip("/").lower()
        return Reply(help_text.render(topic, game))


def _check_keys(name: str, options: Mapping[str, str], keys: frozenset[str]) -> None:
    unknown = [k for k in options if k not in keys]
    if not unknown:
        return
    key = unknown[0]
    accepted = ", ".join(f"{k}:" for k in sorted(keys) if k) or "no options"
    if key == "":
        raise UserError(f"/{name} takes key:value options ({accepted}). See /help {name}.")
    raise UserError(f"/{name} has no option `{clip(key)}:`. It takes {accepted}. "
                    f"See /help {name}.")


def _require_session(session: SessionState | None) -> tuple[SessionState, Game]:
    if session is None:
        raise UserError(t("no_game"))
    return session, get_game(session.game)


def _seat_players(text: str, command: Command, game: Game) -> list[Player]:
    words = split_list(text)
    players: list[Player] = []
    if not words:
        # Nobody named: the person starting the game sits down; the others /join.
        return [Player(seat=1, name=suggest_name(command.actor.name, []),
                       user_id=command.actor.id)]
    if len(words) > game.max_players:
        raise UserError(f"{game.title} takes {game.min_players} to {game.max_players} players; "
                        f"you named {len(words)}.")
    seen: set[str] = set()
    for i, word in enumerate(words, 1):
        mentioned = command.mentions.get(word.lower()) or command.mentions.get(word)
        if mentioned is not None:
            name = suggest_name(mentioned.name, [p.name for p in players])
            user_id: str | None = mentioned.id
        else:
            name, user_id = check_name(word), None
        if name.lower() in seen:
            raise UserError(f"{name} is named twice; every player needs a different name.")
        seen.add(name.lower())
        players.append(Player(seat=i, name=name, user_id=user_id))
    if len(players) < game.min_players:
        raise UserError(f"{game.title} takes {game.min_players} to {game.max_players} players; "
                        f"you named {len(players)}.")
    return players


def _csv(data: Mapping[str, Any], zone: ZoneInfo) -> str:
    """One row per player per hand: for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["session", "game", "hand", "time", "player", "points", "recorded_by",
                     "status"])
    for session in data["sessions"]:
        names = {p["seat"]: p["name"] for p in session["players"]}
        for hand in session["hands"]:
            when = datetime.fromisoformat(hand["created_at"]).astimezone(zone) \
                .strftime("%Y-%m-%d %H:%M") if hand.get("created_at") else ""
            status = "live" if not hand.get("voided_at") else (hand.get("void_reason")
                                                                or "undone")
            for seat, points in sorted(hand["deltas"].items(), key=lambda kv: int(kv[0])):
                label = names.get(int(seat), seat) if get_game(session["game"]) \
                    .player_columns else f"side {seat}"
                writer.writerow([session["id"], session["game"], hand["no"], when, label,
                                 points, hand["recorded_by_name"], status])
    return out.getvalue()


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _next_seat(players: list[Player]) -> int:
    return max((p.seat for p in players), default=0) + 1


def _add_deltas(totals: dict[int, int], deltas: Mapping[int, int], sign: int) -> None:
    for key, value in deltas.items():
        totals[key] = totals.get(key, 0) + sign * value


def _deltas_line(game: Game, session: SessionState, deltas: Mapping[int, int]) -> str:
    labels = dict(game.columns(session.roster, session.game_state))
    return "  ".join(f"{labels.get(k, k)} {v:+d}" if v else f"{labels.get(k, k)} 0"
                     for k, v in deltas.items())


def _rules_line(game: Game, rules: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in game.rulebook.brief(rules) if v != "")


def _waiting_names(game: Game, session: SessionState, rules: Mapping[str, Any]) -> list[str]:
    assert session.pending is not None
    return [session.roster.by_seat(s).name
            for s in game.waiting_for(session.pending["entry"], rules)]


def _check_may_change(command: Command, recorded_by: str, what: str,
                      recorder_name: str | None = None) -> None:
    if command.actor.is_admin or command.actor.id == recorded_by:
        return
    who = f" ({recorder_name})" if recorder_name else ""
    raise UserError(f"Only the person who recorded {what}{who} or a chat admin can undo it.")


def _newgame_keys(game: Game) -> frozenset[str]:
    # the game is named in the options themselves, so any game's extra keys may come
    return frozenset({"", "game", "players", "preset"}
                     | {k for g in GAMES.values() for k in g.newgame_keys})


def _edit_keys(game: Game) -> frozenset[str]:
    return frozenset({game.edit_key, "reason"} | game.commands[game.result_command].keys)


def _rules_keys(game: Game) -> frozenset[str]:
    return frozenset({"", "preset"} | {spec.key for spec in game.rulebook.specs})


# name -> (handler, the option keys it takes: fixed, or from the chat's game)
Keys = frozenset[str] | Callable[[Game], frozenset[str]]
CORE_COMMANDS: dict[str, tuple[Handler, Keys]] = {
    "newgame": (Service._newgame, _newgame_keys),
    "edit": (Service._edit, _edit_keys),
    "rules": (Service._rules, _rules_keys),
    "join": (Service._join, frozenset({"", "name"})),
    "players": (Service._players, frozenset()),
    "sitout": (Service._sitout, frozenset({""})),
    "chart": (Service._chart, frozenset()),
    "history": (Service._history, frozenset({"hand", "round", "result"})),
    "settings": (Service._settings, frozenset({"", "timezone", "language"})),
    "stats": (Service._stats, frozenset({"", "period"})),
    "link": (Service._link, frozenset({"", "name"})),
    "export": (Service._export, frozenset({"", "format"})),
    "import": (Service._import, frozenset({""})),
    "back": (Service._back, frozenset({""})),
    "board": (Service._board, frozenset()),
    "undo": (Service._undo, frozenset({"reason"})),
    "endgame": (Service._endgame, frozenset()),
}
