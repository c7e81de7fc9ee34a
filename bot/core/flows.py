"""Questions the bot asks, platform-free: what is asked, the choices, and the token that says
what an answer is about. Each platform only renders a Question (Telegram: inline keyboards
and a reply prompt; Discord: selects, buttons and a modal) and sends the answer back with
`Service.answer`; what an answer becomes is decided in `bot/core/handlers/flow_answers.py`.

A token rides in the platform's button data (64 bytes on Telegram), sealed with an HMAC over
the chat and its contents, so a button the bot did not issue for this chat is refused.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.core.i18n.words import numbered
from bot.core.players import Player

if TYPE_CHECKING:
    from bot.core.i18n import Tr

SIG_BYTES = 8  # 64 bits: forging one by guessing is hopeless


class Ask(StrEnum):
    PICK = "pick"  # one of the choices
    TOGGLE = "toggle"  # any of the choices, then Done
    CONFIRM = "confirm"  # yes or no
    ACTIONS = "actions"  # buttons that start something new (the board's Next hand, Undo)
    TYPE = "type"  # a typed answer, a value per field (the maal); a reply, or a form
    SEATS = "seats"  # a button per seat: anyone may tap one to sit there


class Step(StrEnum):
    WINNER = "hw"  # args: session, hand no
    SEEN = "hs"  # args: session, hand no, winner seat, seen mask
    # args: session, hand no (0: the waiting hand), the session's version when asked (a
    # payment: 0, its id)
    UNDO = "cu"
    END = "ce"  # args: session, hands recorded, the session's version when asked
    INPUT = "hi"  # args: session, hand no
    BOARD = "hb"  # args: session
    FORGET = "cf"  # args: what (FORGET_ME or FORGET_CHAT)
    SIT = "ss"  # args: session (the answer: a seat)
    CLAIM = "sc"  # args: session, seat, the number of the person asking to sit there
    HERE = "nh"  # args: a club night (the answer: HERE)


FORGET_ME, FORGET_CHAT = 1, 2  # what a /forget confirmation is about

# Answers. A TOGGLE answer is "t<seat>" (toggle one) or "s<mask>" (exactly these).
YES, NO, DONE, CANCEL, NEXT, UNDO, OPEN = "yes", "no", "done", "x", "next", "undo", "open"
HERE = "here"


@dataclass(frozen=True)
class Token:
    step: Step
    starter: int  # who started it (0: anyone); they and chat admins may answer
    args: tuple[int, ...] = ()

    def payload(self) -> str:
        return ".".join([self.step.value, str(self.starter), *map(str, self.args)])


@dataclass(frozen=True)
class Choice:
    label: str
    value: str
    chosen: bool = False
    danger: bool = False


@dataclass(frozen=True)
class Question:
    ask: Ask
    text: str
    token: Token
    choices: tuple[Choice, ...] = ()
    fields: tuple[str, ...] = ()  # TYPE: who still has to give a value
    example: str = ""  # TYPE: what an answer looks like
    prompt_now: bool = False  # TYPE: the wait has just begun: ask at once, don't offer

    def for_starter(self, starter: int) -> Question:
        return replace(self, token=replace(self.token, starter=starter))


def chosen(values: list[str]) -> str:
    """A TOGGLE answer from a list of the choices picked at once (a multi-select)."""
    mask = 0
    for value in values:
        if value[:1] == "t" and value[1:].isdecimal():
            mask |= 1 << int(value[1:])
    return f"s{mask}"


def seal(token: Token, chat: str, secret: bytes) -> str:
    payload = token.payload()
    return f"{payload}.{_signature(payload, chat, secret)}"


def unseal(data: str, chat: str, secret: bytes) -> Token | None:
    """The token in `data` if the bot issued it for this chat; None for anything else."""
    # a token the bot made is ASCII; a forged one may hold any letter, even a lone
    # surrogate, on which compare_digest and encode() raise rather than say no
    if not data.isascii():
        return None
    payload, _, signature = data.rpartition(".")
    if not payload or not hmac.compare_digest(signature, _signature(payload, chat, secret)):
        return None
    parts = payload.split(".")
    try:
        return Token(Step(parts[0]), int(parts[1]), tuple(int(p) for p in parts[2:]))
    except (IndexError, ValueError):
        return None


def _signature(payload: str, chat: str, secret: bytes) -> str:
    digest = hmac.new(secret, f"{chat}|{payload}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:SIG_BYTES]).decode().rstrip("=")


# --- the questions ------------------------------------------------------------------------
# The core builds each question in the language of the command being answered (`tr`): a
# Question carries rendered text, so a platform shows `text` and each choice's `label` as
# they are.

def winner(tr: Tr, session_id: int, hand_no: int, word: str, players: list[Player],
           starter: int) -> Question:
    return Question(Ask.PICK, tr("{entry}: who won?", entry=numbered(word, hand_no)),
                    Token(Step.WINNER, starter, (session_id, hand_no)),
                    tuple(Choice(p.name, str(p.seat)) for p in players))


def seen(tr: Tr, session_id: int, hand_no: int, players: list[Player], winner: Player,
         mask: int, starter: int) -> Question:
    others = [p for p in players if p.seat != winner.seat]
    return Question(
        Ask.TOGGLE, tr("{winner} won. Who else has seen? Tap to mark, then Done.",
                       winner=winner.name),
        Token(Step.SEEN, starter, (session_id, hand_no, winner.seat, mask)),
        (*(Choice(p.name, f"t{p.seat}", chosen=bool(mask >> p.seat & 1)) for p in others),
         # TRANSLATORS: the button that ends picking who has seen
         Choice(tr("Done"), DONE)))


def confirm(step: Step, text: str, yes: str, session_id: int, no: int, starter: int,
            tr: Tr | None = None, version: int | None = None) -> Question:
    """`text` and `yes` already in the language of `tr` (pass it: without one the "keep it"
    button is English). `version`: the session's version when asked. Every change to a
    session increments it, so a Yes names the exact table it was asked about: an old
    confirmation tapped after hand 2 was undone and another hand 2 recorded is stale,
    never applied to the new one."""
    if tr is None:
        from bot.core.i18n import ENGLISH as tr
    args = (session_id, no) if version is None else (session_id, no, version)
    return Question(Ask.CONFIRM, text, Token(step, starter, args),
                    (Choice(yes, YES, danger=True), Choice(tr("No, keep it"), NO)))


def seats(tr: Tr, session_id: int, players: list[Player]) -> Question:
    """Under /newgame: a "Sit at NAME" button for each seat typed by name. Anyone may tap;
    the tap is their /join of that seat, checked as a typed one."""
    return Question(Ask.SEATS, tr("Tap your seat to sit there."),
                    Token(Step.SIT, 0, (session_id,)),
                    tuple(Choice(tr("Sit at {name}", name=p.name), str(p.seat))
                          for p in players))


def claim(tr: Tr, session_id: int, seat: Player, person: str, claimant: int,
          starter: int) -> Question:
    """Someone asks to sit in a seat typed by name once hands are recorded: the game's
    starter or a chat admin taps to let them (`person`: their name as shown)."""
    return Question(
        Ask.CONFIRM, tr("{person} asks to sit at {name}. The person who started the game or "
                        "a chat admin: tap to let them.", person=person, name=seat.name),
        Token(Step.CLAIM, starter, (session_id, seat.seat, claimant)),
        (Choice(tr("Let them sit at {name}", name=seat.name), YES),
         Choice(tr("No"), NO)))


def here(tr: Tr, night: int, text: str) -> Question:
    """Under /club night: an "I'm here" button; anyone may tap, each tap their /club here
    (`text`: the night and who is here so far, in the language of `tr`)."""
    return Question(Ask.ACTIONS, text, Token(Step.HERE, 0, (night,)),
                    (Choice(tr("I'm here"), HERE),))


def board_actions(tr: Tr, session_id: int, next_hand: bool) -> Question:
    """Under a board: start the next hand, or undo. Anyone may press; what they start
    checks who they are."""
    choices = ((Choice(tr("Next hand"), NEXT),) if next_hand else ()) + (
        Choice(tr("Undo"), UNDO),)
    return Question(Ask.ACTIONS, "", Token(Step.BOARD, 0, (session_id,)), choices)


def needed_input(tr: Tr, session_id: int, hand_no: int, what: str, word: str,
                 names: list[str], prompt_now: bool) -> Question:
    """A waiting hand asks for what is missing (Marriage: each named player's maal), in the
    syntax the reply to the command shares (`waiting_text`): name=… pairs.
    `what`: the game's word for it (its `waiting_input`), translated here."""
    example = pairs(names)
    said = tr.text(what)
    # TRANSLATORS: {entry} is "Hand 4", {what} what it needs from each player (maal),
    # {names} who still owes it, {pairs} how they are given: bob=… carol=…
    text = tr("{entry} waits for the {what} of {names}: reply {pairs}",
              entry=numbered(word, hand_no), what=said, names=", ".join(names),
              pairs=example)
    return Question(Ask.TYPE, text, Token(Step.INPUT, 0, (session_id, hand_no)),
                    (Choice(tr("Enter {what}", what=said), OPEN),), tuple(names), example,
                    prompt_now)


def waiting_text(tr: Tr, hand_no: int, what: str, word: str, command: str,
                 names: list[str]) -> str:
    """"Hand 4 waits for the maal of bob, carol: /maal bob=… carol=…": the reply to each
    command that leaves a hand waiting, in the prompt's syntax."""
    # TRANSLATORS: as "{entry} waits for the {what} of {names}: reply {pairs}", with the
    # command that gives it ({send}: /maal bob=… carol=…)
    return tr("{entry} waits for the {what} of {names}: {send}",
              entry=numbered(word, hand_no), what=tr.text(what), names=", ".join(names),
              send=f"/{command} {pairs(names)}")


def pairs(names: list[str]) -> str:
    """"bob=… carol=…": a value for each name, as people type it."""
    return " ".join(f"{n}=…" for n in names)
