"""Sessions and seats: /newgame, /join, /seat, /sitout, /back, /players and /endgame."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from bot.core import events, flows, permissions, rates
from bot.core.command import Command, Reply
from bot.core.commands.spec import spec_text
from bot.core.errors import UserError
from bot.core.examples import personal
from bot.core.games.base import Game, PlayContext
from bot.core.grammar import clip, split_list
from bot.core.handlers import pages
from bot.core.handlers.board_commands import (
    board_reply,
    dropped_line,
    money_of,
    waiting_line,
)
from bot.core.handlers.call import Call, Outcome, ask, platform_number, starter
from bot.core.handlers.club.ended import before_end, club_lines
from bot.core.handlers.hands import STALE, deltas_line
from bot.core.i18n import Msg, Text, Tr, _, _n, translator
from bot.core.i18n.words import count, numbered, placeholders
from bot.core.ledger import money_from_results
from bot.core.money import (
    format_money,
    json_number,
    money_places,
    money_shown,
    settle_money,
    settle_up,
)
from bot.core.permissions import Rule
from bot.core.players import (
    MAX_USERNAME_LENGTH,
    Player,
    account_handle,
    check_name,
    skeletons,
    suggest_name,
)
from bot.core.points import as_json, show
from bot.core.session import DROPPED, ENDED, HandRecord, SessionState


async def newgame(call: Call) -> Outcome:
    options, command = call.options, call.command
    if call.session is not None:
        open_game = call.game
        raise UserError(_("A {game} game is already open here ({count}, players {players}). "
                          "End it with /endgame before starting another.",
                          game=Msg(open_game.title), players=call.session.roster.listing(),
                          count=count(open_game.hand_word, call.session.hand_count)))
    words = split_list(options.get("", ""))
    if "game" in options and words:
        raise UserError(_("Name the game once: /newgame marriage players:alice bob"))
    if len(words) > 1:
        raise UserError(_("Name the players with players:, e.g. "
                          "/newgame marriage players:alice bob carol"))
    from bot.core.games import get_game

    game = get_game(options.get("game") or (words[0] if words else call.table.default_game.key))
    extra = {o.key for o in game.newgame_options}
    foreign = sorted(options.keys() - extra - {"", "players", "preset"})
    if foreign:  # another game's option (teams: is Tranca's)
        raise UserError(_("{game} has no /newgame option {key}:. Usage: {usage}",
                          game=Msg(game.title), key=foreign[0],
                          usage=spec_text(call.tr, call.spec.usage, game)))
    named = "players" in options or bool(extra & options.keys())
    players = [] if not named and extra else _seat_players(options.get("players", ""),
                                                           command, game)
    players, game_state = game.setup(
        options, players, named,
        seat=lambda words: _seat_players(" ".join(words), command, game))
    rules = game.rulebook.defaults()
    if "preset" in options:
        rules = game.rulebook.with_preset(rules, options["preset"])
    if players:  # a preset the table named can't play (Riichi: sanma's with four)
        game.check_rules(rules, len(players), game_state)
    # money={}: a new game's book is empty (None would have its first hand read every hand
    # to build it, as for a session from before the book was kept)
    state = SessionState(chat=command.chat, game=game.key, players=players, rules=rules,
                         created_by=command.actor.id, game_state=game_state, money={})
    await call.tx.save_session(state)
    game = game.as_played(rules, game_state)  # as this table plays it (the points game's name)
    tr = translator(call.tr.language, game.key)  # the new game's words first
    usage = personal(game.fit_usage(game.result_command,
                                    spec_text(tr, game.result_spec.usage, game), rules,
                                    state.roster, game_state), [p.name for p in players])
    lines = [tr("New {game} game. Players: {players}.", game=Msg(game.title),
                players=state.roster.listing())]
    if len(players) < game.min_players:
        lines[0] += " " + tr.plural("Others sit down with /join (at least {n} player).",
                                    "Others sit down with /join (at least {n} players).",
                                    game.min_players)
    lines.append(tr("Rules: {rules}. Change them with /rules.", rules=rules_line(
        tr, game, rules, len(players))))
    deal = game.deal_problem(len(players), rules)
    if deal:
        lines.append(tr.render(deal))
    # TRANSLATORS: {hand} is the game's word for what is recorded (hand, round, result)
    lines.append(tr("Record a {hand} with {usage}", **placeholders(game.hand_word),
                    usage=usage))
    typed = [p for p in players if p.typed]
    question = None
    if typed and command.buttons:  # a "Sit at NAME" button for each seat typed by name
        assert state.id is not None
        question = flows.seats(tr, state.id, typed)
        lines.append(tr("Seats typed by name: tap yours below, or /join {name}.",
                        name=typed[0].name))
    reply = Reply("\n".join(lines), menu=game.key, question=question)
    reply.pad = await pages.ensure_pad(call)  # the whole hand on one screen, from now
    return Outcome(reply, changed=True)


async def join(call: Call) -> Outcome:
    """/join: a new seat under a name, or a seat typed by name at /newgame. Before the first
    hand a free typed seat is taken at once (the chat is told); after it, the starter or an
    admin is asked. Never a second seat whose name reads as one already here."""
    session = call.open_session()
    game, actor = call.game, call.command.actor
    roster = session.roster
    if call.roles.seat is not None:
        raise UserError(_("You are already seated as {name}.", name=call.roles.seat.name))
    wanted = call.options.get("name") or call.options.get("")
    name = check_name(wanted) if wanted else suggest_name(actor.name, [])
    existing = roster.by_name(name) or roster.looks_like(name)
    if existing is not None and wanted and existing.name.casefold() != name.casefold():
        raise UserError(_("`{name}` looks like {twin}, who is already at the table; pick a "
                          "name that reads differently.", name=name, twin=existing.name))
    if existing is not None:
        return await _take(call, session, existing)
    if game.seats_fixed:  # a seat typed by name can be taken (above); a new one can't
        raise UserError(Msg(game.seats_fixed))
    if game.seats_set_by_play and session.hand_count > 0:
        raise UserError(Msg(game.seats_set_by_play))
    if len(roster) >= game.max_players:
        raise UserError(_n("{game} takes at most {n} player; the table is full.",
                           "{game} takes at most {n} players; the table is full.",
                           game.max_players, game=Msg(game.title)))
    # can a table one larger play?
    game.check_rules(call.rules(), len(session.players) + 1, session.game_state)
    player = Player(seat=_next_seat(session.players), name=name, user_id=actor.id,
                    joined_after=session.hand_count, handle=account_handle(actor))
    session.players.append(player)
    await call.tx.save_session(session)
    await events.record(call, events.JOIN, seat=player.seat, name=player.name)
    if session.hand_count:
        said = call.tr("{name} joins at seat {seat}, from the next {hand}. Players: "
                       "{players}.", **call.words, name=player.name, seat=player.seat,
                       players=session.roster.listing())
    else:
        said = call.tr("{name} joins at seat {seat}, from the first {hand}. Players: "
                       "{players}.", **call.words, name=player.name, seat=player.seat,
                       players=session.roster.listing())
    playing = sum(not p.sitting_out for p in session.players)
    deal = game.deal_problem(playing, call.rules())
    if deal:
        said += "\n" + call.tr.render(deal)
    return Outcome(Reply(said), changed=True)


async def _take(call: Call, session: SessionState, seat: Player) -> Outcome:
    """/join of a seat already at the table: a free seat typed by name is theirs (at once
    before the first hand, else on the starter's or an admin's tap); anyone else's seat is
    refused, saying whose it is."""
    actor = call.command.actor
    if seat.user_id is not None:
        raise UserError(_("{name} is someone else's seat; pick another name with /join "
                          "name:NAME.", name=seat.name))
    if seat.handle is not None:
        raise UserError(_("{name} is the seat of @{handle}'s account; pick another name with "
                          "/join name:NAME.", name=seat.name, handle=seat.handle))
    person = clip(actor.name, MAX_USERNAME_LENGTH)
    if permissions.allowed(Rule.SEAT, call.roles, claim=True,
                           hand_count=session.hand_count):
        seat.user_id, seat.handle, seat.claim = actor.id, account_handle(actor), None
        await call.tx.save_session(session)
        await events.record(call, events.SEAT, seat=seat.seat, name=seat.name,
                            person=actor.name, claimed=True)
        return Outcome(Reply(call.tr("{person} sits at {name}.", person=person,
                                     name=seat.name)), True)
    # hands are recorded: the seat is given by the starter or an admin, asked here
    seat.claim = {"id": actor.id, "name": person, "handle": account_handle(actor) or ""}
    await call.tx.save_session(session)
    assert session.id is not None
    if call.command.buttons:
        question = flows.claim(call.tr, session.id, seat, person,
                               platform_number(actor.id),
                               platform_number(session.created_by))
        return Outcome(Reply(question.text, question=question), True)
    them = f"@{account_handle(actor) or suggest_name(actor.name, [])}"
    return Outcome(Reply(call.tr(
        "{person} asks to sit at {name}. Hands are recorded, so the person who started the "
        "game or a chat admin gives it: /seat {name} person:{them}", person=person,
        name=seat.name, them=them)), True)


async def seat(call: Call) -> Outcome:
    """/seat NAME person:@someone (or in reply to their message): give a seat to a person's
    account, or to an @username; person:none makes it a guest seat. A person already seated
    elsewhere moves, and their old seat is a guest seat again."""
    session = call.open_session()
    mentions = call.command.mentions
    player = session.roster.resolve(call.options[""], mentions)
    asked = call.command.expect
    if asked is not None:  # the tap that lets someone who asked sit here
        claim = player.claim
        if asked.get("session") != session.id or claim is None \
                or platform_number(claim["id"]) != asked.get("claimant"):
            raise UserError(STALE)
    who = call.options.get("person", "").strip()
    if who.lower() in ("none", "-"):  # the account's @username goes with it
        player.user_id = player.handle = player.claim = None
        await call.tx.save_session(session)
        await events.record(call, events.SEAT, seat=player.seat, name=player.name, person=None)
        return Outcome(Reply(call.tr("{name} is a guest seat now.", name=player.name)), True)
    person = mentions.get(who) or mentions.get(who.lower()) if who else call.command.replied
    if person is None:
        username = _username(who, call.command.chat)
        if username is None:
            raise UserError(_("Say who gets {name}: person:@username, a mention, or send "
                              "/seat {name} in reply to a message of theirs.",
                              name=player.name))
        return await _to_username(call, session, player, username)
    lines = []
    handle = account_handle(person)
    for other in session.players:  # moved: the seat they held (by account or @username)
        if other.seat != player.seat and (other.user_id == person.id or (
                other.user_id is None and handle is not None and other.handle == handle)):
            other.user_id = other.handle = None  # is a guest's again
            lines.append(call.tr("{name} is a guest seat again.", name=other.name))
    player.user_id, player.handle, player.claim = person.id, handle, None
    await call.tx.save_session(session)
    await events.record(call, events.SEAT, seat=player.seat, name=player.name,
                        person=person.name)
    shown = clip(person.name, MAX_USERNAME_LENGTH) or player.name
    lines.insert(0, call.tr("{person} sits at {name} (seat {seat}).", person=shown,
                            name=player.name, seat=player.seat))
    return Outcome(Reply(" ".join(lines)), True)


async def _to_username(call: Call, session: SessionState, player: Player,
                       username: str) -> Outcome:
    """The seat is the account with that @username's, whoever it is: it is theirs from
    their first command, as a seat typed as @name at /newgame."""
    lines = []
    handle = username.lower()
    for other in session.players:
        if other.seat != player.seat and other.user_id is None and other.handle == handle:
            other.handle = None
            lines.append(call.tr("{name} is a guest seat again.", name=other.name))
    player.user_id, player.handle, player.claim = None, handle, None
    await call.tx.save_session(session)
    await events.record(call, events.SEAT, seat=player.seat, name=player.name,
                        person=f"@{username}")
    lines.insert(0, call.tr("{name} is @{username}'s seat now (seat {seat}).",
                            name=player.name, username=username, seat=player.seat))
    return Outcome(Reply(" ".join(lines)), True)


def _username(text: str, chat: str) -> str | None:
    """An @username as the chat's platform allows them, without the @; None for anything
    else."""
    pattern = _USERNAMES.get(chat.partition(":")[0], _USERNAMES["discord"])
    match = pattern.fullmatch(text)
    return match.group(1) if match else None


_USERNAMES = {
    "telegram": re.compile(r"@([A-Za-z][A-Za-z0-9_]{4,31})"),  # 5 to 32, from a letter
    "discord": re.compile(r"@([A-Za-z0-9_.]{2,32})"),  # 2 to 32, lower case, and .
}


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
            raise UserError(_("Say who: /{command} NAME. Players: {players}.",
                              command=call.spec.name, players=session.roster.listing()))
        players = [call.roles.seat]
    permissions.check(Rule.SELF, call.roles, _("/{command} someone else",
                                               command=call.spec.name), seats=players)
    if out and call.game.no_sitting_out:  # /back stays open, for a seat that sat out before
        raise UserError(Msg(call.game.no_sitting_out))
    already = [p.name for p in players if p.sitting_out == out]
    if already:
        names = ", ".join(already)
        if out:
            raise UserError(_n("{names} is already sitting out.",
                               "{names} are already sitting out.", len(already), names=names))
        raise UserError(_n("{names} is already playing.", "{names} are already playing.",
                           len(already), names=names))
    for player in players:
        player.sitting_out = out
    await call.tx.save_session(session)
    await events.record(call, events.SITOUT if out else events.BACK,
                        names=[p.name for p in players])
    tr, words = call.tr, call.words
    who = ", ".join(p.name for p in players)
    playing = ", ".join(p.name for p in session.players if not p.sitting_out)
    if out:
        lines = [tr.plural("{names} sits out from the next {hand}.",
                           "{names} sit out from the next {hand}.", len(players),
                           names=who, **words)]
    else:
        lines = [tr.plural("{names} is back from the next {hand}.",
                           "{names} are back from the next {hand}.", len(players),
                           names=who, **words)]
    lines.append(tr("Playing: {names}.", names=playing) if playing
                 else tr("Nobody is playing now."))
    if session.pending:
        lines.append(tr("A {hand} already waiting keeps its players.", **words))
    return Outcome(Reply(" ".join(lines)), True)


async def players(call: Call) -> Outcome:
    session, game, tr = call.open_session(), call.game, call.tr
    lines = [tr.plural("{game}, {n} player:", "{game}, {n} players:", len(session.players),
                       game=Msg(game.title))]
    for p in session.players:
        notes = []
        if p.joined_after:
            notes.append(tr("joined after {hand} {no}", **call.words, no=p.joined_after))
        if p.user_id is None:
            # TRANSLATORS: a seat typed by name, not bound to anyone's account
            notes.append(tr("guest"))
        if p.sitting_out:
            notes.append(tr("sitting out"))
        lines.append(tr("{seat}. {name} ({notes})", seat=p.seat, name=p.name,
                        notes=", ".join(notes)) if notes else f"{p.seat}. {p.name}")
    status = game.status(session.totals, call.rules(), session.game_state, session.roster)
    if status:
        lines.append(call.tr.render(status))
    return Outcome(Reply("\n".join(lines)))


async def endgame(call: Call) -> Outcome:
    session, game, command = call.open_session(), call.game, call.command
    if session.pending is not None:
        note = call.tr.render(game.pending_note(session.pending.entry, session.roster,
                                                call.rules()))
        # already in the language of the answer: a plain str is shown as it is
        raise UserError(call.tr("{waiting} Finish it, or drop it with /undo, then /endgame.",
                                waiting=waiting_line(call.tr, game, session, note)))
    assert session.id is not None
    asked = command.expect
    if asked is not None and asked != {"session": session.id, "hand": session.hand_count,
                                       "version": session.version}:
        raise UserError(STALE)  # the confirmation names another state of the table
    # a game whose own end has not come (a Riichi hanchan with hands to play) is ended
    # early only when asked twice: a tap, or /endgame sure where there are no buttons
    early = game.unfinished(call.rules(), session.game_state, session.roster) \
        if session.hand_count and call.options.get("") != "yes" else None
    if early is not None and asked is None and not command.buttons:
        raise UserError(_("{early} End it now all the same: /endgame sure", early=early))
    if command.buttons and asked is None:
        played = count(game.hand_word, session.hand_count)
        if not session.hand_count and game.closing(_closing_context(call, session)) is None:
            question = call.tr("End the game? No {hand} was recorded: it closes without "
                               "being kept, with nothing to settle.", **call.words)
        elif game.zero_sum:
            question = call.tr("End the game after {count}? Standings and who pays whom "
                               "follow; the game is archived.", count=played)
        else:
            question = call.tr("End the game after {count}? Standings and the final scores "
                               "follow; the game is archived.", count=played)
        if early is not None:
            question = f"{call.tr.render(early)} {question}"
        return ask(flows.confirm(flows.Step.END, question, call.tr("Yes, end it"), session.id,
                                 session.hand_count, starter(call), call.tr,
                                 version=session.version))
    rules = call.rules()
    owed = await _closing_hand(call, session, game)
    if not session.hand_count:
        return await _drop(call, session)
    session.status = ENDED  # the board as the ended game's: where its first hands are
    reply = await board_reply(call, session, "")
    if game.money_at_end:  # Riichi: paid on the final results, nothing hand by hand
        money = money_from_results(game, session, rules) if money_shown(rules) else {}
    else:
        money = await money_of(call, session)
    counting = await before_end(call)  # a club table: the club's figures before this game
    await call.tx.save_session(session)
    said, posts = await club_lines(call, counting, session)
    reply.text = "\n".join(([owed] if owed else [])
                           + final_lines(call, game, session, rules, reply, money,
                                         await rate_notes(call, game, session, money))
                           + said)
    reply.question = None
    reply.menu = ""
    assert reply.board is not None
    reply.board.ended = True
    return Outcome(reply, changed=True, posts=posts)


async def _drop(call: Call, session: SessionState) -> Outcome:
    """A game ended with no hand recorded (none played, or every one undone): nothing to
    keep or settle, so it is closed without being archived (DROPPED: no list of the chat's
    games holds it) and the chat may start another at once. Its live board is closed."""
    session.status = DROPPED
    await call.tx.save_session(session)
    assert session.id is not None
    await call.tx.discard_log(session.id)  # undone hands nothing can show any more
    reply = await board_reply(call, session, "")
    reply.text = dropped_line(call.tr, call.game)
    reply.table = reply.question = None
    reply.menu = ""
    return Outcome(reply, changed=True)


def _closing_context(call: Call, session: SessionState) -> PlayContext:
    return PlayContext(
        command="endgame", options={}, roster=session.roster,
        hand_players=[p for p in session.players if not p.sitting_out],
        rules=call.rules(), pending=None, actor=call.command.actor,
        actor_player=call.roles.seat, state=session.game_state, totals=session.totals)


async def _closing_hand(call: Call, session: SessionState, game: Game) -> str:
    """Record what the game still owes at its end (a foul waiting for the next hand) as a
    last hand, so nothing is dropped; returns the line that says so, or ""."""
    result = game.closing(_closing_context(call, session))
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
    session.apply(hand, game.point_places)
    session.game_state = None
    return (call.tr("{entry} (at the end): {summary}", entry=numbered(game.hand_word, hand.no),
                    summary=call.tr.render(hand.summary))
            + "\n" + deltas_line(game, session, hand.deltas, call.tr))


async def rate_notes(call: Call, game: Game, session: SessionState,
                     money: dict[str, dict[int, Decimal]]) -> list[str]:
    """Which hands were played at which rate, and why money ranks differently from points
    (issue 30): for a game paid hand by hand whose rate changed."""
    if game.money_at_end or not money:
        return []
    assert session.id is not None
    hands = await call.tx.all_hands(session.id)
    return rates.notes(hands, dict(game.columns(session.roster, session.game_state)),
                       session.totals, money, game.hand_word, game.point_places, call.tr)


def final_lines(call: Call, game: Game, session: SessionState, rules: dict, reply: Reply,
                money: dict[str, dict[int, Decimal]], notes: list[str] | None = None
                ) -> list[str]:
    """The standings in points (and money per currency, hand by hand at each hand's rate;
    a game paid at the end: its final results' money), and who pays whom: in money where
    the game was played for money, else in points."""
    names = dict(game.columns(session.roster, session.game_state))
    # played for money in one currency, money decides the order (a rate changed mid-game
    # can make more points worth less money); else the game's places do (the best total,
    # the lowest where the lowest wins; who was knocked out last)
    only = next(iter(money.values())) if len(money) == 1 else {}
    placed = game.placings(session.totals, rules, session.game_state, session.roster)
    standings = sorted(names, key=lambda k: (-only.get(k, Decimal(0)),
                                             placed[k].place if k in placed else 0,
                                             -session.totals.get(k, 0), k))
    places = game.point_places
    decimals = {c: money_places(amounts.values()) for c, amounts in money.items()}
    tr = call.tr

    def amount(column: int) -> str:
        text = points_text(tr, session.totals.get(column, 0), places)
        owed = [format_money(amounts.get(column, Decimal(0)), currency, decimals[currency],
                             signed=True, tr=tr) for currency, amounts in money.items()]
        return tr("{points} = {money}", points=text, money=", ".join(owed)) if owed else text

    lines = [tr("Game over after {count}.", count=count(game.hand_word, session.hand_count))]
    if session.hand_count == 0:  # no places, no uma, nothing to pay
        return [*lines, tr.render(NOBODY_OWES), tr.render(ARCHIVED)]
    final = game.final_lines(session.totals, rules, session.game_state, session.roster)
    if final:
        lines += [tr.render(line) for line in final]  # the game's own (Riichi's uma)
    else:
        lines.append(tr("Final standings:"))
        lines += [f"{i}. {names[k]} {amount(k)}" for i, k in enumerate(standings, 1)]
        status = game.status(session.totals, rules, session.game_state, session.roster,
                             ended=True)
        if status:
            lines.append(tr.render(status))
        lines += notes or []
    if game.money_at_end and money:  # Riichi: the final results, paid; or by place
        currency = next(iter(money))
        rate = format_money(Decimal(str(rules["rate"])), currency, tr=tr)
        amounts = ", ".join(f"{names[k]} " + format_money(
            money[currency].get(k, Decimal(0)), currency, decimals[currency], signed=True,
            tr=tr) for k in names)
        if game.money_by_place:
            lines.append(tr("Money by place ({shares}) at {rate} each: {amounts}",
                            shares=" ".join(str(rules["per_place"]).split()), rate=rate,
                            amounts=amounts))
        else:
            lines.append(tr("Money at {rate} a point: {amounts}", rate=rate, amounts=amounts))
    elif game.money_against_average and money:  # Call Break: less the table's average
        said = against_average_line(tr, game, session, names)
        if said:  # an average of 0 (rounds that add up to zero) changes nothing
            lines.append(said)
    elif not game.zero_sum:  # Tranca scores are a race: nobody pays anybody
        lines.append(tr.render(ARCHIVED))
        return lines
    moves: list[dict[str, Any]] = []
    if money and any(sum(a.values()) for a in money.values()):
        # results that don't sum to zero (a house uma) have no fewest transfers
        lines += [tr("The final results don't add up to zero (see the uma: /rules), so no "
                     "transfers are worked out."), tr.render(ARCHIVED)]
        return lines
    if money:  # currencies are settled apart, never added together
        for currency, amounts in money.items():
            for pay in settle_money({k: amounts.get(k, Decimal(0)) for k in names}):
                moves.append({"from": names[pay.payer], "to": names[pay.payee],
                              "money": json_number(pay.amount), "currency": currency,
                              "text": format_money(pay.amount, currency, decimals[currency],
                                                   tr=tr)})
    else:
        for move in settle_up({k: session.totals.get(k, 0) for k in names}):
            moves.append({"from": names[move.payer], "to": names[move.payee],
                          "points": as_json(move.points, places),
                          "text": points_text(tr, move.points, places, signed=False)})
    if moves:
        lines.append(tr("To settle up:"))
        lines += [tr("{payer} pays {payee} {amount}", payer=m["from"], payee=m["to"],
                     amount=m["text"]) for m in moves]
    else:
        lines.append(tr.render(NOBODY_OWES))
    lines.append(tr.render(ARCHIVED))
    assert reply.board is not None
    reply.board.transfers = [{k: v for k, v in m.items() if k != "text"} for m in moves]
    return lines


def against_average_line(tr: Tr, game: Game, session: SessionState,
                         names: dict[int, str]) -> str:
    """Why Call Break's money adds up to zero when its scores don't ("" where they do)."""
    total = sum(session.totals.get(k, 0) for k in names)
    if not total:
        return ""
    average = Decimal(total).scaleb(-game.point_places) / len(names)
    # as many decimals as it has, two more than the points' at most (a third of 115)
    places = min(max(game.point_places, 0 if average == average.to_integral() else
                     -average.normalize().as_tuple().exponent),  # type: ignore[operator]
                 game.point_places + 2)
    if game.lowest_wins:
        return tr("Money: the table's average ({average}) less each score, at each "
                  "{hand}'s rate, so the lowest gains and it adds up to zero.",
                  average=tr.number(average, places), **placeholders(game.hand_word))
    return tr("Money: each score less the table's average ({average}), at each {hand}'s "
              "rate, so it adds up to zero.", average=tr.number(average, places),
              **placeholders(game.hand_word))


NOBODY_OWES = _("Nobody owes anybody anything.")
ARCHIVED = _("The game is archived. /newgame starts another.")


def points_text(tr: Tr, points: int, places: int, signed: bool = True) -> str:
    """"+41 points", "-3.5 points", in the language of `tr`."""
    shown = show(points, places, signed=signed, tr=tr)
    n = 1 if abs(points) == 10 ** places else 2  # the form for exactly one point, or more
    return tr.plural("{points} point", "{points} points", n, points=shown)


def rules_line(tr: Tr, game: Game, rules: dict, players: int | None = None) -> str:
    """The headline rules and whatever differs from the defaults: "seen 3, unseen 10"; with
    `players`, as they apply to that many (Riichi's three-player uma)."""
    brief = game.rulebook.brief(rules) if players is None else game.brief_rules(rules,
                                                                                 players)
    return ", ".join(f"{k} {tr.render(v)}" for k, v in brief if v != "")


def player_range(game: Game) -> Text:
    """"4 players" (Call Break) or "3 to 4 players"."""
    if game.min_players == game.max_players:
        return _n("{n} player", "{n} players", game.min_players)
    return _("{low} to {high} players", low=game.min_players, high=game.max_players)


def _seat_players(text: str, command: Command, game: Game) -> list[Player]:
    _no_spaced_names(text, command)
    words = split_list(text)
    players: list[Player] = []
    if not words:
        # Nobody named: the person starting the game sits down; the others /join.
        return [Player(seat=1, name=suggest_name(command.actor.name, []),
                       user_id=command.actor.id, handle=account_handle(command.actor))]
    if len(words) > game.max_players:
        raise UserError(_("{game} takes {players}; you named {count}.", game=Msg(game.title),
                          players=player_range(game), count=len(words)))
    seen: dict[str, str] = {}  # skeleton -> the name, so look-alikes are refused too
    accounts: set[str] = set()
    for i, word in enumerate(words, 1):
        mentioned = command.mentions.get(word.lower()) or command.mentions.get(word)
        if mentioned is not None:
            if mentioned.id in accounts:
                raise UserError(_("{name} is named twice; every player needs a different "
                                  "name.", name=mentioned.name))
            accounts.add(mentioned.id)
            name = suggest_name(mentioned.name, [p.name for p in players])
            user_id: str | None = mentioned.id
        else:  # an @username names its account whole (up to 32 characters)
            name, user_id = check_name(word, username=word.startswith("@")), None
        twin = next((seen[s] for s in skeletons(name) if s in seen), None)
        if twin is not None:
            raise UserError(_("{name} is named twice; every player needs a different name.",
                              name=name) if twin == name.casefold() else
                            _("`{name}` looks like {twin}: every player needs a name that "
                              "reads differently.", name=name, twin=twin))
        seen.update(dict.fromkeys(skeletons(name), name.casefold()))
        # an account keeps its own @username; a seat typed as @name is that username's
        handle = account_handle(mentioned) if mentioned is not None else (
            name.lower() if word.startswith("@") else None)
        players.append(Player(seat=i, name=name, user_id=user_id, handle=handle))
    if len(players) < game.min_players:
        raise UserError(_("{game} takes {players}; you named {count}.", game=Msg(game.title),
                          players=player_range(game), count=len(players)))
    return players


def _no_spaced_names(text: str, command: Command) -> None:
    """"players:mary jane, bob, carol" means a player called "mary jane", not two: names
    listed with commas, one of them words with a space between, is refused as that name
    (a name has no spaces) rather than seated as two players."""
    if "," not in text:
        return
    for listed in text.split(","):
        words = listed.split()
        if len(words) > 1 and not any(w.startswith("@") or w in command.mentions
                                      for w in words):
            check_name(" ".join(words))  # refused: it says a name has no spaces


def _next_seat(players: list[Player]) -> int:
    return max((p.seat for p in players), default=0) + 1
