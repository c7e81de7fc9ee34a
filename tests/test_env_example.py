""".env.example is held to Settings: every setting the bot reads is in it once, with a line
on what it is just above it, and nothing else; taken as shown with every line uncommented,
it is a valid set of settings whose listeners don't share a port."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

EXAMPLE = Path(__file__).resolve().parent.parent / ".env.example"
SETTING = re.compile(r"^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$")


def lines() -> list[str]:
    return EXAMPLE.read_text(encoding="utf-8").splitlines()


def shown() -> dict[str, list[str]]:
    """Each setting's values as the file shows them, commented or not."""
    found: dict[str, list[str]] = {}
    for line in lines():
        match = SETTING.match(line)
        if match:
            found.setdefault(match.group(1), []).append(match.group(2))
    return found


def test_every_setting_is_there_once_and_nothing_else():
    names = {name.upper() for name in Settings.model_fields}
    found = shown()
    assert set(found) == names, (sorted(names - set(found)), sorted(set(found) - names))
    assert [name for name, values in found.items() if len(values) > 1] == []


def test_each_setting_has_a_line_on_what_it_is_above_it():
    text = lines()
    bare = [line for i, line in enumerate(text) if SETTING.match(line)
            and not (i and text[i - 1].startswith("# ") and not SETTING.match(text[i - 1]))]
    assert bare == []


def test_as_shown_with_every_line_uncommented_it_is_valid_and_nothing_clashes():
    values = {name.lower(): found[0] for name, found in shown().items()}
    settings = Settings(_env_file=None, **values)  # type: ignore[arg-type]
    # what listens, where: the pages (WEB_PORT, else PORT), health, the webhook
    listening = [settings.pages_port(), settings.health_port, settings.webhook_port()]
    assert None not in listening and len(set(listening)) == len(listening), listening


def test_what_the_bot_writes_beside_its_database_is_never_committed():
    import subprocess

    root = EXAMPLE.parent
    beside = ["maalbot.db", "maalbot.db.holds-hands", "maalbot.db.console-key",
              "maalbot.db.damaged", "data/scores.db.holds-hands"]
    found = subprocess.run(["git", "check-ignore", "--no-index", *beside], cwd=root,
                           capture_output=True, text=True)
    assert found.stdout.split() == beside, found.stderr
