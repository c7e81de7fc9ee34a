"""Riichi by the rule books: the 13+ han setting, han and fu no hand has, three players'
uma and oka, the presets as their rule sets publish them (shared/rules/riichi.md), abortive
draws, nagashi mangan, pao, what the tiles can't show, the stick a riichi needs, and an edit
passing on to later hands (both backends).

Payments from the rules page: basic = fu x 2^(2+han), capped (mangan 2,000 ... yakuman
8,000); a ron pays 4x basic (6x the dealer's), rounded up to 100; +300 a honba on a ron,
+100 from each payer on a tsumo. Seats East South West North: alice bob carol dave; alice
deals first."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import UserError
from bot.core.games.riichi import payments as pay
from bot.core.games.riichi.game import RULEBOOK, uma_for
from tests.conftest import Table
from tests.games.riichi.test_riichi import assert_places_as_the_rules_say

NEW = "/newgame riichi players:alice bob carol dave"


# --- 13 han or more ---------------------------------------------------------------------

@pytest.mark.parametrize(("han", "kazoe", "basic"), [
    (13, "yakuman", 8000), (13, "sanbaiman", 6000), (13, "none", 8000),
    (20, "sanbaiman", 6000), (26, "yakuman", 8000), (26, "none", 16000),
    (12, "yakuman", 6000), (12, "sanbaiman", 6000),
])
def test_a_counted_hand_follows_the_kazoe_rule(han, kazoe, basic):
    # yakuman: 13+ han is a yakuman (8,000); sanbaiman: 13+ han stays sanbaiman (6,000);
    # none: 13 han a yakuman, 26 a double; 11-12 han is sanbaiman whatever the rule
    assert pay.basic_points(han, 30, kazoe=kazoe) == basic


async def test_thirteen_han_typed_and_from_tiles_by_preset(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:mleague")
    # bob (not the dealer) 13 han by ron: M-League counts it sanbaiman: 6,000 x 4 = 24,000
    reply = await table.ok("/ron winner:bob from:carol han:13 fu:30")
    assert reply.board.hands[-1]["points"]["bob"] == 24000
    await table.ok("/undo")
    await table.ok("/rules preset:ema")
    assert (await table.ok("/ron winner:bob from:carol han:13 fu:30")).board.hands[-1][
        "points"]["bob"] == 24000
    await table.ok("/undo")
    await table.ok("/rules preset:tenhou")  # Tenhou: 13+ han is a yakuman: 32,000
    assert (await table.ok("/ron winner:bob from:carol han:13 fu:30")).board.hands[-1][
        "points"]["bob"] == 32000
    await table.ok("/undo")
    # from the tiles: 22334455667788m won on 8m with riichi, dora indicator 1m: riichi 1,
    # pinfu 1, tanyao 1, ryanpeikou 3, chinitsu 6, dora 2 (two 2m) = 14 han; alice deals:
    # Tenhou 8,000 x 6 = 48,000; M-League 6,000 x 6 = 36,000
    line = "/ron winner:alice from:bob hand:22334455667788m win:8m dora:1m riichi:yes"
    reply = await table.ok(line)
    assert "14 han" in reply.text and reply.board.hands[-1]["points"]["alice"] == 48000
    await table.ok("/undo")
    await table.ok("/rules preset:mleague")
    reply = await table.ok(line)
    assert reply.board.hands[-1]["points"]["alice"] == 36000


# --- han and fu no hand has -------------------------------------------------------------

@pytest.mark.parametrize(("han", "fu", "tsumo", "why"), [
    (2, 20, False, "20 fu by ron"), (4, 20, False, "20 fu by ron"),
    (1, 20, True, "1 han 20 fu"), (1, 25, False, "1 han 25 fu"), (1, 25, True, "1 han 25"),
    (2, 25, True, "2 han 25 fu by tsumo"),
])
def test_han_and_fu_no_hand_has_are_refused(han, fu, tsumo, why):
    with pytest.raises(UserError, match=why):
        pay.check_han_fu(han, fu, tsumo)


@pytest.mark.parametrize(("han", "fu", "tsumo"), [
    (2, 20, True), (3, 20, True), (2, 25, False), (3, 25, True), (1, 30, False),
    (1, 30, True), (1, 110, False),
])
def test_the_pairs_the_table_has_pass(han, fu, tsumo):
    pay.check_han_fu(han, fu, tsumo)


async def test_impossible_pairs_through_the_commands(table: Table):
    await table.ok(NEW)
    assert "No hand is 20 fu by ron" in await table.error(
        "/ron winner:bob from:carol han:2 fu:20")
    assert "No hand is 1 han 20 fu" in await table.error("/tsumo winner:bob han:1 fu:20")
    assert "No hand is 1 han 25 fu" in await table.error(
        "/ron winner:bob from:carol han:1 fu:25")
    # pinfu tsumo, 2 han 20 fu, bob: basic 20 x 2^4 = 320; the dealer pays 640 -> 700,
    # the others 320 -> 400
    reply = await table.ok("/tsumo winner:bob han:2 fu:20")
    assert reply.board.hands[-1]["points"] == {"alice": -700, "bob": 1500, "carol": -400,
                                                  "dave": -400}


# --- three players ----------------------------------------------------------------------

def test_three_players_have_their_own_uma_and_oka_and_add_to_zero():
    rules = RULEBOOK.with_preset(RULEBOOK.defaults(), "sanma")
    uma = uma_for(rules, 3)
    assert uma == [15, 0, -15]
    # 35,000 start, 40,000 back: oka (40,000 - 35,000) x 3 / 1000 = 15 to first.
    # 40,800 -> 0.8 + 15 + 15; 35,000 -> -5 + 0; 29,200 -> -10.8 - 15
    final = pay.final_scores({1: 40800, 2: 29200, 3: 35000}, [1, 2, 3], 35000, 40000, uma,
                             "seat")
    assert final == {1: 30.8, 2: -25.8, 3: -5.0}
    assert uma_for(RULEBOOK.defaults(), 3) == [15, 0, -15]
    assert uma_for({**RULEBOOK.defaults(), "uma": "20 0 -20"}, 3) == [20, 0, -20]  # stored


@given(st.lists(st.integers(-300, 900).map(lambda x: x * 100), min_size=2, max_size=2),
       st.sampled_from(["seat", "split"]))
def test_three_player_finals_add_to_zero(points, tie):
    """Catches: the oka not given to first place, and the places counted from the bottom
    (each verified by planting it). (Dropping the rounding's lost tenth can't show here:
    three players' oka and uma never split into thirds.)"""
    # generated directly: two scores, the third makes them add to 3 x start
    scores = {1: points[0], 2: points[1], 3: 3 * 35000 - sum(points)}
    final = pay.final_scores(scores, [1, 2, 3], 35000, 40000, [15, 0, -15], tie)
    assert abs(sum(final.values())) < 0.05
    # oka: (40,000 - 35,000) x 3 / 1000 = 15
    assert_places_as_the_rules_say(scores, final, 40000, [15, 0, -15], oka=15)


async def test_a_three_player_game_shows_its_three_uma_values(table: Table):
    # with three players the uma that counts is uma3 (the rulebook's 15 0 -15), not the
    # four-player uma 15 5 -5 -15
    reply = await table.ok("/newgame riichi players:alice bob carol")
    assert "uma3 15 0 -15" in reply.text and "-5" not in reply.text
    reply = await table.ok("/rules uma3:20 0 -20")
    assert "uma3 20 0 -20" in reply.text and "uma 15 5" not in reply.text
    await table.ok("/endgame")
    reply = await table.ok("/newgame riichi players:alice bob carol dave")
    assert "uma 15 5 -5 -15" in reply.text and "uma3" not in reply.text


async def test_help_rules_shows_riichi_examples(table: Table):
    await table.ok(NEW)
    text = (await table.ok("/help rules")).text
    usage = text.splitlines()[0]
    assert "preset:mleague" in usage and "uma:20 10 -10 -20" in usage
    assert "kidnap" not in text and "unseen" not in text
    # and each of its examples is accepted as typed
    for line in ("/rules preset:mleague", "/rules uma:20 10 -10 -20 tobi:no rate:10 "
                 "currency:Rs"):
        await table.ok(line)


async def test_a_sanma_game_through_the_commands(table: Table):
    await table.ok("/newgame riichi players:alice bob carol preset:sanma")
    # alice deals: 3 han 30 fu ron from bob: 960 x 6 = 5,760 -> 5,800
    await table.ok("/ron winner:alice from:bob han:3 fu:30")
    end = await table.ok("/endgame sure")  # before the hanchan's end
    assert "Final (uma +15 +0 -15, back 40,000, oka +15 to first)" in end.text
    finals = {line.split(". ")[1].split()[0]: float(line.split("-> ")[1])
              for line in end.text.splitlines() if "-> " in line}
    assert finals == {"alice": 30.8, "carol": -5.0, "bob": -25.8}
    assert sum(finals.values()) == 0



SANMA_FOR_THREE = ("Sanma's start and back (35,000 and 40,000) are for three players, not "
                   "four. For four, take a four-player table: preset:tenhou, ema or mleague "
                   "(or set start: and back:).")


async def test_a_sanma_table_refuses_a_fourth_player_and_says_how_to_play_four(table: Table):
    # sanma: three players' 35,000 start and 40,000 back (oka 15 for three); with a fourth
    # the four scores would add to 4 x 35,000 and the end pay three players' uma
    await table.ok("/newgame riichi players:alice bob carol preset:sanma")
    assert await table.error("/join dave", by="dave") == SANMA_FOR_THREE
    board = await table.ok("/board")
    assert "dave" not in board.text  # nothing changed: still three at the table
    # as the reply says: a four-player table first, then the fourth sits down
    await table.ok("/rules preset:tenhou")
    assert (await table.ok("/join dave", by="dave")).text.startswith(
        "dave joins at seat 4, from the first result.")
    # and back: four at the table can't take sanma's start and back
    assert await table.error("/rules preset:sanma") == SANMA_FOR_THREE
    await table.ok("/endgame")
    assert await table.error(f"{NEW} preset:sanma") == SANMA_FOR_THREE


async def test_a_fourth_player_must_fit_the_noten_payment(table: Table):
    # three players share noten in multiples of 200; a fourth needs a multiple of 600
    await table.ok("/newgame riichi players:alice bob carol")
    await table.ok("/rules noten:2000")
    assert "with 4 players it is a multiple of 600" in await table.error("/join dave",
                                                                      by="dave")
    assert "dave" not in (await table.ok("/board")).text


# --- presets ------------------------------------------------------------------------------

PUBLISHED = {
    "tenhou": {"uma": "20 10 -10 -20", "sudden_death": "yes", "tobi": "yes",
               "kazoe": "yakuman", "double_yakuman": "no", "start": "25,000",
               "back": "30,000"},
    "mleague": {"uma": "30 10 -10 -30", "kiriage": "yes", "tobi": "no",
                "kazoe": "sanbaiman", "double_yakuman": "no", "double_wind": "2",
                "tie": "split", "double_ron": "no", "riichi_below": "yes",
                "abortive": "no"},
    "ema": {"start": "30,000", "back": "30,000", "uma": "15 5 -5 -15", "aka_dora": "no",
            "kazoe": "sanbaiman", "double_yakuman": "no", "tobi": "no", "tie": "split",
            "abortive": "no", "nagashi": "win", "pao": "discarder"},
}


@pytest.mark.parametrize("name", list(PUBLISHED))
async def test_each_preset_is_what_its_rule_set_publishes(table: Table, name: str):
    await table.ok(NEW)
    await table.ok("/rules preset:mleague" if name != "mleague" else "/rules preset:tenhou")
    await table.ok(f"/rules preset:{name}")  # from another preset: nothing of it is kept
    shown = dict(line.split(": ", 1) for line in (await table.ok("/rules")).text
                 .splitlines()[1:] if ": " in line)
    for key, value in PUBLISHED[name].items():
        assert shown[key] == value, (name, key)


def test_every_preset_sets_every_scoring_rule():
    from bot.core.games.riichi.rules import SCORING_KEYS

    for preset in RULEBOOK.presets:
        if preset.name == "sanma":
            continue  # a three-player setting on top of any rule set
        assert set(SCORING_KEYS) <= set(preset.values), preset.name


def shown_rules(text: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in text.splitlines()[1:-1])


async def test_sanma_adds_to_the_table_set_and_a_table_replaces_it(table: Table):
    await table.ok("/newgame riichi players:alice bob carol")
    await table.ok("/rules preset:tenhou")
    said = (await table.ok("/rules preset:sanma")).text.splitlines()[1]
    # three players: 35,000 start, 40,000 back (uma3 15 0 -15 is already the default)
    assert said == ("Preset sanma: added to the rules in force. Changed: start 35,000, "
                    "back 40,000.")
    rules = shown_rules((await table.ok("/rules")).text)
    sanma = {"start": "35,000", "back": "40,000", "uma3": "15 0 -15"}
    tenhou = {"sudden_death": "yes", "tobi": "yes", "double_yakuman": "no",
              "triple_ron": "draw", "tie": "seat"}  # Tenhou's, kept under sanma
    assert {key: rules[key] for key in {**sanma, **tenhou}} == {**sanma, **tenhou}
    await table.ok("/rules length:tonpuusen uma3:20 0 -20")
    # M-League is a whole table: 25,000 and 30,000 again, and what was set by hand goes
    # back to the defaults (hanchan, uma3 15 0 -15); the money would stay
    said = (await table.ok("/rules preset:mleague")).text.splitlines()[1]
    assert said.startswith("Preset mleague: a whole table (rate, currency kept). Changed: "
                           "start 25,000, back 30,000, uma 30 10 -10 -30, uma3 15 0 -15, "
                           "length hanchan, sudden_death no, tobi no, kiriage yes, ")
    rules = shown_rules((await table.ok("/rules")).text)
    assert (rules["start"], rules["back"], rules["uma3"], rules["length"]) == (
        "25,000", "30,000", "15 0 -15", "hanchan")
    await table.ok("/rules preset:sanma")  # and sanma on M-League's table
    rules = shown_rules((await table.ok("/rules")).text)
    assert (rules["start"], rules["back"], rules["kiriage"], rules["tobi"]) == (
        "35,000", "40,000", "yes", "no")


async def test_each_of_these_rules_is_one_a_table_can_change(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:mleague")
    await table.ok("/rules sudden_death:yes tobi:yes kiriage:no kazoe:yakuman "
                   "double_yakuman:yes double_wind:4 tie:seat uma3:20 0 -20 riichi_below:no "
                   "nagashi:off pao:none triple_ron:draw abortive:yes")
    text = (await table.ok("/rules")).text
    for pair in ("sudden_death: yes", "tobi: yes", "double_wind: 4", "tie: seat",
                 "uma3: 20 0 -20", "nagashi: off", "pao: none", "triple_ron: draw"):
        assert pair in text
    assert "uma3 is 3 numbers that add up to 0" in await table.error("/rules uma3:15 5 -5")


async def test_tenhou_goes_into_the_next_wind_until_someone_has_30000(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:tenhou length:tonpuusen")  # East only: South is extra
    # four 1 han 30 fu rons of 1,000, each by the next dealer's neighbour: nobody reaches
    # 30,000 by East 4 (alice 25,000, bob 25,000, carol 25,000, dave 25,000)
    for line in ("/ron winner:bob from:alice han:1 fu:30",
                 "/ron winner:carol from:bob han:1 fu:30",
                 "/ron winner:dave from:carol han:1 fu:30",
                 "/ron winner:alice from:dave han:1 fu:30"):
        await table.ok(line)
    assert "South 1 ·" in (await table.ok("/board")).text  # sudden death
    # South 1, alice deals: 3 han 30 fu ron, 5,800: alice 30,800 reaches 30,000: over,
    # though the dealer won
    await table.ok("/ron winner:alice from:bob han:3 fu:30")
    assert "Game over" in (await table.ok("/board")).text


async def test_without_sudden_death_the_last_hand_ends_it(table: Table):
    await table.ok(NEW)
    await table.ok("/rules length:tonpuusen sudden_death:no")
    for line in ("/ron winner:bob from:alice han:1 fu:30",
                 "/ron winner:carol from:bob han:1 fu:30",
                 "/ron winner:dave from:carol han:1 fu:30",
                 "/ron winner:alice from:dave han:1 fu:30"):
        await table.ok(line)
    assert "Game over" in (await table.ok("/board")).text


async def test_mleague_plays_on_below_zero_and_riichi_there(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:mleague")
    # alice deals a yakuman by ron: 48,000 from bob: bob -23,000, and play goes on
    reply = await table.ok("/ron winner:alice from:bob yakuman:1")
    assert reply.board.totals["bob"] == -48000 and "Game over" not in reply.text
    await table.ok("/riichi bob")  # M-League: riichi below 1,000 too
    assert "Head bump" in await table.error(
        "/ron winner:carol dave from:alice han:carol=1 dave=1 fu:carol=30 dave=30")


async def test_a_double_wind_pair_is_4_fu_or_2(table: Table):
    await table.ok(NEW)
    # alice deals in the East round: her pair of East (1z) is seat and round wind.
    # 123m 456p 999s 234s 11z, ron on 1m (23m waits on 1m or 4m: no wait fu): closed ron
    # 30 + closed terminal triplet 8 + double-wind pair 4 = 42 -> 50 fu; with 2 fu, 40.
    # riichi is the one yaku: 1 han. Dealer ron: 50 x 8 x 6 = 2,400; 40 x 8 x 6 = 1,920
    # -> 2,000
    line = "/ron winner:alice from:bob hand:123m456p999s234s11z win:1m riichi:yes"
    reply = await table.ok(line)
    assert "1 han 50 fu" in reply.text and reply.board.hands[-1]["points"]["alice"] == 2400
    await table.ok("/undo")
    await table.ok("/rules double_wind:2")
    reply = await table.ok(line)
    assert "1 han 40 fu" in reply.text and reply.board.hands[-1]["points"]["alice"] == 2000


# --- draws --------------------------------------------------------------------------------

async def test_abortive_draws_keep_the_dealer_and_add_a_honba(table: Table):
    await table.ok(NEW)
    await table.ok("/riichi bob")
    reply = await table.ok("/draw abort:kyuushu")
    # no payments; bob's stick stays on the table; the same dealer deals again, 1 honba
    assert reply.board.hands[-1]["points"] == {"alice": 0, "bob": -1000, "carol": 0,
                                                  "dave": 0}
    assert "East 1, 1 honba · sticks on the table 1" in reply.text
    assert "all four in riichi; declared so far: nobody" in await table.error(
        "/draw abort:suucha")
    for name in ("alice", "bob", "carol", "dave"):
        await table.ok(f"/riichi {name}")
    reply = await table.ok("/draw abort:suucha")
    assert "East 1, 2 honba · sticks on the table 5" in reply.text
    # the next winner takes all five sticks: bob 1 han 30 fu ron, 1,000 + 2 x 300 + 5,000
    reply = await table.ok("/ron winner:bob from:carol han:1 fu:30")
    assert reply.board.hands[-1]["points"]["bob"] == 6600
    assert "no tenpai or nagashi" in await table.error("/draw abort:suufon tenpai:alice")


async def test_abortive_draws_only_as_the_rules_allow(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:ema")  # EMA 2016 uses no abortive draws
    assert "not played here (rule abortive)" in await table.error("/draw abort:kyuushu")
    # EMA: three rons on one discard all win; sanchahou is no draw there
    assert "not a draw here" in await table.error("/draw abort:sanchahou")
    await table.ok("/rules preset:tenhou")  # Tenhou: a triple ron is sanchahou
    assert "/draw abort:sanchahou" in await table.error(
        "/ron winner:bob carol dave from:alice han:bob=1 carol=1 dave=1 "
        "fu:bob=30 carol=30 dave=30")
    reply = await table.ok("/draw abort:sanchahou")
    assert "sanchahou" in reply.text and "East 1, 1 honba" in reply.text
    await table.ok("/endgame sure")  # before the hanchan's end
    await table.ok("/newgame riichi players:a b c")
    assert "four-player abortive draw" in await table.error("/draw abort:suufon")
    await table.ok("/draw abort:kyuushu")


async def test_nagashi_mangan_as_a_draw(table: Table):
    await table.ok(NEW)  # default: nagashi is paid as a mangan tsumo and stays a draw
    reply = await table.ok("/draw tenpai:alice nagashi:bob")
    # bob, not the dealer: a mangan tsumo, 4,000 from the dealer and 2,000 from each
    # other; no noten payments; alice (dealer) was tenpai: she deals again, 1 honba
    assert reply.board.hands[-1]["points"] == {"alice": -4000, "bob": 8000,
                                                  "carol": -2000, "dave": -2000}
    assert "East 1, 1 honba" in reply.text
    # the honba is not paid on a nagashi that stays a draw
    reply = await table.ok("/draw tenpai:none nagashi:carol")
    assert reply.board.hands[-1]["points"] == {"alice": -4000, "bob": -2000,
                                                  "carol": 8000, "dave": -2000}
    assert "East 2, 2 honba" in reply.text  # the dealer was not tenpai


async def test_nagashi_mangan_as_a_win(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:ema")  # EMA: nagashi counts as a win, honba paid
    await table.ok("/draw tenpai:none")  # East 2, 1 honba: bob deals
    reply = await table.ok("/draw nagashi:carol")
    # carol: bob (dealer) 4,000 + 100, alice and dave 2,000 + 100: +8,300
    assert reply.board.hands[-1]["points"] == {"alice": -2100, "bob": -4100,
                                                  "carol": 8300, "dave": -2100}
    assert "East 3 ·" in reply.text  # a non-dealer's win: the deal moves on, honba 0
    await table.ok("/rules nagashi:off")
    assert "not played here (rule nagashi)" in await table.error("/draw nagashi:dave")


# --- pao ----------------------------------------------------------------------------------

async def test_pao_on_a_ron_shares_the_yakuman(table: Table):
    await table.ok(NEW)
    await table.ok("/draw tenpai:alice")  # East 1, 1 honba: alice +3,000, others -1,000
    # bob's daisangen by ron from carol, dave fed the last dragon: 32,000, half each;
    # default pao:liable: dave also pays the honba (300)
    reply = await table.ok("/ron winner:bob from:carol yakuman:1 pao:dave")
    assert reply.board.hands[-1]["points"] == {"alice": 0, "bob": 32300,
                                                  "carol": -16000, "dave": -16300}
    await table.ok("/undo")
    await table.ok("/rules pao:discarder")  # EMA: the discarder pays the counters
    reply = await table.ok("/ron winner:bob from:carol yakuman:1 pao:dave")
    assert reply.board.hands[-1]["points"]["carol"] == -16300
    assert reply.board.hands[-1]["points"]["dave"] == -16000


async def test_pao_on_a_tsumo_pays_it_all_and_tiles_must_show_the_hand(table: Table):
    await table.ok(NEW)
    await table.ok("/rules tobi:no")
    # from the tiles: 555z and 666z called, 777z 123m 44p, ron on 4p: daisangen; a ron
    # from dave himself is a plain ron: 32,000 from dave
    reply = await table.ok("/ron winner:bob from:dave hand:777z123m44p melds:pon555z "
                           "pon666z win:4p pao:dave")
    assert "Daisangen" in reply.text
    assert reply.board.hands[-1]["points"] == {"alice": 0, "bob": 32000, "carol": 0,
                                                  "dave": -32000}
    # a tsumo: the liable player pays what a ron would, all of it. bob (not the dealer)
    # won, so East 2 is his deal: a dealer yakuman is 48,000, from carol alone
    reply = await table.ok("/tsumo winner:bob yakuman:1 pao:carol")
    assert reply.board.hands[-1]["points"] == {"alice": 0, "bob": 48000, "carol": -48000,
                                                  "dave": 0}
    assert "neither" in await table.error(
        "/ron winner:carol from:dave hand:234m067p23456788s win:2s riichi:yes pao:alice")
    assert "give yakuman:1" in await table.error(
        "/ron winner:carol from:dave han:3 fu:30 pao:alice")
    await table.ok("/rules pao:none")
    assert "off here (rule pao)" in await table.error(
        "/ron winner:carol from:dave yakuman:1 pao:alice")


# --- what the tiles can't show ------------------------------------------------------------

async def test_situational_yaku_with_the_tiles(table: Table):
    await table.ok(NEW)
    await table.ok("/rules tobi:no")
    tiles = "hand:234m067p23456788s win:2s dora:1m"
    # riichi, pinfu, tanyao, dora 1, aka 1 = 5 han; with ippatsu 6: haneman, dealer
    # 3,000 x 6 = 18,000
    reply = await table.ok(f"/ron winner:alice from:bob {tiles} riichi:yes ippatsu:yes")
    assert "Ippatsu" in reply.text and reply.board.hands[-1]["points"]["alice"] == 18000
    await table.ok("/undo")
    # double riichi is 2 han in place of riichi's 1: 6 han as well
    reply = await table.ok(f"/ron winner:alice from:bob {tiles} double_riichi:yes")
    assert "Double Riichi" in reply.text or "Daburu Riichi" in reply.text
    assert reply.board.hands[-1]["points"]["alice"] == 18000
    await table.ok("/undo")
    # tenhou: the dealer's first draw, a yakuman: 16,000 from each
    reply = await table.ok(f"/tsumo winner:alice {tiles} tenhou:yes")
    assert reply.board.hands[-1]["points"]["alice"] == 48000
    await table.ok("/undo")
    assert "ippatsu needs riichi" in await table.error(
        f"/ron winner:alice from:bob {tiles} ippatsu:yes")
    assert "tenhou is the dealer's" in await table.error(f"/tsumo winner:bob {tiles} "
                                                        "tenhou:yes")
    assert "is read with the tiles" in await table.error(
        "/ron winner:alice from:bob han:2 fu:30 houtei:yes")
    # bob's tsumo on the last tile: menzen tsumo, riichi, haitei, pinfu, tanyao, aka 1 =
    # 6 han: haneman 3,000: 6,000 from the dealer, 3,000 from the others
    reply = await table.ok("/tsumo winner:bob hand:234m067p23456788s win:2s haitei:yes "
                           "riichi:yes")
    assert reply.board.hands[-1]["points"] == {"alice": -6000, "bob": 12000,
                                                  "carol": -3000, "dave": -3000}


# --- the stick a riichi needs --------------------------------------------------------------

async def test_a_riichi_needs_the_stick_unless_the_rules_allow(table: Table):
    await table.ok(NEW)
    await table.ok("/rules start:1500 back:1500 tobi:no")
    # alice deals: 1 han 30 fu from bob: 240 x 6 = 1,440 -> 1,500: bob 0
    await table.ok("/ron winner:alice from:bob han:1 fu:30")
    error = await table.error("/riichi bob")
    assert "bob has 0 points: a riichi needs the 1,000 stick" in error
    await table.ok("/rules riichi_below:yes")
    await table.ok("/riichi bob")


# --- an edit passes on ---------------------------------------------------------------------

async def test_an_edit_that_would_end_the_game_earlier_is_refused(table: Table):
    await table.ok(NEW)
    await table.ok("/ron winner:alice from:bob han:1 fu:30")  # dealer 1,500: East 1, 1 h.
    await table.ok("/tsumo winner:carol han:1 fu:30")  # 1 honba: 300+100 / 500+100
    # as a yakuman, result 1 would put bob at 25,000 - 48,000 < 0: bust (tobi), the game
    # over before result 2
    error = await table.error("/edit result:1 yakuman:1")
    assert "result 2 can't stand as recorded: the game would have been over before it" \
        in error
    # an edit that keeps the game going re-derives result 2 with what result 1 passes on
    reply = await table.ok("/edit result:1 han:2 fu:30")
    # 2 han 30 fu dealer: 480 x 6 = 2,880 -> 2,900; result 2 is unchanged (the honba is
    # still 1): "The results after it are unchanged"
    assert reply.board.hands[0]["points"]["alice"] == 2900
    assert "unchanged" in reply.text
