"""Riichi mahjong as a game plugin: /ron, /tsumo, /riichi, /draw, /chombo.

The `mahjong` package scores a hand from tiles; the game around it is here: seats and the
dealer, honba, riichi sticks, noten payments, abortive draws, nagashi mangan, pao, the end
and uma/oka. Scores are start + the sum of the hands; the sticks on the table are kept in
the game state, so scores plus sticks always make players x start.

Abortive draws and nagashi mangan are options of /draw (abort:, nagashi:): at the table
they are ways a hand ends with no win, and people call all of them "a draw"; one command
keeps the menus short and /help draw explains them together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import About, UserError
from bot.core.games.base import (
    Game,
    HandResult,
    Placing,
    PlayContext,
    PlayOutcome,
    Seat,
)
from bot.core.games.riichi import payments as pay
from bot.core.games.riichi.rules import RULEBOOK
from bot.core.games.riichi.tiles import PAO_YAKU, SITUATIONS, score_tiles
from bot.core.grammar import parse_bool, parse_int, parse_pairs, split_list
from bot.core.i18n import N_, Joined, Msg, Num, Text, _, _n, join
from bot.core.permissions import Rule
from bot.core.players import Player, Roster

__all__ = ["RULEBOOK", "RiichiGame"]

ABORTS = {
    "kyuushu": _("kyuushu kyuuhai (nine terminals and honours in a first hand)"),
    "suufon": _("suufon renda (four of one wind discarded first)"),
    "suucha": _("suucha riichi (all four in riichi)"),
    "suukaikan": _("suukaikan (four kans by more than one player)"),
    "sanchahou": _("sanchahou (three rons on one discard)"),
}
FOUR_ONLY = ("suufon", "suucha", "sanchahou")
OVER = _("The game is over: /endgame for the final scores with uma.")
NOBODY = _("nobody")

RON_BY_HAN = "/ron winner:alice from:bob han:3 fu:30"
RON_BY_TILES = "/ron winner:alice from:bob hand:234m067p23456788s win:2s dora:1m ura:7s"
RON_USAGE = f"{RON_BY_HAN}   or   {RON_BY_TILES}"
RON_DETAILS = (
    "han: and fu:, or yakuman:1 (2 for double); or the tiles: hand: all 14 tiles "
    "(123m456p789s11z; z 1-4 winds, 5-7 dragons; 0 a red five), win: the winning tile, "
    "dora:/ura: the indicators, melds: called melds as pon555z chi456p kan1111m ankan2222p "
    "(their tiles not repeated in hand:); with the tiles, what they can't show: ippatsu:, "
    "houtei: (the last discard), chankan:, double_riichi:. A han and fu no hand has (20 fu "
    "by ron, 1 han 20 or 25 fu, 2 han 25 fu by tsumo) is refused. With double ron, "
    "winner:alice carol and han:alice=3 carol=2; three rons on one discard win, or are "
    "sanchahou (rule triple_ron: /draw abort:sanchahou). pao:NAME: the player who fed the "
    "last dragon or wind set of a daisangen or daisuushii pays half with the discarder "
    "(rule pao)."
)
TILES = N_("tiles")  # the topic of the options read with the tiles (Discord: /edit riichi_tiles)
VALUE_OPTIONS = (
    Option("han", Kind.TEXT, "han (with two winners: alice=3 carol=2)"),
    Option("fu", Kind.TEXT, "fu (with two winners: alice=30 carol=40)"),
    Option("yakuman", Kind.INT, "a limit hand: 1, or 2 for a double", low=1, high=6),
    Option("hand", Kind.TEXT, "or the tiles: 234m067p23456788s", topic=TILES),
    Option("win", Kind.TEXT, "the winning tile, e.g. 2s", topic=TILES),
    Option("dora", Kind.TEXT, "dora indicators", topic=TILES),
    Option("ura", Kind.TEXT, "ura dora indicators", topic=TILES),
    Option("melds", Kind.TEXT, "called melds: pon555z chi456p kan1111m ankan2222p",
           topic=TILES),
)
SITUATION_HELP = {
    "ippatsu": "with the tiles: won within a turn of riichi",
    "haitei": "with the tiles: won on the last tile of the wall",
    "houtei": "with the tiles: won on the last discard",
    "rinshan": "with the tiles: won on the tile after a kan",
    "chankan": "with the tiles: won on a tile added to a kan",
    "double_riichi": "with the tiles: riichi in the first go-around",
    "tenhou": "with the tiles: the dealer's first draw",
    "chiihou": "with the tiles: another player's first draw",
}


def _situations(*keys: str) -> tuple[Option, ...]:
    return tuple(Option(k, Kind.BOOL, SITUATION_HELP[k], topic=TILES) for k in keys)


PAO = Option("pao", Kind.PLAYER, "who pays for daisangen or daisuushii (sekinin barai)")
RIICHI_FLAG = Option("riichi", Kind.BOOL, "the winner declared riichi", topic=TILES)
WINNER = Option("winner", Kind.PLAYERS, "who won (two or three on one discard)")
RON_OPTIONS = (WINNER, Option("from", Kind.PLAYER, "who dealt in"), *VALUE_OPTIONS,
               RIICHI_FLAG, *_situations("ippatsu", "houtei", "chankan", "double_riichi"),
               PAO)
TSUMO_OPTIONS = (Option("winner", Kind.PLAYERS, "who won"), *VALUE_OPTIONS, RIICHI_FLAG,
                 *_situations("ippatsu", "haitei", "rinshan", "double_riichi", "tenhou",
                              "chiihou"), PAO)
TILE_KEYS = ("hand", "win", "dora", "ura", "melds", *SITUATIONS)
DRAW_DETAILS = (
    "An exhaustive draw: tenpai: the players who are ready (none if nobody); the noten "
    "players pay them 3,000 in all (rule noten); honba +1, and the dealer stays if tenpai. "
    "nagashi:NAME: nagashi mangan, paid as a mangan tsumo in place of the noten payments "
    "(rule nagashi: draw, without honba, the dealer stays if tenpai; win, with honba, the "
    "dealer stays only with their own). abort:KIND: an abortive draw, no payments, honba "
    "+1, the dealer stays, riichi sticks stay on the table: kyuushu, suufon, suucha (every "
    "player's riichi declared), suukaikan (rule abortive), sanchahou (rule triple_ron:draw)."
)
TENPAI = Option("tenpai", Kind.PLAYERS, "the players who are tenpai (none if nobody, all if "
                "everyone)")
NAGASHI = Option("nagashi", Kind.PLAYERS, "nagashi mangan")
ABORT = Option("abort", Kind.CHOICE, "an abortive draw", choices=tuple(ABORTS))
DRAW_OPTIONS = (TENPAI, NAGASHI, ABORT)
# /edit: every option a result is entered with, and who declared riichi in it
DECLARED = Option("declared", Kind.PLAYERS, "who declared riichi in it (a stick each), or "
                  "none")
CHOMBO = Option("chombo", Kind.PLAYER, "a chombo: who pays it")
EDIT_OPTIONS = tuple({o.key: o for o in (
    *RON_OPTIONS, *TSUMO_OPTIONS, *DRAW_OPTIONS, CHOMBO, DECLARED,
    # what an edit can take away with none
    Option("from", Kind.PLAYER, "who dealt in (none: it was a tsumo)"),
    Option("pao", Kind.PLAYER, "who pays for daisangen or daisuushii (none: nobody)"),
    Option("nagashi", Kind.PLAYERS, "nagashi mangan (none: nobody)"))}.values())
WIN_KEYS = frozenset(o.key for o in (*RON_OPTIONS, *TSUMO_OPTIONS, DECLARED))
EDIT_BY_KIND = {"ron": WIN_KEYS, "tsumo": WIN_KEYS,
                "draw": frozenset(("tenpai", "nagashi", "abort", "declared")),
                "chombo": frozenset(("chombo",))}
# an edited option takes away the earlier ones it stands in place of
REPLACES = {
    "han": set(TILE_KEYS), "fu": set(TILE_KEYS), "hand": {"han", "fu", "yakuman"},
    "yakuman": {"han", "fu", *TILE_KEYS}, "abort": {"tenpai", "nagashi"},
    "tenpai": {"abort"}, "nagashi": {"abort"},
}
GLOSSARY = (
    "Riichi words: han and fu measure a hand; dora are bonus tiles; riichi = a closed ready "
    "hand declared with a 1,000 stick; honba = the counter of repeats and draws, worth 300 a "
    "win; tenpai = ready, noten = not; uma and oka = the placement bonuses at the end; "
    "chombo = a penalty; tsumo = self-draw, ron = a win on a discard; pao = the player "
    "liable for a yakuman they fed; nagashi mangan = only terminals and honours discarded, "
    "none called; abortive draw = a hand ended early (kyuushu kyuuhai and the like)."
)
RULES_NOTE = (
    "Riichi presets: tenhou, ema and mleague are whole tables, each setting every scoring "
    "rule; sanma adds three players' start, back and uma3 to the table set (/rules "
    "preset:sanma after it). uma3 is used with three players, uma with four; oka is (back "
    "- start) x players. With three players a tsumo has tsumo loss: the missing player's share is "
    "not paid. Money (rate:, currency:) is paid at the end on the final results: rate is "
    "money per point of a final result (1,000 table points, uma and oka included)."
)


def _state(state: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"round": 0, "honba": 0, "sticks": 0, "over": False, **(state or {})}


def _seats(roster: Roster) -> list[int]:
    return [p.seat for p in roster]


def round_name(state: Mapping[str, Any], players: int) -> Msg:
    """"East 1", "South 3, 2 honba": the hand being played."""
    wind, no = min(state["round"] // players, 3), state["round"] % players + 1
    name = (_("East {no}", no=no), _("South {no}", no=no), _("West {no}", no=no),
            _("North {no}", no=no))[wind]
    if state["honba"]:
        return _("{round}, {honba} honba", round=name, honba=state["honba"])
    return name


def _names(players: list[Player]) -> str:
    return ", ".join(p.name for p in players)


def _points(value: int) -> Num:
    """A number of points, written as the language shown writes it: 6,100; 6.100."""
    return Num(value)


def _signed(value: Any, places: int | None = None) -> Num | Joined:
    """+43.0, -5.5, +15, and +0 for nothing (as the old f"{x:+}" wrote it; Num signs
    only a gain), written as the language shown writes numbers."""
    if value == 0 and not str(value).startswith("-"):
        return join(["+", Num(value, places)], "")
    return Num(value, places, signed=True)


def uma_for(rules: Mapping[str, Any], players: int) -> list[int]:
    """The uma for this many players: `uma` with four, `uma3` with three (a three-player
    session that set a three-number `uma` before uma3 existed keeps it)."""
    four = [int(x) for x in str(rules["uma"]).split()]
    if players == 4:
        return four if len(four) == 4 else [*four, 0]  # a 3-number uma stored long ago
    if len(four) == 3 and rules["uma3"] == RULEBOOK.spec("uma3").default:
        return four
    return [int(x) for x in str(rules["uma3"]).split()]


@dataclass
class Step:
    """How one result ends the hand."""

    summary: Text
    deltas: dict[int, int] = field(default_factory=dict)
    sticks_to: int | None = None  # who takes the sticks on the table
    advance: str = "win"  # win | draw | abort | replay
    winners: list[int] = field(default_factory=list)  # winners, or tenpai players at a draw


class RiichiGame(Game):
    key = "riichi"
    title = "Riichi mahjong"
    min_players = 3
    max_players = 4
    rulebook = RULEBOOK
    glossary = GLOSSARY
    rules_note = RULES_NOTE
    zero_sum = False  # sticks sit on the table between hands; the end is uma and oka
    edit_key = "result"  # /edit result:3 han:4 (hand: is the tiles)
    no_sitting_out = ("In Riichi every seat plays every hand, so nobody sits out: /endgame, "
                      "then /newgame riichi players:... with who plays now.")
    seats_set_by_play = ("In Riichi the seats are set once a result is recorded: every score "
                         "began from the same start. /endgame, then /newgame riichi "
                         "players:... with who plays now.")
    edit_example = ("/edit result:3 from:carol   /edit result:3 winner:bob han:2 fu:30   "
                    "/edit result:3 tenpai:alice   /edit result:3 declared:none")
    rules_example = ("/rules   /rules preset:mleague   /rules uma:20 10 -10 -20 tobi:no "
                     "rate:10 currency:Rs")
    hand_word = "result"  # what one scored entry is called: hand: is the tiles
    ranked_by = "results"  # /stats: the final results with uma and oka
    money_at_end = True  # rate: money per point of the final result

    def unused(self, command: str, rules: Mapping[str, Any]) -> frozenset[str]:
        """pao: where nobody pays for a daisangen (rule pao), abort: where no abortive draw
        is played (rule abortive)."""
        if command in ("ron", "tsumo") and rules.get("pao") == "none":
            return frozenset({"pao"})
        if command == "draw" and not rules.get("abortive", True):
            return frozenset({"abort"})
        return frozenset()

    def fit_usage(self, command: str, usage: str, rules: Mapping[str, Any], roster: Roster,
                  state: Mapping[str, Any] | None) -> str:
        """/draw's examples without the abortive draw where none is played (rule
        abortive)."""
        if command != "draw" or rules.get("abortive", True):
            return usage
        return "   ".join(way for way in usage.split("   ") if "abort:" not in way)

    def declare(self) -> tuple[CommandSpec, ...]:
        return (
            CommandSpec("ron", "a win on a discard", RON_USAGE, RON_DETAILS, RON_OPTIONS,
                        may=Rule.PLAYER, play=self._result, records=True),
            CommandSpec("tsumo", "a win by self-draw",
                        "/tsumo winner:alice han:4 fu:30   (or the tiles, as for /ron)",
                        "As /ron, without from:; with the tiles also haitei: (the last "
                        "tile), rinshan:, tenhou: or chiihou:. pao:NAME pays the whole "
                        "daisangen or daisuushii.", TSUMO_OPTIONS, may=Rule.PLAYER,
                        play=self._result, pad=True),
            CommandSpec("riichi", "put a riichi stick down", "/riichi alice",
                        "The stick is on the table from now; the next winner takes them all. "
                        "A riichi needs the stick's 1,000 points unless rule riichi_below "
                        "allows it.",
                        (Option("", Kind.PLAYERS, "who declares riichi (you if empty)",
                                name="player"),), may=Rule.PLAYER, play=self._declare,
                        pad=True),
            CommandSpec("draw", "a draw: exhaustive, nagashi mangan or abortive",
                        "/draw tenpai:alice carol   /draw tenpai:none nagashi:bob   "
                        "/draw abort:kyuushu", DRAW_DETAILS,
                        DRAW_OPTIONS,
                        may=Rule.PLAYER, play=self._result, pad=True),
            CommandSpec("chombo", "a penalty", "/chombo bob",
                        "A reverse mangan: the offender pays as if each other player won a "
                        "mangan by tsumo. The hand is replayed.",
                        (Option("", Kind.PLAYER, "who pays the penalty", name="player",
                                required=True),), may=Rule.PLAYER, play=self._result,
                        pad=True),
        )

    def edit_options(self) -> tuple[Option, ...]:
        return EDIT_OPTIONS

    def brief_rules(self, rules: Mapping[str, Any], players: int) -> list[tuple[str, Text]]:
        """With three players the uma that counts is uma3, shown in uma's place (as uma_for
        reads it); with four, uma3 only when it was changed."""
        brief = self.rulebook.brief(rules)
        if players != 3:
            return brief
        uma3 = ("uma3", " ".join(str(u) for u in uma_for(
            self.rulebook.complete(rules), 3)))
        return [uma3 if key == "uma" else (key, value) for key, value in brief
                if key != "uma3"]

    def check_rules(self, rules: Mapping[str, Any], players: int,
                    state: Mapping[str, Any] | None = None) -> None:
        pay.check_noten(rules["noten"], players)
        sanma = RULEBOOK.preset("sanma").values
        # sanma's start and back share three players' oka: with a fourth (at /newgame,
        # /join or /rules) the table would keep three players' points and uma
        if players == 4 and all(rules[key] == sanma[key] for key in ("start", "back")):
            raise UserError(_("Sanma's start and back ({start} and {back}) are for three "
                              "players, not four. For four, take a four-player table: "
                              "preset:tenhou, ema or mleague (or set start: and back:).",
                              start=Num(sanma["start"]), back=Num(sanma["back"])))

    def setup(self, options: Mapping[str, str], players: list[Player], named: bool,
              seat: Seat | None = None) -> tuple[list[Player], dict[str, Any] | None]:
        if len(players) not in (3, 4):
            raise UserError(_("Riichi is for 4 players (or 3, sanma), seated East South West "
                              "North in the order given: players:alice bob carol dave"))
        return players, _state(None)

    # --- results -------------------------------------------------------------------------

    def _declare(self, ctx: PlayContext) -> PlayOutcome:
        if _state(ctx.state)["over"]:
            raise UserError(OVER)
        return self._riichi(ctx, list((ctx.pending or {}).get("riichi", [])))

    def rescore(self, ctx: PlayContext) -> PlayOutcome:
        """A later result after /edit of an earlier one, with the re-derived dealer, honba,
        sticks and scores; it can't stand after the game has ended."""
        if _state(ctx.state)["over"]:
            raise UserError(_("the game would have been over before it."))
        return self._result(ctx)

    def _result(self, ctx: PlayContext) -> PlayOutcome:
        state = _state(ctx.state)
        riichi = list((ctx.pending or {}).get("riichi", []))
        kind, options = ctx.command, dict(ctx.options)
        if ctx.editing is not None:
            kind, options, riichi = self._edited(ctx)
        elif state["over"]:
            raise UserError(OVER)
        seats = _seats(ctx.roster)
        dealer = seats[state["round"] % len(seats)]
        deltas = dict.fromkeys(seats, 0)
        sticks = state["sticks"]
        if kind != "chombo":
            self._check_riichi_points(ctx, riichi)
            for seat in riichi:
                deltas[seat] -= ctx.rules["stick"]
                sticks += 1
        handler = {"ron": self._ron, "tsumo": self._tsumo, "draw": self._draw,
                   "chombo": self._chombo}[kind]
        step = handler(ctx, options, state, dealer, riichi)
        for seat, points in step.deltas.items():
            deltas[seat] = deltas.get(seat, 0) + points
        parts = [step.summary]
        if step.sticks_to is not None:
            deltas[step.sticks_to] += sticks * ctx.rules["stick"]
            if sticks:
                parts.append(_n("{n} stick to {player}", "{n} sticks to {player}", sticks,
                                player=ctx.roster.by_seat(step.sticks_to).name))
            sticks = 0
        scores = {s: ctx.rules["start"] + ctx.totals.get(s, 0) + deltas[s] for s in seats}
        after = self._next(state, step, dealer, seats, sticks, ctx.rules, scores)
        if riichi and kind != "chombo":
            names = ", ".join(ctx.roster.by_seat(s).name for s in riichi)
            parts.append(_("riichi {players}", players=names))
        summary = _("{round}: {result}", round=round_name(state, len(seats)),
                    result=join(parts, "; "))
        inputs = {"kind": kind, "options": options, "riichi": riichi}
        return PlayOutcome("", pending=None, state=after, result=HandResult(
            players=seats, inputs=inputs, deltas=deltas, summary=summary))

    def _edited(self, ctx: PlayContext) -> tuple[str, dict[str, str], list[int]]:
        """A recorded result with what /edit changes (ctx.options) put over what it was
        entered with (ctx.editing): its kind, options and the riichi declared in it. Any
        option the result was entered with can change; one that stands for another
        replaces it (han: the tiles, abort: a tenpai list); from: makes a tsumo a ron and
        from:none a ron a tsumo; declared: who put a riichi stick down in it."""
        assert ctx.editing is not None
        kind = ctx.editing["kind"]
        riichi = list(ctx.editing.get("riichi", []))
        given = dict(ctx.options)
        allowed = EDIT_BY_KIND[kind]
        wrong = [k for k in given if k not in allowed]
        if wrong:
            raise UserError(_("That result is a {kind}: an edit of it changes {keys}; not "
                              "{wrong}.", kind=kind, keys=" ".join(f"{k}:" for k in sorted(
                                  allowed)), wrong=" ".join(f"{k}:" for k in wrong)))
        earlier = dict(ctx.editing["options"])
        replaced: set[str] = set()
        for key in given:
            replaced |= REPLACES.get(key, set())
        if given.keys() & {"han", "fu"}:
            replaced.add("yakuman")
        earlier = {k: v for k, v in earlier.items() if k not in replaced}
        if "chombo" in given:
            given[""] = given.pop("chombo")
        if "declared" in given:
            words = [w for w in split_list(given.pop("declared")) if w.lower() != "none"]
            riichi = list(dict.fromkeys(
                p.seat for p in ctx.roster.resolve_many(words, ctx.mentions, "declared:")))
        options = {**earlier, **given}
        for key in ("from", "pao", "nagashi"):  # key:none takes it away
            if options.get(key, "").strip().lower() == "none":
                del options[key]
        if kind in ("ron", "tsumo"):
            kind = "ron" if "from" in options else "tsumo"
        return kind, options, riichi

    def _check_riichi_points(self, ctx: PlayContext, riichi: list[int]) -> None:
        """A riichi puts the stick down from the player's own points: it needs them, unless
        the table plays on below them (rule riichi_below)."""
        if ctx.rules["riichi_below"]:
            return
        for seat in riichi:
            score = ctx.rules["start"] + ctx.totals.get(seat, 0)
            if score < ctx.rules["stick"]:
                raise UserError(_("{player} has {points} points: a riichi needs the "
                                  "{stick} stick (rule riichi_below:yes allows riichi below "
                                  "it).", player=ctx.roster.by_seat(seat).name,
                                  points=_points(score), stick=_points(ctx.rules["stick"])))

    def _riichi(self, ctx: PlayContext, riichi: list[int]) -> PlayOutcome:
        names = split_list(ctx.options.get("", ""))
        if not names:
            me = ctx.actor_player
            if me is None:
                raise UserError(_("Say who: /riichi alice"))
            players = [me]
        else:
            players = ctx.roster.resolve_many(names, ctx.mentions)
        for player in players:
            if player.seat in riichi:
                raise UserError(_("{player} has already declared riichi this hand.",
                                  player=player.name))
            riichi.append(player.seat)
        self._check_riichi_points(ctx, [p.seat for p in players])
        return PlayOutcome(_("Riichi: {players} (a stick each goes on the table with the "
                             "result).", players=_names(players)), pending={"riichi": riichi})

    def _hand_value(self, ctx: PlayContext, options: Mapping[str, str], winner: Player,
                    state: Mapping[str, Any], dealer: int, riichi: list[int], tsumo: bool,
                    multi: bool) -> tuple[int, Text, tuple[str, ...] | None]:
        """Basic points for one winner, how they were found, and the yaku when the tiles
        were given (None for typed values)."""
        seats = _seats(ctx.roster)
        rules = ctx.rules
        situations = {k: parse_bool(options[k], k) for k in SITUATIONS if k in options}

        def own(key: str) -> str | None:
            text = options.get(key)
            if text is None or not multi:
                return text
            given = parse_pairs(text)
            if len(given) == 1 and not given[0][0] and " " not in given[0][1].strip():
                return given[0][1]  # one number for every winner: fu:30
            if any(not name for name, _value in given):
                raise UserError(_("With two winners, give {key}: as name=number for each, "
                                  "e.g. {key}:{player}=3 (or one number for both).", key=key,
                                  player=winner.name))
            pairs = {ctx.roster.resolve(n, ctx.mentions).seat: v for n, v in given}
            if winner.seat not in pairs:
                raise UserError(_("Give {key}: for each winner, e.g. {key}:{player}=3",
                                  key=key, player=winner.name))
            return pairs[winner.seat]

        if "hand" in options:
            if multi:
                raise UserError(_("With two winners, give han: and fu: for each."))
            if "win" not in options:
                raise UserError(_("Give the winning tile: win:2s"))
            riichi_flag = parse_bool(options["riichi"], "riichi") if "riichi" in options \
                else winner.seat in riichi
            seat_wind = (seats.index(winner.seat) - seats.index(dealer)) % len(seats)
            result = score_tiles(options, tsumo=tsumo, riichi=riichi_flag,
                                 seat_wind=seat_wind, round_wind=min(
                                     state["round"] // len(seats), 3),
                                 rules=rules, honba=state["honba"], situations=situations,
                                 three_players=len(seats) == 3)
            basic = pay.basic_points(result.han, result.fu, result.yakuman,
                                     rules["kiriage"], rules["kazoe"])
            label = (_("yakuman x{count}", count=result.yakuman) if result.yakuman
                     else _("{han} han {fu} fu", han=result.han, fu=result.fu))
            return basic, _("{value} ({yaku})", value=label, yaku=result.yaku), result.names
        given = [k for k in TILE_KEYS if k in options]
        if given:
            raise UserError(_("{key}: is read with the tiles (hand:); with han: count it "
                              "into the han.", key=given[0]))
        if "yakuman" in options and options.keys() & {"han", "fu"}:
            raise UserError(_("Give yakuman: or han: and fu:, not both (a yakuman has no han "
                              "or fu to count)."))
        yakuman_text = own("yakuman")
        if yakuman_text is not None:
            count = parse_int(yakuman_text, "yakuman", 1, 6)
            return pay.basic_points(0, 0, count), _("yakuman x{count}", count=count), None
        han_text, fu_text = own("han"), own("fu")
        if han_text is None:
            raise UserError(_("Give han: and fu:, yakuman:1, or the tiles. {example}   or   "
                              "{tiles}", example=ctx.example(RON_BY_HAN),
                              tiles=ctx.example(RON_BY_TILES)),
                            About(("han", "fu"), said=_("Give han and fu, or the tiles.")))
        han = parse_int(han_text, "han", 1, 100)
        if fu_text is None:
            if han < 5:
                raise UserError(_("Give fu: too (below 5 han the fu decide the value)."),
                                About(("fu",)))
            fu = 30  # from 5 han on the fu don't matter
        else:
            fu = parse_int(fu_text, "fu", 20, 110)
            pay.check_han_fu(han, fu, tsumo)
        basic = pay.basic_points(han, fu, 0, rules["kiriage"], rules["kazoe"])
        return basic, _("{han} han {fu} fu", han=han, fu=fu), None

    def _winners(self, ctx: PlayContext, options: Mapping[str, str]) -> list[Player]:
        names = split_list(options.get("winner", ""))
        if not names:
            raise UserError(_("Name the winner: winner:NAME"),
                            About(("winner",), said=_("Tick who won.")))
        return ctx.roster.resolve_many(names, ctx.mentions, "winner:")

    def _pao(self, ctx: PlayContext, options: Mapping[str, str], winner: Player,
             yaku: tuple[str, ...] | None) -> Player | None:
        """The player liable for the winner's daisangen or daisuushii, if pao: was given."""
        if "pao" not in options:
            return None
        if ctx.rules["pao"] == "none":
            raise UserError(_("Sekinin barai (pao) is off here (rule pao)."))
        liable = ctx.roster.resolve(options["pao"].strip(), ctx.mentions)
        if liable.seat == winner.seat:
            raise UserError(_("{player} won: pao: is the player who fed the last set.",
                              player=liable.name))
        if yaku is None:
            if "yakuman" not in options:
                raise UserError(_("pao: is for a daisangen or daisuushii: give yakuman:1 (or "
                                  "the tiles)."))
        elif not set(yaku) & set(PAO_YAKU):
            raise UserError(_("pao: is for a daisangen or daisuushii; these tiles are "
                              "neither."))
        return liable

    def _ron(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
             dealer: int, riichi: list[int]) -> Step:
        winners = self._winners(ctx, options)
        if "from" not in options:
            raise UserError(_("Say who dealt in: from:NAME"),
                            About(("from",), said=_("Tick who dealt in.")))
        loser = ctx.roster.resolve(options["from"].strip(), ctx.mentions)
        if loser in winners:
            raise UserError(_("{player} can't win on their own discard: that is /tsumo.",
                              player=loser.name), About(("from", "winner"), (loser.name,)))
        seats = _seats(ctx.roster)
        # in turn after the discarder: the first is the head-bump winner, and takes honba
        # and sticks
        order = sorted(winners, key=lambda p: (seats.index(p.seat) - seats.index(loser.seat))
                       % len(seats))
        if len(order) > 1 and not ctx.rules["double_ron"]:
            raise UserError(_("Head bump (no double ron here): only {winner}, first after "
                              "{discarder}, wins. /ron winner:{winner} ...",
                              winner=order[0].name, discarder=loser.name))
        if len(order) == 3 and ctx.rules["triple_ron"] == "draw":
            raise UserError(_("Three rons on one discard are sanchahou here, an abortive "
                              "draw (rule triple_ron): /draw abort:sanchahou"))
        if len(order) > 1 and "pao" in options:
            raise UserError(_("pao: is for a hand with one winner."))
        deltas: dict[int, int] = {}
        parts: list[Text] = []
        for i, winner in enumerate(order):
            basic, how, yaku = self._hand_value(ctx, options, winner, state, dealer, riichi,
                                                False, len(order) > 1)
            win = pay.Win(winner.seat, basic, winner.seat == dealer)
            honba = state["honba"] if i == 0 else 0
            liable = self._pao(ctx, options, winner, yaku)
            if liable is not None and liable.seat != loser.seat:
                paid = pay.pao_ron(win, loser.seat, liable.seat, honba, ctx.rules["honba"],
                                   ctx.rules["pao"] == "liable")
                how = _("{value}, pao {player}", value=how, player=liable.name)
            else:
                paid = pay.ron(win, loser.seat, honba, ctx.rules["honba"])
            for seat, points in paid.items():
                deltas[seat] = deltas.get(seat, 0) + points
            parts.append(_("{winner} ron from {discarder}, {value}, {points}",
                           winner=winner.name, discarder=loser.name, value=how,
                           points=_points(deltas[winner.seat])))
        return Step(join(parts, "; "), deltas, order[0].seat, "win", [p.seat for p in order])

    def _tsumo(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
               dealer: int, riichi: list[int]) -> Step:
        winners = self._winners(ctx, options)
        if len(winners) != 1:
            raise UserError(_("A tsumo has one winner."), About(("winner",)))
        winner = winners[0]
        basic, how, yaku = self._hand_value(ctx, options, winner, state, dealer, riichi,
                                            True, False)
        win = pay.Win(winner.seat, basic, winner.seat == dealer)
        liable = self._pao(ctx, options, winner, yaku)
        if liable is not None:
            deltas = pay.pao_tsumo(win, liable.seat, state["honba"], ctx.rules["honba"])
            how = _("{value}, pao {player} pays it all", value=how, player=liable.name)
        else:
            deltas = pay.tsumo(win, _seats(ctx.roster), dealer, state["honba"],
                               ctx.rules["honba"])
        return Step(_("{winner} tsumo, {value}, {points}", winner=winner.name, value=how,
                      points=_points(deltas[winner.seat])), deltas, winner.seat, "win",
                    [winner.seat])

    def _draw(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
              dealer: int, riichi: list[int]) -> Step:
        if "abort" in options:
            return self._abort(ctx, options, riichi)
        words = [w for w in split_list(options.get("tenpai", "")) if w.lower() != "none"]
        if [w.lower() for w in words] == ["all"]:  # no player is called all (reserved)
            tenpai = list(ctx.roster)  # everyone ready: said as often as "none"
        else:
            tenpai = ctx.roster.resolve_many(words, ctx.mentions, "tenpai:")
        seats = [p.seat for p in tenpai]
        who: Text = _names(tenpai) or NOBODY
        if "nagashi" not in options:
            deltas = pay.noten_payments(_seats(ctx.roster), seats, ctx.rules["noten"])
            return Step(_("draw, tenpai {players}", players=who), deltas, None, "draw", seats)
        mode = ctx.rules["nagashi"]
        if mode == "off":
            raise UserError(_("Nagashi mangan is not played here (rule nagashi)."))
        nagashi = ctx.roster.resolve_many(split_list(options["nagashi"]), ctx.mentions,
                                          "nagashi:")
        if not nagashi:
            raise UserError(_("Name who made nagashi mangan: nagashi:NAME"))
        # a mangan tsumo each, in place of the noten payments; honba only when it counts as
        # a win (EMA), not when it stays a draw (Tenhou)
        honba = state["honba"] if mode == "win" else 0
        deltas: dict[int, int] = {}
        for player in nagashi:
            win = pay.Win(player.seat, 2000, player.seat == dealer)
            for seat, points in pay.tsumo(win, _seats(ctx.roster), dealer, honba,
                                          ctx.rules["honba"]).items():
                deltas[seat] = deltas.get(seat, 0) + points
        names = _names(nagashi)
        if mode == "win":
            return Step(_("nagashi mangan {players}", players=names), deltas, None, "win",
                        [p.seat for p in nagashi])
        return Step(_("draw, nagashi mangan {players}, tenpai {tenpai}", players=names,
                      tenpai=who), deltas, None, "draw", seats)

    def _abort(self, ctx: PlayContext, options: Mapping[str, str],
               riichi: list[int]) -> Step:
        kind = options["abort"].strip().lower()
        if kind not in ABORTS:
            raise UserError(_("abort: is one of {choices}.", choices=", ".join(ABORTS)))
        if options.keys() & {"tenpai", "nagashi"}:
            raise UserError(_("An abortive draw has no tenpai or nagashi: give abort: "
                              "alone."))
        rules, seats = ctx.rules, _seats(ctx.roster)
        if kind in FOUR_ONLY and len(seats) != 4:
            raise UserError(_("{kind} is a four-player abortive draw.", kind=ABORTS[kind]))
        if kind == "sanchahou":
            if not rules["double_ron"] or rules["triple_ron"] != "draw":
                raise UserError(_("Three rons on one discard are not a draw here (rules "
                                  "double_ron and triple_ron): enter the /ron."))
        elif not rules["abortive"]:
            raise UserError(_("Abortive draws are not played here (rule abortive): the hand "
                              "goes on."))
        if kind == "suucha" and sorted(riichi) != sorted(seats):
            declared: Text = _names([ctx.roster.by_seat(s) for s in riichi]) or NOBODY
            raise UserError(_("Suucha riichi is all four in riichi; declared so far: "
                              "{players}. /riichi NAME for each first.", players=declared))
        return Step(_("abortive draw, {kind}", kind=ABORTS[kind]), {}, None, "abort")

    def _chombo(self, ctx: PlayContext, options: Mapping[str, str], state: Mapping[str, Any],
                dealer: int, riichi: list[int]) -> Step:
        names = split_list(options.get("", ""))
        if len(names) != 1:
            raise UserError(_("Name the one player: /chombo bob"))
        offender = ctx.roster.resolve(names[0], ctx.mentions)
        deltas = pay.chombo(offender.seat, _seats(ctx.roster), dealer)
        return Step(_("chombo by {player}", player=offender.name), deltas, None, "replay")

    def _next(self, state: Mapping[str, Any], step: Step, dealer: int, seats: list[int],
              sticks: int, rules: Mapping[str, Any],
              scores: Mapping[int, int]) -> dict[str, Any]:
        after = dict(state)
        after["sticks"] = sticks
        if step.advance == "win":
            if dealer in step.winners:
                after["honba"] += 1  # the dealer repeats
            else:
                after["round"] += 1
                after["honba"] = 0
        elif step.advance == "draw":
            after["honba"] += 1
            if dealer not in step.winners:  # winners: the tenpai players
                after["round"] += 1
        elif step.advance == "abort":
            after["honba"] += 1  # the hand is dealt again by the same dealer
        rounds = len(seats) * (1 if rules["length"] == "tonpuusen" else 2)
        if after["round"] >= rounds or state["round"] >= rounds:
            # the last hand is over, or a hand of the extra wind (sudden death): the game
            # ends unless nobody has the return points yet and the extra wind is not done
            reached = max(scores.values()) >= rules["back"]
            if not rules["sudden_death"] or reached or after["round"] >= rounds + len(seats):
                after["over"] = True
        if rules["tobi"] and min(scores.values()) < 0:
            after["over"] = True
        return after

    def waiting_before(self, hand: Any) -> dict[str, Any] | None:
        """A riichi declared before the result went into it: undo declares it again."""
        riichi = list(hand.inputs.get("riichi") or [])
        return {"riichi": riichi} if riichi else None

    def winners(self, hand: Any) -> list[int]:
        if hand.inputs.get("kind") not in ("ron", "tsumo"):
            return []
        return [seat for seat, points in hand.deltas.items() if points > 0]

    def hand_records(self, hand: Any, roster: Roster,
                     said: Callable[[], str]) -> list[tuple[int, Decimal, Text]]:
        """A won hand by its han (a yakuman above every count of han, a double above a
        single), named as the table entered it: typed han, yakuman:, or the tiles' yaku."""
        winners = self.winners(hand)
        options = hand.inputs.get("options") or {}
        if not winners or not isinstance(options, Mapping):
            return []
        if "hand" in options:  # the tiles: their han and yaku, as the hand's summary says
            text = said()
            found = _TILES_YAKUMAN.search(text) or _TILES_HAN.search(text)
            if found is None:
                return []
            if found.re is _TILES_YAKUMAN:
                count = int(found["count"])
                label: Text = _("yakuman x{count}", count=count)
                size = YAKUMAN_SIZE * count
            else:
                label = _("{han} han {fu} fu", han=int(found["han"]), fu=int(found["fu"]))
                size = int(found["han"])
            if found["yaku"]:
                label = _("{value} ({yaku})", value=label, yaku=found["yaku"])
            return [(seat, Decimal(size), label) for seat in winners]
        if "yakuman" in options:
            count = _whole(options["yakuman"])
            if count is None:
                return []
            return [(seat, Decimal(YAKUMAN_SIZE * count), _("yakuman x{count}", count=count))
                    for seat in winners]
        han_of = _han_by_seat(str(options.get("han", "")), str(options.get("fu", "")),
                              winners, {p.name.casefold(): p.seat for p in roster})
        return [(seat, Decimal(han), _("{han} han {fu} fu", han=han, fu=fu) if fu else
                 _("{han} han", han=han)) for seat, (han, fu) in han_of.items()]

    # --- the board -----------------------------------------------------------------------

    def status(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any] | None, roster: Roster, ended: bool = False) -> Text:
        state = _state(state)
        scores = join([join([f"{p.name} ", _points(rules["start"] + totals.get(p.seat, 0))],
                            "") for p in roster], " · ")
        where = _("Game over") if ended else _("Game over: /endgame for the final scores") \
            if state["over"] else round_name(state, len(roster))
        return _("{where} · sticks on the table {sticks} · scores: {scores}", where=where,
                 sticks=state["sticks"], scores=scores)

    def unfinished(self, rules: Mapping[str, Any], state: Mapping[str, Any] | None,
                   roster: Roster) -> Text | None:
        held = _state(state)
        if held["over"]:
            return None
        return _("The game is not over: {where} is still to play.",
                 where=round_name(held, len(roster)))

    def _final(self, totals: Mapping[int, int], rules: Mapping[str, Any],
               state: Mapping[str, Any], roster: Roster
               ) -> tuple[dict[int, int], dict[int, float], int]:
        """(scores, final results with uma and oka, first place) at the end of a game."""
        seats = _seats(roster)
        scores = {s: rules["start"] + totals.get(s, 0) for s in seats}
        first = sorted(seats, key=lambda s: (-scores[s], seats.index(s)))[0]
        scores[first] += state["sticks"] * rules["stick"]  # leftover sticks go to first
        final = pay.final_scores(scores, seats, rules["start"], rules["back"],
                                 uma_for(rules, len(seats)), rules["tie"])
        return scores, final, first

    def end_points(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                   state: Mapping[str, Any] | None, roster: Roster) -> dict[int, int]:
        """The scores at the end: start + the hands, the sticks left on the table to the
        first (as the final results count them)."""
        return self._final(totals, rules, _state(state), roster)[0]

    def placings(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                 state: Mapping[str, Any] | None, roster: Roster) -> dict[int, Placing]:
        """Places by final result (ties in seat order from the first dealer, as the uma
        was given); the result is the final score with uma and oka; below zero is a bust."""
        seats = _seats(roster)
        scores, final, _first = self._final(totals, rules, _state(state), roster)
        ranked = sorted(seats, key=lambda s: (-final[s], seats.index(s)))
        results = {s: Decimal(f"{final[s]:.1f}") for s in seats}
        # tenths rounded (an oka split three ways) still sum as the unrounded: the odd
        # tenth goes to first place, so the results can be paid out exactly
        results[ranked[0]] += Decimal(f"{sum(final.values()):.1f}") - sum(results.values())
        return {s: Placing(ranked.index(s) + 1, results[s], bust=scores[s] < 0)
                for s in seats}

    def final_lines(self, totals: Mapping[int, int], rules: Mapping[str, Any],
                    state: Mapping[str, Any] | None, roster: Roster) -> list[Text]:
        state = _state(state)
        seats = _seats(roster)
        scores, _final, first = self._final(totals, rules, state, roster)
        placed = self.placings(totals, rules, state, roster)
        leftover = state["sticks"] * rules["stick"]
        uma = uma_for(rules, len(seats))
        ranked = sorted(seats, key=lambda s: placed[s].place)
        oka = Decimal((rules["back"] - rules["start"]) * len(seats)) / 1000
        values = {"uma": join([_signed(u) for u in uma], " "),
                  "back": _points(rules["back"]), "oka": _signed(oka),
                  "player": roster.by_seat(first).name}
        if leftover and oka:
            head = _n("Final (uma {uma}, back {back}, oka {oka} to first, {n} leftover stick "
                      "to {player}):", "Final (uma {uma}, back {back}, oka {oka} to first, "
                      "{n} leftover sticks to {player}):", state["sticks"], **values)
        elif leftover:
            head = _n("Final (uma {uma}, back {back}, {n} leftover stick to {player}):",
                      "Final (uma {uma}, back {back}, {n} leftover sticks to {player}):",
                      state["sticks"], **values)
        elif oka:
            head = _("Final (uma {uma}, back {back}, oka {oka} to first):", uma=values["uma"],
                     back=values["back"], oka=values["oka"])
        else:
            head = _("Final (uma {uma}, back {back}):", uma=values["uma"],
                     back=values["back"])
        lines: list[Text] = [head]
        lines += [join([f"{i}. {roster.by_seat(s).name} ", _points(scores[s]), " -> ",
                        _signed(placed[s].result, 1)], "") for i, s in enumerate(ranked, 1)]
        return lines

    def pending_note(self, pending: Mapping[str, Any], roster: Roster,
                     rules: Mapping[str, Any]) -> Text:
        names = ", ".join(roster.by_seat(s).name for s in pending.get("riichi", []))
        # TRANSLATORS: follows "Result 2" on the board: "Result 2 has riichi declared by alice."
        return _("has riichi declared by {players}", players=names or NOBODY)


# A hand's size in a club's records: a yakuman counts above any han a hand can count
YAKUMAN_SIZE = 100
_TILES_YAKUMAN = re.compile(r"yakuman x(?P<count>\d+)(?: \((?P<yaku>[^)]*)\))?")
_TILES_HAN = re.compile(r"(?P<han>\d+) han (?P<fu>\d+) fu(?: \((?P<yaku>[^)]*)\))?")


def _whole(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdecimal() and len(text) < 4 else None


def _han_by_seat(han: str, fu: str, winners: list[int],
                 named: Mapping[str, int]) -> dict[int, tuple[int, int | None]]:
    """Typed han: (and fu:) per winner: "3", or one per winner "alice=3 carol=2"."""
    def per_seat(text: str) -> dict[int, int]:
        if _whole(text) is not None:
            return {seat: _whole(text) or 0 for seat in winners}
        found = {}
        for part in text.split():
            name, _eq, value = part.partition("=")
            seat = named.get(name.casefold())
            if seat is not None and _whole(value) is not None:
                found[seat] = _whole(value) or 0
        return found

    hans, fus = per_seat(han), per_seat(fu)
    return {seat: (hans[seat], fus.get(seat)) for seat in winners if seat in hans}
