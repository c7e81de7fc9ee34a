"""Text that is translated when it is shown, not when it is made.

Games and other pure code have no language: they return `Msg` (a message of the catalogue
with its values) or `Joined` pieces, and raise UserError with a `Msg`. The core renders them
with the translator of the command being answered (`Tr.render`). A plain `str` is shown as
it is: names, numbers, and text already rendered by a `Tr`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Union

from bot.core import stored_json


class Renderer(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def number(self, value: Any, places: int | None = None) -> str: ...


@dataclass(frozen=True)
class Msg:
    """A catalogue message (its English source) and the values for its {placeholders};
    with `plural` and `n`, the form for n in the language shown."""

    msgid: str
    values: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int = 1

    def __str__(self) -> str:  # English, for logs and tests; people get Tr.render
        return render(self, None)


@dataclass(frozen=True)
class Joined:
    """Pieces shown one after another with `sep` between them (lines of a reply)."""

    parts: tuple[Text, ...]
    sep: str = "\n"

    def __str__(self) -> str:
        return render(self, None)


@dataclass(frozen=True)
class Num:
    """A number written as the language shown writes it (1,234.5; 1.234,5; 12,34,567):
    `places` decimals (None: as many as it has), `signed`: +3 for a gain."""

    value: Any
    places: int | None = None
    signed: bool = False

    def __str__(self) -> str:
        return render(self, None)


@dataclass(frozen=True)
class Example:
    """A usage example from the catalogue with the table's own names swapped in, after it
    is translated (swapping first would leave its words in English)."""

    text: str
    names: tuple[str, ...]
    # what makes the translated usage run at the table (a game's fit_usage), before the
    # names are swapped in
    fit: Callable[[str], str] | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return render(self, None)


@dataclass(frozen=True)
class Kept:
    """Text as `encode` stored it, read back (`decode`) only when it is shown: a /chart or
    /stats reads thousands of hands and shows none of their summaries."""

    stored: str

    def __str__(self) -> str:
        return render(self, None)


Text = Union[str, Msg, Joined, Num, Example, Kept]  # noqa: UP007 (a runtime alias, also in annotations)


def _(msgid: str, **values: Any) -> Msg:
    """A message to translate when shown (extracted into the catalogues)."""
    return Msg(msgid, values)


def _n(singular: str, plural: str, n: int, **values: Any) -> Msg:
    """A message with a plural form chosen by `n` in the language shown ({n} is filled in)."""
    return Msg(singular, {"n": n, **values}, plural, n)


def N_(msgid: str) -> str:
    """Marks a constant for extraction; it is translated where it is shown (tr.text)."""
    return msgid


def join(parts: Iterable[Text], sep: str = "\n") -> Joined:
    return Joined(tuple(parts), sep)


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(template: str, values: Mapping[str, Any], tr: Renderer | None) -> str:
    """`template` with each {name} that has a value replaced; other braces stay as written
    (a translation with a typo shows the placeholder rather than failing)."""
    if not values or "{" not in template:
        return template
    # every value rendered up front: a dict comprehension, where rendering as format_map
    # asks (a dict subclass) costs a Python call per field
    rendered = {name: value if type(value) is str else render(value, tr)
                for name, value in values.items()}
    try:  # the usual case, at C speed: every field has a value and nothing else is braced
        return template.format_map(rendered)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        pass

    def swap(match: re.Match[str]) -> str:
        return rendered.get(match.group(1), match.group(0))
    return _FIELD.sub(swap, template)


def render(text: Any, tr: Renderer | None) -> str:
    """`text` in the language of `tr` (None: English, the catalogues' source)."""
    if isinstance(text, str):
        return text
    if isinstance(text, Msg):
        if tr is None:
            template = text.msgid if text.plural is None or text.n == 1 else text.plural
        elif text.plural is None:
            template = tr.gettext(text.msgid)
        else:
            template = tr.ngettext(text.msgid, text.plural, text.n)
        return fill(template, text.values, tr)
    if isinstance(text, Joined):
        return text.sep.join(render(part, tr) for part in text.parts)
    if isinstance(text, Num):
        return _number(text, tr)
    if isinstance(text, Kept):
        return render(decode(text.stored), tr)
    if isinstance(text, Example):
        from bot.core.examples import personal

        shown = text.text if tr is None else tr.gettext(text.text)
        return personal(text.fit(shown) if text.fit is not None else shown, text.names)
    return str(text)


def _number(number: Num, tr: Renderer | None) -> str:
    if tr is None:
        from bot.core.i18n.digits import english

        written = english().write(number.value, number.places)
    else:
        written = tr.number(number.value, number.places)
    if number.signed and number.value > 0:
        return "+" + written
    return written


# --- kept text: a hand's summary is stored and shown later, in the language of then --------

_MARK = '{"i18n":'


def encode(text: Text) -> str:
    """Text as stored (a hand's summary, a reason): plain text stays plain, unless it
    happens to look like stored messages (a reason someone typed): then it is wrapped, so
    it reads back as the same plain text."""
    if isinstance(text, str) and not text.startswith(_MARK):
        return text
    if isinstance(text, Kept):
        return text.stored  # as it was stored, read back or not
    return _MARK + stored_json.dumps(_data(text)) + "}"


def decode(stored: str) -> Text:
    """What `encode` stored; text stored before messages were kept is plain English, and
    anything that doesn't read back as well-formed messages (an imported file's) is shown
    as it was stored."""
    if not isinstance(stored, str) or not stored.startswith(_MARK):
        return stored
    try:
        return _from_data(stored_json.loads(stored)["i18n"])
    except Exception:  # malformed in any way: the stored text itself, never a crash
        return stored


def kept(stored: str) -> Text:
    """What `encode` stored, to be read back when it is shown (plain text is as stored)."""
    return Kept(stored) if isinstance(stored, str) and stored.startswith(_MARK) else stored


def _data(text: Any) -> Any:
    kind = type(text)
    if kind is str:  # most of a summary: names and separators
        return text
    if kind is Kept:
        return _data(decode(text.stored))
    if kind is Msg:
        out: dict[str, Any] = {"m": text.msgid}
        if text.values:
            out["v"] = {k: _data(v) for k, v in text.values.items()}
        if text.plural is not None:
            out["p"], out["n"] = text.plural, text.n
        return out
    if kind is Joined:
        return {"j": [_data(p) for p in text.parts], "s": text.sep}
    if kind is Num:
        return {"#": str(text.value), "d": text.places, "+": text.signed}
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return text
    return str(text)


def _from_data(data: Any) -> Any:
    """Kept text back, checking every part's type (a stored form may come from a file)."""
    if isinstance(data, str):
        return data
    if isinstance(data, bool) or not isinstance(data, (dict, int, float)):
        raise ValueError(f"not kept text: {data!r}")
    if isinstance(data, (int, float)):
        return data
    if "m" in data:
        msgid, values = data["m"], data.get("v") or {}
        plural, n = data.get("p"), data.get("n", 1)
        if not isinstance(msgid, str) or not isinstance(values, dict) \
                or not (plural is None or isinstance(plural, str)) \
                or isinstance(n, bool) or not isinstance(n, int):
            raise ValueError("a malformed message")
        return Msg(msgid, {str(k): _from_data(v) for k, v in values.items()}, plural, n)
    if "j" in data:
        parts, sep = data["j"], data.get("s", "\n")
        if not isinstance(parts, list) or not isinstance(sep, str):
            raise ValueError("malformed pieces")
        return Joined(tuple(_from_data(p) for p in parts), sep)
    if "#" in data:
        from decimal import Decimal

        places, signed = data.get("d"), data.get("+", False)
        if not (places is None or (isinstance(places, int) and not isinstance(places, bool)
                                   and 0 <= places <= 10)) or not isinstance(signed, bool):
            raise ValueError("a malformed number")
        value = Decimal(str(data["#"]))
        if not value.is_finite():
            raise ValueError("a malformed number")
        return Num(value, places, signed)
    raise ValueError("not kept text")
