"""The console and the launcher, driven as subprocesses the way a new user runs them."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from bot.storage.transaction.migrations import MIGRATIONS

ROOT = Path(__file__).resolve().parent.parent


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "DATABASE_URL")}
    env.update(PYTHONPATH=str(ROOT), **extra)
    return env


def console(tmp_path: Path, lines: list[str], *args: str,
            env: dict[str, str] | None = None) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--json", "--db", str(tmp_path / "c.db"),
         *args],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=tmp_path,
        env=_env(tmp_path, **(env or {})), timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def reference_hand(players, winner, seen, maal, dublee, kidnap):
    """The rules page's formula, written out again independently of bot/core."""
    n = len(players)
    s = {p: maal.get(p, 0) for p in players}
    unseen = [p for p in players if p not in seen and p != winner]
    taken = sum(s[p] for p in unseen)
    for p in unseen:
        s[p] = 0
    if kidnap:
        s[winner] += taken
    pot = sum(s.values())
    points = {}
    for p in players:
        if p == winner:
            continue
        g = (3 if p in seen else 10) + (5 if dublee else 0)
        points[p] = n * s[p] - g - pot
    points[winner] = -sum(points.values())
    return points


def test_a_five_player_evening_of_thirty_hands(tmp_path: Path):
    players = ["asha", "bikash", "chandra", "dipa", "esha"]
    rng = random.Random(2026)
    lines = [f"/newgame marriage players:{' '.join(players)}",
             "/rules preset:kidnap rate:0.25 currency:Rs"]
    expected: list[dict[str, int]] = []
    for no in range(1, 31):
        winner = rng.choice(players)
        seen = {winner} | {p for p in players if rng.random() < 0.6}
        maal = {p: rng.randint(0, 25) for p in players}
        dublee = rng.random() < 0.15
        given = " ".join(f"{p}={maal[p]}" for p in players if p != "esha")
        lines.append(f"/hand winner:{winner} seen:{' '.join(sorted(seen))} maal:{given}"
                     + (" dublee:yes" if dublee else ""))
        lines.append(f"esha: /maal {maal['esha']}")  # the last maal comes from esha herself
        expected.append(reference_hand(players, winner, seen, maal, dublee, kidnap=True))
        if no == 12:
            lines.append("/undo reason:wrong winner")
            expected.pop()
            # the hand is entered again, correctly
            lines.append(f"/hand winner:{players[0]} seen:{' '.join(players)} maal:"
                         + " ".join(f"{p}={maal[p]}" for p in players))
            expected.append(reference_hand(players, players[0], set(players), maal, False,
                                           kidnap=True))
    lines += ["/board", "/endgame"]
    replies = console(tmp_path, lines)
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    board = replies[-2]["board"]
    totals = {p: sum(h[p] for h in expected) for p in players}
    assert board["hand_count"] == 30
    assert board["totals"] == totals
    assert sum(totals.values()) == 0
    assert board["money"] == {p: totals[p] * 0.25 for p in players}
    assert [h["points"] for h in board["hands"]] == expected[-10:]
    assert board["rate"] == 0.25 and board["currency"] == "Rs"
    end = replies[-1]
    assert "Game over after 30 hands" in end["text"]
    # played for money (Rs at 0.25 a point): the settle-up clears everyone's money
    left = {p: totals[p] * 0.25 for p in players}
    for t in end["board"]["transfers"]:
        assert t["currency"] == "Rs"
        left[t["from"]] += t["money"]
        left[t["to"]] -= t["money"]
        assert f"{t['from']} pays {t['to']}" in end["text"]
    assert all(v == 0 for v in left.values())
    assert len(end["board"]["transfers"]) <= len(players) - 1


def test_an_evening_of_hearts_as_a_game_of_points(tmp_path: Path):
    """Hearts scored as a game of points: the lowest total wins when someone reaches 100,
    a moon gives the others 26, money is the table's average less each score."""
    lines = ["/newgame points players:asha bikash chetan dev",
             "/rules wins:low target:100 name:Hearts moon:26 rate:1 currency:Rs",
             "/round asha=16 bikash=0 chetan=8 dev=2",
             "/round asha=26 bikash=0 chetan=0 dev=0",  # asha shoots the moon
             "/round asha=5 bikash=5 chetan=5 dev=11",
             "/undo reason:miscounted",
             "dev: /round asha=3 bikash=10 chetan=13 dev=0",  # dev enters it himself
             "/round 0 13 13 0",  # in seat order
             "/edit round:1 points:chetan=2 dev=8",
             "/round asha=26 bikash=0 chetan=0 dev=0",
             "/round asha=6 bikash=0 chetan=20 dev=0",
             "/round asha=1 bikash=2 chetan=3 dev=20",  # over: refused
             "/board", "/endgame"]
    replies = console(tmp_path, lines)
    assert [r["ok"] for r in replies] == [True] * 11 + [False, True, True], replies
    assert replies[0]["text"].startswith("New Points game.")
    assert "shot the moon" in replies[3]["text"]
    # round by round: [16, 0, 2, 8] (after the edit), the moon [0, 26, 26, 26],
    # [3, 10, 13, 0], [0, 13, 13, 0], the moon again, [6, 0, 20, 0]
    board = replies[-2]["board"]
    assert board["totals"] == {"asha": 25, "bikash": 75, "chetan": 100, "dev": 60}
    assert [h["points"]["asha"] for h in board["hands"]] == [16, 0, 3, 0, 0, 6]
    assert "The game is over: asha won." in replies[-3]["error"]
    assert "Hearts: 6 rounds" in replies[-2]["text"]
    # money: the average (25 + 75 + 100 + 60) / 4 = 65 less each total
    assert board["money"] == {"asha": 40, "bikash": -10, "chetan": -35, "dev": 5}
    end = replies[-1]
    assert "asha won with +25!" in end["text"]
    left = dict(board["money"])
    for t in end["board"]["transfers"]:
        left[t["from"]] += t["money"]
        left[t["to"]] -= t["money"]
    assert all(v == 0 for v in left.values())


def test_an_evening_of_dhumbal(tmp_path: Path):
    """Dhumbal as Wikipedia's Jhyap plays it: shows held and caught, the stock run out, out
    at 100, the last one in wins."""
    lines = ["/newgame dhumbal players:asha bikash chetan",
             "/round show:asha asha=3 bikash=12 chetan=7",  # held: asha 0
             "/round show:asha asha=3 bikash=3 chetan=7",  # caught: 3 + 25 = 28
             "/round asha=9 bikash=4 chetan=11",  # the stock ran out: no show
             "chetan: /round show:chetan asha=40 bikash=30 chetan=2",  # held: chetan 0
             "/round asha=20 bikash=60 chetan=20",  # bikash 109: out
             "/round asha=1 bikash=2 chetan=3",  # refused: bikash is out
             "/round show:chetan asha=10 chetan=1",  # held: asha 107, out: chetan wins
             "/board", "/endgame"]
    replies = console(tmp_path, lines)
    assert [r["ok"] for r in replies] == [True] * 6 + [False, True, True, True], replies
    assert "bikash (out at 109)" in replies[6]["error"]
    board = replies[-2]["board"]
    # asha 0 + 28 + 9 + 40 + 20 + 10 = 107; bikash 12 + 3 + 4 + 30 + 60 = 109;
    # chetan 7 + 7 + 11 + 0 + 20 + 0 = 45
    assert board["totals"] == {"asha": 107, "bikash": 109, "chetan": 45}
    assert "chetan won with +45!" in replies[-1]["text"]
    assert replies[-1]["text"].splitlines()[2:5] == [
        "1. chetan +45 points", "2. asha +107 points", "3. bikash +109 points"]


def test_errors_in_json_and_the_session_survives_a_restart(tmp_path: Path):
    replies = console(tmp_path, ["/newgame players:ram sita", "/hand winner:gita",
                                 "hello", "/hand winner:ram seen:sita maal:ram=3 sita=1"])
    assert replies[1] == {"ok": False, "error": "No player called `gita`: did you mean "
                                                "sita? Players: ram, sita.", "language": "en"}
    assert replies[2]["ok"] is False and "start with /" in replies[2]["error"]
    again = console(tmp_path, ["/board"])
    assert again[0]["board"]["totals"] == {"ram": 2 + 3, "sita": -2 - 3}


def test_plain_console_prints_the_board(tmp_path: Path):
    result = subprocess.run(
        [sys.executable, "-m", "bot"], input="/newgame players:ram sita\n/board\n",
        capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path), timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "New Nepali Marriage game" in result.stdout
    assert "Σ" in result.stdout
    assert (tmp_path / "maalbot.db").exists()  # the default: a SQLite file in the folder


def test_run_without_tokens_says_what_is_missing(tmp_path: Path):
    result = subprocess.run([sys.executable, "-m", "bot", "run"], capture_output=True,
                            text=True, cwd=tmp_path, env=_env(tmp_path), timeout=60)
    assert result.returncode != 0
    assert "TELEGRAM_TOKEN" in result.stderr and "DISCORD_TOKEN" in result.stderr


def test_settings_come_from_a_dotenv_file(tmp_path: Path):
    (tmp_path / ".env").write_text(f"DATABASE_URL=sqlite:///{tmp_path / 'from_env.db'}\n")
    result = subprocess.run([sys.executable, "-m", "bot", "migrate"], capture_output=True,
                            text=True, cwd=tmp_path, env=_env(tmp_path), timeout=60)
    assert result.returncode == 0, result.stderr
    latest = MIGRATIONS[-1][0]
    applied = ", ".join(str(m[0]) for m in MIGRATIONS)
    assert f"schema version {latest} (applied {applied})" in result.stdout
    assert (tmp_path / "from_env.db").exists()
    again = subprocess.run([sys.executable, "-m", "bot", "migrate"], capture_output=True,
                           text=True, cwd=tmp_path, env=_env(tmp_path), timeout=60)
    assert "nothing to apply" in again.stdout


def test_a_bad_setting_is_reported(tmp_path: Path):
    result = subprocess.run([sys.executable, "-m", "bot", "migrate"], capture_output=True,
                            text=True, cwd=tmp_path, env=_env(tmp_path, LOG_LEVEL="LOUD"),
                            timeout=60)
    assert result.returncode == 2 and "LOG_LEVEL" in result.stderr


def test_tranca_in_the_console_json(tmp_path: Path):
    replies = console(tmp_path, [
        "/newgame tranca teams:alice+carol bob+dave",
        "/round side:A table:300 hand:20 clean:1 morto:yes out:yes",
        "bob: /round side:B melds:[KS KD KC] hand:3S AD",
        "/board",
    ])
    assert all(r["ok"] for r in replies), replies
    board = replies[-1]["board"]
    assert board["game"] == "tranca"
    assert board["totals"] == {"A": 300 - 20 + 200 + 100, "B": 30 - 15 - 100}


def test_a_chart_never_overwrites_another_databases_file(tmp_path: Path):
    from bot.console import save_file
    from bot.core.command import Attachment, Reply

    first = save_file(Reply("a", file=Attachment("chart-1-3.png", b"one")), tmp_path)
    second = save_file(Reply("b", file=Attachment("chart-1-3.png", b"two")), tmp_path)
    assert first is not None and second is not None and first != second
    assert first.read_bytes() == b"one" and second.name == "chart-1-3-2.png"
    assert second.read_bytes() == b"two"


def test_a_new_players_mistakes_get_clear_answers_in_the_console(tmp_path: Path):
    lines = ["/maal 5",  # no game: what does work
             "/hnad winner:ram",  # a typo of a command
             "/newgame marriage players:ram sita bikram",
             "/hand winner:Rma seen:sita maal:ram=3",  # a typo of a name
             "/sitout bikram",
             "/hand winner:ram seen:bikram maal:ram=3",  # bikram is out
             "/rules currency:Rs rate:0.5",
             "/hand winner:ram seen:sita maal:ram=3 sita=1",
             "/endgame",
             "/board last",
             "/history 1",
             "/newgame callbreak players:ram sita bikram gita",
             "/sitout ram"]
    replies = console(tmp_path, lines, "--files", str(tmp_path / "files"))
    said = [r.get("error") or r.get("text") for r in replies]
    assert "start a game with /newgame" in said[0]
    assert "Did you mean /hand?" in said[1]
    assert "did you mean ram?" in said[3]
    assert "bikram is sitting out: /back bikram" in said[5]
    # two playing, ram wins with 3, sita seen with 1; P = 4 (seen 3): sita 2 x 1 - 3 - 4
    # = -5, ram +5; at 0.5 Rs a point: +2.50 and -2.50, signed, the currency after
    assert "1. ram +5 points = +2.50 Rs" in said[8] and "sita pays ram 2.50 Rs" in said[8]
    assert "/endgame" not in said[8].split("\n", 1)[1]
    assert replies[9]["ok"] and "(finished)" in said[9]
    assert replies[10]["ok"] and "Hand 1" in said[10]
    assert "ram sits out from the next round." in said[12]


async def test_the_console_answers_in_the_environments_language_unless_the_chat_set_one(
        service, monkeypatch, tmp_path: Path):
    """LANG=pt_BR.UTF-8 is the console's sender's language: a chat with no language set
    (auto) answers in pt-BR, errors and the console's own lines too; a chat's setting wins."""
    import io
    from dataclasses import replace

    from bot.console import run_console
    from bot.core.i18n import AUTO

    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    async with service.store.transaction("console", write=True) as tx:
        await tx.save_settings(replace(await tx.settings(), language=AUTO))

    async def run(*lines: str) -> list[dict]:
        out = io.StringIO()
        await run_console(service, "host", True, io.StringIO("\n".join(lines) + "\n"), out,
                          files=tmp_path)
        return [json.loads(line) for line in out.getvalue().splitlines()]

    replies = await run("/newgame marriage players:alice bob carol", "/hand winner:nobody",
                        "/import /no/such/file.json",
                        "/hand winner:alice seen:bob maal:alice=1 bob=0", "/chart")
    assert [r["language"] for r in replies] == ["pt-BR"] * 5, replies
    assert [r["ok"] for r in replies] == [True, False, False, True, True]
    assert "file" in replies[4]
    replies = await run("/settings language:en", "/board")
    assert replies[-1]["language"] == "en", replies


async def test_a_line_that_does_not_parse_is_answered_in_the_chats_language(
        service, monkeypatch, tmp_path: Path):
    """The grammar's error comes before any command runs: it is said in the chat's language
    (ne), not the environment's (pt_BR), like every other reply of that chat."""
    import io
    from dataclasses import replace

    from bot.console import run_console

    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    async with service.store.transaction("console", write=True) as tx:
        await tx.save_settings(replace(await tx.settings(), language="ne"))
    out = io.StringIO()
    await run_console(service, "host", True, io.StringIO("/hand winner:a winner:b\n"), out,
                      files=tmp_path)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies == [{"ok": False, "language": "ne",
                        "error": "`winner:` दुई पटक दिइयो; एक पटक मात्र दिनुहोस्।"}]


def test_the_console_table_fits_a_phone_and_keeps_the_game_just_ended(tmp_path: Path):
    """Issue 30 in the console: seven players' board a line each within 34 columns; after
    /endgame /board, /history and /export show that game; /history says which hands were
    played at which rate; /help is short and /help seat explains seats."""
    names = ["abcdefghijklmnopqrstuvwx", "सीताकुमारी", "carol", "dave", "eli", "fay", "gopal"]
    replies = console(tmp_path, [
        "/newgame marriage players:" + " ".join(names),
        "/rules rate:10 currency:Rs",
        f"/hand winner:carol seen:{' '.join(names[:2])} dave eli fay gopal "
        "maal:carol=20 dave=3 " + " ".join(f"{n}=0" for n in names if n not in
                                          ("carol", "dave")),
        "/rules rate:2",
        "/endgame", "/board", "/history", "/help", "/help seat"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    board = replies[2]["table"].splitlines()
    from bot.core.width import width
    assert len(board) == 1 + len(names) and max(map(width, board)) <= 34
    assert replies[5]["text"].startswith("Nepali Marriage: 1 hand (finished)")
    assert "rules: rate 10 → 2" in replies[6]["text"]
    assert len(replies[7]["text"]) <= 1_500
    assert "/join NAME" in replies[8]["text"]


def test_the_first_night_at_a_real_table_in_the_console(tmp_path: Path):
    """Issue 30 in the console: seats taken and given, entries that can't go silently wrong,
    short waiting replies, and the small things (language:pt, +69, an undo's reason)."""
    lines = [
        "/newgame marriage players:bikash ramesh sita prakash",
        "Ramesh: /join",  # the console knows people by name: he is ramesh, and is told so
        "/hand winner:bikash maal:bikash=5 ramesh=2 sita=4",  # maal of unseen players
        "/hand winner:prakas seen:ramesh maal:prakas=5 ramesh=2 xx=3",  # a near miss
        "/hand winner:bikash seen:ramesh maal:bikash=5",  # ramesh's maal to come
        "ramesh: /maal 2",
        "Gita: /join sita",  # hands are recorded: the starter or an admin gives it
        "/seat sita person:@Gita",
        "/players",
        "/undo reason:edited: typo",
        "/history",
        "/settings language:pt",
        "/settings language:en",
        "/endgame",
        "/newgame marriage_rummy players:a b c d e f g h i j",
        "/rules packs:5",
        "/hand winner:a points:b=5 c=5 d=5 e=5 f=5 g=5 h=5 i=5 j=5 surrender:b",
        "/hand winner:a points:b=5 c=5 d=5 e=5 f=5 g=5 h=5 i=5 j=5",
    ]
    r = console(tmp_path, lines)
    assert r[1]["error"] == "You are already seated as ramesh."  # never a "Ramesh2"
    assert not r[2]["ok"] and "/hand winner:bikash seen:ramesh sita maal:bikash=5 ramesh=2 " \
                               "sita=4" in r[2]["error"]
    assert r[3]["error"].startswith("Not players here: `prakas` (did you mean prakash?), `xx`.")
    assert r[4]["text"] == "Hand 1 waits for the maal of ramesh: /maal ramesh=…"
    assert "table" not in r[4]  # no board repeated while the hand waits
    assert r[5]["text"].startswith("Hand 1: bikash won")
    assert r[6]["text"].startswith("Gita asks to sit at sita.")
    assert r[7]["text"] == "Gita sits at sita (seat 3)."
    assert "3. sita\n" in r[8]["text"] + "\n" and "sita (guest)" not in r[8]["text"]
    assert "(reason: edited: typo)" in r[10]["text"] and "replaced by an edit" not in \
        r[10]["text"]
    assert r[11]["language"] == "pt-BR"
    # 10 players x 21 cards and the joker: 211 cards, 5 packs (260) deal them
    assert "don't fit in 3 packs: /rules packs:5 deals them." in r[14]["text"]
    assert "b is given points in hand and a surrender" in r[16]["error"]
    # PART_B: each of 9 losers 5 x 2 = -10; a +90; whole points written bare
    assert "a +90  b -10" in r[17]["text"] and ".0" not in r[17]["text"]
