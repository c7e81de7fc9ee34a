"""Who may change what, as cases both adapters play through: the table of
docs/players/permissions.md ("The table").

Every case starts a fresh game in a chat of its own: the starter (`hana`) types
`players:@hana @pia zed` — hana and pia are seated by their accounts, zed is a guest seat
typed by name. Then the setup lines run (as the starter unless another role is named) and one
role sends the action. Roles: a member of the chat who is not playing, a player seated by
account, the game's starter, a chat admin who is not playing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MEMBER, PLAYER, STARTER, ADMIN = "member", "player", "starter", "admin"
ROLES = (MEMBER, PLAYER, STARTER, ADMIN)
HAND = "/hand winner:zed seen:hana pia maal:zed=1 hana=1 pia=1"
WAITING = "/hand winner:zed seen:hana pia"  # hand 1, waiting for its maal
MONEY = "/rules currency:Rs"  # the chat plays for Rs: a payment's currency
# maal 0, 4, 0, P = 4, n = 3: exchange pia -4, hana +8, zed -4; hana and zed pay pia 3 each:
# pia +2, hana +5, zed -7 (Rs at 1 a point, once the game has ended)
OWED = "/hand winner:pia seen:hana zed maal:pia=0 hana=4 zed=0"
END = "/endgame"  # on a platform with buttons, confirmed with a tap by the starter
LEDGER = (MONEY, OWED, END)  # a finished game: zed owes pia 2 and hana 5
PAYMENT = "/paid zed 5 to:hana"  # recorded by hana, the person paid


@dataclass(frozen=True)
class Case:
    what: str  # the words of that table's rows
    action: str  # as typed (Telegram, console); "" when the action is only a tap
    allowed: frozenset[str]
    setup: tuple[str, ...] = ()
    # the same action on Discord: (command, subcommand or None, options)
    discord: tuple[str, str | None, dict[str, Any]] = ("", None, {})
    roles: tuple[str, ...] = ROLES
    extra: dict[str, Any] = field(default_factory=dict)
    # A tap: the role presses the button so labelled on the answer to `action` sent by
    # `asker` (the /newgame answer when there is no action).
    tap: str = ""
    asker: str = MEMBER
    # Telegram: the action is sent in reply to a message of this role (Discord: a mention)
    reply_to: str = ""


CASES = [
    Case("record a hand", HAND, frozenset({PLAYER, STARTER, ADMIN}),
         discord=("hand", None, {"winner": "zed", "seen": "hana pia",
                                 "maal": "zed=1 hana=1 pia=1"})),
    Case("undo a hand someone else recorded", "/undo reason:x",
         frozenset({STARTER, ADMIN}), (HAND,), ("undo", None, {"reason": "x"})),
    Case("fix a hand you played in", "/edit hand:1 maal:zed=2",
         frozenset({PLAYER, STARTER, ADMIN}), (HAND,),
         ("edit", "marriage", {"hand": 1, "maal": "zed=2"})),
    Case("fix a hand you were not in", "/edit hand:1 maal:zed=2",
         frozenset({STARTER, ADMIN}),
         ("/sitout pia", "/hand winner:zed seen:hana maal:zed=1 hana=1"),
         ("edit", "marriage", {"hand": 1, "maal": "zed=2"})),
    Case("change the rules before the first hand", "/rules seen:4",
         frozenset({PLAYER, STARTER, ADMIN}), (), ("rules", "marriage", {"seen": 4})),
    Case("change the rate mid-game", "/rules rate:2", frozenset({STARTER, ADMIN}), (HAND,),
         ("rules", "marriage", {"rate": "2"})),
    # the first hand waits for its maal, its winner known: it would be scored at the new
    # rate, so a player who sees who won can't set it
    Case("change the rate while the first hand waits", "/rules rate:2",
         frozenset({STARTER, ADMIN}), (WAITING,), ("rules", "marriage", {"rate": "2"})),
    Case("change the maal table while the first hand waits", "/setmaal tiplu:3 8",
         frozenset({STARTER, ADMIN}), (WAITING,), ("setmaal", None, {"tiplu": "3 8"})),
    Case("change the maal table mid-game", "/setmaal tiplu:3 8",
         frozenset({STARTER, ADMIN}), (HAND,), ("setmaal", None, {"tiplu": "3 8"})),
    Case("end the game", "/endgame", frozenset({PLAYER, STARTER, ADMIN}), (),
         ("endgame", None, {})),
    Case("sit someone else out", "/sitout zed", frozenset({STARTER, ADMIN}), (),
         ("sitout", None, {"player": "zed"})),
    Case("give a seat to an account", "/seat zed person:none", frozenset({STARTER, ADMIN}),
         (), ("seat", None, {"seat": "zed", "person": "none"})),
    # the person given the seat: a reply to their message on Telegram, a mention on Discord
    Case("give a seat to a person (a reply to their message, a mention)", "/seat zed",
         frozenset({STARTER, ADMIN}), (), ("seat", None, {"seat": "zed", "person": "<@503>"}),
         reply_to=MEMBER, extra={"done": "Mo sits at zed (seat 3)."}),
    Case("move a seat once hands are recorded", "/seat zed", frozenset({STARTER, ADMIN}),
         (HAND,), ("seat", None, {"seat": "zed", "person": "<@503>"}), reply_to=MEMBER,
         extra={"done": "Mo sits at zed (seat 3)."}),
    # (players are seated already: they are told where, which is no answer about rights)
    Case("take a free seat typed by name before the first hand", "/join name:zed",
         frozenset({MEMBER, ADMIN}), (), ("join", None, {"name": "zed"}),
         roles=(MEMBER, ADMIN), extra={"done": "sits at zed."}),
    Case("take it by its button under /newgame", "", frozenset({MEMBER, ADMIN}),
         tap="Sit at zed", roles=(MEMBER, ADMIN), extra={"done": "sits at zed."}),
    # once hands are recorded a member's /join asks (ASKED); an admin's takes it
    Case("take a seat typed by name once hands are recorded", "/join name:zed",
         frozenset({ADMIN}), (HAND,), ("join", None, {"name": "zed"}),
         roles=(MEMBER, ADMIN), extra={"done": "sits at zed."}),
    Case("let someone sit in a seat typed by name once hands are recorded", "/join name:zed",
         frozenset({STARTER, ADMIN}), (HAND,), ("join", None, {"name": "zed"}),
         tap="Let them sit at zed", roles=(MEMBER, PLAYER, STARTER, ADMIN),
         extra={"done": "Mo sits at zed (seat 3)."}),
    Case("import a game", "/import", frozenset({ADMIN}), (), ("import", None, {})),
    Case("link a guest name for /stats", "/link name:zed", frozenset({ADMIN}), (),
         ("link", None, {"name": "zed"})),
    Case("change the chat's settings", "/settings timezone:UTC", frozenset({ADMIN}), (),
         ("settings", None, {"timezone": "UTC"})),
    Case("look at the board", "/board", frozenset(ROLES), (HAND,), ("board", None, {})),
    # the ledger: a payment is recorded by the person paid (by account) or an admin
    Case("record a payment made to you", "/paid zed 2 to:pia", frozenset({PLAYER, ADMIN}),
         LEDGER, ("paid", None, {"payment": "zed 2", "to": "pia"})),
    Case("record a payment made to you, more than is owed", "/paid zed 3 to:pia",
         frozenset({ADMIN}), LEDGER, ("paid", None, {"payment": "zed 3", "to": "pia"})),
    Case("record a payment to a guest name", "/paid pia 5 to:zed", frozenset({ADMIN}),
         (MONEY,), ("paid", None, {"payment": "pia 5", "to": "zed"})),
    Case("undo a payment someone else recorded", "/undo payment:1",
         frozenset({STARTER, ADMIN}), (*LEDGER, PAYMENT), ("undo", None, {"payment": 1})),
    Case("start a season", "/season start name:Autumn", frozenset({ADMIN}), (),
         ("season", None, {"action": "start", "name": "Autumn"})),
    # (none is open: an admin is told so, anyone else is refused first)
    Case("end a season", "/season end", frozenset({ADMIN}), (),
         ("season", None, {"action": "end"})),
    Case("look at the season", "/season", frozenset(ROLES), (), ("season", None, {})),
    # /forget: anyone has themselves forgotten (asked first: the answer is the question)
    Case("have yourself forgotten", "/forget", frozenset(ROLES), (HAND,),
         ("forget", None, {})),
    Case("have the whole chat forgotten", "/forget chat", frozenset({ADMIN}), (HAND,),
         ("forget", None, {"what": "chat"})),
    # a club: a chat admin makes it, joins it (here with a code no club has: an admin is
    # told so, anyone else is refused first) and takes the chat out of it; anyone links
    # their own accounts and looks
    Case("make a club", "/club new name:Friday", frozenset({ADMIN}), (),
         ("club", None, {"action": "new", "name": "Friday"})),
    Case("join a club", "/club join code:AAAA-BBBB", frozenset({ADMIN}), (),
         ("club", None, {"action": "join", "code": "AAAA-BBBB"})),
    Case("take the chat out of its club", "/club leave", frozenset({ADMIN}), (),
         ("club", None, {"action": "leave"})),
    Case("link your own accounts", "/account link", frozenset(ROLES), (),
         ("account", None, {"action": "link"})),
    Case("look at the club's ratings", "/rating", frozenset(ROLES), (), ("rating", None, {})),
]

# refused because of who sent it (the words of bot/core/permissions.py, or of a button
# only the starter or an admin may press)
REFUSALS = ("Only ",)
# not done, not refused: the starter or an admin is asked (a /join once hands are recorded)
ASKED = "asks to sit at"


def refused(text: str) -> bool:
    return any(r in text for r in REFUSALS)


def judged(case: Case, role: str, text: str, error: bool) -> bool:
    """Whether the answer to `role` is right: done where allowed; refused for who they are
    elsewhere, or (a seat typed by name once hands are recorded) asked for."""
    if role in case.allowed:  # (an error for another reason is fine: /import needs a file)
        done = case.extra.get("done")
        return (not error and done.lower() in text.lower()) if done else not refused(text)
    if ASKED in text and case.action.startswith("/join") and not case.tap:
        return not error
    return error and refused(text)


def cells() -> list[tuple[Case, str]]:
    return [(case, role) for case in CASES for role in case.roles]


def cell_id(value: object) -> str:
    return value.what.replace(" ", "_") if isinstance(value, Case) else str(value)
