"""Options as typed, checked against a command's spec: the one place an option is refused
for its name or its value, whichever face it came from."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from bot.core.commands.spec import CommandSpec, Kind, Option, spec_text
from bot.core.errors import About, UserError
from bot.core.examples import personal
from bot.core.grammar import clean_text, clip, parse_bool, parse_int
from bot.core.i18n.text import Msg, Text, _

if TYPE_CHECKING:
    from bot.core.i18n import Tr


def normalise(spec: CommandSpec, options: Mapping[str, str],
              players: Sequence[str] = (), tr: Tr | None = None,
              fit: Callable[[str], str] | None = None) -> dict[str, str]:
    """The options under their core keys, each value checked against its kind; raises a
    UserError that names the option and what it takes (its usage in the language of `tr`,
    as the table types it (`fit`, its game's fit_usage) with its own `players`)."""
    out: dict[str, str] = {}
    for given, text in _numbers_end(spec, options).items():
        option = spec.option(given) if given else _free(spec)
        if option is None:
            raise UserError(_unknown(spec, given, players, tr, fit))
        if option.key in out:
            raise UserError(_("`{key}` is given twice; give it once.", key=option.label),
                            About((option.key,)))
        try:
            out[option.key] = _value(option, text)
        except UserError as error:  # beside its control on a form
            raise UserError(error.message, About((option.key,))) from None
    missing = [o for o in spec.options if o.required and o.key not in out]
    if missing:
        raise UserError(_("/{command} needs {options}. Usage: {usage}", command=spec.name,
                          options=", ".join(f"{m.label}:" for m in missing),
                          usage=_usage(spec, players, tr, fit)),
                        About(tuple(m.key for m in missing), said=NEEDED))
    return out


_NUMBER_THEN = re.compile(r"\s*([+-]?\d+)\s+(\S.*)", re.S)


# A required option left out, as a form says it beside its control
NEEDED = _("This is needed.")


def _numbers_end(spec: CommandSpec, options: Mapping[str, str]) -> Mapping[str, str]:
    """A number option ends at its number, as people type it: `/edit round:1 asha=2
    bikash=3` is round 1, and `asha=2 bikash=3` are the command's free words (where it
    takes some, after any given before)."""
    free = _free(spec)
    if free is None:
        return options
    found = dict(options)
    for given, text in options.items():
        option = spec.option(given) if given else None
        match = _NUMBER_THEN.fullmatch(text)
        if option is None or option.kind != Kind.INT or match is None:
            continue
        found[given] = match.group(1)
        found[""] = " ".join(part for part in (found.get("", ""), match.group(2)) if part)
    return found


def _free(spec: CommandSpec) -> Option | None:
    return next((o for o in spec.options if not o.key), None)


def _usage(spec: CommandSpec, players: Sequence[str], tr: Tr | None,
           fit: Callable[[str], str] | None = None) -> Text:
    """The usage in the answer's language, as the table types it, with its own names."""
    usage = spec.usage if tr is None else spec_text(tr, spec.usage)
    return personal(fit(usage) if fit is not None else usage, players)


def _unknown(spec: CommandSpec, given: str, players: Sequence[str], tr: Tr | None,
             fit: Callable[[str], str] | None = None) -> Msg:
    if not given:
        return _("/{command} takes key:value options ({options}). Usage: {usage}",
                 command=spec.name, options=spec.accepted(),
                 usage=_usage(spec, players, tr, fit))
    labels = [o.label for o in spec.options]
    close = difflib.get_close_matches(given, labels, n=1, cutoff=0.7)
    if close:
        return _("/{command} has no option `{key}:`. Did you mean `{close}:`? It takes "
                 "{options}. See /help {command}.", command=spec.name, key=clip(given),
                 close=close[0], options=spec.accepted())
    return _("/{command} has no option `{key}:`. It takes {options}. See /help {command}.",
             command=spec.name, key=clip(given), options=spec.accepted())


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
        # a choice as declared, in any case (language:pt-br is pt-BR)
        chosen = next((c for c in option.choices if c.lower() == word), None)
        if chosen is None and option.reads is not None:
            chosen = option.reads(word)
        if chosen not in option.choices:
            raise UserError(_("`{key}` is one of {choices}; not `{word}`.", key=option.label,
                              choices=", ".join(option.choices), word=clip(word)))
        return chosen
    return text
