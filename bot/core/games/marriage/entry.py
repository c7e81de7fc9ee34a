"""A Marriage hand as it is entered: the options of /hand, /maal and /edit read into seats.

Maal arrives as numbers or as cards (once the tiplu is known); cards are turned into maal
with the session's maal table whenever the hand is checked, so an edit that changes who is
seen re-counts a tunnella under tunnel pachaunu.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.cards import Card, parse_card, parse_cards
from bot.core.errors import UserError
from bot.core.games.base import PlayContext
from bot.core.games.marriage import maal_table
from bot.core.games.marriage.maal import MaalRoles, count_maal
from bot.core.games.marriage.scoring import MURDER
from bot.core.grammar import parse_bool, parse_int, parse_pairs, split_list
from bot.core.i18n import Text, _, decode, encode
from bot.core.players import Player, Roster, names_in

MAX_MAAL = 999
LIST_KEYS = ("winner", "seen", "foul", "dublee_route")  # options that name players
PAIR_KEYS = ("maal", "cards", "tunnella")  # options of name=value pairs
HAND_USAGE = "/hand winner:alice seen:bob maal:alice=10 bob=5 [dublee:yes] [foul:dave]"


@dataclass
class Entry:
    """Seats throughout."""

    players: list[int]
    winner: int | None = None
    seen: set[int] = field(default_factory=set)
    maal: dict[int, int] = field(default_factory=dict)
    dublee: bool = False
    fouls: set[int] = field(default_factory=set)
    dublee_route: set[int] = field(default_factory=set)
    tiplu: str | None = None
    cards: dict[int, str] = field(default_factory=dict)  # seat -> the cards they held
    tunnellas: dict[int, list[str]] = field(default_factory=dict)  # shown at the deal
    maal_detail: dict[int, Text] = field(default_factory=dict)  # seat -> breakdown from cards

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self.players,
            "winner": self.winner,
            "seen": sorted(self.seen),
            "maal": {str(k): v for k, v in sorted(self.maal.items())},
            "dublee": self.dublee,
            "fouls": sorted(self.fouls),
        }
        if self.dublee_route:
            data["dublee_route"] = sorted(self.dublee_route)
        if self.tiplu:
            data["tiplu"] = self.tiplu
        if self.cards:
            data["cards"] = {str(k): v for k, v in sorted(self.cards.items())}
            data["maal_detail"] = {str(k): encode(v)
                                   for k, v in sorted(self.maal_detail.items())}
        if self.tunnellas:
            data["tunnellas"] = {str(k): v for k, v in sorted(self.tunnellas.items())}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        return cls(
            players=list(data["players"]),
            winner=data.get("winner"),
            seen=set(data.get("seen", ())),
            maal={int(k): v for k, v in data.get("maal", {}).items()},
            dublee=bool(data.get("dublee")),
            fouls=set(data.get("fouls", ())),
            dublee_route=set(data.get("dublee_route", ())),
            tiplu=data.get("tiplu"),
            cards={int(k): v for k, v in data.get("cards", {}).items()},
            tunnellas={int(k): list(v) for k, v in data.get("tunnellas", {}).items()},
            maal_detail={int(k): decode(v) for k, v in data.get("maal_detail", {}).items()},
        )

    def needs_maal(self, unseen_maal: str) -> list[int]:
        """Players whose maal the settlement uses: seen ones, and unseen ones unless murdered."""
        if self.winner is None:
            return []
        return [p for p in self.players
                if p not in self.fouls and (p in self.seen or unseen_maal != MURDER)]

    def missing_maal(self, unseen_maal: str) -> list[int]:
        return [p for p in self.needs_maal(unseen_maal) if p not in self.maal]


class EntryReader:
    """Reads options onto an Entry for one command, against the hand's players and rules."""

    def __init__(self, ctx: PlayContext, entry: Entry) -> None:
        self.ctx = ctx
        self.entry = entry
        self.rules = ctx.rules
        self.table = ctx.roster.in_hand(entry.players)

    def read(self, options: Mapping[str, str]) -> Entry:
        self.table.check_known(names_in(options, LIST_KEYS, PAIR_KEYS), self.ctx.mentions)
        entry = self.entry
        if "winner" in options:
            names = split_list(options["winner"])
            if not names:
                raise UserError(_("Name the winner: winner:NAME"))
            if len(names) > 1:
                raise UserError(_("A hand has exactly one winner; got {names}.",
                                  names=", ".join(names)))
            entry.winner = self.table.resolve(names[0], self.ctx.mentions).seat
        if "seen" in options:
            entry.seen = self.players(options["seen"], "seen")
        if "foul" in options:
            entry.fouls = self.players(options["foul"], "foul")
            for seat in entry.fouls:  # a foul player is out of the exchange: an edit that
                entry.maal.pop(seat, None)  # makes one drops the maal given before
                entry.cards.pop(seat, None)
                entry.maal_detail.pop(seat, None)
                entry.tunnellas.pop(seat, None)
        if "dublee_route" in options:
            entry.dublee_route = self.players(options["dublee_route"], "dublee_route")
        if "dublee" in options:
            entry.dublee = parse_bool(options["dublee"], "dublee")
        if "tiplu" in options:
            self.tiplu(options["tiplu"])
        if "tunnella" in options:
            self.tunnellas(options["tunnella"])
        if "maal" in options:
            self.maal(options["maal"])
        if "cards" in options:
            self.cards(options["cards"])
        if options.keys() & {"tunnella", "maal"}:
            self.check_typed_tunnellas()
        return entry

    def check_typed_tunnellas(self) -> None:
        """A tunnella is counted from cards; a maal typed as a number is already the whole
        maal, so a tunnella beside it would count for nothing: refuse the mix, never drop it."""
        typed = [s for s in sorted(self.entry.tunnellas)
                 if s in self.entry.maal and s not in self.entry.cards]
        if typed:
            name = self.ctx.roster.by_seat(typed[0]).name
            raise UserError(_(
                "{name}'s maal is typed as a number, which is the whole maal, so the "
                "tunnella given for {name} would count for nothing. Either give {name}'s "
                "cards (tiplu: and cards:{name}=...) and the tunnella is counted with them, "
                "or count it into the number and drop it: tunnella:{name}=none.", name=name))

    def players(self, text: str, what: str) -> set[int]:
        words = [w for w in split_list(text) if w.lower() not in ("none", "-")]
        return {p.seat for p in self.table.resolve_many(words, self.ctx.mentions, f"{what}:")}

    def tiplu(self, text: str) -> None:
        card = parse_card(text)
        if card.is_printed_joker:
            raise UserError(_("The tiplu is a card of the packs, not a printed joker."))
        # re-entered by /edit, every card is counted again with the new tiplu
        if self.entry.tiplu and self.entry.tiplu != str(card) and self.entry.cards \
                and self.ctx.editing is None:
            raise UserError(_("This hand's tiplu is {card}; cards were already counted with "
                              "it. /undo the hand to start again.", card=self.entry.tiplu))
        self.entry.tiplu = str(card)

    def tunnellas(self, text: str) -> None:
        for seat, cards in self._pairs(text, "tunnella"):
            if cards.strip().lower() in ("none", "-"):  # taken back
                self.entry.tunnellas.pop(seat.seat, None)
                continue
            shown = [str(c) for c in parse_cards(cards, self.rules["packs"],
                                                 self.rules["printed_jokers"])]
            self.entry.tunnellas[seat.seat] = shown

    def maal(self, text: str) -> None:
        updates: dict[int, int] = {}
        for player, value in self._pairs(text, "maal"):
            if player.seat in updates:
                raise UserError(_("{name}'s maal is given twice.", name=player.name))
            updates[player.seat] = parse_int(value, _("{name}'s maal", name=player.name),
                                             0, MAX_MAAL)
        for seat, value in updates.items():
            self.entry.maal[seat] = value
            self.entry.cards.pop(seat, None)  # a number replaces cards given before
            self.entry.maal_detail.pop(seat, None)

    def cards(self, text: str) -> None:
        if not self.entry.tiplu:
            raise UserError(_("Say the tiplu first, e.g. tiplu:8H, so the cards can be "
                              "counted."))
        for player, cards in self._pairs(text, "cards"):
            self.entry.cards[player.seat] = cards
        count_card_maal(self.entry, self.rules, self.ctx.roster)

    def _pairs(self, text: str, what: str) -> list[tuple[Player, str]]:
        pairs = parse_pairs(text)
        if not pairs:
            raise UserError(_("Give {key} as name=value, e.g. {key}:alice=… bob=…", key=what))
        found = []
        for name, value in pairs:
            player = (self.table.resolve(name, self.ctx.mentions) if name
                      else self._own_seat())
            if not value:
                raise UserError(self._missing_value(player.name, what))
            found.append((player, value))
        return found

    def _own_seat(self) -> Player:
        me = self.ctx.actor_player
        if me is None or me.seat not in self.entry.players:
            raise UserError(_(
                "You are not playing in this hand, so a value without a name can't be "
                "yours. Write name=value; players: {players}.", players=self.table.listing()))
        return me

    @staticmethod
    def _missing_value(name: str, what: str) -> Text:
        """"Give bob's maal: bob=…", for each key a pair may be given with."""
        if what == "maal":
            return _("Give {name}'s maal: {name}=…", name=name)
        if what == "cards":
            return _("Give {name}'s cards: {name}=…", name=name)
        return _("Give {name}'s tunnella: {name}=…", name=name)


def count_card_maal(entry: Entry, rules: Mapping[str, Any], roster: Roster) -> None:
    """Maal for every seat whose cards were given, with the rules in force."""
    if not entry.cards:
        return
    if not entry.tiplu:
        raise UserError(_("Say the tiplu, e.g. tiplu:8H, so the cards can be counted."))
    roles = MaalRoles(parse_card(entry.tiplu), rules["alter"])
    table = rules.get("maal_table") or maal_table.default_table()
    packs, jokers = rules["packs"], rules["printed_jokers"]
    held: dict[int, list[Card]] = {}
    for seat, text in entry.cards.items():
        others = [c for s, cs in held.items() for c in cs if s != seat]
        try:
            # every player's cards together must fit in the packs (and the tiplu turned up)
            held[seat] = parse_cards(text, packs, jokers, [*others, roles.tiplu])
        except UserError as error:
            raise UserError(_("{name}'s cards: {error}", name=roster.by_seat(seat).name,
                              error=error.message)) from None
    for seat, cards in held.items():
        shown = [parse_card(c) for c in entry.tunnellas.get(seat, [])]
        if rules["tunnel_pachaunu"] and seat not in entry.seen and seat != entry.winner:
            shown = []  # tunnel pachaunu: an unseen player's tunnellas count for nothing
        try:
            result = count_maal(cards, roles, table, shown)
        except UserError as error:
            raise UserError(_("{name}: {error}", name=roster.by_seat(seat).name,
                              error=error.message)) from None
        entry.maal[seat] = result.points
        entry.maal_detail[seat] = result.breakdown()
