"""Riichi mahjong as a game plugin: /ron, /tsumo, /riichi, /draw, /chombo.

The `mahjong` package scores a hand from tiles; the game around it is here: seats and the
dealer, honba, riichi sticks, noten payments, the end and uma/oka. Scores are start + the
sum of the hands; the sticks on the table are kept in the game state, so scores plus sticks
always make players x start.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import UserError
from bot.core.games.base import Game, HandResult, PlayContext, PlayOutcome
from bot.core.games.riichi import payments as pay
from bot.core.games.riichi.tiles import score_tiles
from bot.core.grammar import parse_bool, parse_int, parse_pairs, split_list
from bot.core.money import money_rules
from bot.core.permissions import Rule
from bot.core.players import Player, Roster
from bot.core.rules import Preset, RuleBook, RuleSpec, bool_rule, choice_rule, int_rule

WIND_NAMES = ["East", "South", "West", "North"]


def _uma(text: str) -> str:
    numbers = [parse_int(w, "uma", -100, 100) for w in split_list(text)]
    if len(numbers) not in (3, 4) or sum(numbers) != 0:
        raise UserError("uma is 3 or 4 numbers that add up to 0, e.g. 15 5 -5 -15.")
    return " ".join(str(n) for n in numbers)


RULEBOOK = RuleBook(
    [
        int_rule("start", 25000, 1000, 200000, "points each player starts with"),
        int_rule("back", 30000, 1000, 200000,
                 "return points: final = (score - back) / 1000 + uma; oka to first"),
        RuleSpec("uma", "15 5 -5 -15", "uma by place, in thousands", _uma),
        choice_rule("length", "hanchan", {"hanchan": "East and South rounds",
                                          "tonpuusen": "East round only"}, "game length"),
        bool_rule("kiriage", False, "4 han 30 fu and 3 han 60 fu round up to mangan"),
        bool_rule("open_tanyao", True, "tanyao counts in an open hand"),
        bool_rule("aka_dora", True, "red fives (0m 0p 0s) are dora"),
        bool_rule("double_yakuman", True, "some hands count as double yakuman"),
        choice_rule("kazoe", "yakuman", {"yakuman": "13+ han is yakuman",
                                         "sanbaiman": "13+ han is sanbaiman",
                                         "none": "no limit"}, "counted yakuman"),
        bool_rule("double_ron", True, "two players may ron the same tile (else head bump)"),
        bool_rule("tobi", True, "the game ends when a player is below zero"),
        choice_rule("tie", "seat", {"seat": "the earlier seat from the first dealer ranks "
                                            "higher", "split": "tied places share uma"},
                    "ties at the end"),
        int_rule("noten", 3000, 0, 30000, "noten payment at an exhaustive draw, in all"),
        int_rule("stick", 1000, 0, 10000, "a riichi stick"),
        int_rule("honba", 300, 0, 3000, "honba: added to a ron, a third from each on tsumo"),
        *money_rules(),
    ],
    [
        Preset("tenhou", "Tenhou-like: 25,000 start, 30,000 back, uma 15/5/-5/-15, red fives",
               {"start": 25000, "back": 30000, "uma": "15 5 -5 -15", "aka_dora": True,
                "open_tanyao": True, "kiriage": False, "double_ron": True}),
        Preset("ema", "EMA: 30,000 start, no oka, uma 15/5/-5/-15, no red fives, no double "
               "yakuman, kiriage", {"start": 30000, "back": 30000, "uma": "15 5 -5 -15",
                                    "aka_dora": False, "double_yakuman": False,
                                    "kiriage": True, "kazoe": "sanbaiman", "tobi": False}),
        Preset("mleague", "M-League: 25,000 start, 30,000 back, uma 30/10/-10/-30",
               {"start": 25000, "back": 30000, "uma": "30 10 -10 -30", "aka_dora": True,
                "double_ron": False}),
    ],
    headline=("start", "back", "uma", "length"),
)

RON_USAGE = ("/ron winner:alice from:bob han:3 fu:30   or   "
             "/ron winner:alice from:bob hand:234m067p23456788s win:2s dora:1m ura:7s")
RON_DETAILS = (
    "han: and fu:, or yakuman:1 (2 for double); or the tiles: hand: all 14 tiles "
    "(123m456p789s11z; z 1-4 winds, 5-7 dragons; 0 a red five), win: the winning tile, "
    "dora:/ura: the indicators, melds: called melds as pon555z chi456p kan1111m ankan2222p "
    "(their tiles not repeated in hand:). With double ron, winner:alice carol and "
    "han:alice=3 carol=2."
)
VALUE_OPTIONS = (
    Option("han", Kind.TEXT, "han (with two winners: alice=3 carol=2)"),
    Option("fu", Kind.TEXT, "fu (with two winners: alice=30 carol=40)"),
    Option("yakuman", Kind.INT, "a limit hand: 1, or 2 for a double", low=1, high=6),
    Option("hand", Kind.TEXT, "or the tiles: 234m067p23456788s"),
    Option("win", Kind.TEXT, "the winning tile, e.g. 2s"),
    Option("dora", Kind.TEXT, "dora indicators"),
    Option("ura", Kind.TEXT, "ura dora indicators"),
    Option("melds", Kind.TEXT, "called melds: pon555z chi456p kan1111m ankan2222p"),
)
WIN_OPTIONS = (
    Option("winner", Kind.PLAYERS, "who won (two for a double ron)"),
    *VALUE_OPTIONS,
    Option("riichi", Kind.BOOL, "the winner declared riichi"),
)
GLOSSARY = (
    "Riichi words: han and fu measure a hand; dora are bonus tiles; riichi = a closed ready "
    "hand declared with a 1,000 stick; honba = the counter of repeats and draws, worth 300 a "
    "win; tenpai = ready, noten = not; uma and oka = the placement bonuses at the end; "
    "chombo = a penalty; tsumo = self-draw, ron = a win on a discard."
)


def _state(state: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"round": 0, "honba": 0, "sticks": 0, "over": False, **(state or {})}


def _seats(roster: Roster) -> list[int]:
    return [p.seat for p in roster]


def round_name(state: Mapping[str, Any], players: int) -> str:
    wind = WIND_NAMES[min(state["round"] // players, 3)]
    honba = f", {state['honba']} honba" if state["honba"] else ""
    return f"{wind} {state['round'] % players + 1}{honba}"


class RiichiGame(Game):
    key = "riichi"
    title = "Riichi mahjong"
    min_players = 3
    max_players = 4
    rulebook = RULEBOOK
    glossary = GLOSSARY
    zero_sum = False  # sticks sit on the table between hands; the end is uma and oka
    edit_key = "result"  # /edit result:3 han:4 (hand: is the tiles)

    def declare(self) -> tuple[CommandSpec, ...]:
        return (
            CommandSpec("ron", "a win on a discard", RON_USAGE, RON_DETAILS,
                        (WIN_OPTIONS[0], Option("from", Kind.PLAYER, "who dealt in"),
                         *WIN_OPTIONS[1:]), may=Rule.PLAYER, play=self._result,
                        records=True),
            CommandSpec("tsumo", "a win by self-draw",
                        "/tsumo winner:alice han:4 fu:30   (or the tiles, as for /ron)",
                        "As /ron, without from:.", WIN_OPTIONS, may=Rule.PLAYER,
                        play=self._result),
            CommandSpec("riichi", "put a riichi stick down", "/riichi alice",
                        "The stick is on the table from now; the next winner takes them all.",
                        (Option("", Kind.PLAYERS, "who declares riichi (you if empty)",
                                name="player"),), may=Rule.PLAYER, play=self._declare),
            CommandSpec("draw", "an exhaustive draw", "/draw tenpai:alice carol",
                        "Noten players pay the tenpai ones (3,000 in all). tenpai:none when "
                        "nobody is.", (Option("tenpai", Kind.PLAYERS,
                                              "the players who are tenpai (none if nobody)"),),
                        may=Rule.PLAYER, play=self._result),
            CommandSpec("chombo", "a penalty", "/chombo bob",
                        "A reverse mangan: the offender pays as if each other player won a "
                        "mangan by tsumo. The hand is replayed.",
                        (Option("", Kind.PLAYER, "who pays the penalty", name="player",
                                required=True),), may=Rule.PLAYER, play=self._result),
        )

    def edit_options(self) -> tuple[Option, ...]:
        return VALUE_OPTIONS  # an edit changes the value of a win, not who won

    def setup(self, options: Mapping[str, str], players: list[Player],
              named: bool) -> tuple[list[Player], dict[str, Any] | None]:
        if len(players) not in (3, 4):
            raise UserError("Riichi is for 4 players (or 3, sanma), seated East South West "
                            "North in the order given: players:alice bob carol dave")
        return players, _state(None)

    # --- results -------------------------------------------------------------------------

    def _declare(self, ctx: PlayContext) -> PlayOutcome:
        if _state(ctx.state)["over"]:
            raise UserError("The game is over: /endgame for the final scores with uma.")
        return self._riichi(ctx, list((ctx.pending or {}).get("riichi", [])))

    def _result(self, ctx: PlayContext) -> PlayOutcome:
        state = _state(ctx.state)
        riichi = list((ctx.pending or {}).get("riichi", []))
        kind, options = ctx.command, dict(ctx.options)
        if ctx.editing is not None:
            kind = ctx.editing["kind"]
            riichi = list(ctx.editing.get("riichi", []))
            changed = {k for k in options if k not in ("han", "fu", "yakuman", "hand", "win",
                                                       "dora", "ura", "melds")}
            if changed:
                raise UserError("An edit can change han, fu, yakuman or the tiles; for "
                                "another winner, /undo and enter it again.")
            earlier = dict(ctx.editing["options"])
            tiles = ("hand", "win", "dora", "ura", "melds")
            if options.keys() & {"han", "fu", "yakuman"}:  # counts replace the tiles
                earlier = {k: v for k, v in earlier.items() if k not in tiles}
            if "hand" in options:
                earlier = {k: v for k, v in earlier.items() if k not in ("han", "fu",
                                                                         "yakuman")}
            options = {**earlier, **options}
        elif state["over"]:
            raise UserError("The game is over: /endgame for the final scores with uma.")
        seats = _seats(ctx.roster)
        dealer = seats[state["round"] % len(seats)]
        deltas = dict.fromkeys(seats, 0)
        sticks = state["sticks"]
        if kind != "chombo":
            for seat in riichi:
                deltas[seat] -= ctx.rules["stick"]
                sticks += 1
        handler = {"ron": self._ron, "tsumo": self._tsumo, "draw": self._draw,
                   "chombo": self._chombo}[kind]
        summary, winners, sticks_taken, extra = handler(ctx, options, state, dealer, riichi)
        for seat, points in extra.items():
            deltas[seat] = deltas.get(seat, 0) + points
        if sticks_taken is not None:
            deltas[sticks_taken] += sticks * ctx.rules["stick"]
            if sticks:
                summary += f"; {sticks} stick{'s' if sticks > 1 else ''} to " \
                           f"{ctx.roster.by_seat(sticks_taken).name}"
            sticks = 0
        after = self._next(state, kind, winners, dealer, seats, sticks, ctx.rules)
        scores = {s: ctx.rules["start"] + ctx.totals.get(s, 0) + deltas[s] for s in seats}
        if ctx.rules["tobi"] and min(scores.values()) < 0:
            after["over"] = True
        if riichi and kind != "chombo":
            names = ", ".join(ctx.roster.by_seat(s).name for s in riichi)
            summary += f"; riichi {names}"
        summary = f"{round_name(state, len(seats))}: {summary}"
        inputs = {"kind": kind, "options": options, "riichi": riichi}
        return PlayOutcome("", pending=None, state=after, result=HandResult(
            players=seats, inputs=inputs, deltas=deltas, summary=summary))

    def _riichi(self, ctx: PlayContext, riichi: list[int]) -> PlayOutcome:
        names = split_list(ctx.options.get("", ""))
        if not names:
            me = ctx.actor_player
            if me is None:
                raise UserError("Say who: /riichi alice")
            players = [me]
        else:
            players = ctx.roster.resolve_many(names, ctx.mentions)
        for player in players:
            if player.seat in riichi:
                raise UserError(f"{player.name} has already declared riichi this hand.")
            riichi.append(player.seat)
        who = ", ".join(p.name for p in players)
        return PlayOutcome(f"Riichi: {who} (a stick each goes on the table with the result).",
                           pending={"riichi": riichi})

    def _hand_value(self, ctx: PlayContext, options: Mapping[str, str], winner: Player,
                    state: Mapping[str, Any], dealer: int, riichi: list[int], tsumo: bool,
                    multi: bool) -> tuple[int, str]:
        """Basic points for one winner, and how they were found."""
        seats = _seats(ctx.roster)

        def own(key: str) -> str | None:
            text = options.get(key)
            if text is None or not multi:
                return text
            pairs = {ctx.roster.resolve(n, ctx.mentions).seat: v for n, v in parse_pairs(text)}
            if winner.seat not in pairs:
                raise UserError(f"Give {key}: for each winner, e.g. {key}:{winner.name}=3")
            return pairs[winner.seat]

        if "hand" in options:
            if multi:
                raise UserError("With two winners, give han: and fu: for each.")
            if "win" not in options:
                raise UserError("Give the winning tile: win:2s")
            riichi_flag = parse_bool(options["riichi"], "riichi") if "riichi" in options \
                else winner.seat in riichi
            seat_wind = (seats.index(winner.seat) - seats.index(dealer)) % len(seats)
            result = score_tiles(options, tsumo=tsumo, riichi=riichi_flag,
                                 seat_wind=seat_wind, round_wind=min(
                                     state["round"] // len(seats), 3),
                                 rules=ctx.rules, honba=state["honba"])
            basic = pay.basic_points(result.han, result.fu, result.yakuman,
                                     ctx.rules["kiriage"])
            label = (f"yakuman x{result.yakuman}" if result.yakuman
                     else f"{result.han} han {result.fu} fu")
            return basic, f"{label} ({result.yaku})"
        yakuman_text = own("yakuman")
        if yakuman_text is not None:
            count = parse_int(yakuman_text, "yakuman", 1, 6)
            return pay.basic_points(0, 0, count), f"yakuman x{count}"
        han_text, fu_text = own("han"), own("fu")
        if han_text is None:
            raise UserError(f"Give han: and fu:, yakuman:1, or the tiles. "
                            f"{RON_USAGE}")
        han = parse_int(han_text, "han", 1, 100)
        if fu_text is None:
            if han < 5:
                raise UserError("Give fu: too (below 5 han the fu decide the value).")
            fu = 30  # from 5 han on the fu don't matter
        else:
            fu = parse_int(fu_text, "fu", 20, 110)
        return pay.basic_points(han, fu, 0, ctx.rules["kiriage"]), f"{han} han {fu} fu"

    def _winners(self, ctx: PlayContext, options: Mapping[str, str]) -> list[Player]:
        names = split_list(options.get("winner", ""))
        if not names:
            raise UserError("Name the winner: winner:NAME")
        return ctx.roster.resolve_many(names, ctx.mentions, "winner:")

    def _ron(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
             dealer: int, riichi: list[int]) -> tuple[str, list[int], int, dict[int, int]]:
        winners = self._winners(ctx, options)
        if "from" not in options:
            raise UserError("Say who dealt in: from:NAME")
        loser = ctx.roster.resolve(options["from"].strip(), ctx.mentions)
        if loser in winners:
            raise UserError(f"{loser.name} can't win on their own discard: that is /tsumo.")
        seats = _seats(ctx.roster)
        # in turn after the discarder: the first is the head-bump winner, and takes honba
        # and sticks
        order = sorted(winners, key=lambda p: (seats.index(p.seat) - seats.index(loser.seat))
                       % len(seats))
        if len(order) > 1 and not ctx.rules["double_ron"]:
            raise UserError(f"Head bump (no double ron here): only {order[0].name}, first "
                            f"after {loser.name}, wins. /ron winner:{order[0].name} ...")
        deltas: dict[int, int] = {}
        parts = []
        for i, winner in enumerate(order):
            basic, how = self._hand_value(ctx, options, winner, state, dealer, riichi, False,
                                          len(order) > 1)
            win = pay.Win(winner.seat, basic, winner.seat == dealer)
            for seat, points in pay.ron(win, loser.seat, state["honba"] if i == 0 else 0,
                                        ctx.rules["honba"]).items():
                deltas[seat] = deltas.get(seat, 0) + points
            parts.append(f"{winner.name} ron from {loser.name}, {how}, "
                         f"{deltas[winner.seat]:,}")
        return "; ".join(parts), [p.seat for p in order], order[0].seat, deltas

    def _tsumo(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
               dealer: int, riichi: list[int]) -> tuple[str, list[int], int, dict[int, int]]:
        winners = self._winners(ctx, options)
        if len(winners) != 1:
            raise UserError("A tsumo has one winner.")
        winner = winners[0]
        basic, how = self._hand_value(ctx, options, winner, state, dealer, riichi, True, False)
        deltas = pay.tsumo(pay.Win(winner.seat, basic, winner.seat == dealer),
                           _seats(ctx.roster), dealer, state["honba"], ctx.rules["honba"])
        return (f"{winner.name} tsumo, {how}, {deltas[winner.seat]:,}", [winner.seat],
                winner.seat, deltas)

    def _draw(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
              dealer: int, riichi: list[int]) -> tuple[str, list[int], None, dict[int, int]]:
        words = [w for w in split_list(options.get("tenpai", "")) if w.lower() != "none"]
        tenpai = ctx.roster.resolve_many(words, ctx.mentions, "tenpai:")
        seats = [p.seat for p in tenpai]
        deltas = pay.noten_payments(_seats(ctx.roster), seats, ctx.rules["noten"])
        who = ", ".join(p.name for p in tenpai) or "nobody"
        return f"draw, tenpai {who}", seats, None, deltas

    def _chombo(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
                dealer: int, riichi: list[int]) -> tuple[str, list[int], None, dict[int, int]]:
        names = split_list(options.get("", ""))
        if len(names) != 1:
            raise UserError("Name the one player: /chombo bob")
        offender = ctx.roster.resolve(names[0], ctx.mentions)
        deltas = pay.chombo(offender.seat, _seats(ctx.roster), dealer)
        return f"chombo by {offender.name}", [], None, deltas

    def _next(self, state: Mapping[str, Any], kind: str, winners: list[int], dealer: int,
              seats: list[int], sticks: int, rules: Mapping[str, Any]) -> dict[str, Any]:
        after = dict(state)
        after["sticks"] = sticks
        if kind in ("ron", "tsumo"):
            if dealer in winners:
                after["honba"] += 1  # the dealer repeats
            else:
                after["round"] += 1
                after["honba"] = 0
        elif kind == "draw":
            after["honba"] += 1
            if dealer not in winners:  # winners: the tenpai players
                after["round"] += 1
        rounds = len(seats) * (1 if rules["length"] == "tonpuusen" else 2)
        if after["round"] >= rounds:
            after["over"] = True
        return after

    def winners(self, hand: Any) -> list[int]:
        if hand.inputs.get("kind") not in ("ron", "tsumo"):
            return []
        return [seat for seat, points in hand.deltas.items() if points > 0]

    # --- the board -----------------------------------------------------------------------

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster) -> str:
        state = _state(state)
        scores = " · ".join(f"{p.name} {rules['start'] + totals.get(p.seat, 0):,}"
                            for p in roster)
        where = "Game over: /endgame for the final scores" if state["over"] else \
            round_name(state, len(roster))
        return f"{where} · sticks on the table {state['sticks']} · scores: {scores}"

    def final_lines(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                    state: Mapping[str, Any] | None, roster: Roster) -> list[str]:
        state = _state(state)
        seats = _seats(roster)
        scores = {s: rules["start"] + totals.get(s, 0) for s in seats}
        leftover = state["sticks"] * rules["stick"]
        first = sorted(seats, key=lambda s: (-scores[s], seats.index(s)))[0]
        scores[first] += leftover  # sticks left on the table go to first place
        uma = [int(x) for x in rules["uma"].split()]
        if len(uma) != len(seats):
            uma = uma[:len(seats)] if len(uma) > len(seats) else [*uma, 0]
        final = pay.final_scores(scores, seats, rules["start"], rules["back"], uma,
                                 rules["tie"])
        ranked = sorted(seats, key=lambda s: (-final[s], seats.index(s)))
        lines = [f"Final (uma {rules['uma']}, back {rules['back']:,}"
                 + (f", {state['sticks']} leftover stick(s) to "
                    f"{roster.by_seat(first).name}" if leftover else "") + "):"]
        lines += [f"{i}. {roster.by_seat(s).name} {scores[s]:,} -> {final[s]:+.1f}"
                  for i, s in enumerate(ranked, 1)]
        return lines

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> str:
        names = ", ".join(roster.by_seat(s).name for s in pending.get("riichi", []))
        return f"has riichi declared by {names or 'nobody'}"

