"""The players' guide says which options each Discord form shows and which are typed in its
fifth field (docs/players/index.md, "The whole hand on one form"): held to the forms the
adapter makes (bot/core/pad.py's `few`, Discord's five)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.core.assembly.built import TABLE
from bot.core.pad import few, pad_commands
from bot.discord_adapter.forms import ROOM

GUIDE = Path(__file__).parents[2] / "docs" / "players" / "index.md"


def test_the_guides_table_of_forms_is_the_forms():
    section = GUIDE.read_text().split("## The whole hand on one form (Discord)")[1]
    rows = re.findall(r"^\| (.+?) `/(\w+)` \| (.+?) \| (.+?) \|$", section, re.M)
    said = {(game, name): ([f.strip() for f in fields.split(",")],
                           re.findall(r"`(\w+):`", typed))
            for game, name, fields, typed in rows}
    made = {}
    for game in TABLE.games.values():
        for spec in pad_commands(game):
            shown, rest = few(spec.for_game(game), ROOM)
            if rest:
                made[(game.title, spec.name)] = (
                    [o.label for o in shown], [o.label for o in rest])
    assert said == made
