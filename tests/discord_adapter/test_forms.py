"""The whole hand on one Discord form: a command sent with nothing typed opens a modal made
from the command table, and its submit is the command a person would type. The real
discord.py against the fake Discord, whose modals are checked as Discord checks them and
whose submits are built as Discord sends them (tests/discord_helpers.py, `form_submit`)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.errors import UserError
from bot.core.i18n import ENGLISH
from bot.discord_adapter import DiscordAdapter, forms
from tests.discord_adapter.test_adapter import EPHEMERAL, board, shown
from tests.discord_helpers import (
    ALICE,
    CHECKBOX,
    CHECKBOX_GROUP,
    RADIO_GROUP,
    STRANGER,
    TEXT_INPUT,
    DiscordHarness,
    component,
    control,
    custom_ids,
    form_submit,
    labels,
    offered,
    slash,
    slow_database,
)


async def open_form(dc: DiscordHarness, payload: dict[str, Any]) -> dict[str, Any]:
    """The modal a command or a tap opens: Discord's first answer to it."""
    callback = await dc.reply_to(payload)
    assert callback["type"] == 9, callback  # a modal, and nothing before it
    return callback["data"]


async def submitted(dc: DiscordHarness, payload: dict[str, Any]) -> dict[str, Any]:
    """What the person is shown after sending a form."""
    return await dc.answer_to(payload)


async def marriage(dc: DiscordHarness, players: str = "asha bikash chetan") -> None:
    answer = await dc.answer_to(slash("newgame", ALICE, players=players))
    assert "Players:" in answer["content"], answer


async def test_a_whole_marriage_hand_on_one_form(dc: DiscordHarness):
    await marriage(dc)
    form = await open_form(dc, slash("hand", ALICE))
    assert form["title"] == "/hand · Hand 1"
    # the winner one of the table's seats, who has seen any of them, the maal typed as in
    # /hand, dublee a checkbox; what has no field of its own is typed in the fifth
    assert labels(form) == ["winner", "seen", "maal", "dublee", "More, typed"]
    assert control(form, "winner")["type"] == RADIO_GROUP
    assert offered(form, "winner") == ["asha", "bikash", "chetan"]
    assert control(form, "seen")["type"] == CHECKBOX_GROUP
    assert offered(form, "seen") == ["asha", "bikash", "chetan"]
    assert control(form, "maal")["type"] == TEXT_INPUT
    assert control(form, "maal")["placeholder"] == "asha=… bikash=… chetan=…"
    assert control(form, "dublee")["type"] == CHECKBOX
    assert "foul:" in control(form, "More, typed")["placeholder"]
    # shared/rules/marriage.md's worked example: maal 10, 2 and 0; asha wins with dublees,
    # bikash has seen, chetan has not. The exchange 18, -6, -12; the game points +23
    # (3+5 from bikash, 10+5 from chetan), -8, -15: +41, -14, -27
    answer = await submitted(dc, form_submit(form, ALICE, {
        "winner": "asha", "seen": ["bikash"], "maal": "asha=10 bikash=2 chetan=0",
        "dublee": True}))
    assert "Hand 1: asha won with dublees" in shown(answer["content"]), answer
    assert (await board(dc))["totals"] == {"asha": 41, "bikash": -14, "chetan": -27}
    await dc.live_board(containing="+41")


async def test_the_same_hand_by_form_and_typed_gives_the_same_refusal(dc: DiscordHarness):
    await marriage(dc)
    typed = await dc.answer_to(slash("hand", ALICE, winner="asha", seen="bikash",
                                     maal="asha=10 bikash=lots"))
    form = await open_form(dc, slash("hand", ALICE))
    refused = await submitted(dc, form_submit(form, ALICE, {
        "winner": "asha", "seen": ["bikash"], "maal": "asha=10 bikash=lots"}))
    # bikash's maal must be a whole number: the form says it in /hand's own words, to the
    # sender alone, and records nothing
    assert "bikash's maal" in typed["content"] and typed["flags"] & EPHEMERAL
    assert refused["content"] == typed["content"] and refused["flags"] & EPHEMERAL
    assert (await board(dc))["hand_count"] == 0
    # an option given on its field and again among the typed ones: as typed twice
    again = await submitted(dc, form_submit(form, ALICE, {
        "winner": "asha", "maal": "asha=3", "More, typed": "winner:bikash"}))
    assert "`winner` is given twice; give it once." in shown(again["content"]), again
    assert (await board(dc))["hand_count"] == 0


async def test_a_form_sent_twice_is_recorded_once(dc: DiscordHarness):
    await marriage(dc)
    form = await open_form(dc, slash("hand", ALICE))
    payload = form_submit(form, ALICE, {"winner": "bikash", "seen": ["asha", "chetan"],
                                        "maal": "asha=1 bikash=4 chetan=0"})
    await submitted(dc, payload)
    dc.deliver(payload)  # Discord delivers the same submit again
    await dc.answer_to(slash("players", ALICE))  # (after it has been handled)
    assert (await board(dc))["hand_count"] == 1
    assert len(dc.fake.calls("POST", f"interactions/{payload['id']}/")) == 1


async def test_a_form_opened_before_a_restart_is_recorded_after_it(dc: DiscordHarness):
    await marriage(dc)
    form = await open_form(dc, slash("hand", ALICE))
    fresh = DiscordAdapter(dc.adapter.service, dc.fake.token, api_url=dc.fake.base,
                           gateway_url=dc.fake.gateway_url)
    await fresh.login()
    try:
        again = DiscordHarness(dc.fake, fresh)
        answer = await again.answer_to(form_submit(form, ALICE, {
            "winner": "asha", "seen": ["bikash"], "maal": "asha=10 bikash=2 chetan=0",
            "dublee": True}))
        assert "Hand 1: asha won with dublees" in shown(answer["content"]), answer
    finally:
        await fresh.client.close()
    assert (await board(dc))["totals"] == {"asha": 41, "bikash": -14, "chetan": -27}


async def test_a_person_not_at_the_table_is_refused_as_hand_refuses_them(dc: DiscordHarness):
    await marriage(dc)  # guests by name: the starter (Alice) and admins may record
    refusal = ("Only a player at the table, the person who started the game or a chat admin "
               "can use /hand here.")
    typed = await dc.answer_to(slash("hand", STRANGER, winner="asha", seen="bikash",
                                     maal="asha=1 bikash=1"))
    assert typed["content"].endswith(refusal) and typed["flags"] & EPHEMERAL
    # no form to fill in for nothing: the refusal is the answer
    callback = await dc.reply_to(slash("hand", STRANGER))
    assert callback["type"] == 4 and callback["data"]["content"] == typed["content"]
    assert callback["data"]["flags"] & EPHEMERAL
    # a form that reaches the bot from them all the same is refused when sent
    form = await open_form(dc, slash("hand", ALICE))
    sent = await submitted(dc, form_submit(form, STRANGER, {
        "winner": "asha", "seen": ["bikash"], "maal": "asha=1 bikash=1"}))
    assert sent["content"] == typed["content"] and sent["flags"] & EPHEMERAL
    assert (await board(dc))["hand_count"] == 0
    # someone who can manage the server may
    manager = await submitted(dc, form_submit(form, STRANGER, {
        "winner": "asha", "seen": ["bikash"], "maal": "asha=1 bikash=1"},
        permissions="32"))
    assert "Hand 1: asha won" in shown(manager["content"]), manager


async def test_a_winner_alone_is_a_hand_nobody_else_saw(dc: DiscordHarness):
    """What a form leaves empty was left so: no taps follow it, as they follow a typed
    /hand winner:asha."""
    await marriage(dc)
    form = await open_form(dc, slash("hand", ALICE))
    answer = await submitted(dc, form_submit(form, ALICE, {"winner": "asha"}))
    assert answer["content"] == "Hand 1 waits for the maal of asha: /maal asha=…", answer


async def test_an_empty_form_says_what_hand_needs(dc: DiscordHarness):
    await marriage(dc)
    form = await open_form(dc, slash("hand", ALICE))
    answer = await submitted(dc, form_submit(form, ALICE, {}))
    assert answer["content"].startswith("⚠️ Say who won and who saw: /hand winner:asha"), \
        answer
    assert answer["flags"] & EPHEMERAL
    assert (await board(dc))["hand_count"] == 0


async def test_a_hand_waiting_for_maal_is_said_at_once_not_on_a_form(dc: DiscordHarness):
    await marriage(dc)
    await dc.answer_to(slash("hand", ALICE, winner="asha", seen="bikash", maal="asha=3"))
    callback = await dc.reply_to(slash("hand", ALICE))
    assert callback["type"] == 4, callback
    assert "A hand waits for the maal of bikash" in callback["data"]["content"]


async def test_next_hand_under_the_board_opens_the_form(dc: DiscordHarness):
    await marriage(dc)
    await dc.answer_to(slash("hand", ALICE, winner="asha", seen="bikash",
                             maal="asha=10 bikash=2 chetan=0", dublee=True))
    live = await dc.live_board(containing="+41")
    form = await open_form(dc, component(live, custom_ids(live)["Next hand"], ALICE))
    assert form["title"] == "/hand · Hand 2"
    answer = await submitted(dc, form_submit(form, ALICE, {
        "winner": "bikash", "seen": ["asha", "chetan"], "maal": "asha=0 bikash=0 chetan=0"},
        message=live))
    assert "Hand 2: bikash won" in shown(answer["content"]), answer
    # seen asha and chetan pay 3 each to bikash; no maal: +41+(-3), -14+6, -27+(-3)
    assert (await board(dc))["totals"] == {"asha": 38, "bikash": -8, "chetan": -30}


async def test_ten_players_fit_a_form(dc: DiscordHarness):
    names = "asha bikash chetan dipa esha farah gita hari isha jaya"
    await marriage(dc, names)
    packs = slash("rules", ALICE)  # ten hands of 21 cards need five packs
    packs["data"]["options"] = [{"name": "marriage", "type": 1, "options": [
        {"name": "packs", "type": 4, "value": 5}]}]
    assert "packs 5" in (await dc.answer_to(packs))["content"]
    form = await open_form(dc, slash("hand", ALICE))
    assert offered(form, "winner") == names.split() == offered(form, "seen")
    answer = await submitted(dc, form_submit(form, ALICE, {
        "winner": "jaya", "seen": ["asha"], "maal": "jaya=0 asha=0"}))
    assert "Hand 1: jaya won" in shown(answer["content"]), answer


async def new_game(dc: DiscordHarness, game: str, **options: str) -> None:
    payload = slash("newgame", ALICE, **options)
    payload["data"]["options"].insert(0, {"name": "game", "type": 3, "value": game})
    answer = await dc.answer_to(payload)
    assert "Players:" in answer["content"] or "Sides" in answer["content"], answer


async def test_a_marriage_rummy_hand_on_its_form(dc: DiscordHarness):
    await new_game(dc, "marriage_rummy", players="asha bikash chetan")
    form = await open_form(dc, slash("hand", ALICE))
    assert labels(form) == ["winner", "honours", "marriages", "points", "More, typed"]
    # honour 4, marriage 20, hand points x2: honour points asha 3x4+20 = 32, bikash 4,
    # chetan 0 (36 in all); PART_A = 3 x own - 36: 60, -24, -36; PART_B: bikash -50,
    # chetan -80, and asha, who showed, +130
    answer = await submitted(dc, form_submit(form, ALICE, {
        "winner": "asha", "honours": "asha=3 bikash=1", "marriages": "asha=1",
        "points": "bikash=25 chetan=40"}))
    assert "Hand 1" in shown(answer["content"]), answer
    assert (await board(dc))["totals"] == {"asha": 190, "bikash": -74, "chetan": -116}


async def test_a_tranca_round_on_its_form(dc: DiscordHarness):
    await new_game(dc, "tranca", players="asha bikash")
    form = await open_form(dc, slash("round", ALICE))
    assert form["title"] == "/round · Round 1"
    # by counts, the usual way; the rest typed as after /round
    assert labels(form) == ["side", "table", "hand", "clean", "More, typed"]
    assert control(form, "side")["required"] is True  # /round needs side:
    # shared/rules/tranca.md: A lays down 365 and keeps 40, a clean canastra +200, one red
    # 3 with a canastra +100, the final move +100: 725. B lays 200 and keeps 65, a dirty
    # canastra +100, a black 3 in hand -100, the morto not taken -100: 35
    answer = await submitted(dc, form_submit(form, ALICE, {
        "side": "A", "table": "365", "hand": "40", "clean": "1",
        "More, typed": "red3:1 out:yes"}))
    assert shown(answer["content"]).startswith("Side A: +725"), answer
    form = await open_form(dc, slash("round", ALICE))
    answer = await submitted(dc, form_submit(form, ALICE, {
        "side": "B", "table": "200", "hand": "65",
        "More, typed": "dirty:1 black3:1 morto:no"}))
    assert "Round 1" in shown(answer["content"]), answer
    assert (await board(dc))["totals"] == {"A": 725, "B": 35}


async def test_a_round_of_sides_is_given_by_side_on_its_form(dc: DiscordHarness):
    await new_game(dc, "points", teams="asha+bikash chetan+dipa")
    form = await open_form(dc, slash("round", ALICE))
    # a number for each side, by the letter /round takes, as the scorepad's rows; who is
    # on which side said under it
    assert control(form, "points")["placeholder"] == "A=… B=…"
    field = next(item for item in form["components"] if item.get("label") == "points")
    assert field["description"] == "A: asha+bikash · B: chetan+dipa"
    assert offered(form, "winner") == ["A", "B"]
    answer = await submitted(dc, form_submit(form, ALICE, {"points": "A=12 B=5"}))
    assert "Round 1" in shown(answer["content"]), answer
    assert (await board(dc))["totals"] == {"A": 12, "B": 5}


async def riichi(dc: DiscordHarness) -> None:
    await new_game(dc, "riichi", players="asha bikash chetan dipa")


async def test_riichi_results_on_their_forms(dc: DiscordHarness):
    await riichi(dc)  # asha deals first; the board counts from the 25,000 each starts with
    form = await open_form(dc, slash("ron", ALICE))
    assert labels(form) == ["winner", "from", "han", "fu", "More, typed"]
    assert control(form, "winner")["type"] == CHECKBOX_GROUP  # a double ron: two winners
    assert control(form, "from")["type"] == RADIO_GROUP
    # riichi.md: 30 fu 3 han is 30 x 2^5 = 960 basic points; a non-dealer's ron 4x = 3,840,
    # rounded up to 3,900
    answer = await submitted(dc, form_submit(form, ALICE, {
        "winner": ["bikash"], "from": "chetan", "han": "3", "fu": "30"}))
    assert "Result 1" in shown(answer["content"]), answer
    assert (await board(dc))["totals"] == {"asha": 0, "bikash": 3900, "chetan": -3900,
                                           "dipa": 0}
    # bikash deals now. dipa's tsumo, 30 fu 2 han: 480 basic; 500 from each non-dealer,
    # 1,000 from the dealer
    form = await open_form(dc, slash("tsumo", ALICE))
    assert labels(form) == ["winner", "han", "fu", "yakuman", "More, typed"]
    await submitted(dc, form_submit(form, ALICE, {"winner": ["dipa"], "han": "2",
                                                  "fu": "30"}))
    assert (await board(dc))["totals"] == {"asha": -500, "bikash": 2900, "chetan": -4400,
                                           "dipa": 2000}
    # a draw, asha and chetan tenpai: the 3,000 noten payment, 1,500 from each noten
    # player to each tenpai one
    form = await open_form(dc, slash("draw", ALICE))
    assert labels(form) == ["tenpai", "nagashi", "abort"]
    assert offered(form, "abort") == ["kyuushu", "suufon", "suucha", "suukaikan",
                                      "sanchahou"]
    await submitted(dc, form_submit(form, ALICE, {"tenpai": ["asha", "chetan"]}))
    assert (await board(dc))["totals"] == {"asha": 1000, "bikash": 1400, "chetan": -2900,
                                           "dipa": 500}
    # a chombo names one player, and the form won't go without one
    form = await open_form(dc, slash("chombo", ALICE))
    assert labels(form) == ["player"] and control(form, "player")["required"] is True
    answer = await submitted(dc, form_submit(form, ALICE, {"player": "dipa"}))
    assert "dipa" in shown(answer["content"]) and not answer.get("flags", 0) & EPHEMERAL, \
        answer
    assert (await board(dc))["hand_count"] == 4


async def callbreak(dc: DiscordHarness) -> None:
    await new_game(dc, "callbreak", players="asha bikash chetan dipa")


async def test_a_call_break_round_on_its_form_and_by_bids_then_tricks(dc: DiscordHarness):
    await callbreak(dc)
    form = await open_form(dc, slash("round", ALICE))
    assert labels(form) == ["bids", "tricks"]
    # a bid made scores the bid and a tenth a trick over it; one missed costs the bid:
    # asha 3 with 5 = 3.2, bikash 4 with 2 = -4, chetan 2 with 3 = 2.1, dipa 3 with 3 = 3
    await submitted(dc, form_submit(form, ALICE, {
        "bids": "asha=3 bikash=4 chetan=2 dipa=3",
        "tricks": "asha=5 bikash=2 chetan=3 dipa=3"}))
    assert (await board(dc))["totals"] == {"asha": 3.2, "bikash": -4, "chetan": 2.1,
                                           "dipa": 3}
    form = await open_form(dc, slash("bid", ALICE))
    assert labels(form) == ["bids"]
    await submitted(dc, form_submit(form, ALICE, {"bids": "asha=1 bikash=1 chetan=1 dipa=1"}))
    form = await open_form(dc, slash("tricks", ALICE))
    # all four bids of 1 made: 1 and a tenth for each trick over
    await submitted(dc, form_submit(form, ALICE, {
        "tricks": "asha=4 bikash=3 chetan=3 dipa=3"}))
    assert (await board(dc))["totals"] == {"asha": 4.5, "bikash": -2.8, "chetan": 3.3,
                                           "dipa": 4.2}


async def test_a_command_with_no_form_in_this_game_answers_as_typed(dc: DiscordHarness):
    await riichi(dc)
    callback = await dc.reply_to(slash("round", ALICE))  # Tranca's and Call Break's
    assert callback["type"] == 4, callback
    assert "/round is for" in shown(callback["data"]["content"])
    assert (await board(dc))["hand_count"] == 0


async def test_a_table_not_read_in_time_gets_the_whole_command_typed_on_the_form(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch):
    await marriage(dc)
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    # the players can't be read: one field for what is typed after /hand, now (a form
    # can't follow a defer; the fake fails the test if it came after 3 s)
    form = await open_form(dc, slash("hand", ALICE))
    assert labels(form) == ["The options, as after /hand"]
    assert control(form, "The options, as after /hand")["placeholder"].startswith(
        "winner:alice seen:bob maal:alice=10 bob=5")
    gate.set()
    answer = await submitted(dc, form_submit(form, ALICE, {
        "The options, as after /hand":
            "winner:asha seen:bikash\nmaal:asha=10 bikash=2 chetan=0 dublee:yes"}))
    assert "Hand 1: asha won with dublees" in shown(answer["content"]), answer
    assert (await board(dc))["totals"] == {"asha": 41, "bikash": -14, "chetan": -27}


async def test_next_hand_when_the_table_is_slow_is_answered_with_taps(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch):
    await marriage(dc)
    await dc.answer_to(slash("hand", ALICE, winner="asha", seen="bikash",
                             maal="asha=10 bikash=2 chetan=0", dublee=True))
    live = await dc.live_board(containing="+41")
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    tap = component(live, custom_ids(live)["Next hand"], ALICE)
    callback = await dc.reply_to(tap)
    assert callback["type"] == 6  # deferred within the 3 s, as any slow tap
    gate.set()
    await dc.fake.wait(lambda: any("who won?" in (f or {}).get("content", "")
                                   for f in dc.fake.followups()))


def test_a_submit_read_as_the_options_a_person_types():
    """Discord's shapes (Component Reference): a radio group's value or null, a checkbox
    group's values, a checkbox's true or false, a text input's text, all in labels."""
    def labelled(n: int, component: dict[str, Any]) -> dict[str, Any]:
        return {"type": 18, "id": n, "component": {"id": n + 1, **component}}

    data = {"custom_id": "mb:f:hand", "components": [
        labelled(1, {"type": 21, "custom_id": "o:winner", "value": "asha"}),
        labelled(3, {"type": 22, "custom_id": "o:seen", "values": ["bikash", "chetan"]}),
        labelled(5, {"type": 4, "custom_id": "o:maal", "value": " asha=10\nbikash=2 "}),
        labelled(7, {"type": 23, "custom_id": "o:dublee", "value": False}),
        labelled(9, {"type": 4, "custom_id": "+", "value": "foul:dipa"}),
        {"type": 10, "id": 11}]}
    assert forms.submitted(data) == ("hand", {"winner": "asha", "seen": "bikash chetan",
                                              "maal": "asha=10 bikash=2"}, "foul:dipa")
    empty = {"custom_id": "mb:f:chombo", "components": [
        labelled(1, {"type": 21, "custom_id": "o:", "value": None}),
        labelled(3, {"type": 22, "custom_id": "o:tenpai", "values": []}),
        labelled(5, {"type": 23, "custom_id": "o:riichi", "value": True})]}
    assert forms.submitted(empty) == ("chombo", {"riichi": "yes"}, "")
    assert forms.submitted({"custom_id": "mb:m:hi.0.1.2.sig", "components": []}) is None


def test_the_typed_rest_joins_the_fields_once():
    assert forms.options_of({"winner": "asha"}, "foul:dipa  dublee_route:chetan") == {
        "winner": "asha", "foul": "dipa", "dublee_route": "chetan"}
    with pytest.raises(UserError) as twice:
        forms.options_of({"winner": "asha"}, "winner:bikash")
    assert "`winner` is given twice" in ENGLISH.render(twice.value.message)


async def test_the_form_and_its_refusals_in_the_persons_language(dc: DiscordHarness):
    await marriage(dc)
    ask = slash("hand", ALICE)
    ask["locale"] = "pt-BR"
    form = await open_form(dc, ask)
    assert form["title"] == "/hand · Mão 1"
    assert labels(form)[-1] == "Mais, digitado"  # the option names stay as typed
    typed = slash("hand", ALICE, winner="asha", maal="asha=muito")
    typed["locale"] = "pt-BR"
    said = (await dc.answer_to(typed))["content"]
    refused = await submitted(dc, form_submit(form, ALICE, {
        "winner": "asha", "maal": "asha=muito"}, locale="pt-BR"))
    assert refused["content"] == said and "asha" in said and "maal" in said
    assert said != (await dc.answer_to(slash("hand", ALICE, winner="asha",
                                             maal="asha=muito")))["content"]  # English
