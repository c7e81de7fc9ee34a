"""Nepali Marriage as a game plugin: /hand, /maal and /setmaal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.errors import UserError
from bot.core.games.base import CommandInfo, Game, HandResult, PlayContext, PlayOutcome
from bot.core.games.marriage import maal_table
from bot.core.games.marriage.scoring import (
    COUNTED,
    KIDNAP,
    MURDER,
    MarriageHand,
    MarriageScoring,
    settle,
)
from bot.core.grammar import parse_bool, parse_int, parse_pairs, split_list
from bot.core.money import money_rules
from bot.core.players import Player, Roster
from bot.core.rules import Preset, RuleBook, choice_rule, int_rule

MAX_MAAL = 999

RULEBOOK = RuleBook(
    [
        int_rule("seen", 3, 0, 1000, "game points a seen loser pays the winner"),
        int_rule("unseen", 10, 0, 1000, "game points an unseen loser pays the winner"),
        int_rule("dublee", 5, 0, 1000,
                 "extra points each loser pays when the winner finishes with dublees"),
        int_rule("dublee_min_players", 2, 2, 10,
                 "fewest players in a hand for a dublee finish to be allowed"),
        choice_rule("unseen_maal", MURDER, {
            MURDER: "an unseen player's maal is voided",
            KIDNAP: "an unseen player's maal is voided and added to the winner's",
            COUNTED: "an unseen player's maal counts like anyone's",
        }, "what happens to an unseen player's maal"),
        int_rule("foul", 15, 0, 1000, "penalty a foul player pays"),
        choice_rule("foul_pays", "each", {
            "each": "the penalty to every other player in the hand",
            "winner": "the penalty to the winner only",
        }, "who receives a foul penalty"),
        *money_rules(),
    ],
    [
        Preset("standard", "the usual Nepali table: seen 3, unseen 10, dublee +5, murder",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": MURDER,
                "dublee_min_players": 2}),
        Preset("kidnap", "as standard, but an unseen player's maal goes to the winner",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": KIDNAP}),
        Preset("maalcounter", "Maal Counter's formula read literally: unseen maal counts",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": COUNTED}),
        Preset("dublee4", "as standard, with dublee finishes only when 4 or more play",
               {"seen": 3, "unseen": 10, "dublee": 5, "unseen_maal": MURDER,
                "dublee_min_players": 4}),
    ],
)

HAND_USAGE = (
    "/hand winner:alice seen:bob maal:alice=10 bob=5 [dublee:yes] [foul:dave]"
)
COMMANDS = {
    "hand": CommandInfo(
        "hand", "record a hand: winner, seen players, maal",
        HAND_USAGE,
        "Exactly one winner; the winner is seen. Players not in seen: are unseen. "
        "maal: takes name=number pairs (a bare number is your own). If a seen player's maal "
        "is missing the hand waits on the board until it comes with /maal. "
        "dublee:yes means the winner finished with dublees. foul: names players who fouled: "
        "they pay the foul penalty and take no part in the maal exchange "
        "(/hand foul:dave alone records a misdeal). /hand maal:7 alone reports your own maal "
        "for the waiting hand.",
        frozenset({"winner", "seen", "maal", "dublee", "foul"}),
    ),
    "maal": CommandInfo(
        "maal", "give maal for the hand that is waiting",
        "/maal 7   or   /maal bob=5 carol=8",
        "A bare number is your own maal; name=number gives someone else's. The hand is "
        "scored as soon as every maal it needs is in.",
        frozenset({""}),
    ),
    "setmaal": CommandInfo(
        "setmaal", "show or change the maal value table",
        "/setmaal   /setmaal preset:house   /setmaal tiplu:3 8 alter:5 15 30",
        "Values are the points for holding 1, 2, 3 ... of each item (none clears one). "
        "The table is used when maal is computed from cards. Tables: "
        + "; ".join(f"{k}: {v[0]}" for k, v in maal_table.PRESETS.items()) + ".",
        frozenset({"preset"}) | {item.key for item in maal_table.ITEMS},
    ),
}

GLOSSARY = (
    "Marriage words: tiplu = the joker card turned up once someone shows three pure sets "
    "(its other copies are tiplu too); poplu = one rank above tiplu, jhiplu = one below, same "
    "suit; marriage = jhiplu+tiplu+poplu; alter = same rank and colour as tiplu; man = printed "
    "joker; tunnella = three identical cards; dublee = a pair of identical cards; maal = the "
    "points your cards earn once the tiplu is known; seen = you showed your pure sets (or 7 "
    "dublees) and saw the tiplu, unseen = you did not; foul = a wrong show or misdeal; "
    "kidnap and murder: see /help rules."
)


@dataclass
class Entry:
    """A Marriage hand as entered so far. Seats throughout."""

    players: list[int]
    winner: int | None = None
    seen: set[int] = field(default_factory=set)
    maal: dict[int, int] = field(default_factory=dict)
    dublee: bool = False
    fouls: set[int] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "winner": self.winner,
            "seen": sorted(self.seen),
            "maal": {str(k): v for k, v in sorted(self.maal.items())},
            "dublee": self.dublee,
            "fouls": sorted(self.fouls),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        return cls(
            players=list(data["players"]),
            winner=data.get("winner"),
            seen=set(data.get("seen", ())),
            maal={int(k): v for k, v in data.get("maal", {}).items()},
            dublee=bool(data.get("dublee")),
            fouls=set(data.get("fouls", ())),
        )

    def needs_maal(self, unseen_maal: str) -> list[int]:
        """Players whose maal the settlement uses: seen ones, and unseen ones unless murdered."""
        if self.winner is None:
            return []
        return [
            p for p in self.players
            if p not in self.fouls and (p in self.seen or unseen_maal != MURDER)
        ]

    def missing_maal(self, unseen_maal: str) -> list[int]:
        return [p for p in self.needs_maal(unseen_maal) if p not in self.maal]


class MarriageGame(Game):
    key = "marriage"
    title = "Nepali Marriage"
    min_players = 2
    max_players = 10
    rulebook = RULEBOOK
    commands = COMMANDS
    result_command = "hand"
    glossary = GLOSSARY

    def play(self, ctx: PlayContext) -> PlayOutcome:
        if ctx.editing is not None:
            return self._edit(ctx)
        if ctx.command == "hand":
            return self._hand(ctx)
        if ctx.command == "maal":
            return self._maal(ctx)
        if ctx.command == "setmaal":
            return self._setmaal(ctx)
        raise UserError(f"Marriage has no /{ctx.command}.")

    # --- commands -------------------------------------------------------------------------

    def _hand(self, ctx: PlayContext) -> PlayOutcome:
        options = dict(ctx.options)
        if "" in options:
            raise UserError(f"Give the hand as key:value options: {HAND_USAGE}")
        only_maal = options.keys() <= {"maal"}
        if ctx.pending is not None:
            if only_maal and options:
                return self._add_maal(ctx, options["maal"])
            waiting = self._names(Entry.from_json(ctx.pending).missing_maal(
                ctx.rules["unseen_maal"]), ctx.roster)
            raise UserError(
                f"A hand is waiting for maal from {waiting}. Send /maal 7 (or /maal name=7), "
                "or /undo to drop that hand first."
            )
        if only_maal:
            if not options:
                raise UserError(f"Say who won and who saw: {HAND_USAGE}")
            raise UserError(f"No hand is waiting for maal. Record one with {HAND_USAGE}")
        entry = self._parse(options, ctx, Entry(players=[p.seat for p in ctx.hand_players]))
        return self._finish(entry, ctx)

    def _maal(self, ctx: PlayContext) -> PlayOutcome:
        text = ctx.options.get("", "")
        if ctx.pending is None:
            raise UserError(f"No hand is waiting for maal. Record one with {HAND_USAGE}")
        if not text:
            raise UserError("Give a number: /maal 7 for your own, /maal bob=5 for someone else.")
        return self._add_maal(ctx, text)

    def _add_maal(self, ctx: PlayContext, text: str) -> PlayOutcome:
        assert ctx.pending is not None
        entry = Entry.from_json(ctx.pending)
        self._read_maal(text, entry, ctx)
        return self._finish(entry, ctx)

    def _setmaal(self, ctx: PlayContext) -> PlayOutcome:
        options = dict(ctx.options)
        table = ctx.rules.get("maal_table") or maal_table.default_table()
        if not options:
            return PlayOutcome("Maal table (points for 1/2/3... held):\n"
                               + maal_table.describe_table(table))
        if "" in options:
            raise UserError(f"Use key:value options: {COMMANDS['setmaal'].usage}")
        if "preset" in options:
            table = maal_table.preset_table(options.pop("preset"))
        table = maal_table.updated_table(table, options)
        return PlayOutcome(
            "Maal table changed for the hands that follow:\n" + maal_table.describe_table(table),
            rules={**ctx.rules, "maal_table": table},
        )

    def _edit(self, ctx: PlayContext) -> PlayOutcome:
        assert ctx.editing is not None
        options = {k: v for k, v in ctx.options.items() if k in COMMANDS["hand"].keys}
        if not options:
            raise UserError("Say what to change, e.g. /edit hand:3 maal:bob=6 or seen:bob carol")
        entry = self._parse(options, ctx, Entry.from_json(ctx.editing))
        return self._finish(entry, ctx)

    # --- parsing and scoring -------------------------------------------------------------

    def _parse(self, options: Mapping[str, str], ctx: PlayContext, entry: Entry) -> Entry:
        """Apply the given options onto `entry` (a fresh one, or the hand being edited)."""
        table = Roster(p for p in ctx.roster if p.seat in entry.players)
        if "winner" in options:
            names = split_list(options["winner"])
            if not names:
                raise UserError("Name the winner: winner:NAME")
            if len(names) > 1:
                raise UserError(f"A hand has exactly one winner; got {', '.join(names)}.")
            entry.winner = table.resolve(names[0], ctx.mentions).seat
        if "seen" in options:
            entry.seen = self._players(options["seen"], table, ctx, "seen")
        if "foul" in options:
            entry.fouls = self._players(options["foul"], table, ctx, "foul")
        if "dublee" in options:
            entry.dublee = parse_bool(options["dublee"], "dublee")
        if "maal" in options:
            self._read_maal(options["maal"], entry, ctx)
        self._check(entry, ctx)
        return entry

    def _players(self, text: str, table: Roster, ctx: PlayContext, what: str) -> set[int]:
        words = [w for w in split_list(text) if w.lower() not in ("none", "-")]
        return {p.seat for p in table.resolve_many(words, ctx.mentions, f"{what}:")}

    def _read_maal(self, text: str, entry: Entry, ctx: PlayContext) -> None:
        table = Roster(p for p in ctx.roster if p.seat in entry.players)
        pairs = parse_pairs(text)
        if not pairs:
            raise UserError("Give maal as name=number, e.g. maal:alice=10 bob=5")
        updates: dict[int, int] = {}
        for name, value in pairs:
            player = table.resolve(name, ctx.mentions) if name else self._own_seat(ctx, table)
            if not value:
                raise UserError(f"Give {player.name}'s maal as a number: {player.name}=7")
            if player.seat in updates:
                raise UserError(f"{player.name}'s maal is given twice.")
            updates[player.seat] = parse_int(value, f"{player.name}'s maal", 0, MAX_MAAL)
        entry.maal.update(updates)

    def _own_seat(self, ctx: PlayContext, table: Roster) -> Player:
        if ctx.actor_player is None or ctx.actor_player.seat not in {p.seat for p in table}:
            raise UserError(
                f"You are not playing in this hand, so a bare number can't be yours. "
                f"Write name=number; players: {table.listing()}."
            )
        return ctx.actor_player

    def _check(self, entry: Entry, ctx: PlayContext) -> None:
        names = ctx.roster
        if entry.winner is None and not entry.fouls:
            raise UserError(f"Name the winner: {HAND_USAGE}")
        if entry.winner is not None:
            if entry.winner in entry.fouls:
                raise UserError(f"{names.by_seat(entry.winner).name} can't win and foul "
                                "in the same hand.")
            entry.seen.add(entry.winner)
        if len(entry.fouls) == len(entry.players):
            raise UserError("Everybody fouled? At least one player must be clean.")
        foul_maal = [p for p in entry.fouls if p in entry.maal]
        if foul_maal:
            raise UserError(f"{self._names(foul_maal, names)} fouled and takes no part in the "
                            "maal exchange; leave their maal out.")
        if entry.dublee:
            if entry.winner is None:
                raise UserError("A dublee finish needs a winner.")
            least = ctx.rules["dublee_min_players"]
            if len(entry.players) < least:
                raise UserError(f"A dublee finish needs at least {least} players "
                                f"(rule dublee_min_players); this hand has {len(entry.players)}.")

    def _finish(self, entry: Entry, ctx: PlayContext) -> PlayOutcome:
        """Score the entry if every maal it needs is in; otherwise keep it waiting."""
        self._check(entry, ctx)
        missing = entry.missing_maal(ctx.rules["unseen_maal"])
        if missing:
            who = self._names(missing, ctx.roster)
            if ctx.editing is not None:
                raise UserError(f"The hand would need maal for {who}: add maal:name=number.")
            return PlayOutcome(
                f"Hand waiting for maal from {who}: each sends /maal 7, "
                "or anyone sends /maal name=7.",
                pending=entry.to_json(),
            )
        scoring = MarriageScoring.from_rules(ctx.rules)
        settlement = settle(
            MarriageHand(
                players=tuple(entry.players), winner=entry.winner, seen=frozenset(entry.seen),
                maal=entry.maal, dublee=entry.dublee, fouls=frozenset(entry.fouls),
            ),
            scoring,
        )
        result = HandResult(
            players=entry.players,
            inputs=entry.to_json(),
            deltas=settlement.deltas,
            summary=self.summary(entry, ctx.roster, ctx.rules),
        )
        return PlayOutcome("", pending=None, result=result)

    def summary(self, entry: Entry, roster: Roster, rules: Mapping[str, Any]) -> str:
        name = lambda seat: roster.by_seat(seat).name  # noqa: E731
        parts = []
        if entry.winner is not None:
            parts.append(f"{name(entry.winner)} won" + (" with dublees" if entry.dublee else ""))
            others = [p for p in entry.players if p != entry.winner and p not in entry.fouls]
            seen = [name(p) for p in others if p in entry.seen]
            unseen = [name(p) for p in others if p not in entry.seen]
            if seen:
                parts.append("seen " + ", ".join(seen))
            if unseen:
                note = {MURDER: " (maal murdered)", KIDNAP: " (maal kidnapped)"}.get(
                    rules["unseen_maal"], "")
                parts.append("unseen " + ", ".join(unseen) + note)
            if entry.maal:
                parts.append("maal " + ", ".join(
                    f"{name(p)} {entry.maal[p]}" for p in entry.players if p in entry.maal))
        if entry.fouls:
            parts.append("foul " + ", ".join(name(p) for p in sorted(entry.fouls)))
        return "; ".join(parts)

    def waiting_for(self, pending: Mapping[str, Any], rules: Mapping[str, Any]) -> list[int]:
        return Entry.from_json(pending).missing_maal(rules["unseen_maal"])

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> str:
        entry = Entry.from_json(pending)
        who = self._names(entry.missing_maal(rules["unseen_maal"]), roster)
        return f"waiting for maal from {who} ({self.summary(entry, roster, rules)})"

    @staticmethod
    def _names(seats: list[int] | set[int], roster: Roster) -> str:
        return ", ".join(roster.by_seat(s).name for s in sorted(seats))
