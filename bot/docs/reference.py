"""The command reference (docs/reference.md), written from the command table.

Every command, its options with their kinds and bounds, who may run it, the games it belongs
to and its example come from the specs (bot/core/commands/), so the page can't drift from
the bot: `tests/docs/test_reference.py` fails when the checked-in page is stale.

    python -m bot.docs            # rewrite every generated page (this one and the layout)
    python -m bot.docs --check    # exit 1 if one is stale
    python -m bot.docs.reference  # this page alone
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.core.assembly.built import TABLE
from bot.core.commands.spec import CommandSpec, Kind, Option, spec_text
from bot.core.i18n import ENGLISH
from bot.core.permissions import WHO
from bot.core.rules import WHOLE_TABLE

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference.md"

HEAD = """# Command reference

<!-- Written by `python -m bot.docs` from the command table
(bot/core/commands/ and each game's folder). Do not edit by hand: run it again. -->

Every command the bot answers, as `/help COMMAND` has it. Options are typed as `key:value`
(Telegram and the console) or picked as typed options (Discord). The words right after a
command, with no key, are its "free words" option. Where a command of every game says
"hand", a game says its own word: a Tranca or Call Break round, a Riichi result.

Who may run what is decided in one place, `bot/core/permissions.py`; each command below says
which rule it follows. An admin is a Telegram chat admin, or on Discord someone who can
manage the server or the channel. In the console, the `--user` is the admin.
"""

KIND_WORDS = {
    Kind.TEXT: "text",
    Kind.INT: "whole number",
    Kind.BOOL: "yes or no",
    Kind.CHOICE: "one of",
    Kind.PLAYER: "a seated player (name or @mention)",
    Kind.PLAYERS: "seated players (names or @mentions)",
    Kind.MEMBER: "a person (name or @mention)",
    Kind.FILE: "a file sent with the command",
}


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ").strip()


def _takes(option: Option) -> str:
    if option.kind == Kind.INT:
        return f"whole number, {option.low:,} to {option.high:,}"
    if option.choices:
        words = ", ".join(f"`{c}`" for c in option.choices)
        return f"{KIND_WORDS[option.kind]} {words}" if option.kind == Kind.CHOICE else (
            f"{KIND_WORDS[option.kind]}: {words}")
    return KIND_WORDS[option.kind]


def _options(spec: CommandSpec, game: str) -> list[str]:
    if not spec.options:
        return ["No options."]
    # /rules's options are the game's rule keys; a platform's option help is cut to 100
    # characters, so the page takes the whole help from the rule book
    whole = {r.key: r.help for r in TABLE.games[game].rulebook.specs} if (
        spec.name == "rules") else {}
    rows = ["| option | takes | required | what it is |", "|---|---|---|---|"]
    for option in spec.options:
        name = f"`{option.key}:`" if option.key else f"{option.label} (free words)"
        help = whole.get(option.key, option.help)
        rows.append(f"| {name} | {_cell(_takes(option))} | "
                    f"{'yes' if option.required else ''} | "
                    f"{_cell(spec_text(ENGLISH, help))} |")
    return rows


def _body(spec: CommandSpec, game: str) -> list[str]:
    """A command as it stands in one game (or every game alike), without its heading."""
    lines = [f"Example: `{spec.usage}`", ""]
    if spec.details:
        lines += [spec_text(ENGLISH, spec.details), ""]
    who = ENGLISH.render(WHO[spec.may])
    who = who[0].upper() + who[1:]
    lines.append(f"Who may: {who}.")
    if spec.free_view:
        lines.append("With no options it only shows, and anyone may.")
    if spec.confirm:
        lines.append("On Telegram and Discord, a bare command asks for a tap to confirm.")
    if spec.flow:
        lines.append("On Telegram and Discord, with no options it offers taps instead.")
    lines.append("")
    return [*lines, *_options(spec, game), "", *_presets(spec, game)]


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list | tuple):
        return "its own table"  # a maal table: /setmaal shows it
    return str(value)


def _presets(spec: CommandSpec, game: str) -> list[str]:
    """/rules: each preset of the game and what it sets."""
    presets = TABLE.games[game].rulebook.presets if spec.name == "rules" else []
    if not presets:
        return []
    kept = ", ".join(f"`{key}`" for key in TABLE.games[game].rulebook.kept())
    rows = [f"Presets (`preset:NAME` sets each of these keys at once). A whole table first "
            f"puts every other rule but {kept} back to its default; an addition changes "
            "only its own keys, on the rules in force:", "",
            "| preset | kind | what it is | what it sets |", "|---|---|---|---|"]
    for preset in presets:
        sets = " ".join(f"{k}:{_value(v)}" for k, v in preset.values.items())
        kind = "whole table" if preset.kind == WHOLE_TABLE else "addition"
        rows.append(f"| `{preset.name}` | {kind} | {_cell(preset.description)} | "
                    f"{_cell(sets)} |")
    return [*rows, ""]


def _title(key: str) -> str:
    return TABLE.games[key].title


def command_section(name: str) -> list[str]:
    variants = TABLE.variants(name)
    games = list(variants)
    first = next(iter(variants.values()))
    lines = [f"## /{name}", "", spec_text(ENGLISH, first.summary).capitalize() + ".", ""]
    if name in TABLE.core:
        lines += ["Games: every game.", ""]
    else:
        lines += ["Games: " + ", ".join(_title(g) for g in games) + ".", ""]
    if first.hidden:
        lines += ["Not in the menus or the /help list.", ""]
    bodies: dict[str, list[str]] = {}
    for key, spec in variants.items():
        body = "\n".join(_body(spec, key))
        bodies.setdefault(body, []).append(key)
    if len(bodies) == 1:
        return lines + _body(first, games[0])
    for body, keys in bodies.items():
        lines += [f"### /{name} in " + ", ".join(_title(k) for k in keys), "", body]
    return lines


def page() -> str:
    core = [n for n in TABLE.names() if n in TABLE.core]
    games = [n for n in TABLE.names() if n not in TABLE.core]
    lines = [HEAD, "## Contents", ""]
    lines.append("Every game: " + ", ".join(f"[/{n}](#{n})" for n in core) + ".")
    lines.append("")
    for key, game in TABLE.games.items():
        own = [n for n in games if key in TABLE.variants(n)]
        lines.append(f"{game.title}: " + ", ".join(f"[/{n}](#{n})" for n in own) + ".")
        lines.append("")
    for name in [*core, *games]:
        lines += command_section(name)
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write docs/reference.md from the table.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    text = page()
    if args.check:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is stale: run python -m bot.docs", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
