"""The text grammar shared by Telegram and the console.

    /name free text key:value key:value ...

A value runs to the next `key:`; lists are split by spaces or commas; `name=value` pairs
are read by `parse_pairs`. Everything here is pure and raises UserError on bad input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import regex

from bot.core.bidi import shown, unmarked
from bot.core.errors import UserError
from bot.core.i18n.text import Text, _

MAX_COMMAND_LENGTH = 4000
# `key:` starts at the beginning or after whitespace, so "10:30" or ":smile:" are not keys.
_KEY = re.compile(r"(?:(?<=\s)|^)([A-Za-z_][A-Za-z0-9_]*):")
_COMMAND = re.compile(r"^/([A-Za-z][A-Za-z0-9_]*)(?:@([A-Za-z0-9_]+))?(?=\s|$)")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_GRAPHEME = regex.compile(r"\X")  # a letter as people see it (the regex module's \X)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Control characters become spaces; the isolates and marks around a name the bot
    showed (bot/core/bidi.py), copied with it, go; half an emoji (a lone surrogate, which
    no database can store) is refused with a word on what to do."""
    if _SURROGATE.search(text):
        raise UserError(_("That message has a broken character in it (half of an emoji?); "
                          "please type it again."))
    return _CONTROL.sub(" ", unmarked(text))


@dataclass(frozen=True)
class ParsedText:
    name: str
    addressee: str | None  # the bot named in "/cmd@SomeBot", if any
    options: dict[str, str]


def is_command(text: str) -> bool:
    return bool(_COMMAND.match(text.strip()))


def parse_command_text(text: str) -> ParsedText:
    """Split "/hand winner:alice seen:bob carol" into its name and options."""
    text = text.strip()
    if len(text) > MAX_COMMAND_LENGTH:
        raise UserError(_("That command is too long (over {limit} characters).",
                          limit=MAX_COMMAND_LENGTH))
    text = clean_text(text)
    match = _COMMAND.match(text)
    if not match:
        raise UserError(_("Commands start with / and a name, for example /board. Try /help."))
    name, addressee = match.group(1).lower(), match.group(2)
    return ParsedText(name, addressee, parse_options(text[match.end() :]))


def parse_options(text: str) -> dict[str, str]:
    """`free text key:value key2:value` -> {"": "free text", "key": "value", "key2": "value"}."""
    options: dict[str, str] = {}
    keys = list(_KEY.finditer(text))
    head = text[: keys[0].start()] if keys else text
    if head.strip():
        options[""] = head.strip()
    for i, match in enumerate(keys):
        key = match.group(1).lower()
        end = keys[i + 1].start() if i + 1 < len(keys) else len(text)
        if key in options:
            raise UserError(_("`{key}:` is given twice; give it once.", key=key))
        options[key] = text[match.end() : end].strip()
    return options


def split_list(value: str) -> list[str]:
    """Items separated by spaces or commas."""
    return [item for item in re.split(r"[\s,]+", value.strip()) if item]


def parse_pairs(value: str) -> list[tuple[str, str]]:
    """`alice=10 bob=5` -> [("alice", "10"), ("bob", "5")].

    A pair's value runs to the next `name=`, so `bob=8H 9H carol=7S` keeps bob's cards together.
    Words before the first `name=` are returned under the name "".
    """
    value = re.sub(r"\s*=\s*", "=", value.strip())
    pairs: list[tuple[str, list[str]]] = []
    for token in split_list(value):
        if "=" in token:
            name, _equals, rest = token.partition("=")
            if not name:
                raise UserError(_("`{token}` has no name before `=`; write it as name={value}.",
                                  token=clip(token), value=clip(rest)))
            pairs.append((name, [rest] if rest else []))
        elif pairs:
            pairs[-1][1].append(token)
        else:
            pairs.append(("", [token]))
    return [(name, " ".join(words)) for name, words in pairs]


def parse_int(text: str, what: Text, low: int, high: int) -> int:
    """A whole number within [low, high], or an error that says what was expected."""
    raw = text.strip()
    digits = raw.lstrip("+-")
    if not digits.isdecimal() or not digits.isascii() or raw.count("-") + raw.count("+") > 1:
        raise UserError(_("{what} must be a whole number, not `{raw}`.", what=what,
                          raw=clip(raw)))
    if len(digits) > 9:
        raise UserError(_("{what} must be between {low} and {high}; `{raw}` is too large.",
                          what=what, low=low, high=high, raw=clip(raw)))
    number = int(raw)
    if not low <= number <= high:
        raise UserError(_("{what} must be between {low} and {high}, not {number}.", what=what,
                          low=low, high=high, number=number))
    return number


def parse_decimal(text: str, what: Text, low: Decimal, high: Decimal, places: int = 4) -> Decimal:
    raw = text.strip()
    if len(raw) > 20:
        raise UserError(_("{what} must be a number between {low} and {high}.", what=what,
                          low=str(low), high=str(high)))
    try:
        number = Decimal(raw)
    except InvalidOperation:
        raise UserError(_("{what} must be a number like 1 or 0.25, not `{raw}`.", what=what,
                          raw=clip(raw))) from None
    if not number.is_finite() or not low <= number <= high:
        raise UserError(_("{what} must be between {low} and {high}, not `{raw}`.", what=what,
                          low=str(low), high=str(high), raw=clip(raw)))
    if number.as_tuple().exponent < -places:  # type: ignore[operator]
        raise UserError(_("{what} may have at most {places} decimal places.", what=what,
                          places=places))
    return number


_YES = {"yes", "y", "true", "on", "1"}
_NO = {"no", "n", "false", "off", "0"}


def parse_bool(text: str, what: Text) -> bool:
    word = text.strip().lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise UserError(_("{what} must be yes or no, not `{word}`.", what=what, word=clip(word)))


def cut(text: str, limit: int) -> str:
    """At most `limit` characters of `text`, cut between letters as people see them
    (grapheme clusters, Unicode's UAX #29 with its Indic conjunct rule): never inside a
    Devanagari conjunct (क्ष), before a vowel sign or between an emoji and its modifier."""
    if len(text) <= limit:
        return text
    kept = 0
    for cluster in _GRAPHEME.findall(text):
        if kept + len(cluster) > limit:
            break
        kept += len(cluster)
    return text[:kept]


def clip(text: str, limit: int = 30) -> str:
    """What people typed, as the bot echoes it: at most `limit` characters, and no
    bidirectional control (bot/core/bidi.py: U+202E would turn the reply around it)."""
    text = shown(text)
    return text if len(text) <= limit else cut(text, limit - 1) + "…"


