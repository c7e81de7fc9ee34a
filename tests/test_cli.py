"""The command line says what is wrong in one line, with an exit code of its own, and the
README's examples run in the console as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.failures import BAD_SETTING, DATABASE, FILE, NOTHING, PLATFORM
from tests.conftest import POSTGRES_URL

ROOT = Path(__file__).resolve().parent.parent


def bot(*args: str, env: dict[str, str] | None = None, stdin: str = "",
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    settings = {k: v for k, v in os.environ.items()
                if not k.startswith(("DATABASE_", "TELEGRAM_", "DISCORD_", "LOG_"))}
    settings.update(PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, env=settings,
                          cwd=cwd, capture_output=True, text=True, timeout=120)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert "Traceback" not in result.stderr, result.stderr
    assert "Unclosed" not in result.stderr, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


PG = POSTGRES_URL.rsplit("/", 1)[0]
BAD_DATABASES = [
    ("postgresql://nobody@127.0.0.1:1/x", DATABASE, "Can't reach PostgreSQL"),
    ("sqlite:////nonexistent/dir/x.db", DATABASE, "Can't open the SQLite file"),
    ("mysql://u@h/x", BAD_SETTING, "DATABASE_URL must be sqlite"),
    ("notaurl", BAD_SETTING, "DATABASE_URL is not a database URL"),
    (f"{PG.replace('postgres@', 'nosuchrole@')}/test", DATABASE, "refused the user"),
    (f"{PG}/nosuchdb", DATABASE, "does not exist"),
    (f"{POSTGRES_URL}?search_path=nosuchschema", DATABASE, "schema"),
]


@pytest.mark.parametrize(("url", "code", "says"), BAD_DATABASES,
                         ids=[u for u, _, _ in BAD_DATABASES])
@pytest.mark.parametrize("command", [["migrate"], ["console"], ["backup", "--chat", "x"],
                                     ["restore", "__backup__"]])
def test_a_bad_database_url_is_one_line_and_a_code(url: str, code: int, says: str,
                                                   command: list[str], tmp_path: Path):
    if "postgres" in url and "127.0.0.1:1/" not in url:
        pytest.importorskip("asyncpg")
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps({"format": "maalbot-backup", "version": 1, "chat": "c",
                                  "sessions": []}))
    args = [str(backup) if a == "__backup__" else a for a in command]
    result = bot(*args, env={"DATABASE_URL": url}, stdin="/board\n", cwd=tmp_path)
    assert result.returncode == code, result.stderr
    assert says in one_line(result)


def test_files_settings_and_empty_chats(tmp_path: Path):
    db = {"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    missing = bot("console", "--db", "/nonexistent/x.db", stdin="/board\n")
    assert missing.returncode == DATABASE and "/nonexistent/x.db" in one_line(missing)
    absent = bot("restore", str(tmp_path / "nope.json"), env=db)
    assert absent.returncode == FILE and "No such file" in one_line(absent)
    (tmp_path / "bad.json").write_text("not json")
    bad = bot("restore", str(tmp_path / "bad.json"), env=db)
    assert bad.returncode == FILE and "not a backup" in one_line(bad)
    empty = bot("backup", "--chat", "telegram:-1", env=db)
    assert empty.returncode == NOTHING and "no games to back up" in one_line(empty)
    for name, value, takes in (("LOG_LEVEL", "loud", "one of DEBUG"),
                               ("TELEGRAM_WEBHOOK_PORT", "abc", "a whole number"),
                               ("HEALTH_PORT", "x", "a whole number")):
        wrong = bot("migrate", env={**db, name: value})
        line = one_line(wrong)
        assert wrong.returncode == BAD_SETTING and f"{name}={value}" in line and takes in line
    debug = bot("console", "--db", "/nonexistent/x.db", env={"LOG_LEVEL": "DEBUG"})
    assert "Traceback" in debug.stderr  # the details, when asked for


def test_a_bad_setting_is_explained_in_the_command_lines_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path):
    """LANG=pt_BR.UTF-8: what is wrong with the settings, and what they take, in Portuguese;
    the variables and what was given as they are."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env
    for name in [k for k in os.environ if k.startswith(("LC_", "DATABASE_", "TELEGRAM_",
                                                         "DISCORD_", "LOG_", "HEALTH_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.setenv("LOG_LEVEL", "loud")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_PORT", "abc")
    assert main(["migrate"]) == BAD_SETTING
    assert capsys.readouterr().err == (
        "Configuração inválida: LOG_LEVEL=loud está errado: LOG_LEVEL é um de DEBUG, INFO, "
        "WARNING, ERROR, CRITICAL; TELEGRAM_WEBHOOK_PORT=abc está errado: um número inteiro "
        "(variável de ambiente ou .env).\n")


@pytest.mark.parametrize("platform", ["TELEGRAM", "DISCORD"])
def test_a_platform_that_cannot_be_reached_is_one_line(platform: str, tmp_path: Path):
    result = bot("run", env={"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
                             f"{platform}_TOKEN": "1:x",
                             f"{platform}_API_URL": "http://127.0.0.1:1",
                             "LOG_LEVEL": "WARNING"})
    assert result.returncode == PLATFORM
    assert f"Can't reach {platform.title()}" in one_line(result)


def test_the_console_takes_what_people_paste(tmp_path: Path):
    lines = ["/newgame players:alice bob carol   # the table",
             "/hand winner:alice seen:bob maal:alice=3   # bob's maal to come",
             "bob: /maal 1          # bob gives his own",
             "/sitout carol   /back carol",
             "\udcff",  # stands for a byte that is not UTF-8 (written below)
             "/import ~nosuchuser/x.json",
             "/link name:carol @carol",
             "/endgame  # standings"]
    data = "\n".join(lines).encode("utf-8", "surrogateescape") + b"\n"
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--json", "--db",
                             str(tmp_path / "c.db"), "--files", str(tmp_path / "files")],
                            input=data, capture_output=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    replies = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert "Traceback" not in result.stderr.decode()
    ok = [r["ok"] for r in replies]
    # the bad bytes and the unreadable file are refused with a word; the rest is fine
    assert ok == [True, True, True, True, True, False, False, True, True], replies
    assert "isn't UTF-8" in replies[5]["error"] and "Can't read" in replies[6]["error"]
    assert "The guest carol is carol" in replies[7]["text"]
    assert "Game over after 1 hand" in replies[8]["text"]


def readme_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    command = re.compile(r"^\s*(\w+:\s*)?/\w")
    return [b for b in blocks if any(command.match(line) for line in b.splitlines())
            and not any(line.lstrip().startswith(("pip ", "python ", "$ "))
                        for line in b.splitlines())]


@pytest.mark.parametrize("block", readme_blocks(), ids=lambda b: b.splitlines()[0][:40])
def test_every_readme_example_runs_in_the_console_as_written(block: str, tmp_path: Path):
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--json", "--db",
                             str(tmp_path / "r.db"), "--files", str(tmp_path / "files")],
                            input=block, capture_output=True, text=True, timeout=120,
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in result.stderr, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    refused = [r["error"] for r in replies if not r["ok"]]
    assert replies and not refused, refused


def test_the_console_names_a_file_to_import_only_if_it_is_one(tmp_path: Path):
    """/import /dev/zero answers at once (it once ended in MemoryError). The cap on what a
    file may hold is /import's (tests/storage/chats/test_import_batches.py)."""
    result = bot("console", "--json", "--db", str(tmp_path / "c.db"), stdin="/import /dev/zero\n"
                 "/import " + str(tmp_path) + "\n")
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["error"] for r in replies] == [
        "Can't read /dev/zero: it is not a file.", f"Can't read {tmp_path}: it is not a file."]
