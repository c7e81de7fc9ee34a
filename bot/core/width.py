"""How wide text shows in a monospace block (a phone's <pre>, a Discord code block), and
cutting it to a width without breaking a letter: what lines a board's columns up.

wcwidth-like, from the Unicode data Python ships: a wide or fullwidth character (CJK, most
emoji) takes two columns, a combining mark (a Devanagari vowel sign, virama or nukta) and a
zero-width format character (ZWJ) none, everything else one. A cut never separates a letter
from its marks, nor a virama from the consonant it joins (क्ष stays whole)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

ELLIPSIS = "…"


@lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    category = unicodedata.category(char)
    if category[0] == "M" or category == "Cf":
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns `text` takes in a monospace block."""
    if text.isascii():
        return len(text)
    return sum(char_width(c) for c in text)


def clusters(text: str) -> list[str]:
    """`text` as the letters a reader sees (grapheme clusters, as far as a name needs):
    a base with its marks, and consonants joined by a virama or a zero-width joiner."""
    out: list[str] = []
    for char in text:
        if out and (unicodedata.category(char)[0] == "M" or char in "\u200c\u200d"
                    or _joins_next(out[-1][-1])):
            out[-1] += char
        else:
            out.append(char)
    return out


def _joins_next(char: str) -> bool:
    """A virama (canonical combining class 9) or ZWJ: the next letter belongs with it."""
    return char == "\u200d" or unicodedata.combining(char) == 9


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` columns, ending in "…" where it was cut."""
    if width(text) <= limit:
        return text
    if text.isascii():
        return text[:limit - 1] + ELLIPSIS
    kept, used = "", 0
    for letter in clusters(text):
        size = width(letter)
        if used + size > limit - 1:
            break
        kept, used = kept + letter, used + size
    return kept + ELLIPSIS


def rjust(text: str, size: int) -> str:
    return " " * (size - width(text)) + text


def ljust(text: str, size: int) -> str:
    return text + " " * (size - width(text))
