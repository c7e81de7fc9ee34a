"""Every example the bot shows runs as written at the table it is shown to: for every game,
every preset and tables of a few sizes (and of sides), each example of a command that
records a result (/newgame's, /help's, /help COMMAND's, a refusal's) is pasted into that
table and recorded; and every other command's usage is taken by the option checks of a
chat playing that game. The examples are read from the replies, never written here."""

from __future__ import annotations

import re
import uuid

import pytest

from bot.core.assembly.built import TABLE
from bot.core.commands.options import normalise
from bot.core.grammar import parse_command_text
from bot.core.service import Service
from tests.conftest import Table

# who sits at each game's tables: its smallest, one of four, and a big one where it takes
# them; sides where it plays them
NAMES = ["asha", "bikash", "chetan", "dev", "esha", "farah", "gita", "hari", "indra", "jaya"]
SIDES = {"tranca": ["teams:ana+bia caio+davi", "teams:ana+bia+edu caio+davi+fe"],
         "points": ["teams:asha+bikash chetan+dev"]}
# the examples' own notes, not part of what is typed: "(seat order)", an optional option
# in brackets ("[foul:asha]", not Tranca's melds:[4H 5H 6H]), and Call Break's "then"
NOTE = re.compile(r"\s\([^()]*\)$")
OPTIONAL = re.compile(r"(?<=\s)\[[a-z_]+:[^\]]*\]")
SHOWN = re.compile(r"(?:Usage: |with |e\.g\. |[.:] )(/[a-z_]+ [^\n]+)")


def seats(game: str) -> list[str]:
    low, high = TABLE.games[game].min_players, TABLE.games[game].max_players
    sizes = sorted({low, min(max(low, 4), high), min(7, high)})
    if game == "tranca":  # two or three alone, else in sides
        sizes = [2, 3]
    return [f"players:{' '.join(NAMES[:n])}" for n in sizes] + SIDES.get(game, [])


def examples(text: str, commands: set[str]) -> list[str]:
    """The examples of `commands` in a reply, each as it would be typed."""
    found = []
    for shown in SHOWN.findall(text):
        for way in re.split(r"   (?:or   )?| then ", shown):
            way = OPTIONAL.sub("", NOTE.sub("", way.strip())).strip()
            way = re.sub(r"\s+", " ", way)
            if way.split()[0][1:] in commands and ("=" in way or ":" in way or
                                                   re.search(r"\d", way)):
                found.append(way)
    return found


def presets(game: str) -> list[str]:
    return ["", *(f" preset:{p.name}" for p in TABLE.games[game].rulebook.presets)]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # none is stored
@pytest.mark.parametrize("game", sorted(TABLE.games))
async def test_every_example_shown_runs_at_its_table(service: Service, game: str):
    on_pad = {s.name for s in TABLE.games[game].commands if s.on_pad}
    refused, tried = [], 0
    for seated in seats(game):
        for preset in presets(game):
            table = Table(service, chat=f"examples-{uuid.uuid4().hex[:8]}")
            started = await table(f"/newgame {game} {seated}{preset}")
            if not started.ok:  # a preset this table can't play (Riichi's sanma at four)
                assert "preset" in started.text or "three" in started.text, started.text
                continue
            shown = [started.text, (await table("/help")).text]
            for name in sorted(on_pad):
                shown.append((await table(f"/help {name}")).text)
                shown.append((await table(f"/{name}")).text)  # a refusal shows one
            for example in dict.fromkeys(e for text in shown for e in examples(text, on_pad)):
                tried += 1
                reply = await table(example)
                if not reply.ok:
                    refused.append(f"{game} {seated}{preset}: {example}\n  {reply.text}")
                elif reply.question is None:  # recorded (a /bid waits for its /tricks)
                    await table("/undo")
    assert tried and not refused, "\n".join(refused)


@pytest.mark.parametrize("game", sorted(TABLE.games))
def test_every_commands_usage_is_taken_by_its_options(game: str):
    played = TABLE.games[game]
    for spec in TABLE.for_game(played):
        for way in examples(f"Usage: {spec.usage}", {spec.name}):
            normalise(spec, parse_command_text(way).options)  # raises if refused
