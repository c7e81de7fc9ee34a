"""/chart, /history and /settings: through the core, the console and Telegram."""

import io
import json
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import pytest

from tests.conftest import Table
from tests.telegram_helpers import ALICE, Harness

NEW = "/newgame players:alice bob carol"
HANDS = ["/hand winner:alice seen:bob maal:alice=3 bob=1",
         "/hand winner:bob seen:alice carol maal:alice=3 bob=1 carol=8",
         "/hand winner:carol seen:alice maal:alice=9 carol=4"]


def _image(data: bytes):
    return mpimg.imread(io.BytesIO(data), format="png")


async def test_the_chart_is_a_real_picture(table: Table):
    await table.ok(NEW)
    assert "nothing to chart" in await table.error("/chart")
    for line in HANDS:
        await table.ok(line)
    await table.ok("/rules rate:0.25 currency:Rs")
    reply = await table.ok("/chart")
    assert reply.file is not None and reply.file.kind == "image"
    picture = _image(reply.file.data)
    assert picture.shape[:2] == (750, 1200)
    assert picture[..., :3].std() > 0.05  # not a blank canvas: lines were drawn


async def test_history_keeps_what_was_undone_and_edited_with_reasons(table: Table):
    await table.ok(NEW)
    await table.ok(HANDS[0], by="bob")
    await table.ok(HANDS[1])
    await table.ok("/undo reason:wrong winner")
    await table.ok(HANDS[2])
    await table.ok("/edit hand:2 maal:carol=5 reason:miscounted")
    text = (await table.ok("/history")).text
    assert "recorded by bob: alice won" in text
    assert "undone" in text and "(reason: wrong winner)" in text
    assert "replaced by an edit" in text and "(reason: miscounted)" in text
    only = (await table.ok("/history hand:2")).text
    assert "Hand 1" not in only and only.count("Hand 2") == 3


async def test_the_timezone_setting(table: Table):
    from datetime import UTC, datetime, timedelta

    from bot.core.i18n import translator

    await table.ok(NEW)
    before = datetime.now(UTC)
    await table.ok(HANDS[0])
    after = datetime.now(UTC)
    await table.ok("/settings timezone:Asia/Kathmandu")
    assert "Asia/Kathmandu" in (await table.ok("/settings")).text
    shown = (await table.ok("/history")).text.split(" · ")[1]
    # Kathmandu is UTC+5:45: the time shown is the hand's UTC time moved 5:45 ahead
    # written as the reader's language writes a moment (English: Nov 24, 2026, 10:28:31 AM)
    nepal = [translator("en").datetime((moment + timedelta(hours=5, minutes=45)).replace(
        tzinfo=None)) for moment in (before, after)]
    assert shown in nepal, (shown, nepal)
    assert "not a timezone" in await table.error("/settings timezone:Mars/Base")


def test_the_console_writes_the_chart_and_says_where(tmp_path: Path):
    lines = [NEW, *HANDS, "/chart"]
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--json", "--db", str(tmp_path / "c.db"),
         "--files", str(tmp_path / "out")], input="\n".join(lines) + "\n",
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout.splitlines()[-1])
    path = Path(reply["file"])
    assert path.parent == (tmp_path / "out").resolve() and path.suffix == ".png"
    assert _image(path.read_bytes()).shape[:2] == (750, 1200)


async def test_telegram_sends_the_chart_as_a_photo(tg: Harness):
    await tg.say(ALICE, NEW)
    for line in HANDS:
        await tg.say(ALICE, line)
    await tg.say(ALICE, "/chart")
    photos = await tg.fake.wait_for("sendPhoto", 1)
    assert photos[0]["caption"].startswith("Running totals after 3 hands")
    assert _image(photos[0]["photo"]).shape[:2] == (750, 1200)


async def test_stats_across_sessions_with_links_and_periods(table: Table):
    await table.ok(NEW)
    # n = 3; alice wins with maal 3, bob seen with 1, carol unseen (murder: her maal is 0);
    # P = 4: alice 3*3 - 4 + 3 + 10 = +18, bob 3*1 - 4 - 3 = -4, carol 0 - 4 - 10 = -14
    await table.ok(HANDS[0])
    await table.ok("/endgame")
    await table.ok("/newgame players:alice bob dave")
    await table.ok("/rules rate:0.5 currency:Rs")
    # dave wins with 10, alice seen with 3, bob unseen; P = 13:
    # dave 30 - 13 + 3 + 10 = +30, alice 9 - 13 - 3 = -7, bob 0 - 13 - 10 = -23
    await table.ok("/hand winner:dave seen:alice maal:alice=3 dave=10")
    board = (await table.ok("/stats")).text
    assert board.startswith("Leaderboard (all time):\nNepali Marriage (2 games):")
    assert "alice +11 (2 hands, 1 win" in board  # +18 - 7
    assert "bob -27 (2 hands, 0 wins" in board  # -4 - 23
    alice = (await table.ok("/stats alice")).text
    assert "Nepali Marriage: 2 games, 2 hands, 1 win (50%)" in alice
    assert "average maal 3.0" in alice
    assert "-3.50 Rs where played for money" in alice  # -7 at 0.5 a point
    await table.ok("/link name:dave", by="Dev", admin=True)  # linking is an admin's say
    dev = (await table.ok("/stats dev period:month")).text
    assert dev.startswith("Dev (this month):\nNepali Marriage: 1 game, 1 hand, 1 win")
    assert (await table.ok("/stats dave")).text == (await table.ok("/stats dev")).text
    assert "No stats for `zed`" in await table.error("/stats zed")
    assert "`period` is one of month, year, all" in await table.error("/stats period:week")


async def test_export_and_import_through_the_console(tmp_path: Path):
    def run(lines: list[str], db: str) -> list[dict]:
        result = subprocess.run(
            [sys.executable, "-m", "bot", "console", "--json", "--db", str(tmp_path / db),
             "--files", str(tmp_path)], input="\n".join(lines) + "\n", capture_output=True,
            text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return [json.loads(line) for line in result.stdout.splitlines()]

    out = run([NEW, *HANDS, "/undo", "/export", "/export format:csv", "/board"], "a.db")
    exported, csv_file, board = Path(out[-3]["file"]), Path(out[-2]["file"]), out[-1]["board"]
    assert csv_file.read_text().splitlines()[0].startswith("session,game,hand,time,player")
    assert len(csv_file.read_text().splitlines()) == 1 + 3 * 3  # the undone hand too
    back = run([f"/import {exported}", "/board", f"/import {exported}"], "b.db")
    assert back[0]["ok"] and back[1]["board"] == board
    assert "this chat already has 1 game" in back[2]["error"]
    assert "Can't read" in run(["/import /nonexistent.json"], "c.db")[0]["error"]


async def test_telegram_history_and_export(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HANDS[0])
    await tg.say(ALICE, "/history")
    await tg.said("recorded by Alice: alice won")
    await tg.say(ALICE, "/export format:csv")
    documents = await tg.fake.wait_for("sendDocument", 1)
    assert documents[0]["document"].decode().startswith("session,game,hand,time,player")
    await tg.say(ALICE, "/stats")
    await tg.said("Leaderboard (all time):")


async def test_telegram_import_of_an_export_file(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HANDS[0])
    await tg.say(ALICE, "/export")
    exported = (await tg.fake.wait_for("sendDocument", 1))[0]["document"]
    other = -100999
    tg.fake.admins[other] = [ALICE["id"]]  # importing is an admin's say
    tg.fake.files["export-1"] = exported
    message = {"message_id": 77, "date": 0, "chat": {"id": other, "type": "group",
                                                     "title": "New group"},
               "from": ALICE, "caption": "/import",
               "caption_entities": [{"type": "bot_command", "offset": 0, "length": 7}],
               "document": {"file_id": "export-1", "file_unique_id": "u1",
                            "file_name": "export.json", "file_size": len(exported)}}
    await tg.fake.push({"update_id": tg.fake.next_update_id(), "message": message})
    sent = await tg.replies(1, chat_id=other)
    assert sent[0]["text"].startswith("Imported 1 session")
    await tg.say(ALICE, "/board", chat_id=other)
    assert "+" in (await tg.replies(2, chat_id=other))[-1]["text"]


def test_history_stats_settings_and_link_in_the_console(tmp_path: Path):
    lines = ["/settings timezone:Asia/Kathmandu", NEW, *HANDS, "/undo reason:oops",
             "/history", "/link name:carol", "/stats", "/stats host period:year",
             "/settings"]
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--json", "--db", str(tmp_path / "c.db")],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(r["ok"] for r in replies), replies
    texts = [r["text"] for r in replies]
    assert "(reason: oops)" in texts[6]
    assert texts[8].startswith("Leaderboard (all time):") and "host" in texts[8]
    assert texts[9].startswith("host (this year):\nNepali Marriage: 1 game, 2 hands")
    assert "Asia/Kathmandu" in texts[10]


def test_devanagari_names_are_drawn_not_boxes():
    """matplotlib warns for every glyph its fonts lack (drawn as an empty box): with the
    shipped Devanagari font there is none, with DejaVu Sans alone there are."""
    import warnings

    import matplotlib.pyplot as plt

    from bot.core.chart import render_chart
    from bot.core.session import HandRecord

    hand = HandRecord(no=1, players=[1, 2], inputs={}, rules={}, deltas={1: 5, 2: -5},
                      summary="", recorded_by="x", recorded_by_name="x")

    def missing(**rc: object) -> list[str]:
        with warnings.catch_warnings(record=True) as caught, plt.rc_context(rc):
            warnings.simplefilter("always")
            render_chart([(1, "राम"), (2, "सीता")], [hand], {}, "हात")
        return [str(w.message) for w in caught if "missing from font" in str(w.message)]

    assert missing() == []
    assert missing(**{"font.family": ["DejaVu Sans"]})  # the check can tell


async def test_a_tranca_chart_names_the_sides_and_draws_the_target(table: Table, monkeypatch):
    import bot.core.chart as chart

    drawn: dict = {}
    real = chart.render_chart

    def spy(columns, hands, rules, title, hand_word="hand", places=0, goal=None, **kw):
        drawn.update(columns=columns, goal=goal)
        return real(columns, hands, rules, title, hand_word, places, goal, **kw)

    monkeypatch.setattr(chart, "render_chart", spy)
    await table.ok("/newgame tranca teams:ana+bia caio+davi")
    await table.ok("/round side:A table:300")
    await table.ok("/round side:B table:200")
    assert (await table.ok("/chart")).file is not None
    # seats alternate A, B, A, B: ana and bia are side A
    assert drawn["columns"] == [(1, "A: ana+bia"), (2, "B: caio+davi")]
    # 2 pairs: 3,500 (the rules page)
    assert (drawn["goal"][0], str(drawn["goal"][1])) == (3500.0, "target 3,500")


async def test_stats_keep_each_game_apart_with_riichi_places_and_tranca_sides(table: Table):
    # Riichi, default rules: start 25,000, back 30,000, uma 15 5 -5 -15, so the oka is
    # (30,000 - 25,000) x 4 / 1,000 = 20 to first; final = (score - 30,000) / 1,000 + uma.
    four = "/newgame riichi players:alice bob carol dave"
    await table.ok(four)
    # East 1, alice deals; bob tsumo 4 han 30 fu: basic 30 x 2^6 = 1,920, the dealer pays
    # 3,840 -> 3,900, the others 1,920 -> 2,000: alice 21,100 bob 32,900 carol 23,000
    # dave 23,000; carol and dave tie and the earlier seat ranks higher.
    await table.ok("/tsumo winner:bob han:4 fu:30")
    await table.ok("/endgame sure")  # before the hanchan's end
    # bob 2.9 + 15 + 20 = +37.9, carol -7 + 5 = -2.0, dave -7 - 5 = -12.0,
    # alice -8.9 - 15 = -23.9
    await table.ok(four)
    # alice (dealer) rons bob, 3 han 30 fu: 6 x 960 = 5,760 -> 5,800:
    # alice 30,800 bob 19,200 carol 25,000 dave 25,000
    await table.ok("/ron winner:alice from:bob han:3 fu:30")
    await table.ok("/endgame sure")
    # alice 0.8 + 15 + 20 = +35.8, carol -5 + 5 = 0.0, dave -5 - 5 = -10.0,
    # bob -10.8 - 15 = -25.8
    await table.ok("/newgame tranca teams:alice+carol bob+dave")
    await table.ok("/round side:A table:3600")
    await table.ok("/round side:B table:200")
    await table.ok("/endgame")  # A (alice and carol) passed 3,500 alone: A won
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok(HANDS[0])  # alice +18, bob -4, carol -14 (worked out above)
    board = (await table.ok("/stats")).text.splitlines()
    assert board == [
        "Leaderboard (all time):",
        "Riichi mahjong (2 games):",
        # the sums: bob 37.9 - 25.8, alice -23.9 + 35.8, carol -2 + 0, dave -12 - 10
        "1. bob +12.1 (2 games, average place 2.50, 1st 1 · 4th 1)",
        "2. alice +11.9 (2 games, average place 2.50, 1st 1 · 4th 1)",
        "3. carol -2.0 (2 games, average place 2.00, 2nd 2)",
        "4. dave -22.0 (2 games, average place 3.00, 3rd 2)",
        "Tranca (1 game):",
        "1. alice 1 win in 1 game (1 round, +3,600 points)",
        "2. carol 1 win in 1 game (1 round, +3,600 points)",
        "3. bob 0 wins in 1 game (1 round, +200 points)",
        "4. dave 0 wins in 1 game (1 round, +200 points)",
        "Nepali Marriage (1 game):",  # its points are never added to Riichi's or Tranca's
        "1. alice +18 (1 hand, 1 win)",
        "2. bob -4 (1 hand, 0 wins)",
        "3. carol -14 (1 hand, 0 wins)"]
    alice = (await table.ok("/stats alice")).text.splitlines()
    assert alice == [
        "alice (all time):",
        "Riichi mahjong: 2 games, 2 results, 1 win (50%)",
        "  final results +11.9, average place 2.50, 1st 1 · 4th 1",
        "  best hand +5,800",
        "Tranca: 1 game, 1 round",
        "  1 win in 1 finished game; +3,600 points for their sides",
        "  played with carol (1)",
        "Nepali Marriage: 1 game, 1 hand, 1 win (100%)",
        "  average maal 3.0",
        "  net +18 points"]


async def test_dollar_signs_in_a_currency_draw_as_themselves(table: Table):
    # two "$" in one string is mathtext to matplotlib: a currency of $$ crashed /chart
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:$$")
    for line in HANDS:
        await table.ok(line)
    reply = await table.ok("/chart")
    assert reply.file is not None and _image(reply.file.data)[..., :3].std() > 0.05


async def test_the_charts_money_is_each_hand_at_the_rate_it_was_played(table: Table,
                                                                        monkeypatch):
    import bot.core.chart as chart

    drawn: dict = {}
    real = chart.render_chart

    def spy(*args, **kw):
        drawn.update(money=kw.get("money"))
        return real(*args, **kw)

    monkeypatch.setattr(chart, "render_chart", spy)
    await table.ok("/newgame marriage players:alice bob carol")
    await table.ok("/rules rate:0.25 currency:Rs")
    # n = 3, P = 12: alice +41, bob -14, carol -27 (tests/core/handlers/test_board.py)
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes")
    await table.ok("/rules rate:1")
    # P = 7: bob +18, alice -1, carol -17
    await table.ok("/hand winner:bob seen:alice maal:alice=3 bob=4")
    reply = await table.ok("/chart")
    assert reply.file is not None and reply.file.data.startswith(b"\x89PNG")
    # hand 1 at 0.25 a point, hand 2 at 1: never the current rate times the points (which
    # would make alice 40 x 1 = 40 Rs)
    assert drawn["money"] == {"Rs": {1: [0.0, 10.25, 9.25], 2: [0.0, -3.5, 14.5],
                                     3: [0.0, -6.75, -23.75]}}
    end = await table.ok("/endgame")
    assert end.board is not None and end.board.money == {"alice": 9.25, "bob": 14.5,
                                                         "carol": -23.75}


def test_running_money_counts_only_hands_played_for_money():
    from bot.core.chart import running_money
    from bot.core.session import HandRecord

    def hand(no: int, deltas: dict[int, int], rules: dict) -> HandRecord:
        return HandRecord(no, [1, 2], {}, rules, deltas, "", "x", "x")

    hands = [hand(1, {1: 10, 2: -10}, {}),  # rate 1, no currency: not for money
             hand(2, {1: 4, 2: -4}, {"rate": "2", "currency": "$"}),
             hand(3, {1: -6, 2: 6}, {"rate": "3", "currency": "$"})]
    assert running_money([(1, "a"), (2, "b")], hands) == {
        "$": {1: [0.0, 0.0, 8.0, -10.0], 2: [0.0, 0.0, -8.0, 10.0]}}
    # Call Break's: each score less the hand's average; 3.2 and -4.0 average -0.4
    tenths = [hand(1, {1: 32, 2: -40}, {"rate": "10", "currency": "Rs"})]
    assert running_money([(1, "a"), (2, "b")], tenths, 1, True) == {
        "Rs": {1: [0.0, 36.0], 2: [0.0, -36.0]}}


async def test_a_game_number_the_chat_has_not_played_says_it_is_a_games(table: Table):
    await table.ok(NEW)
    await table.ok(HANDS[0])
    # /board 99 meant as "hand 99" or a game not played: the answer says which it took
    said = await table.error("/board 99")
    assert said == "There is no game `99`: this chat has played 1 game; give last or 1."
    await table.ok("/endgame")
    await table.ok(NEW)
    said = await table.error("/chart game:3")
    assert said == ("There is no game `3`: this chat has played 2 games; give last or a "
                    "number from 1 to 2.")
    assert "Nepali Marriage: 1 hand (finished)" in (await table.ok("/board 1")).text


async def test_a_chart_of_names_it_can_draw_says_nothing_more(table: Table):
    """A Riichi table's Japanese names draw (tests/core/test_chart.py looks at the pixels):
    the reply is the chart's one line."""
    await table.ok("/newgame riichi players:山田 鈴木 佐藤 田中")
    await table.ok("/ron winner:山田 from:鈴木 han:3 fu:30")
    reply = await table.ok("/chart")
    assert reply.file is not None and reply.text == "Running totals after 1 result."


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
async def test_a_chart_says_which_names_it_draws_as_boxes(table: Table):
    """A Tamil and a Thai name: no font the bot ships has their letters, so the chart says
    it draws them as boxes (tests/core/test_chart.py: it does); each name once."""
    await table.ok("/newgame marriage players:முருகன் สมชาย alice")
    await table.ok("/hand winner:alice seen:முருகன் maal:alice=3 முருகன்=1")
    await table.ok("/hand winner:முருகன் seen:alice สมชาย maal:alice=1 முருகன்=4 สมชาย=2")
    reply = await table.ok("/chart")
    assert reply.file is not None
    assert reply.text == ("Running totals after 2 hands.\nThe chart has no letters for "
                          "முருகன், สมชาย: they are drawn as empty boxes.")
