"""Every console example in the docs runs as written: pasted into a console, a block at a
time, in a chat of its own, nothing is refused. (tests/test_cli.py does the README's
through the command line; this does docs/ in one process, so it stays quick.)"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot.console import run_console
from bot.core.service import Service
from bot.docs.layout import ROOT
from bot.storage import open_store

COMMAND = re.compile(r"^\s*(\w+:\s*)?/\w")


def examples() -> list[tuple[str, str]]:
    """(page, block) for every fenced block of docs/ that holds console commands (the same
    choice as the README's check: blocks that also hold shell lines are not console)."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
            lines = block.splitlines()
            if any(COMMAND.match(line) for line in lines) and not any(
                    line.lstrip().startswith(("pip ", "python ", "$ ")) for line in lines):
                found.append((page.relative_to(ROOT).as_posix(), block))
    return found


EXAMPLES = examples()


def test_the_docs_have_examples_to_check() -> None:
    pages = {page for page, _ in EXAMPLES}
    assert "docs/players/marriage.md" in pages and len(EXAMPLES) > 20


async def test_every_docs_example_runs_in_the_console_as_written(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'docs.db'}")
    refused = []
    try:
        service = Service(store)
        for number, (page, block) in enumerate(EXAMPLES):
            out = io.StringIO()
            await run_console(service, "host", True, stdin=io.StringIO(block), stdout=out,
                              chat=f"docs-{number}", files=tmp_path)
            replies = [json.loads(line) for line in out.getvalue().splitlines()
                       if line.startswith("{")]
            assert replies, (page, block)
            refused += [(page, r["error"]) for r in replies if not r["ok"]]
    finally:
        await store.close()
    assert not refused


@pytest.mark.parametrize("line", ["/board", "bob: /maal 5", "  /undo payment"])
def test_a_command_line_is_an_example(line: str) -> None:
    assert COMMAND.match(line)
