"""Options as typed, checked against a command's spec: the one place an option is refused
for its name or its value, whichever face it came from."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence

from bot.core.commands.spec import CommandSpec, Kind, Option
from bot.core.errors import UserError
from bot.core.examples import personal
from bot.core.grammar import clean_text, clip, parse_bool, parse_int


def normalise(spec: CommandSpec, options: Mapping[str, str],
              players: Sequence[str] = ()) -> dict[str, str]:
    """The options under their core keys, each value checked against its kind; raises a
    UserError that names the option and what it takes (its usage with the table's own
    `players`, worked out only when it is shown)."""
    out: dict[str, str] = {}
    for given, text in options.items():
        option = spec.option(given) if given else _free(spec)
        if option is None:
            raise UserError(_unknown(spec, given, players))
        if option.key in out:
            raise UserError(f"`{option.label}` is given twice; give it once.")
        out[option.key] = _value(option, text)
    missing = [o.label for o in spec.options if o.required and o.key not in out]
    if missing:
        raise UserError(f"/{spec.name} needs {', '.join(f'{m}:' for m in missing)}. "
                        f"Usage: {personal(spec.usage, players)}")
    return out


def _free(spec: CommandSpec) -> Option | None:
    return next((o for o in spec.options if not o.key), None)


def _unknown(spec: CommandSpec, given: str, players: Sequence[str]) -> str:
    if not given:
        return (f"/{spec.name} takes key:value options ({spec.accepted()}). "
                f"Usage: {personal(spec.usage, players)}")
    labels = [o.label for o in spec.options]
    close = difflib.get_close_matches(given, labels, n=1, cutoff=0.7)
    hint = f" Did you mean `{close[0]}:`?" if close else ""
    return (f"/{spec.name} has no option `{clip(given)}:`.{hint} It takes {spec.accepted()}. "
            f"See /help {spec.name}.")


def _value(option: Option, text: str) -> str:
    text = clean_text(text)  # typed options from Discord do not pass the text grammar
    if option.kind == Kind.INT:
        assert option.low is not None and option.high is not None
        return str(parse_int(text, option.label, option.low, option.high))
    if option.kind == Kind.BOOL:
        word = text.strip().lower()
        if not option.key and word == option.label:  # "/export all" means all:yes
            return "yes"
        return "yes" if parse_bool(word, option.label) else "no"
    if option.kind == Kind.CHOICE:
        word = text.strip().lower()
        if word not in option.choices:
            raise UserError(f"`{option.label}` is one of {', '.join(option.choices)}; "
                            f"not `{clip(word)}`.")
        return word
    return text
