"""The Indian cousin, "marriage rummy" (seed 001), as its own game.

Each player's score is PART_A + PART_B:
- PART_A = honour points x players - everyone's honour points (honours are counted by the
  players: honour cards at the honour value, each marriage combination at its value);
- PART_B = -hand_factor x points in hand for everyone but the player who showed, who
  receives what the others give up. Surrender on the first move counts as 2 points in hand,
  later as 5; a player who did not get to play counts half, exactly (seed 001 divides:
  25 -> 12.5 -> -25 at x2; 7 -> 3.5 -> -3.5 at x1).
Points in hand are typed, or given as the cards (J Q K A and 10 count 10, number cards their
value, jokers 0). Halves are kept exactly: the board keeps tenths (point_places 1; migration
4 scaled the whole points stored before). Every hand is zero-sum.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bot.core.cards import Card, parse_card, parse_cards
from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import UserError
from bot.core.examples import example_names, for_each, seated
from bot.core.games.base import Game, HandResult, PlayContext, PlayOutcome
from bot.core.grammar import parse_int, parse_pairs, split_list
from bot.core.i18n import Num, Text, _, _n, join
from bot.core.money import money_rules
from bot.core.permissions import Rule
from bot.core.players import Roster, names_in
from bot.core.points import Trimmed
from bot.core.rules import WHOLE_TABLE, Preset, RuleBook, int_rule

MAX_COUNT = 100
CARD_MOST = 10  # J Q K A and 10: the most one card left in hand counts

RULEBOOK = RuleBook(
    [
        int_rule("honour", 4, 0, 1000, "points for each honour card"),
        int_rule("marriage_combo", 20, 0, 1000, "points for each marriage combination"),
        int_rule("hand_factor", 2, 1, 10, "each point in hand costs this many (PART_B)"),
        int_rule("hand_cap", 0, 0, 1000, "most points in hand a player pays for (0: no cap)"),
        int_rule("surrender_first", 2, 0, 1000, "points in hand for surrender on the first move"),
        int_rule("surrender_later", 5, 0, 1000, "points in hand for surrender later"),
        # the deal (packs, cards each) is what the number of players needs, not a scoring
        # rule: a preset (both are whole tables) keeps it, as it keeps the money rules
        replace(int_rule("packs", 3, 3, 5, "packs of cards in play (the deal must fit: 3 "
                         "packs deal 21 cards to 7 players at most)"), scoring=False),
        replace(int_rule("cards", 21, 7, 21, "cards dealt to each player"), scoring=False),
        *money_rules(),
    ],
    [
        Preset("seed", "the app's defaults: honour 4, marriage 20, hand points x2",
               {"honour": 4, "marriage_combo": 20, "hand_factor": 2, "hand_cap": 0},
               kind=WHOLE_TABLE),
        Preset("scorecard", "the published scorecard: hand points paid once",
               {"hand_factor": 1}, kind=WHOLE_TABLE),
    ],
    headline=("honour", "marriage_combo", "hand_factor"),
)

USAGE = ("/hand winner:asha honours:asha=3 bikash=1 marriages:asha=1 points:bikash=25 "
         "chetan=40 [surrender:dev] [surrender_late:esha] [no_turn:farah]")
HAND_DETAILS = (
    "winner: the player who showed. honours: and marriages: count each player's honour cards "
    "and marriage combinations (missing means none). points: the card points left in each "
    "other player's hand, as a number or as the cards (points:bikash=KS 9H 3C chetan=40, "
    "with joker:8H, the joker picked: J Q K A and 10 count 10, number cards their value, "
    "every card of the joker's rank and a printed joker 0). surrender: surrendered on the "
    "first move (counts as 2), surrender_late: later (5); no_turn: did not get to play "
    "(counts half, exactly: 25 in hand is 12.5, paid twice is 25). The deal (cards x "
    "players, rule cards) must fit in the packs (rule packs)."
)
HAND_OPTIONS = (
    Option("winner", Kind.PLAYER, "the player who showed"),
    Option("honours", Kind.TEXT, "honour cards per player, asha=3 bikash=1", each=True, low=0),
    Option("marriages", Kind.TEXT, "marriage combinations per player, asha=1", each=True,
           low=0),
    Option("points", Kind.TEXT, "points in hand, bikash=25 chetan=KS 9H 3C", each=True,
           low=0),
    Option("joker", Kind.TEXT, "the joker picked, e.g. 8H, to count points from cards"),
    Option("surrender", Kind.PLAYERS, "surrendered on the first move"),
    Option("surrender_late", Kind.PLAYERS, "surrendered later"),
    Option("no_turn", Kind.PLAYERS, "did not get to play (half points)"),
)
HAND_KEYS = frozenset(o.key for o in HAND_OPTIONS)
LIST_KEYS = ("winner", "surrender", "surrender_late", "no_turn")  # options naming players
PAIR_KEYS = ("honours", "marriages", "points")  # options of name=value pairs
GLOSSARY = (
    "Marriage rummy words: honour (power) = a joker-related card worth honour points; "
    "marriage = the special honour combination; points in hand = the card points a player "
    "could not arrange when someone showed; surrender = giving up the hand."
)


@dataclass(frozen=True)
class RummyHand:
    players: tuple[int, ...]
    winner: int
    honour_points: Mapping[int, int]
    hand_points: Mapping[int, Fraction | int]  # after surrender and half points, before the cap


@dataclass(frozen=True)
class RummyScoring:
    hand_factor: int = 2
    hand_cap: int = 0


def settle_rummy(hand: RummyHand, rules: RummyScoring) -> dict[int, Fraction]:
    """Points per seat, exact (a player with no turn pays half: 12.5 is kept as 25/2)."""
    n = len(hand.players)
    total_honour = sum(hand.honour_points.get(p, 0) for p in hand.players)
    deltas = {p: Fraction(hand.honour_points.get(p, 0) * n - total_honour)
              for p in hand.players}
    for p in hand.players:
        if p == hand.winner:
            continue
        points = Fraction(hand.hand_points.get(p, 0))
        if rules.hand_cap:
            points = min(points, Fraction(rules.hand_cap))
        deltas[p] -= rules.hand_factor * points
        deltas[hand.winner] += rules.hand_factor * points
    return deltas


def card_points(card: Card, joker: Card) -> int:
    """Seed 001's card points: J Q K A (and 10) 10, number cards their value, jokers 0."""
    if card.is_printed_joker or card.rank == joker.rank:
        return 0
    return 10 if card.rank == 1 or card.rank >= 10 else card.rank


def in_tenths(points: Fraction) -> int:
    """Points as the board keeps them (point_places 1); every rummy score is whole tenths."""
    tenths = points * 10
    assert tenths.denominator == 1, f"{points} is not whole tenths"
    return int(tenths)


@dataclass
class RummyEntry:
    players: list[int]
    winner: int | None = None
    honours: dict[int, int] = field(default_factory=dict)
    marriages: dict[int, int] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)  # points in hand
    surrender: set[int] = field(default_factory=set)
    surrender_late: set[int] = field(default_factory=set)
    no_turn: set[int] = field(default_factory=set)
    joker: str | None = None  # the joker picked, when points came as cards
    cards: dict[int, str] = field(default_factory=dict)  # seat -> the cards left in hand

    def to_json(self) -> dict[str, Any]:
        def seats(d: Mapping[int, Any]) -> dict[str, Any]:
            return {str(k): v for k, v in sorted(d.items())}

        data = {"players": self.players, "winner": self.winner,
                "honours": seats(self.honours), "marriages": seats(self.marriages),
                "points": seats(self.points), "surrender": sorted(self.surrender),
                "surrender_late": sorted(self.surrender_late),
                "no_turn": sorted(self.no_turn)}
        if self.cards:
            data["joker"] = self.joker
            data["cards"] = seats(self.cards)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RummyEntry:
        def seats(d: Mapping[str, Any]) -> dict[int, Any]:
            return {int(k): v for k, v in d.items()}

        return cls(list(data["players"]), data.get("winner"), seats(data.get("honours", {})),
                   seats(data.get("marriages", {})), seats(data.get("points", {})),
                   set(data.get("surrender", ())), set(data.get("surrender_late", ())),
                   set(data.get("no_turn", ())), data.get("joker"),
                   seats(data.get("cards", {})))


class MarriageRummyGame(Game):
    key = "marriage_rummy"
    title = "Marriage rummy"
    min_players = 2
    max_players = 10
    rulebook = RULEBOOK
    glossary = GLOSSARY
    # a player with no turn pays exactly half: 12.5 is kept in tenths, and +69 is +69
    point_places = Trimmed(1)
    rules_example = "/rules   /rules preset:scorecard   /rules hand_cap:100 rate:0.25 currency:Rs"

    def fit_usage(self, command: str, usage: str, rules: Mapping[str, Any], roster: Roster,
                  state: Mapping[str, Any] | None) -> str:
        """/hand with the points in hand of every player but the winner, and only the
        optional options of players the table has."""
        if command != "hand" or len(roster) < 2:
            return usage
        names = example_names(usage, len(roster))
        return for_each(seated(usage, len(roster)), names[1:], key="points")

    def declare(self) -> tuple[CommandSpec, ...]:
        return (CommandSpec("hand", "record a hand: who showed, honours, points in hand",
                            USAGE, HAND_DETAILS, HAND_OPTIONS, may=Rule.PLAYER,
                            play=self._hand, records=True),)

    def _hand(self, ctx: PlayContext) -> PlayOutcome:
        options = {k: v for k, v in ctx.options.items() if k in HAND_KEYS}
        if ctx.editing is not None:
            if not options:
                raise UserError(_("Say what to change, e.g. /edit hand:2 points:bikash=30"))
            entry = RummyEntry.from_json(ctx.editing)
        else:
            if not options:
                raise UserError(_("Say who showed: {usage}", usage=self.usage_example(ctx)))
            self._check_deal(len(ctx.hand_players), ctx.rules)
            entry = RummyEntry(players=[p.seat for p in ctx.hand_players])
        self._read(entry, options, ctx)
        return PlayOutcome("", result=self._score(entry, ctx))

    def summary_of(self, ctx: PlayContext) -> Text | None:
        assert ctx.editing is not None
        return self._score(RummyEntry.from_json(ctx.editing), ctx).summary

    def deal_problem(self, players: int, rules: Mapping[str, Any]) -> Text:
        packs, each = rules["packs"], rules["cards"]
        if _fits(players, each, packs):
            return ""
        return _n("{players} players x {each} cards and the joker don't fit in {n} pack: "
                  "/rules packs:{fit} deals them.",
                  "{players} players x {each} cards and the joker don't fit in {n} packs: "
                  "/rules packs:{fit} deals them.", packs, players=players, each=each,
                  fit=_packs_that_fit(players, each))

    @staticmethod
    def _check_deal(players: int, rules: Mapping[str, Any]) -> None:
        packs, each = rules["packs"], rules["cards"]
        if not _fits(players, each, packs):
            raise UserError(_n(
                "{players} players x {each} cards = {dealt}, but {n} pack holds {cards} "
                "cards, with one to turn up (rule packs). Sit someone out (/sitout), or "
                "play with more packs: /rules packs:{more}.",
                "{players} players x {each} cards = {dealt}, but {n} packs hold {cards} "
                "cards, with one to turn up (rule packs). Sit someone out (/sitout), or "
                "play with more packs: /rules packs:{more}.",
                packs, players=players, each=each, dealt=players * each, cards=packs * 52,
                more=_packs_that_fit(players, each)))

    def _read(self, entry: RummyEntry, options: Mapping[str, str], ctx: PlayContext) -> None:
        table = ctx.roster.in_hand(entry.players)
        table.check_known(names_in(options, LIST_KEYS, PAIR_KEYS), ctx.mentions)
        if "winner" in options:
            names = split_list(options["winner"])
            if len(names) != 1:
                raise UserError(_("Name exactly one winner: winner:NAME"))
            entry.winner = table.resolve(names[0], ctx.mentions).seat
        if "joker" in options:
            joker = parse_card(options["joker"])
            if joker.is_printed_joker:
                raise UserError(_("joker: is the card picked as the joker, e.g. joker:8H."))
            entry.joker = str(joker)
        # a hand holds the cards dealt (rule cards), one more if drawn before the show: a
        # number above what they can count is a typo (400 for 40)
        most_points = (ctx.rules["cards"] + 1) * CARD_MOST
        for key, limit in (("honours", MAX_COUNT), ("marriages", MAX_COUNT),
                           ("points", most_points)):
            if key in options:
                values: dict[int, int] = getattr(entry, key)
                for name, text in parse_pairs(options[key]):
                    if not name:
                        raise UserError(_("Give {key} as name=number, e.g. {key}:asha=3",
                                          key=key))
                    player = table.resolve(name, ctx.mentions)
                    if key == "points" and not text.strip().isdigit():
                        entry.cards[player.seat] = text  # the cards left in hand
                        continue
                    values[player.seat] = parse_int(text, _whose(player.name, key), 0, limit)
                    if key == "points":
                        entry.cards.pop(player.seat, None)  # a number replaces the cards
        given = {seat for seat, _ in self._pairs_of(options.get("points"), table, ctx)}
        for key in ("surrender", "surrender_late", "no_turn"):
            if key in options:
                words = [w for w in split_list(options[key]) if w.lower() not in ("none", "-")]
                setattr(entry, key, {p.seat for p in table.resolve_many(words, ctx.mentions,
                                                                        f"{key}:")})
        self._contradictions(entry, options, given, ctx)
        self._count_cards(entry, ctx)

    @staticmethod
    def _pairs_of(text: str | None, table: Roster, ctx: PlayContext) -> list[tuple[int, str]]:
        if not text:
            return []
        return [(table.resolve(name, ctx.mentions).seat, value)
                for name, value in parse_pairs(text) if name]

    @staticmethod
    def _contradictions(entry: RummyEntry, options: Mapping[str, str], given: set[int],
                        ctx: PlayContext) -> None:
        """Options that say two things of one player are refused with the reason; what an
        /edit says of a player replaces what the hand said before (a surrender drops the
        points in hand, points drop the surrender, the new winner's points go)."""
        name = ctx.roster.by_seat
        surrendered = entry.surrender | entry.surrender_late
        said_surrender = {s for key in ("surrender", "surrender_late") if key in options
                          for s in getattr(entry, key)}
        both = sorted(given & said_surrender)
        if both:
            who = name(both[0]).name
            raise UserError(_("{name} is given points in hand and a surrender, which counts "
                              "as its own points in hand: give points:{name}=… or the "
                              "surrender, not both.", name=who))
        if entry.winner is not None and entry.winner in given:
            raise UserError(_("{name} showed, so has no points in hand: leave points:{name} "
                              "out.", name=name(entry.winner).name))
        missed = sorted(entry.no_turn & surrendered)
        if missed and (said_surrender or "no_turn" in options):
            raise UserError(_("{name} surrendered, which takes a turn, and did not get to "
                              "play (no_turn:): give one of them.", name=name(missed[0]).name))
        # an /edit: the line's word on a player replaces the hand's
        for seat in said_surrender:
            entry.points.pop(seat, None)
            entry.cards.pop(seat, None)
        for seat in given:
            entry.surrender.discard(seat)
            entry.surrender_late.discard(seat)
        if entry.winner is not None:
            entry.points.pop(entry.winner, None)
            entry.cards.pop(entry.winner, None)

    @staticmethod
    def _count_cards(entry: RummyEntry, ctx: PlayContext) -> None:
        """Points in hand from the cards, with the joker known; all hands together must fit
        in the packs."""
        if not entry.cards:
            return
        if entry.joker is None:
            raise UserError(_("Say the joker picked (joker:8H), so its cards count 0 in "
                              "points:."))
        joker = parse_card(entry.joker)
        held: list[Card] = [joker]  # the joker picked lies face up
        for seat, text in sorted(entry.cards.items()):
            name = ctx.roster.by_seat(seat).name
            try:
                cards = parse_cards(text, ctx.rules["packs"], True, held)
            except UserError as error:
                raise UserError(_("{name}'s points: {error}", name=name,
                                  error=error.message)) from None
            held += cards
            entry.points[seat] = sum(card_points(c, joker) for c in cards)

    def _score(self, entry: RummyEntry, ctx: PlayContext) -> HandResult:
        roster, rules = ctx.roster, ctx.rules
        if entry.winner is None:
            raise UserError(_("Say who showed: winner:NAME. {usage}",
                              usage=self.usage_example(ctx)))
        special = entry.surrender | entry.surrender_late | entry.no_turn
        if entry.winner in special:
            raise UserError(_("The player who showed can't also surrender or miss their "
                              "turn."))
        if len(entry.surrender & entry.surrender_late):
            raise UserError(_("A player surrenders once: on the first move or later, not "
                              "both."))
        losers = [p for p in entry.players if p != entry.winner]
        missing = [p for p in losers if p not in entry.points
                   and p not in entry.surrender | entry.surrender_late]
        if missing:
            who = ", ".join(roster.by_seat(p).name for p in missing)
            raise UserError(_("Give the points in hand for {players}: points:name=number",
                              players=who))
        points: dict[int, Fraction] = {}
        for p in losers:
            if p in entry.surrender:
                value = rules["surrender_first"]
            elif p in entry.surrender_late:
                value = rules["surrender_later"]
            else:
                value = entry.points[p]
            # seed 001: points_in_hand / 2, a true half (never rounded)
            points[p] = Fraction(value, 2) if p in entry.no_turn else Fraction(value)
        honour = {p: entry.honours.get(p, 0) * rules["honour"]
                  + entry.marriages.get(p, 0) * rules["marriage_combo"] for p in entry.players}
        exact = settle_rummy(
            RummyHand(tuple(entry.players), entry.winner, honour, points),
            RummyScoring(rules["hand_factor"], rules["hand_cap"]),
        )
        name = roster.by_seat
        parts: list[Text] = [_("{winner} showed", winner=name(entry.winner).name)]
        if any(honour.values()):
            parts.append(_("honour points {amounts}", amounts=", ".join(
                f"{name(p).name} {v}" for p, v in honour.items() if v)))
        parts.append(_("in hand {amounts}", amounts=join(
            [join([f"{name(p).name} ", _plain(v)], "") for p, v in points.items()], ", ")))
        return HandResult(players=entry.players, inputs=entry.to_json(),
                          deltas={p: in_tenths(v) for p, v in exact.items()},
                          summary=join(parts, "; "))

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        return ""


def _fits(players: int, each: int, packs: int) -> bool:
    """The deal and the joker turned up, from the packs."""
    return players * each + 1 <= packs * 52


def _packs_that_fit(players: int, each: int) -> int:
    """The fewest packs (rule packs) the deal fits in; the most the rule allows if none."""
    spec = RULEBOOK.spec("packs")
    assert spec.low is not None and spec.high is not None
    return next((n for n in range(spec.low, spec.high + 1) if _fits(players, each, n)),
                spec.high)


def _whose(name: str, key: str) -> Text:
    """"asha's honours", as parse_int names the value it reads."""
    if key == "honours":
        return _("{name}'s honours", name=name)
    if key == "marriages":
        return _("{name}'s marriages", name=name)
    return _("{name}'s points", name=name)


def _plain(value: Fraction) -> str | Num:
    """12.5, 25: a half shown as one decimal, as the language shown writes it ("12,5" in
    Portuguese; a half is at most 500, never grouped); a whole number bare, as it was."""
    if value.denominator == 1:
        return str(value.numerator)
    return Num(Decimal(value.numerator) / Decimal(value.denominator))
