"""Scoring a hand from tiles with the `mahjong` package; impossible hands are clear errors."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mahjong.constants import AKA_DORAS
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld
from mahjong.tile import TilesConverter

from bot.core.errors import UserError
from bot.core.grammar import clip
from bot.core.i18n import Text, _, join

_GROUP = re.compile(r"^(?:\d+[mpsz])+$")
_MELD = re.compile(r"^(pon|chi|kan|ankan)((?:\d+[mpsz])+)$")
_ERRORS = {
    "hand_not_winning": _("Not scored: that is not a winning hand."),
    "no_yaku": _("Not scored: that hand has no yaku."),
    "winning_tile_not_in_hand": _("Not scored: the winning tile must be in the hand."),
    "open_hand_riichi_not_allowed": _("Not scored: riichi is only for a closed hand."),
    "open_hand_daburi_not_allowed": _("Not scored: double riichi is only for a closed "
                                      "hand."),
    "ippatsu_without_riichi_not_allowed": _("Not scored: ippatsu needs riichi."),
    "chankan_with_tsumo_not_allowed": _("Not scored: chankan is a ron (on a kan being "
                                        "added)."),
    "rinshan_without_tsumo_not_allowed": _("Not scored: rinshan is a tsumo (on the tile "
                                           "after a kan)."),
    "haitei_without_tsumo_not_allowed": _("Not scored: haitei is a tsumo on the last tile; "
                                          "by ron it is houtei."),
    "houtei_with_tsumo_not_allowed": _("Not scored: houtei is a ron on the last discard; by "
                                       "tsumo it is haitei."),
    "haitei_with_rinshan_not_allowed": _("Not scored: a rinshan draw is not the last tile "
                                         "(haitei)."),
    "houtei_with_chankan_not_allowed": _("Not scored: chankan is not the last discard "
                                         "(houtei)."),
    "tenhou_not_as_dealer_not_allowed": _("Not scored: tenhou is the dealer's; another "
                                          "player's is chiihou."),
    "tenhou_without_tsumo_not_allowed": _("Not scored: tenhou is a tsumo."),
    "tenhou_with_meld_not_allowed": _("Not scored: tenhou has no called meld."),
    "chiihou_as_dealer_not_allowed": _("Not scored: chiihou is a non-dealer's; the dealer's "
                                       "is tenhou."),
    "chiihou_without_tsumo_not_allowed": _("Not scored: chiihou is a tsumo."),
    "chiihou_with_meld_not_allowed": _("Not scored: chiihou has no called meld."),
}
# The yaku the package names partly in English; the rest are the Japanese names players use
# in every language (Riichi, Pinfu, Tanyao, Dora 1...), shown as the package writes them.
YAKU_NAMES = {
    "Yakuhai (round wind east)": _("Yakuhai (round wind east)"),
    "Yakuhai (round wind south)": _("Yakuhai (round wind south)"),
    "Yakuhai (round wind west)": _("Yakuhai (round wind west)"),
    "Yakuhai (round wind north)": _("Yakuhai (round wind north)"),
    "Yakuhai (seat wind east)": _("Yakuhai (seat wind east)"),
    "Yakuhai (seat wind south)": _("Yakuhai (seat wind south)"),
    "Yakuhai (seat wind west)": _("Yakuhai (seat wind west)"),
    "Yakuhai (seat wind north)": _("Yakuhai (seat wind north)"),
}
# What a win's circumstances add, as the options name them (the tiles can't show them).
SITUATIONS = {
    "ippatsu": "is_ippatsu", "haitei": "is_haitei", "houtei": "is_houtei",
    "rinshan": "is_rinshan", "chankan": "is_chankan", "double_riichi": "is_daburu_riichi",
    "tenhou": "is_tenhou", "chiihou": "is_chiihou",
}
PAO_YAKU = ("Daisangen", "Dai Suushii")  # the hands sekinin barai covers
def _check_copies(text: str) -> None:
    """At most four of a tile, counted from what was typed (the package's converter would
    quietly turn a fifth 1m into a 2m)."""
    counts: dict[tuple[str, str], int] = {}
    for digits, suit in re.findall(r"(\d+)([mpsz])", text.lower()):
        for digit in digits:
            key = (suit, "5" if digit == "0" else digit)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] > 4:
                raise UserError(_("No tile comes more than four times ({tile}).",
                                  tile=f"{key[1]}{suit}"))


def _check_red_fives(typed: Mapping[str, str]) -> None:
    """With red fives on, each suit has one red five among its four: two 0m can't be, and
    four plain 5m are three and the red one. The package's converter would read the fourth
    plain 5m as a 6m (a phantom iipeiko in 56777345557m); refused with what to write."""
    text = "".join(typed.values())
    for suit in "mps":
        digits = "".join(d for d, s in re.findall(r"(\d+)([mpsz])", text) if s == suit)
        if digits.count("0") > 1:
            raise UserError(_("There is one red five of each suit, not two 0{suit}.",
                              suit=suit))
        if digits.count("5") == 4:
            key, corrected = next((k, _one_red(v, suit)) for k, v in typed.items()
                                  if _one_red(v, suit) != v)
            raise UserError(_("Red fives are on (rule aka_dora): one of the four 5{suit} is "
                              "the red five, written 0{suit}: {key}:{corrected}", suit=suit,
                              key=key, corrected=corrected))


def _one_red(text: str, suit: str) -> str:
    """`text` with its first 5 of `suit` written as the red five (0)."""
    match = re.search(rf"\d*5\d*(?={suit})", text)
    if match is None:
        return text
    group = match.group()
    return text[:match.start()] + group.replace("5", "0", 1) + text[match.end():]


KAZOE = {"yakuman": 0, "sanbaiman": 1, "none": 2}
WINDS = [27, 28, 29, 30]  # East South West North in the 34-tile numbering


@dataclass(frozen=True)
class TileResult:
    han: int
    fu: int
    yakuman: int  # real yakuman (x2 for a double); 0 for a counted hand of 13+ han
    yaku: Text  # the yaku, as shown
    names: tuple[str, ...] = ()


def _typed(text: str, aka: bool) -> str:
    """Tiles as typed, checked and written as the package reads them: with red fives off,
    a red five (0) is a plain five (the converter would read 0m as a tile before 1m)."""
    text = text.strip().lower().replace(" ", "")
    if not _GROUP.match(text):
        raise UserError(_("`{text}` is not tiles: write 123m456p789s11z (z: 1-4 winds "
                          "E S W N, 5-7 dragons white green red; 0 is a red five).",
                          text=clip(text)))
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        if suit == "z" and set(digits) & set("089"):
            raise UserError(_("Honours are 1z to 7z (winds 1-4, dragons 5-7)."))
    return text if aka else text.replace("0", "5")


def _tiles(text: str, aka: bool) -> list[int]:
    return TilesConverter.one_line_string_to_136_array(_typed(text, aka), has_aka_dora=aka)


def _kind(tile: int) -> tuple[int, bool]:
    """A tile's kind (34 of them) and whether it is a red five."""
    return tile // 4, tile in AKA_DORAS


def _hand_and_melds(options: Mapping[str, str], aka: bool) -> tuple[list[int], list[Meld]]:
    """The 14 (or more, with kans) tiles and the called melds. The whole hand, melds too, is
    converted from one string, as the package expects (its converter numbers the copies of
    a tile within one call: converting a meld apart would give its 7p the same number as
    the hand's 7p, and the winning 7p would look taken by the chi); each meld then takes its
    tiles out of the whole."""
    hand = _typed(options["hand"], aka)
    words: list[tuple[str, str]] = []
    for word in (options.get("melds") or "").split():
        match = _MELD.match(word.lower())
        if not match:
            raise UserError(_("`{word}` is not a called meld: pon555z, chi456p, "
                              "kan1111m or ankan2222p.", word=clip(word)))
        kind, tiles = match.groups()
        words.append((kind, _typed(tiles, aka)))
    typed = {"hand": hand, "melds": " ".join(k + t for k, t in words)}
    indicators = {k: _typed(options[k], aka) for k in ("dora", "ura") if options.get(k)}
    _check_copies(" ".join([*typed.values(), *indicators.values()]))
    if aka:
        _check_red_fives({**typed, **indicators})
    whole = TilesConverter.one_line_string_to_136_array(
        hand + "".join(t for _k, t in words), has_aka_dora=aka)
    melds: list[Meld] = []
    for kind, tiles in words:
        size = 4 if kind in ("kan", "ankan") else 3
        wanted = TilesConverter.one_line_string_to_136_array(tiles, has_aka_dora=aka)
        if len(wanted) != size:
            raise UserError(_("{word}: a {kind} has {size} tiles.", word=kind + tiles,
                              kind=kind, size=size))
        taken = []
        for tile in wanted:
            found = next(t for t in whole if _kind(t) == _kind(tile) and t not in taken
                         and not any(t in m.tiles for m in melds))
            taken.append(found)
        melds.append(Meld(Meld.KAN if size == 4 else (Meld.CHI if kind == "chi" else Meld.PON),
                          taken, opened=kind != "ankan"))
    return whole, melds


def score_tiles(options: Mapping[str, str], *, tsumo: bool, riichi: bool, seat_wind: int,
                round_wind: int, rules: Mapping[str, Any], honba: int,
                situations: Mapping[str, bool] | None = None,
                three_players: bool = False) -> TileResult:
    aka = bool(rules["aka_dora"])
    hand, melds = _hand_and_melds(options, aka)
    kans = sum(1 for m in melds if m.type == Meld.KAN)
    if len(hand) != 14 + kans:
        raise UserError(_("A winning hand has 14 tiles (one more a kan); this has {count}.",
                          count=len(hand)))
    win = _tiles(options["win"], aka)
    if len(win) != 1:
        raise UserError(_("win: is one tile, e.g. win:2s"))
    closed = [t for t in hand if not any(t in m.tiles for m in melds)]
    # the winning tile as typed (a red 0p or a plain 5p), else any copy of its kind
    win_tile = next((t for t in closed if _kind(t) == _kind(win[0])),
                    next((t for t in closed if t // 4 == win[0] // 4), None))
    if win_tile is None:
        raise UserError(_("The winning tile must be in the closed part of the hand."))
    dora = _tiles(options["dora"], aka) if options.get("dora") else []
    ura = _tiles(options["ura"], aka) if options.get("ura") else []
    flags = {SITUATIONS[k]: True for k, on in (situations or {}).items() if on}
    if flags.get("is_daburu_riichi"):
        riichi = False  # double riichi stands in place of riichi
    config = HandConfig(
        is_tsumo=tsumo, is_riichi=riichi, player_wind=WINDS[seat_wind],
        round_wind=WINDS[round_wind], tsumi_number=honba,
        options=OptionalRules(has_open_tanyao=bool(rules["open_tanyao"]), has_aka_dora=aka,
                              has_double_yakuman=bool(rules["double_yakuman"]),
                              kazoe_limit=KAZOE[rules["kazoe"]],
                              kiriage=bool(rules["kiriage"]),
                              is_three_player=three_players),
        **flags,
    )
    try:
        result = HandCalculator().estimate_hand_value(hand, win_tile, melds=melds,
                                                      dora_indicators=dora, config=config,
                                                      ura_dora_indicators=ura)
    except Exception as error:  # the library's own failure on a hand it can't read
        raise UserError(_("The tiles could not be scored ({error}).",
                          error=type(error).__name__)) from None
    if result.error:
        raise UserError(_ERRORS.get(result.error)
                        or _("Not scored: {reason}.", reason=str(result.error)))
    names = tuple(str(y) for y in result.yaku or [])
    han, fu = result.han or 0, result.fu or 0
    # a real yakuman counts 13 han a yakuman in the package; a counted hand (13+ han of
    # ordinary yaku and dora) is left to basic_points and the rule kazoe
    yakuman = han // 13 if any(getattr(y, "is_yakuman", False) for y in result.yaku or []) \
        else 0
    if not yakuman and rules.get("double_wind", "4") == "2" and fu != 25:
        fu = _double_wind_as_two(result.fu_details or [], fu)
    shown = join([YAKU_NAMES.get(name, name) for name in names], ", ")
    return TileResult(han, fu, yakuman, shown, names)


def _double_wind_as_two(details: list[Any], fu: int) -> int:
    """M-League counts a pair of a wind that is both seat and round wind 2 fu, not the
    package's 4: take 2 off the fu before rounding up to ten."""
    if not any(d["reason"] == FuCalculator.DOUBLE_VALUED_PAIR for d in details):
        return fu
    raw = sum(d["fu"] for d in details) - 2
    return (raw + 9) // 10 * 10
