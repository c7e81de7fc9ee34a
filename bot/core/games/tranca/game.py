"""Tranca as a game plugin: sides, /round by counts or by cards, the race to the target."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.core.cards import Card, parse_cards
from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import UserError
from bot.core.games.base import (
    Game,
    HandResult,
    Placing,
    PlayContext,
    PlayOutcome,
    Seat,
    seated,
)
from bot.core.games.tranca.scoring import (
    SideRound,
    card_value,
    check_meld,
    part_text,
    round_score,
    signed,
)
from bot.core.grammar import clip, parse_bool, parse_int, split_list
from bot.core.i18n import Msg, Num, Text, _, _n, join
from bot.core.money import money_rules
from bot.core.permissions import Rule
from bot.core.players import Player, Roster
from bot.core.rules import ADDITION, WHOLE_TABLE, Preset, RuleBook, int_rule

LETTERS = "ABC"
MELD = re.compile(r"\[([^\[\]]*)\]")
COUNT_KEYS = ("table", "clean", "dirty", "twos")

RULEBOOK = RuleBook(
    [
        int_rule("value_ace", 15, 0, 100, "points of an ace"),
        int_rule("value_jqk", 10, 0, 100, "points of a J, Q or K"),
        int_rule("value_8_10", 10, 0, 100, "points of an 8, 9 or 10"),
        int_rule("value_4_7", 5, 0, 100, "points of a 4 to 7"),
        int_rule("value_two", 10, 0, 100, "points of a 2"),
        int_rule("value_red3", 5, 0, 100, "points of a red 3 as a card"),
        int_rule("canastra_size", 7, 5, 13, "cards in a canastra"),
        int_rule("clean", 200, 0, 5000, "bonus for a clean canastra (no 2 as wild)"),
        int_rule("dirty", 100, 0, 5000, "bonus for a dirty canastra (a 2 as wild)"),
        int_rule("twos_canastra", 1000, 0, 10000,
                 "bonus for a canastra of 2s only (0: not allowed)"),
        int_rule("red3", 100, 0, 1000,
                 "each red 3: plus this with a canastra, minus this without"),
        int_rule("black3", 100, 0, 1000, "penalty for each black 3 left in hand"),
        int_rule("morto", 100, 0, 1000, "penalty for a morto not taken and used"),
        int_rule("final_move", 100, 0, 1000, "bonus for the final move (batida)"),
        int_rule("target", 0, 0, 100000,
                 "points to win (0, auto: 3,500 up to 4 players, 5,000 with 6)", zero="auto"),
        *money_rules(),
    ],
    # seed: the seed's whole table; eight (the rule text's "another common table" of card
    # values) and single_wild change only the values they name, on whatever is set.
    [
        Preset("seed", "the seed's table: A 15, 8 to K 10, 4 to 7 5, 2 10; to 3,500",
               {"value_ace": 15, "value_jqk": 10, "value_8_10": 10, "value_4_7": 5,
                "value_two": 10, "twos_canastra": 1000, "black3": 100, "target": 0},
               kind=WHOLE_TABLE),
        Preset("eight", "4 to 10 are 8, J to A 10",
               {"value_ace": 10, "value_jqk": 10, "value_8_10": 8, "value_4_7": 8},
               kind=ADDITION),
        Preset("single_wild", "one 2 to a meld, always: no canastra of 2s",
               {"twos_canastra": 0}, kind=ADDITION),
    ],
    headline=("target", "clean", "dirty", "red3", "black3"),
)

USAGE = ("/round side:A table:365 hand:40 clean:1 dirty:1 twos:0 red3:3 black3:1 morto:yes "
         "out:yes   or   /round side:A melds:[4H 5H 6H 7H 8H 9H 2C] [KS KD KC] hand:AS 9H 3C "
         "red3:2")
ROUND_DETAILS = (
    "side: A, B or C, or a player of the side, named exactly. By counts: table: card points "
    "laid down (red 3s "
    "included), hand: card points left in hand, clean:/dirty:/twos: canastras. By cards: "
    "melds: each meld in [brackets] (checked: 3+ cards, one 2 as wild at most unless all 2s, "
    "no 3s, one suit in a row or one rank) and hand: the cards in hand (black 3s found "
    "there). red3: red 3s laid down; black3: black 3s left in hand; morto:no when the morto "
    "was not taken and used; out:yes for the final move. The round is scored when every "
    "side is in. What the packs can't hold is refused, across the sides of a round: a card "
    "more than once a pack, more red or black 3s than 2 a pack, more 2s or canastra cards "
    "than there are. When a side reaches the target alone the game is won: no round "
    "follows (/undo, /edit or /endgame)."
)
ROUND_OPTIONS = (
    Option("side", Kind.TEXT, "A, B or C, or a player of the side", required=True),
    Option("table", Kind.INT, "card points laid down (red 3s included)", low=0, high=100000),
    Option("hand", Kind.TEXT, "card points left in hand, or the cards"),
    Option("melds", Kind.TEXT, "the melds, each in [brackets], instead of table:"),
    Option("clean", Kind.INT, "clean canastras", low=0, high=50),
    Option("dirty", Kind.INT, "dirty canastras", low=0, high=50),
    Option("twos", Kind.INT, "canastras of 2s", low=0, high=50),
    Option("red3", Kind.INT, "red 3s laid down", low=0, high=6),
    Option("black3", Kind.INT, "black 3s left in hand", low=0, high=6),
    Option("morto", Kind.BOOL, "the morto was taken and used (default yes)"),
    Option("out", Kind.BOOL, "this side made the final move"),
)
GLOSSARY = (
    "Tranca words: meld = 3+ cards of one suit in a row or of one rank; canastra = a meld of "
    "7 or more (clean without a 2 as wild, dirty with one); morto = the spare 11-card pile a "
    "side takes when it runs out; dollar = a red 3, laid apart; tranca = a black 3; batida = "
    "the final move."
)


def _sides(state: Mapping[str, Any] | None) -> list[list[int]]:
    return [list(s) for s in (state or {}).get("sides", [])]


class TrancaGame(Game):
    key = "tranca"
    title = "Tranca"
    min_players = 2
    max_players = 6
    rulebook = RULEBOOK
    glossary = GLOSSARY
    zero_sum = False
    edit_key = "round"
    hand_word = "round"
    rules_example = "/rules   /rules preset:eight   /rules target:3000 rate:0.25 currency:Rs"
    newgame_options = (Option("teams", Kind.TEXT, "Tranca teams: alice+carol bob+dave"),)
    player_columns = False
    ranked_by = "wins"  # /stats: games won, a race being won or not
    seats_fixed = ("Tranca's sides are set when the game starts: /endgame, then /newgame "
                   "tranca teams:... with everyone on a side.")
    no_sitting_out = ("In Tranca a side scores as one, so nobody sits out: /endgame, then "
                      "/newgame tranca teams:... with the sides playing now.")

    def declare(self) -> tuple[CommandSpec, ...]:
        return (CommandSpec("round", "enter a side's round: by counts or by cards", USAGE,
                            ROUND_DETAILS, ROUND_OPTIONS, may=Rule.PLAYER, play=self._round,
                            records=True,
                            # by counts, the usual way; melds: and the rest are typed
                            form_rows=("side", "table", "hand", "clean")),)

    # --- sides ---------------------------------------------------------------------------

    def setup(self, options: Mapping[str, str], players: list[Player], named: bool,
              seat: Seat | None = None) -> tuple[list[Player], dict[str, Any] | None]:
        if "teams" in options and "players" in options:
            raise UserError(_("Give teams: or players:, not both."))
        if "teams" in options:
            teams = [[n for n in t.split("+") if n] for t in split_list(options["teams"])]
            sizes = {len(t) for t in teams}
            if len(teams) != 2 or sizes not in ({2}, {3}):
                raise UserError(_("Tranca is 2 pairs or 2 trios: teams:alice+carol bob+dave "
                                  "(or players:alice bob for individuals)."))
            # seats alternate: a player of A, then of B, then of A ...
            order = [team[i] for i in range(len(teams[0])) for team in teams]
            players = seated(order, seat)
            sides = [[p.seat for p in players if (p.seat - 1) % 2 == side] for side in (0, 1)]
            return players, {"sides": sides}
        if not named or len(players) not in (2, 3):
            raise UserError(_("Tranca is played by 2 or 3 individuals (players:alice bob) "
                              "or in 2 pairs or 2 trios (teams:alice+carol bob+dave)."))
        return players, {"sides": [[p.seat] for p in players]}

    def columns(self, roster: Roster,
                state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        return [(i, LETTERS[i - 1]) for i in range(1, len(_sides(state)) + 1)]

    def chart_columns(self, roster: Roster,
                      state: Mapping[str, Any] | None = None) -> list[tuple[int, str]]:
        """A chart's legend names each side's players: "A: alice+carol"."""
        return [(i, f"{LETTERS[i - 1]}: " + "+".join(roster.by_seat(s).name for s in side))
                for i, side in enumerate(_sides(state), 1)]

    def goal(self, rules: Mapping[str, Any],
             state: Mapping[str, Any] | None) -> tuple[float, Text] | None:
        target = self._target(rules, state)
        return float(target), _("target {target}", target=Num(target))

    def _side_names(self, roster: Roster, state: Mapping[str, Any] | None) -> str:
        return " · ".join(f"{LETTERS[i]}: " + "+".join(roster.by_seat(s).name for s in side)
                          for i, side in enumerate(_sides(state)))

    def _target(self, rules: Mapping[str, Any], state: Mapping[str, Any] | None) -> int:
        players = sum(len(s) for s in _sides(state))
        return rules["target"] or (5000 if players >= 6 else 3500)

    def column_players(self, roster: Roster,
                       state: Mapping[str, Any] | None) -> dict[int, list[int]]:
        return {i: list(side) for i, side in enumerate(_sides(state), 1)}

    def placings(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                 state: Mapping[str, Any] | None, roster: Roster) -> dict[int, Placing]:
        """A side won only if it passed the target alone at the top: a game ended before
        that has places but no winner."""
        placed = super().placings(totals, rules, state, roster)
        winner = self._winner(totals, rules, state)
        return {k: replace(p, won=k == winner) for k, p in placed.items()}

    def _winner(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                state: Mapping[str, Any] | None) -> int | None:
        """The side that has won: past the target, and alone at the top."""
        target = self._target(rules, state)
        passed = sorted(((v, k) for k, v in totals.items() if v >= target), reverse=True)
        if not passed or (len(passed) > 1 and passed[1][0] == passed[0][0]):
            return None
        return passed[0][1]

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster, ended: bool = False) -> Text:
        target = self._target(rules, state)
        passed = sorted(((v, k) for k, v in totals.items() if v >= target), reverse=True)
        line: list[Text] = [_("{sides}. Target {target}.", sides=self._side_names(roster, state),
                              target=Num(target))]
        winner = self._winner(totals, rules, state)
        if winner is not None:
            line.append(_("{side} wins with {total}!", side=LETTERS[winner - 1],
                          total=Num(totals[winner])))
            if not ended:
                line.append(_("/endgame to archive the game (no round follows; /undo or /edit "
                              "to correct one)."))
        elif passed:
            best = [LETTERS[k - 1] for v, k in passed if v == passed[0][0]]
            line.append(_("{sides} are tied past the target at {total}: play another round.",
                          sides=_both(sorted(best)), total=Num(passed[0][0])))
        return join(line, " ")

    # --- rounds --------------------------------------------------------------------------

    def _round(self, ctx: PlayContext) -> PlayOutcome:
        options = dict(ctx.options)
        sides = _sides(ctx.state)
        if ctx.editing is not None:
            entered = dict(ctx.editing["sides"])
        else:
            won = self._winner(ctx.totals, ctx.rules, ctx.state)
            if won is not None:
                raise UserError(_("Side {side} has won with {total}: the game is over and no "
                                  "round follows. /endgame archives it; /undo or /edit "
                                  "corrects a round.", side=LETTERS[won - 1],
                                  total=Num(ctx.totals[won])))
            entered = dict((ctx.pending or {}).get("sides", {}))
        if "side" not in options:
            raise UserError(_("Say which side: side:A. Sides: {sides}",
                              sides=self._side_names(ctx.roster, ctx.state)))
        side = self._side(options.pop("side"), sides, ctx)
        earlier = entered.get(str(side), {}).get("options", {}) if ctx.editing else {}
        merged = _merge(earlier, options)
        score, parts, detail, use = self._score_side(merged, ctx, len(sides))
        replaced = entered.get(str(side)) if ctx.editing is None else None
        others = {k: v for k, v in entered.items() if k != str(side)}
        self._check_packs({**{k: v.get("use") or self._usage_of(v["options"], ctx)
                              for k, v in others.items()}, str(side): use}, ctx)
        entered[str(side)] = {"options": merged, "score": score, "parts": parts,
                              "detail": detail, "use": use}
        missing = [i for i in range(1, len(sides) + 1) if str(i) not in entered]
        letter = LETTERS[side - 1]
        if detail:
            lines: list[Text] = [_("Side {side}: {score} ({parts}); melds {melds}, canastras "
                                   "{canastras}", side=letter, score=signed(score),
                                   parts=_parts(parts), melds=detail["melds"],
                                   canastras=detail["canastras"])]
        else:
            lines = [_("Side {side}: {score} ({parts})", side=letter, score=signed(score),
                       parts=_parts(parts))]
        if replaced is not None:  # said out loud: a side entered twice is a slip as often
            lines.append(_("This replaces side {side}'s earlier entry for this round "
                           "({score}).", side=letter, score=signed(replaced["score"])))
        if missing and ctx.editing is None:  # the core adds the board's waiting line
            return PlayOutcome(join(lines), pending={"sides": entered, "count": len(sides)})
        outs = [k for k, v in entered.items() if v["options"].get("out") in ("yes", True)]
        if len(outs) > 1:
            raise UserError(_("Only one side makes the final move in a round."))
        players = [s for group in sides for s in group]
        return PlayOutcome(join(lines), pending=None, result=_result(players, entered))

    def rescore(self, ctx: PlayContext) -> PlayOutcome:
        """A later round after /edit of an earlier one: it stands as entered (no side's
        score depends on another round), unless the race was already won before it."""
        assert ctx.editing is not None
        won = self._winner(ctx.totals, ctx.rules, ctx.state)
        if won is not None:
            raise UserError(_("side {side} would have won with {total} before it, and no "
                              "round follows a win.", side=LETTERS[won - 1],
                              total=Num(ctx.totals[won])))
        players = [p.seat for p in ctx.hand_players]
        return PlayOutcome("", result=_result(players, dict(ctx.editing["sides"])))

    def _side(self, text: str, sides: list[list[int]], ctx: PlayContext) -> int:
        """A side named exactly: its letter, or one of its players by full name or mention
        (never a prefix: side:C is not carol's side in a two-side game)."""
        word = text.strip()
        letters = LETTERS[: len(sides)]
        if len(word) == 1 and word.upper() in letters:
            return LETTERS.index(word.upper()) + 1
        mentioned = ctx.mentions.get(word) or ctx.mentions.get(word.lower())
        player = (ctx.roster.find_user(mentioned.id) if mentioned is not None
                  else ctx.roster.by_name(word.lstrip("@")))
        if player is None:
            raise UserError(_("`{word}` is no side here: name a side exactly, {letters}, or "
                              "a player of it by full name. Sides: {sides}", word=clip(word),
                              letters=_either(list(letters)),
                              sides=self._side_names(ctx.roster, ctx.state)))
        for i, side in enumerate(sides, 1):
            if player.seat in side:
                return i
        raise UserError(_("{name} is on no side. Sides: {sides}", name=player.name,
                          sides=self._side_names(ctx.roster, ctx.state)))

    def _score_side(self, options: Mapping[str, str], ctx: PlayContext, side_count: int
                    ) -> tuple[int, list[tuple[str, int]], dict[str, int], dict[str, Any]]:
        """The side's score, its parts, its melds and canastras when given as cards, and
        what it used of the packs."""
        rules = ctx.rules
        packs = _packs(ctx.state)
        size = rules["canastra_size"]
        held: list[Card] = []  # every card given as a card: melds and hand together
        number = {k: parse_int(options[k], k, 0, 100000) for k in
                  ("red3", "black3") if k in options}
        red3 = number.get("red3", 0)
        detail: dict[str, int] = {}
        if "melds" in options:
            clash = [k for k in COUNT_KEYS if k in options]
            if clash:
                raise UserError(_("Give melds: or {keys}, not both.",
                                  keys=", ".join(f"{k}:" for k in clash)))
            groups = MELD.findall(options["melds"])
            leftover = MELD.sub(" ", options["melds"]).strip()
            if not groups or leftover:
                if leftover:
                    raise UserError(_("Give each meld in brackets: melds:[4H 5H 6H] [KS KD KC]; "
                                      "`{text}` is outside the brackets.", text=clip(leftover)))
                raise UserError(_("Give each meld in brackets: melds:[4H 5H 6H] [KS KD KC]"))
            melds = []
            for group in groups:
                cards = parse_cards(group, packs)  # copies across groups: _check_packs
                melds.append(check_meld(cards, rules))
                held += cards
            table = sum(card_value(c, rules) for m in melds for c in m.cards)
            table += red3 * rules["value_red3"]
            kinds = [m.kind for m in melds]
            clean, dirty, twos = (kinds.count(k) for k in ("clean", "dirty", "twos"))
            detail = {"melds": len(melds), "canastras": clean + dirty + twos}
            canastra_cards = sum(len(m.cards) for m in melds if m.kind != "meld")
            twos_used = 0  # the 2s are among the cards
        else:
            missing = [k for k in ("table",) if k not in options]
            if missing:
                raise UserError(_("Give table: (card points laid down) or melds:. {example}",
                                  example=ctx.example(USAGE)))
            table = parse_int(options["table"], "table", 0, 100000)
            clean, dirty, twos = (parse_int(options.get(k, "0"), k, 0, 50)
                                  for k in ("clean", "dirty", "twos"))
            # at the least: a canastra is `size` cards; a dirty one has a 2, one of 2s `size`
            canastra_cards = (clean + dirty + twos) * size
            twos_used = twos * size + dirty
        hand_text = options.get("hand", "0").strip()
        black3 = number.get("black3", 0)
        red3_in_hand = 0
        if hand_text.lstrip("+-").isdigit():
            hand = parse_int(hand_text, "hand", 0, 100000)
        else:
            cards = parse_cards(hand_text, packs)
            held += cards
            red3_in_hand = sum(1 for c in cards if c.rank == 3 and c.red)
            if "black3" in options:
                raise UserError(_("With the hand given as cards, the black 3s are counted "
                                  "from it; leave black3: out."))
            black3 = sum(1 for c in cards if c.rank == 3 and not c.red)
            hand = sum(card_value(c, rules) for c in cards)
        morto = parse_bool(options.get("morto", "yes"), "morto")
        out = parse_bool(options.get("out", "no"), "out")
        if out and not (clean + dirty + twos):
            raise UserError(_("A side can't go out without a canastra."))
        if out and not morto:
            raise UserError(_("The final move comes after taking the morto: out:yes needs "
                              "morto:yes."))
        if twos and not rules["twos_canastra"]:
            raise UserError(_("Canastras of 2s are off here (rule twos_canastra is 0)."))
        score, parts = round_score(SideRound(table, hand, clean, dirty, twos, red3, black3,
                                             morto, out), rules)
        use = {"cards": [str(c) for c in held], "red3": red3 + red3_in_hand,
               "black3": black3, "twos": twos_used + sum(1 for c in held if c.rank == 2),
               "canastra_cards": canastra_cards}
        return score, parts, detail, use

    def _usage_of(self, options: Mapping[str, str], ctx: PlayContext) -> dict[str, Any]:
        """What a side entered before this check was kept used (a round waiting since)."""
        return self._score_side(options, ctx, len(_sides(ctx.state)))[3]

    def _check_packs(self, use: Mapping[str, Mapping[str, Any]], ctx: PlayContext) -> None:
        """Everything the sides of one round say they held must fit in the packs: each card
        once a pack, red and black 3s two a pack, 2s four a pack, 52 cards a pack."""
        packs = _packs(ctx.state)
        copies: dict[str, Counter[str]] = {}
        for side, used in sorted(use.items()):
            for card in used["cards"]:
                copies.setdefault(card, Counter())[LETTERS[int(side) - 1]] += 1
        for card, by_side in copies.items():
            count = sum(by_side.values())
            if count > packs:
                split = join([_("side {side} {count}", side=k, count=n)
                              for k, n in sorted(by_side.items())], ", ")
                raise UserError(_n("{card} is given {count} times in this round ({split}), "
                                   "but {n} pack holds only {n} of it.",
                                   "{card} is given {count} times in this round ({split}), "
                                   "but {n} packs hold only {n} of it.", packs, card=card,
                                   count=count, split=split))
        for key, most in (("red3", 2 * packs), ("black3", 2 * packs), ("twos", 4 * packs),
                          ("canastra_cards", 52 * packs)):
            count = sum(u[key] for u in use.values())
            if count > most:
                raise UserError(_too_many(key, count, packs, most))

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        entered = sorted(int(k) for k in pending.get("sides", {}))
        done = ", ".join(LETTERS[k - 1] for k in entered)
        count = pending.get("count")
        if not isinstance(count, int):  # waiting since before the count was kept
            return _("has side {sides} in; waiting for the others", sides=done)
        missing = ", ".join(LETTERS[k - 1] for k in range(1, count + 1) if k not in entered)
        return _("has side {sides} in; waiting for side {missing}", sides=done,
                 missing=missing)


def _packs(state: Mapping[str, Any] | None) -> int:
    """2 packs up to 4 players, 3 for 6 (the rules page)."""
    return 3 if sum(len(s) for s in _sides(state)) >= 6 else 2


def _result(players: list[int], entered: Mapping[str, Any]) -> HandResult:
    deltas = {int(k): v["score"] for k, v in sorted(entered.items())}
    summary = join([_("{side} {score} ({parts})", side=LETTERS[int(k) - 1],
                      score=signed(v["score"]), parts=_parts(v["parts"]))
                    for k, v in sorted(entered.items())], "; ")
    return HandResult(players=players, inputs={"sides": dict(entered)}, deltas=deltas,
                      summary=summary)


def _merge(earlier: Mapping[str, str], options: Mapping[str, str]) -> dict[str, str]:
    """A side re-entered by /edit: the new options over the old; cards or counts, not both."""
    merged = dict(earlier)
    if "melds" in options:
        for key in COUNT_KEYS:
            merged.pop(key, None)
    if any(k in options for k in COUNT_KEYS):
        merged.pop("melds", None)
    hand = options.get("hand", "").strip()
    if hand and not hand.lstrip("+-").isdigit() and "black3" not in options:
        merged.pop("black3", None)  # the hand as cards: its black 3s are counted from it
    merged.update(options)
    return merged


def _parts(parts: list[tuple[str, int]]) -> Text:
    """A side's score part by part: "table +900, in hand -20, ..."."""
    if not parts:
        return _("nothing")
    return join([part_text(label, points) for label, points in parts], ", ")


def _both(items: list[str]) -> Text:
    """"A and B", "A, B and C"."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def _either(items: list[str]) -> Text:
    """"A or B", "A, B or C"."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} or {last}", items=", ".join(items[:-1]), last=items[-1])


def _too_many(key: str, count: int, packs: int, most: int) -> Msg:
    """More of a kind of card in a round than the packs hold."""
    if key == "red3":
        return _n("This round has {count} red 3s, but {n} pack holds only {most}.",
                  "This round has {count} red 3s, but {n} packs hold only {most}.", packs,
                  count=count, most=most)
    if key == "black3":
        return _n("This round has {count} black 3s, but {n} pack holds only {most}.",
                  "This round has {count} black 3s, but {n} packs hold only {most}.", packs,
                  count=count, most=most)
    if key == "twos":
        return _n("This round has {count} 2s (a canastra of 2s is all 2s, a dirty one has "
                  "one), but {n} pack holds only {most}.",
                  "This round has {count} 2s (a canastra of 2s is all 2s, a dirty one has "
                  "one), but {n} packs hold only {most}.", packs, count=count, most=most)
    return _n("This round has {count} cards in canastras, but {n} pack holds only {most}.",
              "This round has {count} cards in canastras, but {n} packs hold only {most}.",
              packs, count=count, most=most)
