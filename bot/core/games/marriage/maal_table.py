"""The maal value table: points for holding 1, 2, 3 ... of each kind of maal.

Used when maal is computed from cards; edited with /setmaal. Facts and the presets:
shared/rules/marriage.md ("Maal tables").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.errors import UserError
from bot.core.grammar import clip, parse_int, split_list
from bot.core.i18n import N_, Joined, Msg, _, join


@dataclass(frozen=True)
class MaalItem:
    key: str
    label: str  # translated where it is shown (describe_table; /setmaal's option help)
    max_copies: int  # how many of it one player can hold in three packs


ITEMS = (
    MaalItem("tiplu", N_("tiplu (the joker card)"), 2),
    MaalItem("poplu", N_("poplu (one above tiplu)"), 3),
    MaalItem("jhiplu", N_("jhiplu (one below tiplu)"), 3),
    MaalItem("alter", N_("alter (same rank, same colour)"), 3),
    MaalItem("man", N_("man (printed joker)"), 3),
    MaalItem("marriage", N_("marriage (jhiplu+tiplu+poplu)"), 2),
    MaalItem("tunnella", N_("tunnella of ordinary cards, shown at the deal"), 4),
    MaalItem("joker_tunnella", N_("tunnella of ordinary jokers, shown at the deal"), 4),
    MaalItem("maal_tunnella", N_("tunnella of poplu or jhiplu, shown at the deal"), 2),
)
_BY_KEY = {item.key: item for item in ITEMS}
MAX_VALUE = 500

Table = dict[str, list[int]]

PRESETS: dict[str, tuple[str, Table]] = {
    "pagat": (
        "pagat's table, Maal Counter's default",
        {"tiplu": [3, 7], "poplu": [2, 5, 10], "jhiplu": [2, 5, 10], "alter": [], "man": [],
         "marriage": [10, 30], "tunnella": [5], "joker_tunnella": [10], "maal_tunnella": [20]},
    ),
    "clubroyale": (
        "ClubRoyale ruleset: alter 5, man 5",
        {"tiplu": [3], "poplu": [2], "jhiplu": [2], "alter": [5], "man": [5],
         "marriage": [10], "tunnella": [5], "joker_tunnella": [], "maal_tunnella": []},
    ),
    "house": (
        "the common house table",
        {"tiplu": [3, 8], "poplu": [2, 5, 10], "jhiplu": [2, 5, 10], "alter": [5, 15, 30],
         "man": [5, 15, 30], "marriage": [10, 25], "tunnella": [5, 15, 30, 45],
         "joker_tunnella": [], "maal_tunnella": []},
    ),
    "simple": (
        "tiplu 3/6/9, poplu and jhiplu 2/4/6, no marriage bonus",
        {"tiplu": [3, 6, 9], "poplu": [2, 4, 6], "jhiplu": [2, 4, 6], "alter": [], "man": [],
         "marriage": [], "tunnella": [], "joker_tunnella": [], "maal_tunnella": []},
    ),
}
DEFAULT_PRESET = "pagat"
# values an item may have in a stored table: what /setmaal takes (one for each copy a
# player can hold), or a preset's, where it gives more ("simple": tiplu 3/6/9)
_MOST = {item.key: max([item.max_copies, *(len(table.get(item.key, []))
                                          for _, table in PRESETS.values())])
         for item in ITEMS}


def is_table(value: object) -> bool:
    """A maal table /setmaal or a preset could have stored: items of ITEMS, each with at
    most as many values as /setmaal takes or a preset gives, each from 0 to MAX_VALUE."""
    return isinstance(value, Mapping) and all(
        isinstance(key, str) and key in _BY_KEY and isinstance(values, list)
        and len(values) <= _MOST[key]
        and all(type(v) is int and 0 <= v <= MAX_VALUE for v in values)
        for key, values in value.items())


def default_table() -> Table:
    return {k: list(v) for k, v in PRESETS[DEFAULT_PRESET][1].items()}


def preset_table(name: str) -> Table:
    key = name.strip().lower()
    if key not in PRESETS:
        raise UserError(_("There is no maal table `{name}`. Tables: {tables}.",
                          name=clip(name), tables=", ".join(PRESETS)))
    return {k: list(v) for k, v in PRESETS[key][1].items()}


def updated_table(table: Mapping[str, list[int]], changes: Mapping[str, str]) -> Table:
    """`tiplu:3 8` sets the values for holding 1 and 2 tiplu; `alter:none` clears alter."""
    result = {item.key: list(table.get(item.key, [])) for item in ITEMS}
    for key, text in changes.items():
        item = _BY_KEY.get(key)
        if item is None:
            raise UserError(_("`{key}` is not in the maal table. Items: {items}.",
                              key=clip(key), items=", ".join(_BY_KEY)))
        words = split_list(text)
        if words in ([], ["none"], ["-"], ["0"]):
            result[key] = []
            continue
        if len(words) > item.max_copies:
            raise UserError(_("`{key}` takes at most {most} values (for holding 1 to {most}); "
                              "got {given}.", key=key, most=item.max_copies, given=len(words)))
        result[key] = [parse_int(w, _("The value of {key}", key=key), 0, MAX_VALUE)
                       for w in words]
    return result


def describe_table(table: Mapping[str, list[int]]) -> Joined:
    """One line per item: its key, its values and what it is (in the reader's language).
    Not padded into columns: it is read as text on a phone, where a long line wraps and
    padding would not line up."""
    lines = []
    for item in ITEMS:
        values = table.get(item.key) or []
        shown = "/".join(str(v) for v in values) if values else "-"
        lines.append(join([f"{item.key} {shown}", Msg(item.label)], " — "))
    return join(lines)
