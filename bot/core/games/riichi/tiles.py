"""Scoring a hand from tiles with the `mahjong` package; impossible hands are clear errors."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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


KAZOE = {"yakuman": 0, "sanbaiman": 1, "none": 2}
WINDS = [27, 28, 29, 30]  # East South West North in the 34-tile numbering


@dataclass(frozen=True)
class TileResult:
    han: int
    fu: int
    yakuman: int  # real yakuman (x2 for a double); 0 for a counted hand of 13+ han
    yaku: Text  # the yaku, as shown
    names: tuple[str, ...] = ()


def _tiles(text: str, aka: bool) -> list[int]:
    text = text.strip().lower().replace(" ", "")
    if not _GROUP.match(text):
        raise UserError(_("`{text}` is not tiles: write 123m456p789s11z (z: 1-4 winds "
                          "E S W N, 5-7 dragons white green red; 0 is a red five).",
                          text=clip(text)))
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        if suit == "z" and set(digits) & set("089"):
            raise UserError(_("Honours are 1z to 7z (winds 1-4, dragons 5-7)."))
    _check_copies(text)
    try:
        return TilesConverter.one_line_string_to_136_array(text, has_aka_dora=aka)
    except Exception:
        raise UserError(_("`{text}` has more copies of a tile than a set holds.",
                          text=clip(text))) from None


def score_tiles(options: Mapping[str, str], *, tsumo: bool, riichi: bool, seat_wind: int,
                round_wind: int, rules: Mapping[str, Any], honba: int,
                situations: Mapping[str, bool] | None = None,
                three_players: bool = False) -> TileResult:
    aka = bool(rules["aka_dora"])
    hand = _tiles(options["hand"], aka)
    _check_copies(options["hand"] + " ".join((options.get("melds") or "").split()))
    melds: list[Meld] = []
    for word in (options.get("melds") or "").split():
        match = _MELD.match(word.lower())
        if not match:
            raise UserError(_("`{word}` is not a called meld: pon555z, chi456p, "
                              "kan1111m or ankan2222p.", word=clip(word)))
        kind, tiles = match.groups()
        meld_tiles = _tiles(tiles, aka)
        size = 4 if kind in ("kan", "ankan") else 3
        if len(meld_tiles) != size:
            raise UserError(_("{word}: a {kind} has {size} tiles.", word=word, kind=kind,
                              size=size))
        melds.append(Meld(Meld.KAN if size == 4 else (Meld.CHI if kind == "chi" else Meld.PON),
                          meld_tiles, opened=kind != "ankan"))
        hand += meld_tiles
    kans = sum(1 for m in melds if m.type == Meld.KAN)
    if len(hand) != 14 + kans:
        raise UserError(_("A winning hand has 14 tiles (one more a kan); this has {count}.",
                          count=len(hand)))
    win = _tiles(options["win"], aka)
    if len(win) != 1:
        raise UserError(_("win: is one tile, e.g. win:2s"))
    win_tile = next((t for t in hand if t // 4 == win[0] // 4 and not any(
        t in m.tiles for m in melds)), None)
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
