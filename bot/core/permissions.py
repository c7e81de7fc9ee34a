"""Who may change what: the one place the scorebook's permissions are decided.

Each command declares a Rule (in its spec); the service checks the simple ones before the
command runs and a handler asks `check` again with the hand or seats a rule is about. The
table in docs/players/permissions.md ("The table") is this module in words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.core.actor import Actor
from bot.core.errors import UserError
from bot.core.i18n.text import Msg, Text, _

if TYPE_CHECKING:
    from bot.core.players import Player
    from bot.core.session import HandRecord, SessionState


class Rule(StrEnum):
    ANYONE = "anyone"
    PLAYER = "player"  # a player seated (by account) at the open game, its starter, an admin
    TABLE_RULES = "table_rules"  # before the first hand: PLAYER; after (or while the first
    # waits to be scored, with whatever rules there are then): STARTER
    STARTER = "starter"  # the person who started the open game, or an admin
    ADMIN = "admin"  # a chat admin (Telegram) or someone who can manage the server (Discord);
    # in a private chat or DM with the bot, its one person (the adapters decide it)
    RECORDER = "recorder"  # the hand's recorder, the starter, an admin (undo)
    HAND_PLAYER = "hand_player"  # the hand's players, its recorder, the starter, an admin
    SELF = "self"  # your own seat; someone else's: the starter or an admin
    SEAT = "seat"  # a new seat, or a free seat typed by name before the first hand: anyone;
    # a seat typed by name once hands are recorded: the starter's or an admin's say
    PAYEE = "payee"  # a payment: the person paid (by their account) up to what is owed, an
    # admin any
    PAYMENT = "payment"  # undo a payment: whoever recorded it, an admin
    FORGET = "forget"  # forget yourself: anyone; the whole chat: an admin
    CLUB = "club"  # a club's: a chat admin makes, joins and leaves it and gives codes; the
    # club's owner or its admins take tables out and run its seasons and page; anyone looks


WHO: dict[Rule, Msg] = {
    Rule.ANYONE: _("anyone"),
    Rule.PLAYER: _("a player at the table, the person who started the game or a chat admin"),
    Rule.TABLE_RULES: _("before the first hand a player; after it the person who started "
                        "the game or a chat admin"),
    Rule.STARTER: _("the person who started the game or a chat admin"),
    Rule.ADMIN: _("a chat admin"),
    Rule.RECORDER: _("the person who recorded it, the person who started the game or a "
                     "chat admin"),
    Rule.HAND_PLAYER: _("its players, the person who recorded it, the person who started "
                        "the game or a chat admin"),
    Rule.SELF: _("the player themselves, the person who started the game or a chat admin"),
    Rule.SEAT: _("anyone for a new seat or, before the first hand, a free seat typed by "
                 "name; after it, the person who started the game or a chat admin"),
    Rule.PAYEE: _("the person who was paid (by their account, not a typed name; up to what "
                  "the payer owes and they are owed) or a chat admin"),
    Rule.PAYMENT: _("the person who recorded it or a chat admin"),
    Rule.FORGET: _("a chat admin (anyone may have themselves forgotten)"),
    Rule.CLUB: _("a chat admin makes, joins and leaves a club; its owner or admins take "
                 "tables out and run its seasons and page; anyone looks"),
}

# Rules the service can decide from the session alone, before the command runs.
UP_FRONT = frozenset({Rule.ANYONE, Rule.PLAYER, Rule.TABLE_RULES, Rule.STARTER, Rule.ADMIN})


@dataclass(frozen=True)
class Roles:
    """What the person sending a command is, in this chat."""

    actor: Actor
    seat: Player | None  # their own seat: linked to their account, never matched by name
    starter: bool
    admin: bool

    @property
    def trusted(self) -> bool:
        return self.starter or self.admin


def roles_of(actor: Actor, session: SessionState | None) -> Roles:
    if session is None:
        return Roles(actor, None, False, actor.is_admin)
    seat = session.roster.find_user(actor.id)
    handles = {h.lower() for h in actor.handles}
    if seat is None and handles:
        seat = next((p for p in session.players if p.user_id is None and p.handle in handles),
                    None)
    if seat is None and actor.by_name:
        named = session.roster.by_name(actor.name)
        seat = named if named is not None and named.user_id is None else None
    return Roles(actor, seat, session.created_by == actor.id, actor.is_admin)


def needs_admin_status(rule: Rule) -> bool:
    """Whether the answer can depend on the person being a chat admin (an adapter fetches
    it only for these)."""
    return rule != Rule.ANYONE


def allowed(rule: Rule, roles: Roles, *, hand_count: int = 0,
            hand: HandRecord | None = None, recorded_by: str | None = None,
            seats: Iterable[Player] = (), claim: bool = False, payee: bool = False,
            within: bool = True, whole_chat: bool = False, waiting: bool = False) -> bool:
    if roles.admin or rule == Rule.ANYONE:
        return True
    if rule == Rule.ADMIN:
        return False
    # what a person may have forgotten is only themselves: starting a game gives no say
    if rule == Rule.FORGET:
        return not whole_chat
    if rule == Rule.CLUB:  # each of its actions is checked as what it is (handlers/club/)
        return True
    # the ledger is the chat's, not a game's: starting a game gives no say over it
    if rule == Rule.PAYEE:
        # the payer's own word is not enough; the person paid gives up only her own claim,
        # never more than the payer owes (no debt moved onto anyone, no balance flipped)
        return payee and within
    if rule == Rule.PAYMENT:
        return recorded_by == roles.actor.id
    if roles.starter:
        return True
    if rule == Rule.PLAYER:
        return roles.seat is not None
    if rule == Rule.TABLE_RULES:
        # a hand waiting (for its maal) is scored with the rules of the moment it is done:
        # a player who sees who won it must not set its stake
        return roles.seat is not None and hand_count == 0 and not waiting
    if rule == Rule.STARTER:
        return False
    if rule == Rule.RECORDER:
        by = hand.recorded_by if hand is not None else recorded_by
        return by == roles.actor.id
    if rule == Rule.HAND_PLAYER:
        assert hand is not None
        return hand.recorded_by == roles.actor.id or (
            roles.seat is not None and roles.seat.seat in hand.players)
    if rule == Rule.SELF:
        return roles.seat is not None and all(p.seat == roles.seat.seat for p in seats)
    if rule == Rule.SEAT:
        # a seat typed by name is someone's: before the first hand whoever sits down first
        # takes it (the table sees who); once hands are recorded it takes the starter's say
        return not claim or hand_count == 0
    raise AssertionError(rule)


def check(rule: Rule, roles: Roles, what: Text, **facts: object) -> None:
    """Raise a UserError that says who may, unless `roles` may. `what` is lazy text, what
    they tried to do: _("use /{command} here", command=name)."""
    if not allowed(rule, roles, **facts):  # type: ignore[arg-type]
        if rule == Rule.TABLE_RULES:  # its phrase says both times: say the one that applies
            if facts.get("hand_count"):
                # TRANSLATORS: {who} and {what} as in "Only {who} can {what}."
                raise UserError(_("Only {who} can {what} once hands are recorded.",
                                  who=WHO[Rule.STARTER], what=what))
            if facts.get("waiting"):
                # TRANSLATORS: {who} and {what} as in "Only {who} can {what}."
                raise UserError(_("Only {who} can {what} while a hand waits: it would be "
                                  "scored with the new rules.", who=WHO[Rule.STARTER],
                                  what=what))
            rule = Rule.PLAYER
        # TRANSLATORS: {who} is one of the "who may" phrases (a chat admin; the person who
        # started the game ...), {what} what was tried (use /hand here; undo hand 3 ...)
        raise UserError(_("Only {who} can {what}.", who=WHO[rule], what=what))
