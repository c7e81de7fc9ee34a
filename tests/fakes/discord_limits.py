"""The limits Discord's docs state in prose, which its OpenAPI document leaves out or states
looser (tests/fakes/discord_openapi.py checks the document's). Each breach raises Invalid:
Discord answers 400 (50035, Invalid Form Body) and shows nothing.

Sources, discord.com/developers/docs: Messages (content "up to 2000 characters"; the document
says 4,000, which is a Nitro member's), Application Commands (names, 8,000 characters, required
options first, autocomplete choices), Message Components (five action rows in a message of
the classic kind, five buttons or one select in a row, unique custom_ids, a select's
max_values within its options), Embeds ("Embed Limits": 6,000 characters in all), Messages
(a message has content, an embed, a component, a file, a poll or a sticker), Interactions
(an autocomplete choice's string value is at most 100 characters), Component Reference
(a modal's 1 to 5 components; a select's or checkbox group's min_values omitted or at least 1
unless `required` is false; a checkbox group's and a select's values within their options,
its option values unique, as a radio group's; no disabled component in a modal).
"""

from __future__ import annotations

import unicodedata
from typing import Any

# Discord's locales (the API reference, "Locales"): the only keys a localization may have.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"})
MAX_NAME, MAX_DESCRIPTION = 32, 100
MAX_CHARACTERS = 8000  # a command with its options and choices
MAX_CONTENT = 2000
MAX_EMBED_CHARACTERS = 6000  # every embed of a message together
MAX_ROWS, MAX_ROW_BUTTONS = 5, 5
MAX_CHOICE = 100  # an autocomplete choice's name and string value
COMPONENTS_V2 = 1 << 15  # a message flag: components laid out freely, no content or embeds
ACTION_ROW, BUTTON, TEXT_INPUT, LINK = 1, 2, 4, 5
RADIO_GROUP, CHECKBOX_GROUP = 21, 22
SELECTS = {3, 5, 6, 7, 8}
SUBCOMMAND, GROUP = 1, 2


class Invalid(Exception):
    """A request Discord would refuse (400, Invalid Form Body)."""


# --- application commands ----------------------------------------------------------------

def _name_ok(name: Any) -> bool:
    r"""^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase where a letter has a
    lowercase form (CHAT_INPUT commands and options)."""
    if not isinstance(name, str) or name != name.lower():
        return False
    try:
        import regex  # Unicode scripts, as Discord's own pattern says them
    except ImportError:  # pragma: no cover - the same rule by Unicode blocks
        return 1 <= len(name) <= MAX_NAME and all(
            ch in "-_" or unicodedata.category(ch)[0] in "LN"
            or 0x0900 <= ord(ch) <= 0x097F or 0x0E01 <= ord(ch) <= 0x0E5B for ch in name)
    return regex.fullmatch(r"[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}", name) is not None


def _description_ok(text: Any) -> bool:
    return isinstance(text, str) and 1 <= len(text) <= MAX_DESCRIPTION


def check_commands(commands: list[dict[str, Any]]) -> None:
    """Discord's rules for a bulk overwrite of chat-input commands, localizations too."""
    _check_level(commands, "commands")
    for command in commands:
        if "dm_permission" in command:  # the docs: deprecated, use contexts
            raise Invalid(f"{command['name']}: dm_permission is deprecated; use contexts")
        counted = _characters(command)
        if counted > MAX_CHARACTERS:
            raise Invalid(f"{command['name']}: {counted} characters, over {MAX_CHARACTERS}")


def _characters(item: dict[str, Any]) -> int:
    """Name, description and choice values of a command and everything in it, each at its
    longest in any locale (the strictest reading of Discord's 8,000 characters)."""
    total = 0
    for field_name in ("name", "description"):
        texts = [item.get(field_name) or "",
                 *(item.get(f"{field_name}_localizations") or {}).values()]
        total += max(len(t) for t in texts)
    for choice in item.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total + sum(_characters(o) for o in item.get("options") or [])


def _check_level(items: list[dict[str, Any]], where: str) -> None:
    shown: dict[str, set[str]] = {}
    optional_seen = False
    for item in items:
        at = f"{where}.{item.get('name')}"
        if not _name_ok(item.get("name")):
            raise Invalid(f"{at}: invalid name")
        if not _description_ok(item.get("description")):
            raise Invalid(f"{at}: description must be 1 to {MAX_DESCRIPTION} characters")
        if item.get("type") not in (SUBCOMMAND, GROUP) and where != "commands":
            if item.get("required") and optional_seen:
                raise Invalid(f"{at}: required options must come before optional ones")
            optional_seen = optional_seen or not item.get("required")
        if item.get("autocomplete") and item.get("choices"):
            raise Invalid(f"{at}: an option with choices can't also autocomplete")
        names = item.get("name_localizations") or {}
        descriptions = item.get("description_localizations") or {}
        for field_name, values, ok in (("name", names, _name_ok),
                                       ("description", descriptions, _description_ok)):
            if not isinstance(values, dict):
                raise Invalid(f"{at}: {field_name}_localizations must be an object")
            for locale, value in values.items():
                if locale not in LOCALES:
                    raise Invalid(f"{at}: {locale!r} is not a valid locale")
                if not ok(value):
                    raise Invalid(f"{at}: invalid {field_name} in {locale}: {value!r}")
        for locale in ("", *LOCALES):
            name = names.get(locale, item["name"]) if locale else item["name"]
            taken = shown.setdefault(locale, set())
            if name in taken:
                raise Invalid(f"{at}: name {name!r} is not unique in {locale or 'default'}")
            taken.add(name)
        children = [o for o in item.get("options") or [] if isinstance(o, dict)]
        if children:
            _check_level(children, at)


# --- messages, modals, autocomplete --------------------------------------------------------

def check_message(data: dict[str, Any], *, new: bool, files: int = 0) -> None:
    """A message's body, made (`new`) or edited: sent to a channel, by a webhook, or in an
    interaction's answer."""
    flags = data.get("flags") or 0
    content = data.get("content") or ""
    if len(content) > MAX_CONTENT:  # the document says 4,000 (a person with Nitro): not a bot
        raise Invalid(f"content: {len(content)} characters, at most {MAX_CONTENT}")
    embeds = data.get("embeds") or []
    characters = sum(_embed_characters(e) for e in embeds if isinstance(e, dict))
    if characters > MAX_EMBED_CHARACTERS:
        raise Invalid(f"embeds: {characters} characters in all, over {MAX_EMBED_CHARACTERS}")
    components = data.get("components") or []
    if not flags & COMPONENTS_V2:
        _check_rows(components)
    if new and not (data.get("content") or embeds or components or files
                    or data.get("attachments") or data.get("poll") or data.get("sticker_ids")):
        raise Invalid("Cannot send an empty message (50006)")


def _embed_characters(embed: dict[str, Any]) -> int:
    """What Discord counts towards 6,000: title, description, field names and values,
    footer text and author name."""
    return (len(embed.get("title") or "") + len(embed.get("description") or "")
            + sum(len(f.get("name") or "") + len(f.get("value") or "")
                  for f in embed.get("fields") or [])
            + len((embed.get("footer") or {}).get("text") or "")
            + len((embed.get("author") or {}).get("name") or ""))


def _check_rows(rows: list[dict[str, Any]]) -> None:
    if len(rows) > MAX_ROWS:
        raise Invalid(f"components: {len(rows)} action rows, at most {MAX_ROWS}")
    seen: set[str] = set()
    for index, row in enumerate(rows):
        if row.get("type") != ACTION_ROW:
            raise Invalid(f"components.{index}: a message of the classic kind holds rows only")
        items = row.get("components") or []
        kinds = [item.get("type") for item in items]
        if any(kind in SELECTS for kind in kinds) and len(items) != 1:
            raise Invalid(f"components.{index}: a select fills its row alone")
        if len(items) > MAX_ROW_BUTTONS:
            raise Invalid(f"components.{index}: {len(items)} buttons, at most "
                          f"{MAX_ROW_BUTTONS} a row")
        for item in items:
            _check_item(item, f"components.{index}", seen)


def _check_item(item: dict[str, Any], at: str, seen: set[str]) -> None:
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if custom_id in seen:
            raise Invalid(f"{at}: custom_id {custom_id!r} is used twice in the message")
        seen.add(custom_id)
    if item.get("type") == BUTTON:
        if (item.get("style") == LINK) != (custom_id is None):
            raise Invalid(f"{at}: a link button has a url, every other a custom_id")
        if not item.get("label") and not item.get("emoji"):
            raise Invalid(f"{at}: a button needs a label or an emoji")
    if item.get("type") == 3:
        options = item.get("options") or []
        low, high = item.get("min_values", 1), item.get("max_values", 1)
        if not low <= high <= len(options):
            raise Invalid(f"{at}: min_values {low} and max_values {high} with "
                          f"{len(options)} options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            raise Invalid(f"{at}: a select's option values must be unique")


def check_modal(data: dict[str, Any]) -> None:
    rows = data.get("components") or []
    if not 1 <= len(rows) <= MAX_ROWS:
        raise Invalid(f"modal: {len(rows)} components, 1 to {MAX_ROWS}")
    seen: set[str] = set()
    for row in rows:
        for item in row.get("components") or [row.get("component") or {}]:
            custom_id = item.get("custom_id")
            if custom_id in seen:
                raise Invalid(f"modal: custom_id {custom_id!r} is used twice")
            seen.add(custom_id)
            if item.get("type") == TEXT_INPUT and (item.get("min_length") or 0) > (
                    item.get("max_length") or 4000):
                raise Invalid("modal: a text input's min_length is over its max_length")
            _check_modal_choices(item, f"modal: {custom_id!r}")


def _check_modal_choices(item: dict[str, Any], at: str) -> None:
    """A select, radio group or checkbox group in a modal (Component Reference)."""
    kind = item.get("type")
    if kind not in (3, RADIO_GROUP, CHECKBOX_GROUP):
        return
    if item.get("disabled"):
        raise Invalid(f"{at}: a modal can't have disabled components")
    options = item.get("options") or []
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        raise Invalid(f"{at}: option values must be unique")
    if kind == RADIO_GROUP:
        return
    required = item.get("required", True) is not False
    low = item.get("min_values")
    if required and low is not None and low < 1:
        raise Invalid(f"{at}: min_values {low} while required (its default): min_values "
                      "must be omitted or at least 1 unless required is false")
    high = item.get("max_values", len(options) if kind == CHECKBOX_GROUP else 1)
    if not (low if low is not None else 1) <= high <= len(options):
        raise Invalid(f"{at}: min_values {low} and max_values {high} with {len(options)} "
                      "options")


def check_choices(data: dict[str, Any]) -> None:
    for choice in data.get("choices") or []:
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE:
            raise Invalid(f"choices: a string value of {len(value)} characters, at most "
                          f"{MAX_CHOICE}")
