"""Sessions and seats: /newgame, /join, /seat, /sitout, /back, /players and /endgame."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from bot.core import flows, i18n, permissions
from bot.core.command import Command, Reply
from bot.core.errors import UserError
from bot.core.examples import personal
from bot.core.games.base import Game, PlayContext
from bot.core.grammar import split_list
from bot.core.handlers.board import board_reply, money_of
from bot.core.handlers.call import Call, Outcome, ask, starter
from bot.core.handlers.hands import STALE, _add, deltas_line
from bot.core.i18n import t
from bot.core.ledger import money_from_results
from bot.core.money import (
    book_add,
    format_money,
    json_number,
    money_places,
    money_shown,
    settle_money,
    settle_up,
)
from bot.core.permissions import Rule
from bot.core.players import Player, account_handle, check_name, skeleton, suggest_name
from bot.core.points import as_json, show
from bot.core.session import ENDED, HandRecord, SessionState


async def newgame(call: Call) -> Outcome:
    options, command = call.options, call.command
    if call.session is not None:
        open_game = call.table.games[call.session.game]
        raise UserError(t("already_open", title=open_game.title,
                          players=call.session.roster.listing(),
                          count=i18n.plural(call.session.hand_count, open_game.hand_word)))
    words = split_list(options.get("", ""))
    if "game" in options and words:
        raise UserError("Name the game once: /newgame marriage players:alice bob")
    if len(words) > 1:
        raise UserError("Name the players with players:, e.g. "
                        "/newgame marriage players:alice bob carol")
    from bot.core.games import get_game

    game = get_game(options.get("game") or (words[0] if words else call.table.default_game.key))
    extra = {o.key for o in game.newgame_options}
    foreign = sorted(options.keys() - extra - {"", "players", "preset"})
    if foreign:  # another game's option (teams: is Tranca's)
        raise UserError(f"{game.title} has no /newgame option {foreign[0]}:. "
                        f"Usage: {call.spec.usage}")
    named = "players" in options or bool(extra & options.keys())
    players = [] if not named and extra else _seat_players(options.get("players", ""),
                                                           command, game)
    players, game_state = game.setup(
        options, players, named,
        seat=lambda words: _seat_players(" ".join(words), command, game))
    rules = game.rulebook.defaults()
    if "preset" in options:
        rules = game.rulebook.with_preset(rules, options["preset"])
    state = SessionState(chat=command.chat, game=game.key, players=players, rules=rules,
                         created_by=command.actor.id, game_state=game_state)
    await call.tx.save_session(state)
    more = "" if len(players) >= game.min_players else t("more_join", n=game.min_players)
    usage = personal(game.result_spec.usage, [p.name for p in players])
    return Outcome(Reply(t(
        "new_game", title=game.title, players=state.roster.listing(), more=more,
        rules=rules_line(game, rules), word=t(game.hand_word), usage=usage),
        menu=game.key), changed=True)


async def join(call: Call) -> Outcome:
    session = call.open_session()
    game, actor = call.game, call.command.actor
    roster = session.roster
    if call.roles.seat is not None:
        raise UserError(f"You are already seated as {call.roles.seat.name}.")
    wanted = call.options.get("name") or call.options.get("")
    name = check_name(wanted) if wanted else suggest_name(actor.name, roster.names())
    existing = roster.by_name(name)
    twin = roster.looks_like(name)
    if existing is None and twin is not None:
        raise UserError(f"`{name}` looks like {twin.name}, who is already at the table; "
                        "pick a name that reads differently.")
    if existing is not None:
        if existing.user_id is not None:
            raise UserError(f"{existing.name} is someone else's seat; "
                            "pick another name with /join name:NAME.")
        # A seat typed by name is somebody's: taking it needs the starter's or an admin's say.
        if not permissions.allowed(Rule.SEAT, call.roles, claim=True):
            raise UserError(
                f"{existing.name} is a seat typed by name. The person who started the game "
                f"or a chat admin can give it to you: /seat {existing.name} person:@you. Or sit "
                "down under another name: /join name:NAME.")
        existing.user_id, existing.handle = actor.id, account_handle(actor)
        await call.tx.save_session(session)
        return Outcome(Reply(f"You are {existing.name} now (seat {existing.seat})."), True)
    if game.seats_fixed:  # a seat typed by name can be taken (above); a new one can't
        raise UserError(game.seats_fixed)
    if len(roster) >= game.max_players:
        raise UserError(f"{game.title} takes at most {game.max_players} players; "
                        "the table is full.")
    player = Player(seat=_next_seat(session.players), name=name, user_id=actor.id,
                    joined_after=session.hand_count, handle=account_handle(actor))
    session.players.append(player)
    await call.tx.save_session(session)
    word = t(game.hand_word)
    when = t("from_next", word=word) if session.hand_count else t("from_first", word=word)
    return Outcome(Reply(t("joins", name=player.name, seat=player.seat, when=when,
                           players=session.roster.listing())), changed=True)


async def seat(call: Call) -> Outcome:
    """/seat NAME person:@someone: give a seat to a person's account (none: a guest seat)."""
    session = call.open_session()
    mentions = call.command.mentions
    player = session.roster.resolve(call.options[""], mentions)
    who = call.options["person"].strip()
    if who.lower() in ("none", "-"):
        if player.user_id is not None:  # the account's @username goes with it
            player.user_id = player.handle = None
        await call.tx.save_session(session)
        return Outcome(Reply(f"{player.name} is a guest seat now."), True)
    person = mentions.get(who) or mentions.get(who.lower())
    if person is None:
        raise UserError(f"Mention the person: /seat {player.name} person:@them.")
    taken = session.roster.find_user(person.id)
    if taken is not None and taken.seat != player.seat:
        raise UserError(f"{person.name} already plays as {taken.name}.")
    player.user_id, player.handle = person.id, account_handle(person)
    await call.tx.save_session(session)
    return Outcome(Reply(f"{player.name} is {person.name} now (seat {player.seat})."), True)


async def sitout(call: Call) -> Outcome:
    return await _sitting_out(call, True)


async def back(call: Call) -> Outcome:
    return await _sitting_out(call, False)


async def _sitting_out(call: Call, out: bool) -> Outcome:
    session = call.open_session()
    names = split_list(call.options.get("", ""))
    if names:
        players = session.roster.resolve_many(names, call.command.mentions)
    else:
        if call.roles.seat is None:
            raise UserError(f"Say who: /{call.spec.name} NAME. "
                            f"Players: {session.roster.listing()}.")
        players = [call.roles.seat]
    permissions.check(Rule.SELF, call.roles, f"/{call.spec.name} someone else", seats=players)
    already = [p.name for p in players if p.sitting_out == out]
    if already:
        state = "sitting out" if out else "playing"
        raise UserError(f"{', '.join(already)} {'is' if len(already) == 1 else 'are'} "
                        f"already {state}.")
    for player in players:
        player.sitting_out = out
    await call.tx.save_session(session)
    who = ", ".join(p.name for p in players)
    playing = ", ".join(p.name for p in session.players if not p.sitting_out)
    verb = "sits out" if out else "is back"
    note = f" A {t(call.game.hand_word)} already waiting keeps its players." \
        if session.pending else ""
    playing_line = f" Playing: {playing}." if playing else " Nobody is playing now."
    word = t(call.game.hand_word)
    return Outcome(Reply(f"{who} {verb} from the next {word}.{playing_line}{note}"), True)


async def players(call: Call) -> Outcome:
    session, game = call.open_session(), call.game
    lines = [f"{game.title}, {i18n.plural(len(session.players), 'player')}:"]
    for p in session.players:
        notes = []
        if p.joined_after:
            notes.append(f"joined after {t(game.hand_word)} {p.joined_after}")
        if p.user_id is None:
            notes.append("guest")
        if p.sitting_out:
            notes.append("sitting out")
        suffix = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"{p.seat}. {p.name}{suffix}")
    status = game.status(session.totals, call.rules(), session.game_state, session.roster)
    if status:
        lines.append(call.tr.render(status))
    return Outcome(Reply("\n".join(lines)))


async def endgame(call: Call) -> Outcome:
    session, game, command = call.open_session(), call.game, call.command
    if session.pending is not None:
        note = call.tr.render(game.pending_note(session.pending.entry, session.roster,
                                                call.rules()))
        raise UserError(f"{t(game.hand_word).capitalize()} {session.hand_count + 1} {note}. "
                        "Finish it, or drop it with /undo, then /endgame.")
    assert session.id is not None
    asked = command.expect
    if asked is not None and asked != {"session": session.id, "hand": session.hand_count}:
        raise UserError(STALE)
    if command.buttons and asked is None:
        what = "who pays whom" if game.zero_sum else "the final scores"
        return ask(flows.confirm(
            flows.Step.END, t("flow_end_question", count=i18n.plural(session.hand_count,
                                                                      game.hand_word),
                              what=what),
            t("flow_yes_end"), session.id, session.hand_count, starter(call)))
    rules = call.rules()
    owed = await _closing_hand(call, session, game)
    reply = await board_reply(call, session, "")
    if game.money_at_end:  # Riichi: paid on the final results, nothing hand by hand
        money = money_from_results(game, session, rules) if money_shown(rules) else {}
    else:
        money = await money_of(call, session)
    session.status = ENDED
    await call.tx.save_session(session)
    reply.text = "\n".join(([owed] if owed else [])
                           + final_lines(call, game, session, rules, reply, money))
    reply.question = None
    reply.menu = ""
    assert reply.board is not None
    reply.board.ended = True
    return Outcome(reply, changed=True)


async def _closing_hand(call: Call, session: SessionState, game: Game) -> str:
    """Record what the game still owes at its end (a foul waiting for the next hand) as a
    last hand, so nothing is dropped; returns the line that says so, or ""."""
    result = game.closing(PlayContext(
        command="endgame", options={}, roster=session.roster,
        hand_players=[p for p in session.players if not p.sitting_out],
        rules=call.rules(), pending=None, actor=call.command.actor,
        actor_player=call.roles.seat, state=session.game_state, totals=session.totals))
    if result is None:
        return ""
    assert session.id is not None
    hand = HandRecord(
        no=session.hand_count + 1, players=result.players, inputs=result.inputs,
        rules=call.rules(), deltas=result.deltas, summary=result.summary,
        recorded_by=call.command.actor.id, recorded_by_name=call.command.actor.name,
        origin_id=call.command.origin_id, state_before=session.game_state)
    await money_of(call, session)
    await call.tx.add_hand(session.id, hand)
    _add(session.totals, hand.deltas, +1)
    assert session.money is not None
    book_add(session.money, hand.deltas, hand.rules, game.point_places)
    session.hand_count = hand.no
    session.game_state = None
    word = t(game.hand_word).capitalize()
    return (f"{word} {hand.no} (at the end): {call.tr.render(hand.summary)}\n"
            f"{deltas_line(game, session, hand.deltas)}")


def final_lines(call: Call, game: Game, session: SessionState, rules: dict, reply: Reply,
                money: dict[str, dict[int, Decimal]]) -> list[str]:
    """The standings in points (and money per currency, hand by hand at each hand's rate;
    a game paid at the end: its final results' money), and who pays whom: in money where
    the game was played for money, else in points."""
    names = dict(game.columns(session.roster, session.game_state))
    # played for money in one currency, money decides the order (a rate changed mid-game
    # can make more points worth less money); else the points do
    only = next(iter(money.values())) if len(money) == 1 else {}
    standings = sorted(names, key=lambda k: (-only.get(k, Decimal(0)),
                                             -session.totals.get(k, 0), k))
    places = game.point_places
    decimals = {c: money_places(amounts.values()) for c, amounts in money.items()}

    def amount(column: int) -> str:
        text = f"{show(session.totals.get(column, 0), places)} points"
        owed = [format_money(amounts.get(column, Decimal(0)), currency, decimals[currency],
                             signed=True) for currency, amounts in money.items()]
        return text + (" = " + ", ".join(owed) if owed else "")

    lines = [t("game_over", count=i18n.plural(session.hand_count, game.hand_word))]
    if session.hand_count == 0:  # no places, no uma, nothing to pay
        return [*lines, t("nobody_owes"), t("archived")]
    final = game.final_lines(session.totals, rules, session.game_state, session.roster)
    if final:
        lines += [call.tr.render(line) for line in final]  # the game's own (Riichi's uma)
    else:
        lines.append(t("final_standings"))
        lines += [f"{i}. {names[k]} {amount(k)}" for i, k in enumerate(standings, 1)]
        status = game.status(session.totals, rules, session.game_state, session.roster,
                             ended=True)
        if status:
            lines.append(call.tr.render(status))
    if game.money_at_end and money:  # Riichi: the final results, paid
        currency = next(iter(money))
        lines.append(f"Money at {format_money(Decimal(str(rules['rate'])), currency)} a point: "
                     + ", ".join(f"{names[k]} " + format_money(
                         money[currency].get(k, Decimal(0)), currency, decimals[currency],
                         signed=True) for k in names))
    elif not game.zero_sum:  # Tranca scores are a race: nobody pays anybody
        lines.append(t("archived"))
        return lines
    moves: list[dict[str, Any]] = []
    if money and any(sum(a.values()) for a in money.values()):
        # results that don't sum to zero (a house uma) have no fewest transfers
        lines += ["The final results don't add up to zero (see the uma: /rules), so no "
                  "transfers are worked out.", t("archived")]
        return lines
    if money:  # currencies are settled apart, never added together
        for currency, amounts in money.items():
            for pay in settle_money({k: amounts.get(k, Decimal(0)) for k in names}):
                moves.append({"from": names[pay.payer], "to": names[pay.payee],
                              "money": json_number(pay.amount), "currency": currency,
                              "text": format_money(pay.amount, currency, decimals[currency])})
    else:
        for move in settle_up({k: session.totals.get(k, 0) for k in names}):
            moves.append({"from": names[move.payer], "to": names[move.payee],
                          "points": as_json(move.points, places),
                          "text": f"{show(move.points, places, signed=False)} points"})
    if moves:
        lines.append(t("settle"))
        lines += [t("pays", payer=m["from"], payee=m["to"], amount=m["text"]) for m in moves]
    else:
        lines.append(t("nobody_owes"))
    lines.append(t("archived"))
    assert reply.board is not None
    reply.board.transfers = [{k: v for k, v in m.items() if k != "text"} for m in moves]
    return lines


def rules_line(game: Game, rules: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in game.rulebook.brief(rules) if v != "")


def player_range(game: Game) -> str:
    """"4 players" (Call Break) or "3 to 4 players"."""
    if game.min_players == game.max_players:
        return f"{game.min_players} players"
    return f"{game.min_players} to {game.max_players} players"


def _seat_players(text: str, command: Command, game: Game) -> list[Player]:
    words = split_list(text)
    players: list[Player] = []
    if not words:
        # Nobody named: the person starting the game sits down; the others /join.
        return [Player(seat=1, name=suggest_name(command.actor.name, []),
                       user_id=command.actor.id, handle=account_handle(command.actor))]
    if len(words) > game.max_players:
        raise UserError(f"{game.title} takes {player_range(game)}; you named {len(words)}.")
    seen: dict[str, str] = {}  # skeleton -> the name, so look-alikes are refused too
    accounts: set[str] = set()
    for i, word in enumerate(words, 1):
        mentioned = command.mentions.get(word.lower()) or command.mentions.get(word)
        if mentioned is not None:
            if mentioned.id in accounts:
                raise UserError(f"{mentioned.name} is named twice; every player needs a "
                                "different name.")
            accounts.add(mentioned.id)
            name = suggest_name(mentioned.name, [p.name for p in players])
            user_id: str | None = mentioned.id
        else:
            name, user_id = check_name(word), None
        twin = seen.get(skeleton(name))
        if twin is not None:
            raise UserError(f"{name} is named twice; every player needs a different name."
                            if twin == name.casefold() else
                            f"`{name}` looks like {twin}: every player needs a name that "
                            "reads differently.")
        seen[skeleton(name)] = name.casefold()
        # an account keeps its own @username; a seat typed as @name is that username's
        handle = account_handle(mentioned) if mentioned is not None else (
            name.lower() if word.startswith("@") else None)
        players.append(Player(seat=i, name=name, user_id=user_id, handle=handle))
    if len(players) < game.min_players:
        raise UserError(f"{game.title} takes {player_range(game)}; you named "
                        f"{len(players)}.")
    return players


def _next_seat(players: list[Player]) -> int:
    return max((p.seat for p in players), default=0) + 1
