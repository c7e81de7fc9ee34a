"""What an answer to one of the bot's questions becomes (the questions: bot/core/flows.py).

A tap or a typed answer arrives with its sealed token. Picking the winner and toggling who
has seen only change the question; Done, Yes and a typed maal become ordinary commands,
handled and checked like typed ones, in the one transaction that looked at the table
(Runner.become). A question about a table that has changed since it was asked is refused,
never applied to whatever is current.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from typing import Protocol

from bot.core import flows
from bot.core.command import Actor, Command, Reply
from bot.core.flows import Step, Token
from bot.core.games.base import Game
from bot.core.handlers.board_commands import waiting_names
from bot.core.handlers.call import Call, Outcome, platform_number
from bot.core.handlers.hands import STALE
from bot.core.i18n import N_, Text, Tr, _, choose, translator
from bot.core.i18n.words import placeholders
from bot.core.players import Player
from bot.core.session import OPEN, ChatSettings, HandRecord, SessionState

AdminCheck = Callable[[], Awaitable[bool]]
# What a tap becomes, decided on the table as the command's own transaction reads it (None:
# nothing open): the answer itself, or the command to run there.
Decide = Callable[["Snapshot | None", ChatSettings], Awaitable["Reply | Command"]]
# Strings (N_) that stay strings: shown with tr.text, and compared as they are in tests.
NOT_YOURS = N_("Only the person who started this, or a chat admin, can use these buttons.")
INVALID = N_("This button is no longer valid.")
NOT_YOURS_ALONE = N_("Only the person who asked can use these buttons.")
GAME_ENDED = _("That game has ended; nothing changed.")
# TRANSLATORS: the maal form (Discord) sent with no box filled in
EMPTY_FORM = _("The form was empty; nothing changed. Fill in a number for at least one "
               "player, then send it.")


@dataclass(frozen=True)
class Snapshot:
    """A read-only look at a chat's open session (button flows, autocomplete;
    made by the service)."""

    session: SessionState
    game: Game
    last_hand: HandRecord | None
    settings: ChatSettings | None = None  # for the language of an answer to a tap


class Runner(Protocol):
    """The service as an answer uses it (bot/core/service/'s Service is one): it runs the
    commands a tap becomes and reads the chat. Said here, so the service stands above the
    handlers and none of them imports it."""

    async def handle(self, command: Command, admin: AdminCheck | None = None) -> Reply: ...

    async def snapshot(self, chat: str) -> Snapshot | None: ...

    async def language_of(self, chat: str) -> str: ...

    async def become(self, chat: str, actor: Actor, names: Collection[str] | None,
                     origin: str | None, decide: Decide, admin: AdminCheck | None = None,
                     locale: str | None = None) -> Reply: ...


@dataclass
class Tap:
    """Who answered, where, and in what language: what every step of an answer needs. The
    language is looked up only when the answer itself says something (a tap that becomes
    a command is answered in the command's language, chosen by the service)."""

    service: Runner
    chat: str
    actor: Actor
    origin: str | None
    admin: AdminCheck | None
    locale: str | None  # the sender's platform language, for the commands a tap becomes
    language: str | None = None  # the chat's, else the sender's: read when first needed

    async def tr(self, game: str | None = None, snapshot: Snapshot | None = None) -> Tr:
        if self.language is None:
            setting = snapshot.settings.language if snapshot is not None \
                and snapshot.settings is not None else await self.service.language_of(
                    self.chat)
            self.language = choose(setting, self.locale)
        return translator(self.language, game)

    async def error(self, text: Text, snapshot: Snapshot | None = None) -> Reply:
        tr = await self.tr(snapshot=snapshot)
        shown = tr.text(text) if isinstance(text, str) else tr.render(text)
        return Reply.error(shown, tr.language)

    async def handle(self, name: str, options: dict[str, str] | None = None,
                     origin: str | None = None, **kw: object) -> Reply:
        return await self.service.handle(self.command(name, options, origin, **kw),
                                         self.admin)

    def command(self, name: str, options: dict[str, str] | None = None,
                origin: str | None = None, **kw: object) -> Command:
        return Command(self.chat, self.actor, name, options or {}, origin_id=origin,
                       buttons=True, locale=self.locale, **kw)  # type: ignore[arg-type]

    async def become(self, names: Collection[str] | None, origin: str | None,
                     decide: Callable[[Snapshot | None], Awaitable[Reply | Command]],
                     in_place: bool = False) -> Reply:
        """A tap that may become a command (`names`; None: the one a waiting hand asks
        for, with the origin `origin`): one writer's transaction, whose look at the table
        `decide` is given (bot/core/service/'s Service.become). `in_place`: the
        command's reply takes the question's place."""
        became: list[Command] = []

        async def decided(look: Snapshot | None, settings: ChatSettings) -> Reply | Command:
            if self.language is None:  # an answer of its own needs no second look
                self.language = choose(settings.language, self.locale)
            outcome = await decide(look)
            if isinstance(outcome, Command):
                became.append(outcome)
            return outcome

        reply = await self.service.become(self.chat, self.actor, names, origin, decided,
                                          self.admin, self.locale)
        return _in_place(reply) if in_place and became else reply


async def answer(tap: Tap, token: Token, value: str) -> Reply:
    actor = tap.actor
    if token.starter and token.starter != platform_number(actor.id):
        if not (actor.is_admin or (tap.admin is not None and await tap.admin())):
            return await tap.error(NOT_YOURS)
        tap = replace(tap, actor=replace(actor, is_admin=True))
    if value == flows.CANCEL or value == flows.NO:
        tr = await tap.tr()
        return Reply(tr("Cancelled; nothing changed."), in_place=True, language=tr.language)
    step = token.step
    if step == Step.BOARD:
        return await _board_action(tap, token, value)
    if step == Step.FORGET and value == flows.YES and len(token.args) == 1:
        return await _forget(tap, token, actor)
    if step == Step.SIT and len(token.args) == 1:
        return await _sit(tap, token, value)
    if step == Step.HERE and value == flows.HERE and len(token.args) == 1:
        presser = platform_number(actor.id)
        reply = await tap.handle("club", {"": "here"}, origin=_origin(tap.origin,
                                                                      f"here:{presser}"),
                                 expect={"night": token.args[0]})
        return _in_place(reply) if reply.ok else reply
    if step == Step.CLAIM and value == flows.YES and len(token.args) == 3:
        return _in_place(await _let_sit(tap, token))
    if step in (Step.UNDO, Step.END) and value == flows.YES and len(token.args) in (2, 3):
        name = "undo" if step == Step.UNDO else "endgame"
        # a game's confirmation carries the session's version (a payment's: its id); one
        # issued without it (before it did) is stale: the handler finds no version to match
        expect = dict(zip(("session", "hand", "version"), token.args, strict=False))
        reply = await tap.handle(name, origin=_origin(tap.origin, "confirm"), expect=expect)
        return _in_place(reply)
    if step == Step.INPUT and len(token.args) == 2 and value != flows.OPEN:
        # a typed maal: read and recorded in the one transaction
        return await tap.become(None, tap.origin,
                                lambda look: _input(tap, token, value, look))
    if step == Step.SEEN and len(token.args) >= 2 and value == flows.DONE:
        return await tap.become(("hand",), _origin(tap.origin, "hand"),
                                lambda look: _hand_flow(tap, token, value, look),
                                in_place=True)
    # the rest only reads: the question changes, nothing is written
    snapshot = await tap.service.snapshot(tap.chat)
    if step == Step.INPUT and len(token.args) == 2:
        return _reply(await _input(tap, token, value, snapshot))
    if step in (Step.WINNER, Step.SEEN) and len(token.args) >= 2:
        return _reply(await _hand_flow(tap, token, value, snapshot))
    return await tap.error(INVALID)


def start_hand(call: Call) -> Outcome | None:
    """/hand with nothing typed (or only the winner) on a platform with buttons: the first
    question of the tap flow. None where the game is typed, the command came whole from a
    form, or the table can't start a hand (the command itself then says what is missing)."""
    session, game = call.session, call.game
    if session is None or not game.seen_flow or call.command.form \
            or session.pending is not None \
            or set(call.options) - {"winner"}:
        return None
    playing = [p for p in session.players if not p.sitting_out]
    if len(playing) < game.min_players:
        return None
    assert session.id is not None
    starter = platform_number(call.command.actor.id)
    if "winner" in call.options:
        hand = session.roster.in_hand(p.seat for p in playing)
        winner = hand.resolve(call.options["winner"], call.command.mentions)
        reply = seen_question(call.tr, session, winner.seat, 0, starter)
    else:
        question = flows.winner(call.tr, session.id, session.hand_count + 1, game.hand_word,
                                playing, starter)
        reply = Reply(question.text, question=question)
    return Outcome(reply)


def seen_question(tr: Tr, session: SessionState, winner_seat: int, mask: int,
                  starter: int) -> Reply:
    assert session.id is not None
    playing = [p for p in session.players if not p.sitting_out]
    winner = session.roster.by_seat(winner_seat)
    question = flows.seen(tr, session.id, session.hand_count + 1, playing, winner,
                          mask | 1 << winner_seat, starter)
    return Reply(question.text, question=question, language=tr.language)


def _fresh(snapshot: Snapshot | None, token: Token) -> bool:
    """Is the table still where it was when the question was asked?"""
    if snapshot is None:
        return False
    session = snapshot.session
    return (session.id == token.args[0] and session.hand_count + 1 == token.args[1]
            and (session.pending is None) == (token.step != Step.INPUT))


def done_with(session: SessionState | None, game: Game | None, hand: int,
              dropped: bool = False) -> Text:
    """What became of `hand` of `session`, no longer waiting, for an answer to its question
    that came too late: scored (and how to change it), dropped (`dropped`: when it stopped
    waiting; or undone since), or its game ended."""
    if session is None or game is None or session.status != OPEN:
        return GAME_ENDED
    words = placeholders(game.hand_word)
    if session.hand_count >= hand and not dropped:
        return _("{Hand} {no} is already scored; nothing changed. /edit {key}:{no} changes "
                 "it.", **words, no=hand, key=game.edit_key)
    return _("{Hand} {no} was dropped; nothing changed.", **words, no=hand)


async def _hand_flow(tap: Tap, token: Token, value: str, snapshot: Snapshot | None
                     ) -> Reply | Command:
    if not _fresh(snapshot, token):
        return _in_place(await tap.error(STALE, snapshot))
    assert snapshot is not None
    tr = await tap.tr(snapshot.game.key, snapshot)
    seats = {p.seat for p in snapshot.session.players if not p.sitting_out}
    if token.step == Step.WINNER:
        if not value.isdecimal() or int(value) not in seats:
            return await tap.error(INVALID)
        return _in_place(seen_question(tr, snapshot.session, int(value), 0, token.starter))
    if len(token.args) != 4 or token.args[2] not in seats:
        return await tap.error(INVALID)
    winner, mask = token.args[2], token.args[3]
    if value == flows.DONE:
        roster = snapshot.session.roster
        seen = [p.name for p in roster if mask >> p.seat & 1 and p.seat in seats
                and p.seat != winner]
        return tap.command("hand", {"winner": roster.by_seat(winner).name,
                                    "seen": " ".join(seen)}, _origin(tap.origin, "hand"))
    if value[:1] == "t" and value[1:].isdecimal() and int(value[1:]) in seats:
        mask ^= 1 << int(value[1:])
    elif value[:1] == "s" and value[1:].isdecimal():
        mask = int(value[1:]) & sum(1 << s for s in seats)
    else:
        return await tap.error(INVALID)
    return _in_place(seen_question(tr, snapshot.session, winner, mask, token.starter))


async def _input(tap: Tap, token: Token, value: str, snapshot: Snapshot | None
                 ) -> Reply | Command:
    if not _fresh(snapshot, token):  # answered, undone or ended since it was asked
        if snapshot is None or snapshot.session.id != token.args[0]:
            return await tap.error(GAME_ENDED, snapshot)
        return await tap.error(done_with(snapshot.session, snapshot.game, token.args[1]),
                               snapshot)
    assert snapshot is not None
    session, game = snapshot.session, snapshot.game
    if not value.strip():
        return await tap.error(EMPTY_FORM, snapshot)
    if value == flows.OPEN:  # show the form: who still has to answer
        assert session.id is not None
        names = waiting_names(game, session)
        question = flows.needed_input(await tap.tr(game.key, snapshot), session.id,
                                      session.hand_count + 1, game.waiting_input,
                                      game.hand_word, names, prompt_now=True)
        return Reply(question.text, question=question, language=tap.language or "en")
    return tap.command(game.waiting_command, {"": value}, tap.origin)


async def _forget(tap: Tap, token: Token, asker: Actor) -> Reply:
    """"Yes, forget me" is the asker's own to tap (an admin's tap would forget the admin);
    "Yes, forget it all" an admin's too, checked again by /forget."""
    what = token.args[0]
    if what == flows.FORGET_ME and token.starter != platform_number(asker.id):
        return await tap.error(NOT_YOURS_ALONE)
    if what not in (flows.FORGET_ME, flows.FORGET_CHAT):
        return await tap.error(INVALID)
    reply = await tap.handle("forget", {"": "chat" if what == flows.FORGET_CHAT else "me"},
                             origin=_origin(tap.origin, "confirm"), expect={"forget": what})
    return _in_place(reply)


async def _sit(tap: Tap, token: Token, value: str) -> Reply:
    """A "sit here" tap under /newgame: the presser's /join of that seat, checked as a typed
    one (before the first hand it is theirs at once; after it, the starter is asked)."""
    presser = platform_number(tap.actor.id)
    origin = _origin(tap.origin, f"sit{int(value)}:{presser}") if value.isdecimal() \
        else None  # (the seat a valid value names: its origin is known before the look)

    async def decide(snapshot: Snapshot | None) -> Reply | Command:
        if snapshot is None or snapshot.session.id != token.args[0]:
            return await tap.error(STALE, snapshot)
        seat = _seat_of(snapshot, value)
        if seat is None:
            return await tap.error(INVALID, snapshot)
        return tap.command("join", {"": seat.name},
                           _origin(tap.origin, f"sit{seat.seat}:{presser}"))

    return await tap.become(("join",), origin, decide)


async def _let_sit(tap: Tap, token: Token) -> Reply:
    """The starter's (or an admin's) tap that lets the person who asked sit in the seat:
    their /seat of that seat to that person, refused if the ask is no longer the same."""
    session_id, seat_no, claimant = token.args
    origin = _origin(tap.origin, "claim")

    async def decide(snapshot: Snapshot | None) -> Reply | Command:
        if snapshot is None or snapshot.session.id != session_id:
            return await tap.error(STALE, snapshot)
        seat = _seat_of(snapshot, str(seat_no))
        claim = seat.claim if seat is not None else None
        if seat is None or claim is None or platform_number(claim["id"]) != claimant:
            return await tap.error(STALE, snapshot)
        mention = f"<@{claimant}>"
        handle = claim.get("handle")
        person = Actor(claim["id"], str(claim.get("name") or ""),
                       handles=(handle,) if handle else ())
        return tap.command("seat", {"": seat.name, "person": mention}, origin,
                           mentions={mention: person},
                           expect={"session": session_id, "seat": seat_no,
                                   "claimant": claimant})

    return await tap.become(("seat",), origin, decide)


def _seat_of(snapshot: Snapshot, value: str) -> Player | None:
    if not value.isdecimal():
        return None
    return next((p for p in snapshot.session.players if p.seat == int(value)), None)


async def _board_action(tap: Tap, token: Token, value: str) -> Reply:
    """Next hand or Undo under a board: about that board's game only. A board of a game
    since ended (its reply still in the chat) starts nothing in the game open now. The
    look at the game and the command are one transaction (Tap.become)."""
    if value not in (flows.NEXT, flows.UNDO):
        return await tap.error(INVALID)
    name = "hand" if value == flows.NEXT else "undo"

    async def decide(look: Snapshot | None) -> Reply | Command:
        if look is None or tuple(token.args) != (look.session.id,):
            return await tap.error(INVALID, look)
        return tap.command(name)

    return await tap.become((name,), None, decide)


def _origin(origin: str | None, step: str) -> str | None:
    return f"{origin}:{step}" if origin else None


def _reply(answer: Reply | Command) -> Reply:
    assert isinstance(answer, Reply), "only a Done or a typed answer becomes a command"
    return answer


def _in_place(reply: Reply) -> Reply:
    reply.in_place = True
    return reply
