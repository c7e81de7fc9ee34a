"""Presets switched after any rules at all (issue 38: "switching presets keeps the previous
preset's extra rules"). A whole table sets every one of its keys and clears every key it
does not name, back to the game's defaults: what a table played before it (another preset,
rules typed, Marriage's /setmaal table) leaves nothing but the evening's settings (money,
packs). An addition changes the keys it names and nothing else."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.games.registry import GAMES
from bot.core.rules import ADDITION, WHOLE_TABLE, RuleBook

# values a table may have set before: every value any preset of any game names, and a key
# no rule declares (Marriage's maal table, set by /setmaal)
VALUES = sorted({repr(v): v for g in GAMES.values() for p in g.rulebook.presets
                 for v in p.values.values()}.items())
ODD = {"maal_table": {"tiplu": 7}}


@st.composite
def evenings(draw: st.DrawFn) -> tuple[RuleBook, dict[str, Any], str]:
    """A game's rule book, the rules some evening left (presets and changes, in any
    order), and the preset switched to next."""
    book = draw(st.sampled_from([g.rulebook for g in GAMES.values() if g.rulebook.presets]))
    rules = book.defaults()
    for _ in range(draw(st.integers(0, 6))):
        step = draw(st.sampled_from(["preset", "rule", "odd"]))
        if step == "preset":
            rules = book.with_preset(rules, draw(st.sampled_from(book.presets)).name)
        elif step == "rule":
            key = draw(st.sampled_from([s.key for s in book.specs]))
            rules[key] = draw(st.sampled_from(VALUES))[1]
        else:
            rules.update(ODD)
    return book, rules, draw(st.sampled_from(book.presets)).name


@settings(max_examples=400, deadline=None)
@given(evenings())
def test_a_whole_table_is_the_same_table_whatever_came_before(
        evening: tuple[RuleBook, dict[str, Any], str]):
    book, before, name = evening
    preset = book.preset(name)
    after = book.with_preset(before, name)
    if preset.kind == WHOLE_TABLE:
        # the preset's keys as it names them; every other key as a new game has it, but
        # for the evening's settings, which stay as they were
        expected = {**book.defaults(), **preset.values}
        kept = set(book.kept())
        assert {k: v for k, v in after.items() if k not in kept} == \
            {k: v for k, v in expected.items() if k not in kept}
        assert {k: after[k] for k in kept} == \
            {k: before.get(k, book.defaults()[k]) for k in kept}
        assert "maal_table" not in after or "maal_table" in preset.values
    else:
        assert preset.kind == ADDITION
        assert {k: after[k] for k in preset.values} == dict(preset.values)
        assert {k: v for k, v in after.items() if k not in preset.values} == \
            {k: v for k, v in {**book.defaults(), **before}.items()
             if k not in preset.values}


def test_every_game_with_presets_has_a_whole_table_to_switch_to():
    """Switching back to a known table is always possible: no game has additions alone."""
    for game in GAMES.values():
        presets = game.rulebook.presets
        if presets:
            # a whole table, or presets that each set the same keys (the game of points':
            # the game it is, leaving the table's habits), so any of them is a known table
            same_keys = len({frozenset(p.values) for p in presets}) == 1
            assert any(p.kind == WHOLE_TABLE for p in presets) or same_keys, game.key
