"""Call Break (Nepal, India, Bangladesh) as a game plugin: /bid, /tricks and /round.

The game, as the table plays it: 4 players, 52 cards, spades always trumps, 13 cards each
and so 13 tricks a round. Before play each player calls (bids) the tricks they undertake to
take. A player who takes at least the call scores the call, plus 0.1 for each trick over it
(called 3, took 5: 3.2); a player who takes fewer scores minus the call (called 4, took 2:
-4). The usual game is 5 rounds and the highest total wins. Nothing passes between players:
each scores on their own, so the end names the winner and settles nothing (not zero-sum).

What this follows, and where tables differ (each difference is a rule, /help rules):
- pagat.com's Call Break page, as quoted on apprecs.com's Callbreak listing (the pagat page
  itself was not in the searchable store): the deal, "each player calls a number, which must
  be at least 1 (the maximum sensible call is 8)".
- callbreak.xyz's rules and winzogames.com's game rules: calls 1 to 8; the call plus 0.1 a
  trick over; minus the call when short; 5 rounds (winzo plays 3). The defaults here.
- realcallbreak.com: the worked example "call 3, win 5: 3.2" and "call 5, win 3: -5".
- a23.com: calls 1 to 13, and a call not made costs the tricks short (the `a23` preset).
- cardrulesplus.com: calls 2 to 13 (the `min2` preset).
- winzogames.com's scoring article: tricks over the call earn nothing (`overtricks:no`).
- "A made call of 8 or more is worth 13" is a house rule some tables play; no page above
  states it, so it is off unless chosen (`eight_is_13:yes`, or the `thirteen` preset). With
  it, tricks over the call still count 0.1 each when overtricks are on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import About, UserError
from bot.core.games.base import Game, HandResult, PlayContext, PlayOutcome, Seat
from bot.core.games.callbreak.scoring import TRICKS, Scoring, round_scores
from bot.core.grammar import parse_int, parse_pairs, split_list
from bot.core.i18n import Msg, Num, Text, _, _n, join
from bot.core.money import money_rules
from bot.core.permissions import Rule
from bot.core.players import Player, Roster, names_in
from bot.core.points import value as amount
from bot.core.rules import ADDITION, WHOLE_TABLE, Preset, RuleBook, bool_rule, choice_rule, int_rule

PLACES = 1  # scores in tenths: 3.2 is kept as 32

RULEBOOK = RuleBook(
    [
        int_rule("rounds", 5, 1, 50, "rounds in a game; the highest total after the last wins"),
        int_rule("min_bid", 1, 1, 13, "the lowest bid (call) allowed"),
        int_rule("max_bid", 8, 1, 13, "the highest bid (call) allowed"),
        bool_rule("overtricks", True, "each trick over the bid adds 0.1 (no: a made bid "
                                      "scores the bid only)"),
        choice_rule("miss", "bid", {"bid": "minus the bid", "short": "minus the tricks short"},
                    "what a bid not made scores"),
        bool_rule("eight_is_13", False, "a made bid of 8 or more scores 13"),
        *money_rules(),
    ],
    # standard and a23 are whole tables (the common scoring; the A23 app's); thirteen (a
    # house rule), min2 (cardrulesplus.com's bids) and whole (winzo's no 0.1) each change
    # one thing on whatever is set.
    [
        Preset("standard", "bids 1 to 8, +0.1 a trick over, minus the bid when short",
               {"min_bid": 1, "max_bid": 8, "overtricks": True, "miss": "bid",
                "eight_is_13": False}, kind=WHOLE_TABLE),
        Preset("thirteen", "bids up to 13; a made bid of 8 or more scores 13",
               {"max_bid": 13, "eight_is_13": True}, kind=ADDITION),
        Preset("min2", "bids 2 to 13", {"min_bid": 2, "max_bid": 13}, kind=ADDITION),
        Preset("a23", "the A23 app: bids 1 to 13, a miss costs the tricks short",
               {"min_bid": 1, "max_bid": 13, "miss": "short"}, kind=WHOLE_TABLE),
        Preset("whole", "no 0.1 for tricks over the bid", {"overtricks": False},
               kind=ADDITION),
    ],
    headline=("rounds", "min_bid", "max_bid", "overtricks"),
)

ROUND_USAGE = ("/round bids:alice=3 bob=4 carol=2 dave=3 tricks:alice=5 bob=2 carol=3 dave=3"
               "   or   /bid 3 4 2 3 then /tricks 5 2 3 3")
ROUND_DETAILS = (
    "A round in one line, or in two: bids: before play, tricks: after it (then /bid and "
    "/tricks do the same). Each takes name=number pairs, or one number for each player in "
    "seat order (as /players lists them), or one number alone for your own seat. The round "
    "waits on the board until every bid and every count of tricks is in; the tricks must "
    "add up to 13. A made bid scores the bid plus 0.1 for each trick over it (bid 3, took "
    "5: 3.2); a bid not made scores minus the bid (bid 4, took 2: -4). After the last round "
    "(5 unless /rules rounds:N) the highest total wins. Rules: pagat.com's Call Break and "
    "the scoring common to callbreak.xyz, realcallbreak.com and winzogames.com."
)
BID_USAGE = "/bid alice=3 bob=4 carol=2 dave=3   /bid 3 4 2 3 (seat order)   alice: /bid 3"
BID_DETAILS = ("The bids (calls) for the round about to be played: the round waits for its "
               "tricks. A bid given again before the tricks replaces the earlier one.")
TRICKS_USAGE = "/tricks alice=5 bob=2 carol=3 dave=3   /tricks 5 2 3 3 (seat order)"
TRICKS_DETAILS = ("The tricks each player took; they add up to 13. The round is scored as "
                  "soon as every bid and every count of tricks is in.")
ROUND_OPTIONS = (
    Option("bids", Kind.TEXT, "each player's bid: alice=3 bob=4, or 3 4 2 3 in seat order",
           each=True, low=1, high=13),
    Option("tricks", Kind.TEXT, "tricks taken: alice=5 bob=2, or 5 2 3 3 in seat order",
           each=True, low=0, high=13),
)
GLOSSARY = (
    "Call Break words: call = bid, the tricks a player undertakes to take; trick (also "
    "called a hand) = one card from each player, the highest spade or else the highest card "
    "of the suit led takes it; spades are always trumps; round = 13 tricks; a made call "
    "scores the call plus 0.1 a trick over (3 called, 5 taken: 3.2), a broken call minus "
    "the call."
)
RULES_NOTE = (
    "Call Break's rules follow pagat.com's Call Break and the scoring common to "
    "callbreak.xyz, realcallbreak.com and winzogames.com; a23 is the A23 app's table, min2 "
    "cardrulesplus.com's; eight_is_13 is a house rule, off unless chosen."
)


@dataclass
class Entry:
    """A round as entered so far: seats in seat order, bids and tricks by seat."""

    players: list[int]
    bids: dict[int, int] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)

    def complete(self) -> bool:
        return all(s in self.bids and s in self.tricks for s in self.players)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players,
                "bids": {str(k): v for k, v in sorted(self.bids.items())},
                "tricks": {str(k): v for k, v in sorted(self.tricks.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        return cls(list(data["players"]), {int(k): v for k, v in data.get("bids", {}).items()},
                   {int(k): v for k, v in data.get("tricks", {}).items()})


def _played(state: Mapping[str, Any] | None) -> int:
    return int((state or {}).get("played", 0))


class CallBreakGame(Game):
    key = "callbreak"
    title = "Call Break"
    min_players = 4
    max_players = 4
    rulebook = RULEBOOK
    glossary = GLOSSARY
    rules_note = RULES_NOTE
    zero_sum = False  # each player scores alone: the end names a winner
    money_against_average = True  # played for money, each pays or gets their score less
    # the table's average, so the money adds up to zero and is settled at the end
    edit_key = "round"
    hand_word = "round"
    rules_example = "/rules   /rules preset:thirteen   /rules rounds:5 rate:0.25 currency:Rs"
    point_places = PLACES

    def declare(self) -> tuple[CommandSpec, ...]:
        return (
            CommandSpec("round", "enter a round: the bids and the tricks taken", ROUND_USAGE,
                        ROUND_DETAILS, ROUND_OPTIONS, may=Rule.PLAYER, play=self._round,
                        records=True),
            CommandSpec("bid", "the bids (calls) before a round is played", BID_USAGE,
                        BID_DETAILS,
                        (Option("", Kind.TEXT, "alice=3 bob=4 ..., 3 4 2 3 in seat order, "
                                "or your own bid", name="bids", each=True, low=1, high=13),),
                        may=Rule.PLAYER, play=self._bid, pad=True),
            CommandSpec("tricks", "the tricks taken: scores the waiting round", TRICKS_USAGE,
                        TRICKS_DETAILS,
                        (Option("", Kind.TEXT, "alice=5 bob=2 ..., 5 2 3 3 in seat order, "
                                "or your own tricks", name="tricks", each=True, low=0,
                                high=13),),
                        may=Rule.PLAYER, play=self._tricks, pad=True),
        )

    def setup(self, options: Mapping[str, str], players: list[Player], named: bool,
              seat: Seat | None = None) -> tuple[list[Player], dict[str, Any] | None]:
        players, _ = super().setup(options, players, named)
        return players, {"played": 0}  # rounds recorded: the game ends after rules' rounds

    # --- entering a round ----------------------------------------------------------------

    def _round(self, ctx: PlayContext) -> PlayOutcome:
        return self._enter(ctx, ctx.options.get("bids", ""), ctx.options.get("tricks", ""))

    def _bid(self, ctx: PlayContext) -> PlayOutcome:
        return self._enter(ctx, ctx.options.get("", ""), "")

    def _tricks(self, ctx: PlayContext) -> PlayOutcome:
        return self._enter(ctx, "", ctx.options.get("", ""))

    def _enter(self, ctx: PlayContext, bids_text: str, tricks_text: str) -> PlayOutcome:
        rules = ctx.rules
        if not bids_text.strip() and not tricks_text.strip():
            if ctx.editing is not None:
                raise UserError(_("Say what to change, e.g. /edit round:2 tricks:alice=4 "
                                  "bob=3"))
            raise UserError(_("Give the bids, the tricks or both: {example}",
                              example=ctx.example(ROUND_USAGE)))
        played = _played(ctx.state)
        if ctx.editing is not None:
            entry = Entry.from_json(ctx.editing)
        elif ctx.pending is not None:
            entry = Entry.from_json(ctx.pending)
        else:
            if played >= rules["rounds"]:
                raise UserError(_("The game is over: {played} of {rounds} rounds played. "
                                  "/endgame for the result, or /rules rounds:{next} to play "
                                  "on.", played=played, rounds=rules["rounds"],
                                  next=played + 1))
            if len(ctx.hand_players) != self.min_players:
                # the core checks this for /round only; /bid and /tricks start rounds too
                playing = Roster(ctx.hand_players).listing()
                if not playing:
                    raise UserError(_("Call Break is played by 4; nobody is playing now. "
                                      "Others sit down with /join or come back with /back."))
                raise UserError(_("Call Break is played by 4; playing now: {players}. Others "
                                  "sit down with /join or come back with /back.",
                                  players=playing))
            entry = Entry([p.seat for p in ctx.hand_players])
        named = {"bids": bids_text, "tricks": tricks_text}
        ctx.roster.in_hand(entry.players).check_known(names_in(named, (), named), ctx.mentions)
        low, high = rules["min_bid"], rules["max_bid"]
        if low > high:
            raise UserError(_("The rules allow no bid: min_bid {low} is above max_bid {high}. "
                              "Change one with /rules.", low=low, high=high))
        notes: list[Msg] = []
        if bids_text.strip():
            bids = self._read(bids_text, "bid", entry, ctx, 0, TRICKS)
            for seat, bid in bids.items():
                if not low <= bid <= high:
                    name = ctx.roster.by_seat(seat).name
                    raise UserError(_("{name}'s bid must be {low} to {high}, not {bid} "
                                      "(/rules min_bid: and max_bid: set the range).",
                                      name=name, low=low, high=high, bid=bid),
                                    About(("bids",), (name,),
                                          _("A bid is {low} to {high}.", low=low, high=high)))
            notes += self._changes(entry.bids, bids, "bid", ctx.roster)
            entry.bids.update(bids)
        if tricks_text.strip():
            tricks = self._read(tricks_text, "tricks", entry, ctx, 0, TRICKS)
            notes += self._changes(entry.tricks, tricks, "tricks", ctx.roster)
            entry.tricks.update(tricks)
        given = sum(entry.tricks.values())
        if given > TRICKS:
            raise UserError(_("The tricks given add up to {total}; a round has {tricks}. "
                              "Count them again.", total=given, tricks=TRICKS),
                            About(("tricks",)))
        if len(entry.tricks) == len(entry.players) and given != TRICKS:
            # everyone's tricks are in: they must be the whole round now, not at the next
            # command (which would be refused for this one's mistake)
            raise UserError(_("The tricks add up to {total}; a round has {tricks}. Count them "
                              "again.", total=given, tricks=TRICKS), About(("tricks",)))
        if not entry.complete():
            if ctx.editing is not None:  # an edit starts from a complete round
                raise UserError(_("That edit leaves the round without every bid and "
                                  "trick."))
            return PlayOutcome(self._so_far(entry, ctx.roster, notes), pending=entry.to_json())
        scoring = Scoring(overtricks=rules["overtricks"], miss=rules["miss"],
                          eight_is_13=rules["eight_is_13"])
        deltas = round_scores(entry.bids, entry.tricks, scoring, low, high)
        summary = self._said(entry, ctx.roster)
        if notes and ctx.editing is None:  # an edit keeps the old round in the log anyway
            summary = join([summary, " (", join(notes, "; "), ")"], "")
        return PlayOutcome("", pending=None, state={"played": played + 1}, result=HandResult(
            players=entry.players, inputs=entry.to_json(),
            deltas={s: deltas[s] for s in entry.players}, summary=summary))

    def summary_of(self, ctx: PlayContext) -> Text | None:
        assert ctx.editing is not None
        return self._said(Entry.from_json(ctx.editing), ctx.roster)

    @staticmethod
    def _said(entry: Entry, roster: Roster) -> Text:
        """"alice bid 3 took 4, bob bid 2 took 2, ...": a round as its summary says it."""
        return join([_("{name} bid {bid} took {took}", name=roster.by_seat(s).name,
                       bid=entry.bids[s], took=entry.tricks[s]) for s in entry.players], ", ")

    def _read(self, text: str, what: str, entry: Entry, ctx: PlayContext, low: int,
              high: int) -> dict[int, int]:
        """name=number pairs, one number a player in seat order, or one number for the
        sender's own seat."""
        table = ctx.roster.in_hand(entry.players)
        names = " ".join(ctx.roster.by_seat(s).name for s in entry.players)
        pairs = parse_pairs(text)
        seats: list[int] = []
        values: list[str] = []
        bids = what == "bid"
        count = len(entry.players)
        if pairs and not pairs[0][0]:
            if len(pairs) > 1:
                raise UserError(
                    _("Give every bid as name=number, or all {count} as numbers in seat order "
                      "({names}); not a mix.", count=count, names=names) if bids else
                    _("Give every tricks as name=number, or all {count} as numbers in seat "
                      "order ({names}); not a mix.", count=count, names=names))
            words = split_list(pairs[0][1])
            if len(words) == 1:
                me = ctx.actor_player
                if me is None or me.seat not in entry.players:
                    first = ctx.roster.by_seat(entry.players[0]).name
                    raise UserError(
                        _("A number alone is your own bid, and you have no seat in this "
                          "round. Say whose: {first}={number}, or give all {count} in seat "
                          "order ({names}).", first=first, number=words[0], count=count,
                          names=names) if bids else
                        _("A number alone is your own tricks, and you have no seat in this "
                          "round. Say whose: {first}={number}, or give all {count} in seat "
                          "order ({names}).", first=first, number=words[0], count=count,
                          names=names))
                seats = [me.seat]
            elif len(words) == count:
                seats = list(entry.players)
            else:
                raise UserError(_("{numbers} numbers for {count} players: give one each in "
                                  "seat order ({names}), or name=number pairs.",
                                  numbers=len(words), count=count, names=names))
            values = words
        else:
            for who, value in pairs:
                player = table.resolve(who, ctx.mentions)
                if player.seat in seats:
                    raise UserError(
                        _("{name} is named twice; give each bid once.", name=player.name)
                        if bids else
                        _("{name} is named twice; give each tricks once.", name=player.name))
                seats.append(player.seat)
                values.append(value)

        def whose(seat: int) -> Msg:
            name = ctx.roster.by_seat(seat).name
            return _("{name}'s bid", name=name) if bids else _("{name}'s tricks", name=name)

        return {seat: parse_int(value, whose(seat), low, high)  # type: ignore[arg-type]
                for seat, value in zip(seats, values, strict=True)}

    def _changes(self, before: Mapping[int, int], after: Mapping[int, int], what: str,
                 roster: Roster) -> list[Msg]:
        """A value given again replaces the earlier one: say so, so a slip is seen."""
        if what == "tricks":
            return [_("{name}'s tricks were {before}, now {after}",
                      name=roster.by_seat(s).name, before=before[s], after=v)
                    for s, v in after.items() if s in before and before[s] != v]
        return [_("{name}'s bid was {before}, now {after}", name=roster.by_seat(s).name,
                  before=before[s], after=v)
                for s, v in after.items() if s in before and before[s] != v]

    def _so_far(self, entry: Entry, roster: Roster, notes: list[Msg]) -> Text:
        def listed(values: Mapping[int, int]) -> str:
            return ", ".join(f"{roster.by_seat(s).name} {values[s]}"
                             for s in entry.players if s in values)

        lines: list[Text] = []
        if entry.bids:
            lines.append(_("Bids: {bids} ({called} of {tricks} called).",
                           bids=listed(entry.bids), called=sum(entry.bids.values()),
                           tricks=TRICKS))
        if entry.tricks:
            lines.append(_("Tricks: {taken} ({count} of {tricks}).", taken=listed(entry.tricks),
                           count=sum(entry.tricks.values()), tricks=TRICKS))
        lines += [_("Changed: {change}.", change=note) for note in notes]
        return join(lines)

    # --- the board -----------------------------------------------------------------------

    def waiting_for(self, pending: Mapping[str, Any], rules: Mapping[str, Any]) -> list[int]:
        entry = Entry.from_json(pending)
        no_bid = [s for s in entry.players if s not in entry.bids]
        return no_bid or [s for s in entry.players if s not in entry.tricks]

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        entry = Entry.from_json(pending)
        who = ", ".join(roster.by_seat(s).name for s in self.waiting_for(pending, rules))
        if any(s not in entry.bids for s in entry.players):
            return _("waits for bids from {players}", players=who)
        bids = ", ".join(f"{roster.by_seat(s).name} {entry.bids[s]}" for s in entry.players)
        if not entry.tricks:
            return _("has bids {bids}; waits for tricks from {players}", bids=bids, players=who)
        return _("has bids {bids}; waits for tricks from {players} ({left} of {tricks} left)",
                 bids=bids, players=who, left=TRICKS - sum(entry.tricks.values()),
                 tricks=TRICKS)

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster, ended: bool = False) -> Text:
        played, rounds = _played(state), rules["rounds"]
        if not played or not len(roster):
            return _n("{n} round; the highest total wins.", "{n} rounds; the highest total wins.",
                      rounds)
        best = max(totals.get(p.seat, 0) for p in roster)
        top = [p.name for p in roster if totals.get(p.seat, 0) == best]
        # "+3.2", "-3.0" as the language shown writes them ("+3,2"); nothing is a bare 0
        score: Num | str = Num(amount(best, PLACES), PLACES, signed=True) if best else "0"
        one = len(top) == 1
        if played < rounds and ended:  # stopped early: the standings stand as they are
            if one:
                return _("Ended after {played} of {rounds} rounds; {name} finished first with "
                         "{score}.", played=played, rounds=rounds, name=top[0], score=score)
            return _("Ended after {played} of {rounds} rounds; {names} finished level with "
                     "{score}.", played=played, rounds=rounds, names=_both(top), score=score)
        if played < rounds:
            if one:
                return _("{played} of {rounds} rounds played; {name} leads with {score}.",
                         played=played, rounds=rounds, name=top[0], score=score)
            return _("{played} of {rounds} rounds played; {names} share the lead with "
                     "{score}.", played=played, rounds=rounds, names=_both(top), score=score)
        if not one:
            return _("All {rounds} rounds played: {names} tie for first with {score}.",
                     rounds=rounds, names=_both(top), score=score)
        return _("All {rounds} rounds played: {name} wins with {score}!", rounds=rounds,
                 name=top[0], score=score)

    def winners(self, hand: Any) -> list[int]:
        """For /stats, a round is won by each player who made their bid."""
        entry = Entry.from_json(hand.inputs)
        return [s for s in entry.players if entry.tricks.get(s, -1) >= entry.bids.get(s, 99)]


def _both(names: list[str]) -> Text:
    """"ana and ben", "ana, ben and cleo"."""
    if len(names) < 2:
        return "".join(names)
    return _("{items} and {last}", items=", ".join(names[:-1]), last=names[-1])
