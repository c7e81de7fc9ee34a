"""The Bot API as Telegram publishes it, for the fake to check every request against.

The methods and types come from `specs/telegram/api.json` (PaulSonOfLars/telegram-bot-api-spec,
scraped from core.telegram.org/bots/api; MIT, its LICENSE beside it). The limits the prose
states are read from the same descriptions: "1-4096 characters after entities parsing",
"1-64 bytes", "At most 100", "Values between 1-100", "Must be one of ...", "Exactly one of
the fields other than ...". What the JSON does not carry is written here, with where it is
documented: the HTML of parse_mode (core.telegram.org/bots/api#html-style).

Strings are measured in UTF-16 code units, as Telegram measures text (core.telegram.org/api/
entities). A field Telegram does not know is refused too: Telegram ignores it, but a name it
ignores is a bug in the bot (a topic's message_thread_id misspelt lands in General).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from html import unescape
from pathlib import Path
from typing import Any

SPEC = Path(__file__).parent / "specs" / "telegram" / "api.json"
SCALARS = {"Integer", "String", "Boolean", "Float", "True", "InputFile"}
_RANGE = re.compile(r"(\d+)-(\d+) (characters|bytes)")
_AT_MOST = re.compile(r"At most (\d+)")
_VALUES = re.compile(r"Values between (\d+)-(\d+)")
_ONE_OF = re.compile(r"Must be one of (.*?)(?:\.|$)")
_EXACTLY_ONE = re.compile(r"Exactly one of the fields other than (.*?) must be used")
_DISCRIMINATOR = re.compile(r"(?:must be|always) [\"“]?([a-z_]+)[\"”]?")
_INTEGER = re.compile(r"-?\d+")
LANGUAGE_CODE = re.compile(r"[a-z]{2}")
COMMAND = re.compile(r"[a-z0-9_]+")
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]+")

# core.telegram.org/bots/api#html-style: the tags and named entities Telegram's HTML knows
HTML_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span",
             "tg-spoiler", "a", "tg-emoji", "code", "pre", "blockquote"}
HTML_ENTITIES = {"lt", "gt", "amp", "quot"}
_TAG = re.compile(r"<(/?)([a-z-]+)((?:\s+[a-z-]+(?:=\"[^\"<>]*\")?)*)\s*>")
_ENTITY = re.compile(r"&(?:#(\d+)|#x([0-9a-fA-F]+)|([a-zA-Z]+));")


class Refused(Exception):
    """A request Telegram would answer with 400 Bad Request."""


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def html_text(markup: str) -> str:
    """The text of Telegram HTML after entities parsing; Refused where Telegram's parser
    would refuse it ("can't parse entities")."""
    out: list[str] = []
    open_tags: list[str] = []
    i = 0
    while i < len(markup):
        char = markup[i]
        if char == "<":
            tag = _TAG.match(markup, i)
            if tag is None:
                raise Refused(f"can't parse entities: unexpected < at {i}")
            closing, name, attributes = tag.group(1), tag.group(2), tag.group(3)
            if name not in HTML_TAGS:
                raise Refused(f"can't parse entities: Unsupported start tag \"{name}\"")
            if closing:
                if not open_tags or open_tags[-1] != name:
                    raise Refused(f"can't parse entities: Unexpected end tag \"{name}\"")
                open_tags.pop()
            else:
                if name == "span" and 'class="tg-spoiler"' not in attributes:
                    raise Refused("can't parse entities: span needs class=\"tg-spoiler\"")
                if name == "a" and "href=" not in attributes:
                    raise Refused("can't parse entities: a needs href")
                open_tags.append(name)
            i = tag.end()
        elif char == "&":
            entity = _ENTITY.match(markup, i)
            if entity is None or (entity.group(3) and entity.group(3) not in HTML_ENTITIES):
                raise Refused(f"can't parse entities: unsupported entity at {i}")
            out.append(unescape(entity.group(0)))
            i = entity.end()
        elif char == ">":
            raise Refused(f"can't parse entities: unescaped > at {i}")
        else:
            out.append(char)
            i += 1
    if open_tags:
        raise Refused(f"can't parse entities: Can't find end tag corresponding to start tag "
                      f"\"{open_tags[-1]}\"")
    return "".join(out)


@dataclass(frozen=True)
class Field:
    name: str
    types: tuple[str, ...]
    required: bool
    description: str


class BotApi:
    """The published Bot API: check a request, or an object the fake sends the bot."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.version = spec["version"]
        self.methods = {name: _fields(m) for name, m in spec["methods"].items()}
        self.types = {name: _fields(t) for name, t in spec["types"].items()}
        self.subtypes = {name: tuple(t.get("subtypes") or ()) for name, t in
                         spec["types"].items()}
        self.type_notes = {name: " ".join(t.get("description") or ())
                           for name, t in spec["types"].items()}
        self.update_kinds = {f.name for f in self.types["Update"].values()} - {"update_id"}

    # --- requests --------------------------------------------------------------------------

    def request(self, method: str, raw: dict[str, Any]) -> dict[str, Any]:
        """The request's parameters, typed as the method declares them (form fields come as
        text, objects JSON-encoded); Refused with Telegram's words where it would refuse."""
        fields = self.methods.get(method)
        if fields is None:
            raise KeyError(method)
        unknown = set(raw) - set(fields)
        if unknown:
            raise Refused(f"{method} has no parameter {sorted(unknown)}")
        params: dict[str, Any] = {}
        for field in fields.values():
            if field.name not in raw or raw[field.name] in (None, ""):
                if field.required:
                    raise Refused(f"{method}: {field.name} is required")
                continue
            params[field.name] = self._value(raw[field.name], field, f"{method}.{field.name}",
                                             form=True)
        self._method_rules(method, params)
        return params

    def _method_rules(self, method: str, params: dict[str, Any]) -> None:
        """What the prose ties to a pair of fields: text measured after parse_mode."""
        mode = params.get("parse_mode")
        if mode is not None and mode not in ("HTML", "MarkdownV2", "Markdown"):
            raise Refused(f"unsupported parse_mode {mode!r}")
        for name in ("text", "caption"):
            field = self.methods[method].get(name)
            if field is None or name not in params:
                continue
            text = html_text(params[name]) if mode == "HTML" else params[name]
            if name == "text" and method in ("sendMessage", "editMessageText") \
                    and not text.strip():
                raise Refused("message text is empty")
            self._length(text, field, f"{method}.{name}", parsed=True)
        if "allowed_updates" in params:
            unknown = set(params["allowed_updates"]) - self.update_kinds
            if unknown:
                raise Refused(f"allowed_updates: no such update {sorted(unknown)}")
        if method.endswith("MyCommands") and params.get("language_code") \
                and not LANGUAGE_CODE.fullmatch(params["language_code"]):
            raise Refused(f"LANGUAGE_CODE_INVALID: {params['language_code']!r}")
        if method == "setWebhook" and "secret_token" in params \
                and not SECRET_TOKEN.fullmatch(params["secret_token"]):
            raise Refused("secret_token: only A-Z, a-z, 0-9, _ and - are allowed")

    # --- values ----------------------------------------------------------------------------

    def _value(self, value: Any, field: Field, where: str, form: bool = False) -> Any:
        problems = []
        for kind in field.types:
            try:
                typed = self._typed(value, kind, where, form)
            except Refused as problem:
                problems.append(str(problem))
                continue
            if isinstance(typed, str):
                self._length(typed, field, where)
                self._one_of(typed, field, where)
            elif isinstance(typed, list):
                limit = _AT_MOST.search(field.description)
                if limit and len(typed) > int(limit.group(1)):
                    raise Refused(f"{where}: at most {limit.group(1)}")
            elif isinstance(typed, int) and not isinstance(typed, bool):
                values = _VALUES.search(field.description)
                if values and not int(values.group(1)) <= typed <= int(values.group(2)):
                    raise Refused(f"{where}: {typed} not in {values.group(0)}")
            return typed
        if len(problems) == 1:
            raise Refused(problems[0])
        raise Refused(f"{where}: {value!r} is not {' or '.join(field.types)} "
                      f"({'; '.join(problems)})")

    def _typed(self, value: Any, kind: str, where: str, form: bool) -> Any:
        if kind.startswith("Array of "):
            if form and isinstance(value, str):
                value = _json(value, where)
            if not isinstance(value, list):
                raise Refused(f"{where}: not an array")
            inner = Field(where, (kind.removeprefix("Array of "),), True, "")
            return [self._value(item, inner, f"{where}[{i}]") for i, item in enumerate(value)]
        if kind == "Integer":
            if isinstance(value, bool):
                raise Refused(f"{where}: not an integer")
            if isinstance(value, int):
                return value
            if isinstance(value, str) and form and _INTEGER.fullmatch(value):
                return int(value)
            raise Refused(f"{where}: not an integer")
        if kind == "Float":
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
            if form and isinstance(value, str):
                try:
                    return float(value)
                except ValueError:
                    pass
            raise Refused(f"{where}: not a number")
        if kind in ("Boolean", "True"):
            if isinstance(value, str) and form and value in ("true", "false"):
                value = value == "true"
            if not isinstance(value, bool) or (kind == "True" and not value):
                raise Refused(f"{where}: not {kind.lower()}")
            return value
        if kind == "String":
            if not isinstance(value, str):
                raise Refused(f"{where}: not a string")
            return value
        if kind == "InputFile":
            if not isinstance(value, (bytes, bytearray)):
                raise Refused(f"{where}: not a file")
            return value
        if form and isinstance(value, str):
            value = _json(value, where)
        return self.check(kind, value, where)

    def check(self, kind: str, value: Any, where: str = "") -> dict[str, Any]:
        """An object of type `kind`: its fields as declared (a subtype chosen by its "type"
        or "status"), recursively. Returns it."""
        where = where or kind
        if not isinstance(value, dict):
            raise Refused(f"{where}: not an object ({kind})")
        if self.subtypes.get(kind):
            kind = self._subtype(kind, value, where)
        return self._fields_of(kind, value, where)

    def _fields_of(self, kind: str, value: dict[str, Any], where: str) -> dict[str, Any]:
        fields = self.types[kind]
        unknown = set(value) - set(fields)
        if unknown:
            raise Refused(f"{where}: {kind} has no field {sorted(unknown)}")
        for field in fields.values():
            if field.name not in value:
                if field.required:
                    raise Refused(f"{where}: {kind}.{field.name} is required")
                continue
            self._value(value[field.name], field, f"{where}.{field.name}")
        exactly = _EXACTLY_ONE.search(self.type_notes.get(kind, ""))
        if exactly:
            besides = set(re.findall(r"[a-z_]+", exactly.group(1))) - {"and"}
            used = [name for name in value if name not in besides]
            if len(used) != 1:
                raise Refused(f"{where}: exactly one of {kind}'s kinds, not {used}")
        return value

    def _subtype(self, kind: str, value: dict[str, Any], where: str) -> str:
        """The subtype a value is: by its tag ("type": "chat", "status": "member"), or,
        where the subtypes carry none (a Message or an InaccessibleMessage), the one whose
        fields it has."""
        untagged = []
        for sub in self.subtypes[kind]:
            first = next(iter(self.types[sub].values()), None)
            tag = _DISCRIMINATOR.search(first.description) if first is not None else None
            if tag is None or first is None:
                untagged.append(sub)
            elif value.get(first.name) == tag.group(1):
                return sub
        for sub in untagged:
            try:
                self._fields_of(sub, value, where)
            except Refused:
                continue
            return sub
        raise Refused(f"{where}: no {kind} like {value!r}")

    # --- the prose's limits -------------------------------------------------------------

    @staticmethod
    def _length(text: str, field: Field, where: str, parsed: bool = False) -> None:
        found = _RANGE.search(field.description)
        if found is None or ("after entities parsing" in field.description) != parsed:
            return
        low, high, unit = int(found.group(1)), int(found.group(2)), found.group(3)
        size = len(text.encode()) if unit == "bytes" else utf16(text)
        if not low <= size <= high:
            raise Refused(f"{where}: {size} {unit}, not {low}-{high}"
                          + (" (message is too long)" if size > high else ""))
        if field.name == "command" and not COMMAND.fullmatch(text):
            raise Refused(f"BOT_COMMAND_INVALID: {text!r}")

    @staticmethod
    def _one_of(text: str, field: Field, where: str) -> None:
        found = _ONE_OF.search(field.description)
        if found:
            allowed = set(re.findall(r"\"([^\"]+)\"", found.group(1)))
            if allowed and text not in allowed:
                raise Refused(f"{where}: {text!r} is not one of {sorted(allowed)}")


def _fields(entry: dict[str, Any]) -> dict[str, Field]:
    return {f["name"]: Field(f["name"], tuple(f["types"]), bool(f["required"]),
                             f.get("description", "")) for f in entry.get("fields") or ()}


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise Refused(f"{where}: can't parse JSON") from None


@cache
def bot_api() -> BotApi:
    return BotApi(json.loads(SPEC.read_text(encoding="utf-8")))
