"""Playing cards as people type them: 8H, 8h, 8♥, 10c, Tc, QS, Ah, jk/joker for a printed joker."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bot.core.errors import UserError
from bot.core.grammar import clip, split_list
from bot.core.i18n.text import _, _n

SUITS = "SHDC"  # spades, hearts, diamonds, clubs
SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
RED = frozenset("HD")
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
_JOKER_WORDS = {"jk", "jkr", "joker", "man", "🃏"}
_CARD = re.compile(r"^(10|[2-9AaTtJjQqKk])([SHDCshdc])$")


@dataclass(frozen=True, order=True)
class Card:
    """rank 1 (ace) to 13 (king) and a suit letter; a printed joker has rank 0 and suit "*"."""

    rank: int
    suit: str

    @property
    def is_printed_joker(self) -> bool:
        return self.rank == 0

    @property
    def red(self) -> bool:
        return self.suit in RED

    def __str__(self) -> str:
        if self.is_printed_joker:
            return "JK"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"


PRINTED_JOKER = Card(0, "*")


def next_rank(rank: int) -> int:
    """One rank up, for poplu: ace is above king, and two is above ace."""
    return rank % 13 + 1


def previous_rank(rank: int) -> int:
    """One rank down, for jhiplu."""
    return (rank - 2) % 13 + 1


def parse_card(token: str) -> Card:
    raw = token.strip().replace("\ufe0f", "")
    if raw.lower() in _JOKER_WORDS:
        return PRINTED_JOKER
    for symbol, letter in SUIT_SYMBOLS.items():
        raw = raw.replace(symbol, letter)
    match = _CARD.match(raw)
    if not match:
        raise UserError(_(
            "`{token}` is not a card. Write rank then suit: 8H, 10c, Tc, QS, A♥; "
            "jk for a printed joker.", token=clip(token)))
    return Card(_RANKS[match.group(1).upper()], match.group(2).upper())


def parse_cards(text: str, packs: int = 3, printed_jokers: bool = False,
                held_elsewhere: Iterable[Card] = ()) -> list[Card]:
    """Cards separated by spaces or commas; more copies than the packs hold is an error."""
    cards = [parse_card(token) for token in split_list(text)]
    elsewhere = Counter(held_elsewhere)
    counts = Counter(cards) + elsewhere
    for card, count in counts.items():
        if card.is_printed_joker:
            if not printed_jokers:
                raise UserError(_("Printed jokers (jk) are not in play here; "
                                  "turn them on with /rules printed_jokers:yes."))
            if count > packs:
                raise UserError(_n("There is only {n} printed joker in {n} pack; you gave {count}.",
                                   "There are only {n} printed jokers in {n} packs; "
                                   "you gave {count}.", packs, count=count))
        elif count > packs:
            if elsewhere[card]:
                raise UserError(_n(
                    "{card} appears {count} times ({here} here, {held} already held "
                    "elsewhere or turned up as tiplu), but {n} pack holds only {n} of it.",
                    "{card} appears {count} times ({here} here, {held} already held "
                    "elsewhere or turned up as tiplu), but {n} packs hold only {n} of it.",
                    packs, card=str(card), count=count, here=count - elsewhere[card],
                    held=elsewhere[card]))
            raise UserError(_n("{card} appears {count} times, but {n} pack holds only {n} "
                               "of it.",
                               "{card} appears {count} times, but {n} packs hold only {n} "
                               "of it.", packs, card=str(card), count=count))
    return cards


def describe(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit, c.rank)))
