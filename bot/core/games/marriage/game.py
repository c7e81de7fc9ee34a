"""Nepali Marriage as a game plugin: /hand, /maal, /setmaal and /check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.cards import parse_card, parse_cards
from bot.core.commands.spec import CommandSpec, Kind, Needs, Option
from bot.core.errors import About, UserError
from bot.core.games.base import Game, HandResult, PlayContext, PlayOutcome
from bot.core.games.marriage import maal_table
from bot.core.games.marriage.checker import check_finish
from bot.core.games.marriage.entry import HAND_USAGE, Entry, EntryReader, count_card_maal
from bot.core.games.marriage.maal import MaalRoles, count_maal
from bot.core.games.marriage.rules import (
    CARDS_EACH,
    NEXT,
    PLAY_RULES_NOTE,
    RULEBOOK,
    deal_fits,
    packs_that_fit,
)
from bot.core.games.marriage.scoring import (
    KIDNAP,
    MURDER,
    MarriageHand,
    MarriageScoring,
    settle,
)
from bot.core.grammar import parse_pairs
from bot.core.i18n import N_, Msg, Num, Text, _, _n, join
from bot.core.permissions import Rule
from bot.core.players import Roster

HAND_DETAILS = (
    "Exactly one winner; the winner is seen. Players not in seen: are unseen. maal: takes "
    "name=number pairs (a bare number is your own); or give the cards: tiplu:8H "
    "cards:bob=8H 9H 7H carol=... and the maal is counted. If a maal the hand needs is "
    "missing, the hand waits on the board until it comes with /maal. dublee:yes: the winner "
    "finished with dublees; dublee_route: seen losers who went the dublee route; "
    "tunnella:bob=7S: tunnellas shown at the deal, counted with that player's cards: (a maal "
    "typed as a number is the whole maal, so a tunnella beside it is refused; "
    "tunnella:bob=none takes one back); foul: players who fouled (they pay the foul penalty "
    "and take no part in the maal exchange; /hand foul:dave alone records a misdeal; with "
    "foul_when:next a foul still waiting at /endgame is charged there). With dublee:yes, "
    "dublee_mode:extra makes every loser pay the dublee points on top (seen 3 + 5, unseen "
    "10 + 5 by default); dublee_mode:replace makes a seen loser pay the dublee points in "
    "place of the seen points (5) and an unseen loser the unseen points alone (10). 21 cards "
    "each must fit in the packs (rule packs: 3 packs deal to 7 players at most). /hand "
    "maal:7 alone reports your own maal for the waiting hand."
)
CARDS = N_("cards")  # the topic of the options that count maal from the cards
HAND_OPTIONS = (
    Option("winner", Kind.PLAYER, "who finished the hand"),
    Option("seen", Kind.PLAYERS, "the players who have seen (the winner is)"),
    Option("maal", Kind.TEXT, "name=number pairs, e.g. alice=10 bob=5 (a number alone: yours)",
           each=True, low=0),
    Option("dublee", Kind.BOOL, "the winner finished with dublees"),
    Option("foul", Kind.PLAYERS, "players who fouled"),
    Option("dublee_route", Kind.PLAYERS, "seen losers who went the dublee route"),
    Option("tiplu", Kind.TEXT, "the tiplu card, e.g. 8H, to count maal from cards", topic=CARDS),
    Option("cards", Kind.TEXT, "cards per player: bob=8H 9H 7H carol=...", topic=CARDS),
    Option("tunnella", Kind.TEXT, "tunnellas shown at the deal: bob=7S", topic=CARDS),
)
MAAL_OPTIONS = (
    Option("", Kind.TEXT, "your maal (7) or name=number pairs (bob=5 carol=8)", name="value"),
    Option("tiplu", Kind.TEXT, "the tiplu, to count maal from cards"),
    Option("cards", Kind.TEXT, "the cards: yours, or bob=8H 9H ..."),
    Option("tunnella", Kind.TEXT, "tunnellas shown at the deal"),
)
CHECK_USAGE = "/check tiplu:8H cards:<21 or 22 cards>"
SETMAAL_USAGE = "/setmaal   /setmaal preset:house   /setmaal tiplu:3 8 alter:5 15 30"

GLOSSARY = (
    "Marriage words: tiplu = the joker card turned up once someone shows three pure sets "
    "(its other copies are tiplu too); poplu = one rank above tiplu, jhiplu = one below, same "
    "suit; marriage = jhiplu+tiplu+poplu; alter = same rank and colour as tiplu; man = printed "
    "joker; tunnella = three identical cards; dublee = a pair of identical cards; maal = the "
    "points your cards earn once the tiplu is known; seen = you showed your pure sets (or 7 "
    "dublees) and saw the tiplu, unseen = you did not; foul = a wrong show or misdeal; "
    "kidnap and murder: see /help rules."
)


HAND_KEYS = frozenset(o.key for o in HAND_OPTIONS)
HAND_KEYS_IN_ORDER = tuple(o.key for o in HAND_OPTIONS)


class MarriageGame(Game):
    key = "marriage"
    title = "Nepali Marriage"
    min_players = 2
    max_players = 10
    rulebook = RULEBOOK
    glossary = GLOSSARY
    rules_note = PLAY_RULES_NOTE
    seen_flow = True
    edit_example = "/edit hand:3 maal:bob=6 seen:bob carol"
    waiting_input = "maal"
    waiting_command = "maal"

    def declare(self) -> tuple[CommandSpec, ...]:
        return (
            CommandSpec("hand", "record a hand: winner, seen players, maal", HAND_USAGE,
                        HAND_DETAILS, HAND_OPTIONS, may=Rule.PLAYER, play=self._hand,
                        records=True, flow=True),
            CommandSpec(
                "maal", "give maal for the waiting hand, or count maal from cards",
                "/maal 7   /maal bob=5 carol=8   /maal tiplu:8H cards:8H 8H 9H 7H 8D",
                "A bare number is your own maal; name=number gives someone else's; cards: "
                "gives the cards (yours, or cards:bob=...) and the maal is counted with the "
                "maal table (/setmaal). With no hand waiting, /maal tiplu:... cards:... just "
                "counts (no game needed). The hand is scored as soon as every maal it needs "
                "is in.", MAAL_OPTIONS, may=Rule.PLAYER, needs=Needs.NOTHING,
                play=self._maal),
            CommandSpec(
                "setmaal", "show or change the maal value table", SETMAAL_USAGE,
                "Values are the points for holding 1, 2, 3 ... of each item (none clears "
                "one). Tables: " + "; ".join(f"{k}: {v[0]}"
                                            for k, v in maal_table.PRESETS.items()) + ".",
                (Option("preset", Kind.CHOICE, "a maal table",
                        choices=tuple(maal_table.PRESETS)),
                 *(Option(item.key, Kind.TEXT, f"{item.label[:80]}: values for 1, 2, 3 held")
                   for item in maal_table.ITEMS)),
                may=Rule.TABLE_RULES, free_view=True, play=self._setmaal),
            CommandSpec(
                "check", "check a finish: 7 sets or 8 dublees", CHECK_USAGE,
                "Says whether the cards make 7 sets (at least 3 of them pure: pure sequences "
                "or tunnellas; the rest may be triplets of different suits, or dirty sets "
                "with jokers) or 8 dublees, and shows one way; with 22 cards, which card to "
                "throw. Jokers: every card of the tiplu's rank, poplu, jhiplu, and printed "
                "jokers. Ace is high or low, never in the middle (K A 2 is not a sequence); "
                "no joker in a tunnella. No game needed.",
                (Option("tiplu", Kind.TEXT, "the tiplu card, e.g. 8H", required=True),
                 Option("cards", Kind.TEXT, "21 or 22 cards", required=True)),
                needs=Needs.NOTHING, play=self._check_finish),
        )

    def reenter(self, ctx: PlayContext) -> PlayOutcome:
        return self._edit(ctx)

    def rescore(self, ctx: PlayContext) -> PlayOutcome:
        # the hand as recorded, with the fouls carried into it re-derived
        assert ctx.editing is not None
        return self._finish(Entry.from_json(ctx.editing), ctx)

    def closing(self, ctx: PlayContext) -> HandResult | None:
        """A foul waiting to be charged with the next hand (foul_when:next) when the game
        ends is charged in the final settlement, as that next hand would have charged it:
        the penalty to every other player playing (to the winner only has no winner here)."""
        carried = dict((ctx.state or {}).get("fouls", {}))
        if not carried:
            return None
        charged = tuple(int(s) for s, n in sorted(carried.items()) for _ in range(n))
        playing = [p.seat for p in ctx.hand_players]
        if not [p for p in playing if p not in charged]:
            playing = [p.seat for p in ctx.roster]  # nobody else playing: everyone seated
        settlement = settle(
            MarriageHand(players=tuple(playing), winner=None, seen=frozenset(),
                         charged_fouls=charged),
            MarriageScoring.from_rules(ctx.rules))
        who = self._names({int(s) for s in carried}, ctx.roster)
        entry = Entry(players=playing)
        inputs = {**entry.to_json(), "charged_at_end": sorted(int(s) for s in carried)}
        return HandResult(players=playing, inputs=inputs, deltas=settlement.deltas,
                          summary=_("foul from the last hand charged at the end: {players}",
                                    players=who))

    # --- commands -------------------------------------------------------------------------

    def _hand(self, ctx: PlayContext) -> PlayOutcome:
        options = dict(ctx.options)
        if "" in options:
            raise UserError(_("Give the hand as key:value options: {usage}",
                              usage=ctx.example(HAND_USAGE)))
        only_maal = options.keys() <= {"maal", "cards", "tiplu", "tunnella"}
        if ctx.pending is not None:
            if only_maal and options:
                return self._add_to_waiting(ctx, options)
            seats = Entry.from_json(ctx.pending).missing_maal(ctx.rules["unseen_maal"])
            raise UserError(_("A hand waits for the maal of {players}: {send}, or /undo "
                              "drops it.", players=self._names(seats, ctx.roster),
                              send=maal_line(seats, ctx.roster)))
        if only_maal:
            if not options:
                raise UserError(_("Say who won and who saw: {usage}",
                                  usage=ctx.example(HAND_USAGE)))
            raise UserError(_("No hand is waiting for maal. Record one with {usage}",
                              usage=ctx.example(HAND_USAGE)))
        self._check_deal(len(ctx.hand_players), ctx.rules)
        entry = Entry(players=[p.seat for p in ctx.hand_players])
        entry = EntryReader(ctx, entry).read(options)
        self._check(entry, ctx)
        self._murdered(entry, ctx, options)
        return self._finish(entry, ctx)

    def deal_problem(self, players: int, rules: Mapping[str, Any]) -> Text:
        packs, jokers = rules["packs"], rules["printed_jokers"]
        if deal_fits(players, packs, jokers):
            return ""
        return _n("{players} players x {each} cards and the tiplu don't fit in {n} pack: "
                  "/rules packs:{fit} deals them.",
                  "{players} players x {each} cards and the tiplu don't fit in {n} packs: "
                  "/rules packs:{fit} deals them.", packs, players=players, each=CARDS_EACH,
                  fit=packs_that_fit(players, jokers))

    @staticmethod
    def _check_deal(players: int, rules: Mapping[str, Any]) -> None:
        packs = rules["packs"]
        if not deal_fits(players, packs, rules["printed_jokers"]):
            cards = packs * 52 + (packs if rules["printed_jokers"] else 0)
            raise UserError(_n(
                "{players} players x {each} cards = {dealt}, but {n} pack holds {cards} "
                "cards, with one to turn up as the tiplu (rule packs). Sit someone out "
                "(/sitout), or play with more packs: /rules packs:{more}.",
                "{players} players x {each} cards = {dealt}, but {n} packs hold {cards} "
                "cards, with one to turn up as the tiplu (rule packs). Sit someone out "
                "(/sitout), or play with more packs: /rules packs:{more}.",
                packs, players=players, each=CARDS_EACH, dealt=players * CARDS_EACH,
                cards=cards, more=packs_that_fit(players, rules["printed_jokers"])))

    def _maal(self, ctx: PlayContext) -> PlayOutcome:
        options = dict(ctx.options)
        if not options:
            raise UserError(_("Give a number: /maal 7 for your own, /maal bob=5 for someone "
                              "else, or /maal tiplu:8H cards:... to count from cards."))
        if ctx.pending is None:
            if options.get("cards", "").strip():
                return self._calculate(ctx, options)
            if "tiplu" in options or "cards" in options:  # "cards:" with none is no count
                raise UserError(_("Give the cards too: /maal tiplu:8H cards:8H 9H 7H 8D"))
            if not len(ctx.roster):  # no game open: only counting from cards works
                raise UserError(_("No game is open, so there is no hand to give maal to. "
                                  "Count maal from cards with /maal tiplu:8H cards:8H 9H 7H, "
                                  "or start a game with /newgame."))
            raise UserError(_("No hand is waiting for maal. Record one with {usage}",
                              usage=ctx.example(HAND_USAGE)))
        if "" in options:
            options["maal"] = options.pop("")
        return self._add_to_waiting(ctx, options)

    def _add_to_waiting(self, ctx: PlayContext, options: Mapping[str, str]) -> PlayOutcome:
        assert ctx.pending is not None
        entry = Entry.from_json(ctx.pending)
        if "tiplu" in options and entry.tiplu and parse_card(options["tiplu"]) != parse_card(
                entry.tiplu):
            raise UserError(_("This hand's tiplu is {card}.", card=entry.tiplu))
        entry = EntryReader(ctx, entry).read(options)
        self._check(entry, ctx)
        self._murdered(entry, ctx, options)
        return self._finish(entry, ctx)

    def _calculate(self, ctx: PlayContext, options: Mapping[str, str]) -> PlayOutcome:
        """/maal tiplu:8H cards:...: count, record nothing."""
        if "tiplu" not in options:
            raise UserError(_("Say the tiplu: /maal tiplu:8H cards:..."))
        if "" in options:
            raise UserError(_("Give the cards with cards:, e.g. /maal tiplu:8H cards:8H 9H 7H"))
        rules = ctx.rules
        roles = MaalRoles(parse_card(options["tiplu"]), rules["alter"])
        if roles.tiplu.is_printed_joker:
            raise UserError(_("The tiplu is a card of the packs, not a printed joker."))
        cards = parse_cards(options["cards"], rules["packs"], rules["printed_jokers"],
                            [roles.tiplu])
        shown = parse_cards(options.get("tunnella", ""), rules["packs"],
                            rules["printed_jokers"])
        table = rules.get("maal_table") or maal_table.default_table()
        result = count_maal(cards, roles, table, shown)
        return PlayOutcome(_("Maal with tiplu {card}: {maal}", card=str(roles.tiplu),
                             maal=result.breakdown()))

    def _check_finish(self, ctx: PlayContext) -> PlayOutcome:
        options = ctx.options
        if "tiplu" not in options or "cards" not in options:
            raise UserError(_("Usage: {usage}", usage=Msg(CHECK_USAGE)))  # "<21 or 22 cards>"
        rules = ctx.rules
        tiplu = parse_card(options["tiplu"])
        if tiplu.is_printed_joker:
            raise UserError(_("The tiplu is a card of the packs, not a printed joker."))
        cards = parse_cards(options["cards"], rules["packs"], rules["printed_jokers"], [tiplu])
        return PlayOutcome(check_finish(cards, MaalRoles(tiplu, rules["alter"])).describe())

    def _setmaal(self, ctx: PlayContext) -> PlayOutcome:
        options = dict(ctx.options)
        table = ctx.rules.get("maal_table") or maal_table.default_table()
        if not options:
            return PlayOutcome(join([_("Maal table (points for 1/2/3... held):"),
                                     maal_table.describe_table(table)]))
        if "" in options:
            raise UserError(_("Use key:value options: {usage}", usage=SETMAAL_USAGE))
        if "preset" in options:
            table = maal_table.preset_table(options.pop("preset"))
        table = maal_table.updated_table(table, options)
        return PlayOutcome(
            join([_("Maal table changed for the hands that follow:"),
                  maal_table.describe_table(table)]),
            rules={**ctx.rules, "maal_table": table},
        )

    def _edit(self, ctx: PlayContext) -> PlayOutcome:
        assert ctx.editing is not None
        options = {k: v for k, v in ctx.options.items() if k in HAND_KEYS}
        if not options:
            raise UserError(_("Say what to change, e.g. /edit hand:3 maal:bob=6 or "
                              "seen:bob carol"))
        entry = EntryReader(ctx, Entry.from_json(ctx.editing)).read(options)
        self._check(entry, ctx)
        self._murdered(entry, ctx, options)
        return self._finish(entry, ctx)

    # --- checking and scoring ------------------------------------------------------------

    def _check(self, entry: Entry, ctx: PlayContext) -> None:
        names = ctx.roster
        if entry.winner is None and not entry.fouls:
            raise UserError(_("Name the winner: {usage}", usage=ctx.example(HAND_USAGE)),
                            About(("winner",), said=_("Tick who won.")))
        if entry.winner is not None:
            if entry.winner in entry.fouls:
                name = names.by_seat(entry.winner).name
                raise UserError(_("{name} can't win and foul in the same hand.", name=name),
                                About(("winner", "foul"), (name,)))
            entry.seen.add(entry.winner)
        if len(entry.fouls) == len(entry.players):
            raise UserError(_("Everybody fouled? At least one player must be clean."),
                            About(("foul",)))
        foul_maal = [p for p in entry.fouls if p in entry.maal]
        if foul_maal:
            raise UserError(_("{players} fouled and takes no part in the maal exchange; "
                              "leave their maal out.", players=self._names(foul_maal, names)),
                            About(("maal", "foul"), _seated(foul_maal, names),
                                  _("Fouled: no maal. Clear it, or the foul.")))
        route = entry.dublee_route - entry.seen
        if route or entry.winner in entry.dublee_route:
            seats = route or {entry.winner}
            who = self._names(seats, names)  # type: ignore[arg-type]
            raise UserError(_("dublee_route: is for seen losers; {players} is not one.",
                              players=who),
                            About(("dublee_route", "seen"), _seated(seats, names),
                                  _("The dublee route is for a seen loser: tick seen, or "
                                    "clear the dublee route.")))
        if entry.dublee:
            if entry.winner is None:
                raise UserError(_("A dublee finish needs a winner."),
                                About(("winner", "dublee"), said=_("Tick who won.")))
            least = ctx.rules["dublee_min_players"]
            if len(entry.players) < least:
                raise UserError(_("A dublee finish needs at least {least} players (rule "
                                  "dublee_min_players); this hand has {players}.",
                                  least=least, players=len(entry.players)))

    def _murdered(self, entry: Entry, ctx: PlayContext, options: Mapping[str, str]) -> None:
        """Maal given for a player not named seen, where an unseen player's maal is
        murdered, would count for nothing without a word: refused, with the lines that say
        either thing that may have been meant."""
        if ctx.rules["unseen_maal"] != MURDER:
            return
        count_card_maal(entry, ctx.rules, ctx.roster)  # maal given as cards counts too
        lost = [s for s in entry.players if entry.maal.get(s) and s not in entry.seen
                and s not in entry.fouls]
        if not lost:
            return
        roster = ctx.roster
        who = self._names(lost, roster)
        names = [roster.by_seat(s).name for s in lost]
        if ctx.pending is not None:  # a waiting hand: who is seen was settled when it began
            left = entry.missing_maal(ctx.rules["unseen_maal"])
            said: list[Text] = [_n(
                "{players} is unseen in this hand, and an unseen player's maal is murdered "
                "here: leave it out.",
                "{players} are unseen in this hand, and an unseen player's maal is murdered "
                "here: leave theirs out.", len(lost), players=who)]
            if left:
                said.append(_("Still needed: {send}", send=maal_line(left, roster)))
            said.append(_("If they saw, /undo drops the hand; record it again with them in "
                          "seen:."))
            raise UserError(join(said, " "))
        seen = [roster.by_seat(s).name for s in entry.players
                if s in entry.seen and s != entry.winner] + names
        if ctx.editing is not None:
            raise UserError(_n(
                "{players} would be unseen with maal, and an unseen player's maal is "
                "murdered here. If {players} saw: seen:{seen}. If not: maal:{zero}.",
                "{players} would be unseen with maal, and an unseen player's maal is "
                "murdered here. If they saw: seen:{seen}. If not: maal:{zero}.", len(lost),
                players=who, seen=" ".join(seen), zero=" ".join(f"{n}=0" for n in names)))
        saw = {**{k: v for k, v in options.items() if k != "seen"}, "seen": " ".join(seen)}
        unseen = _without(options, set(names))
        # on a form, beside each of them: the box to tick, or the maal to clear
        about = About(("seen", "maal"), tuple(names), _("Tick seen, or clear the maal."))
        raise UserError(_n(
            "{players} has maal but is not in seen:, and an unseen player's maal is murdered "
            "here. If {players} saw:\n{saw}\nIf not, without the maal:\n{unseen}",
            "{players} have maal but are not in seen:, and an unseen player's maal is "
            "murdered here. If they saw:\n{saw}\nIf not, without their maal:\n{unseen}",
            len(lost), players=who, saw=_line(ctx.command, saw),
            unseen=_line(ctx.command, unseen)), about)

    def _finish(self, entry: Entry, ctx: PlayContext) -> PlayOutcome:
        """Score the entry if every maal it needs is in; otherwise keep it waiting."""
        self._check(entry, ctx)
        count_card_maal(entry, ctx.rules, ctx.roster)
        missing = entry.missing_maal(ctx.rules["unseen_maal"])
        counted: list[Text] = [_("{name}: {maal}", name=ctx.roster.by_seat(s).name, maal=d)
                               for s, d in sorted(entry.maal_detail.items())]
        if missing:
            who = self._names(missing, ctx.roster)
            if ctx.editing is not None:
                raise UserError(_("The hand would need maal for {players}: add "
                                  "maal:name=number.", players=who))
            # who is still missing and how to give it: said by the core, as the prompt says it
            return PlayOutcome(join(counted), pending=entry.to_json())
        rules = ctx.rules
        carried = dict((ctx.state or {}).get("fouls", {}))
        charge_now = rules["foul_when"] != NEXT
        charged = [int(s) for s, n in sorted(carried.items()) for _ in range(n)]
        if charge_now:
            charged += sorted(entry.fouls)
        settlement = settle(
            MarriageHand(
                players=tuple(entry.players), winner=entry.winner, seen=frozenset(entry.seen),
                maal=entry.maal, dublee=entry.dublee, fouls=frozenset(entry.fouls),
                dublee_route=frozenset(entry.dublee_route), charged_fouls=tuple(charged),
            ),
            MarriageScoring.from_rules(rules),
        )
        next_fouls = {} if charge_now else {str(s): 1 for s in sorted(entry.fouls)}
        parts = self._summary_parts(entry, ctx.roster, rules)
        if carried:
            parts.append(_("foul from the last hand charged: {players}",
                           players=self._names({int(s) for s in carried}, ctx.roster)))
        if next_fouls:
            parts.append(_("foul charged with the next hand"))
        summary = join([join(parts, "; "), *counted]) if counted else join(parts, "; ")
        result = HandResult(players=entry.players, inputs=entry.to_json(),
                            deltas=settlement.deltas, summary=summary)
        # The only thing Marriage carries between hands: fouls charged in the next hand.
        state = {"fouls": next_fouls} if next_fouls else None
        return PlayOutcome("", pending=None, result=result, state=state)

    def summary(self, entry: Entry, roster: Roster, rules: Mapping[str, Any]) -> Text:
        """"alice won; seen bob; unseen carol (maal murdered); maal alice 10, bob 5": kept
        as messages, shown later in the reader's language."""
        return join(self._summary_parts(entry, roster, rules), "; ")

    @staticmethod
    def _summary_parts(entry: Entry, roster: Roster, rules: Mapping[str, Any]) -> list[Text]:
        def name(seat: int) -> str:
            return roster.by_seat(seat).name

        parts: list[Text] = []
        if entry.winner is not None:
            parts.append(_("{winner} won with dublees", winner=name(entry.winner))
                         if entry.dublee else _("{winner} won", winner=name(entry.winner)))
            others = [p for p in entry.players if p != entry.winner and p not in entry.fouls]
            seen: list[Text] = [_("{name} (dublee route)", name=name(p))
                                if p in entry.dublee_route else name(p)
                                for p in others if p in entry.seen]
            unseen = ", ".join(name(p) for p in others if p not in entry.seen)
            if seen:
                parts.append(_("seen {players}", players=join(seen, ", ")))
            if unseen:
                if rules["unseen_maal"] == MURDER:
                    parts.append(_("unseen {players} (maal murdered)", players=unseen))
                elif rules["unseen_maal"] == KIDNAP:
                    parts.append(_("unseen {players} (maal kidnapped)", players=unseen))
                else:
                    parts.append(_("unseen {players}", players=unseen))
            if entry.maal:
                parts.append(_("maal {amounts}", amounts=join(
                    [join([f"{name(p)} ", Num(entry.maal[p])], "")
                     for p in entry.players if p in entry.maal], ", ")))
            if entry.tiplu:
                parts.append(_("tiplu {card}", card=entry.tiplu))
        if entry.fouls:
            parts.append(_("foul {players}",
                           players=", ".join(name(p) for p in sorted(entry.fouls))))
        return parts

    def waiting_for(self, pending: Mapping[str, Any], rules: Mapping[str, Any]) -> list[int]:
        return Entry.from_json(pending).missing_maal(rules["unseen_maal"])

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        entry = Entry.from_json(pending)
        who = self._names(entry.missing_maal(rules["unseen_maal"]), roster)
        return _("waiting for maal from {players} ({summary})", players=who,
                 summary=self.summary(entry, roster, rules))

    @staticmethod
    def _names(seats: list[int] | set[int], roster: Roster) -> str:
        return ", ".join(roster.by_seat(s).name for s in sorted(seats))


def maal_line(seats: list[int] | set[int], roster: Roster) -> str:
    """"/maal bob=… carol=…": how the maal still missing is given, the syntax a waiting
    hand's prompt shares."""
    return "/maal " + " ".join(f"{roster.by_seat(s).name}=…" for s in sorted(seats))


def _line(command: str, options: Mapping[str, str]) -> str:
    """A command as typed from its options: "/hand winner:bob seen:carol maal:bob=5"."""
    order = [k for k in HAND_KEYS_IN_ORDER if k in options]
    return " ".join([f"/{command}", *(f"{k}:{options[k]}" for k in order if options[k])])


def _without(options: Mapping[str, str], names: set[str]) -> dict[str, str]:
    """The options with the pairs (maal:, cards:, tunnella:) of `names` left out."""
    wanted = {n.casefold() for n in names}
    out = dict(options)
    for key in ("maal", "cards", "tunnella"):
        if key in out:
            kept = [f"{n}={v}" for n, v in parse_pairs(out[key])
                    if n.lstrip("@").casefold() not in wanted]
            out[key] = " ".join(kept)
    return out


def _seated(seats: object, roster: Roster) -> tuple[str, ...]:
    """The names of `seats` in seat order, for a refusal's About."""
    return tuple(p.name for p in roster if p.seat in seats)  # type: ignore[operator]
