"""What a name looks like: Unicode's UTS #39 skeleton, for names matched in any case.

The letters come from its confusables.txt (bot/core/confusables.py); names are matched in
any case and without accents, so ᴀᴄᴇ, ace and ACE look the same; so do bob and Cyrillic
ЬоЬ, ice and ıce."""

from __future__ import annotations

import re
import unicodedata

from bot.core.confusables import LOOK_ALIKES

# Generic accents (the Combining Diacritical Marks blocks): jose is josé. They are dropped
# after a letter of an alphabet that writes accents, never after another script's letter
# or sign: a Devanagari candra is written with one (ऑ reads as अा + breve; not as अा).
_ACCENTS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_ACCENTED_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def _accented(base: str) -> bool:
    """Whether an accent after `base` is one people drop when they read a name."""
    if unicodedata.category(base)[0] not in "LM":
        return True  # a digit or a mark-less sign: nothing to tell apart
    return unicodedata.name(base, "?").split()[0] in _ACCENTED_SCRIPTS


def prepare(text: str, *, fold: bool = True) -> str:
    """Compatible forms folded (ｂｏｂ is bob), and case unless `fold` is false; accents on
    Latin, Greek and Cyrillic letters dropped: the form the look-alike table is keyed by."""
    compatible = unicodedata.normalize("NFKC", text)
    folded = unicodedata.normalize("NFD", compatible.casefold() if fold else compatible)
    kept: list[str] = []
    drop = True
    for char in folded:
        if _ACCENTS.match(char):
            if drop:
                continue
        else:
            drop = _accented(char)
        kept.append(char)
    return "".join(kept)


def shape(text: str, *, fold: bool = True) -> str:
    """The skeleton: each character read as the one it looks like (UTS #39's prototype),
    in any case. `fold` false reads each letter in the case it is written first: a capital
    can look like another small letter than its own small letter does (Cyrillic Ь is b,
    ь is ƅ; I is l, i is i), so ЬоЬ looks like bob and Ian like lan, though ьоь and ian
    do not."""
    mapped = "".join(LOOK_ALIKES.get(char, char) for char in prepare(text, fold=fold))
    return prepare(mapped)  # a prototype's accent follows a letter it now reads as


def shapes(text: str) -> frozenset[str]:
    """Every skeleton of a text: two names look alike when they share one. (Two, because
    names are one in any case: Ian is ian, yet Ian looks like lan and ian does not; one
    skeleton can't say both.)"""
    return frozenset((shape(text), shape(text, fold=False)))
