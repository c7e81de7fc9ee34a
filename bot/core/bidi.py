"""Names as written, beside text that runs the other way.

The bot's languages all run left to right, so any right-to-left text in a reply is what
people typed: a name, a reason, a season's name. Unicode's bidirectional algorithm lets
such a run reorder what stands around it ("1. علي" shows as "علي .1", "علي +7" as "7+ علي")
and, first in a line, turn the whole line. `isolate` wraps each run in FIRST STRONG
ISOLATE ... POP DIRECTIONAL ISOLATE (U+2068, U+2069; Unicode's UAX #9, "isolates"), which
keeps it as written and its surroundings as they are; the chat platforms that keep those
characters (Telegram, Discord) send replies through it.

`shown` is what the bot echoes of what people typed: any bidirectional control in it
(U+202E RIGHT-TO-LEFT OVERRIDE and its kin, which would turn the bot's own words around
it) is written out as its code point (<U+202E>), never echoed. Typed text copied from a
reply is read `unmarked`: without the isolates it was shown with.
"""

from __future__ import annotations

import regex

FSI, PDI = "\u2068", "\u2069"
# Unicode's Bidi_Control characters: marks, embeddings, overrides and isolates
CONTROLS = regex.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# the blocks of right-to-left scripts (Hebrew to Arabic Extended, their presentation forms,
# and the historic ones of the supplementary planes): a quick look before the full pass
_MAYBE = regex.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
                       "\U00010800-\U00010fff\U0001e800-\U0001efff]")
# a word with a right-to-left letter (digits and other letters joined to it, and a name's
# inner - _ . ' among them), and words like it after spaces: one run, kept in its order
_CORE = r"[\p{L}\p{M}\p{N}]"
_WORD = rf"{_CORE}*[\p{{bc=R}}\p{{bc=AL}}](?:[\p{{L}}\p{{M}}\p{{N}}_'.\-]*{_CORE})?"
_RUN = regex.compile(rf"{_WORD}(?:[ \u00a0]+{_WORD})*")


# what `isolate` adds, and the marks that order nothing but what stands beside them: text
# copied from a reply and typed back has them, and means the same without them
_COPIED = regex.compile("[\u061c\u200e\u200f\u2066-\u2069]")


def unmarked(text: str) -> str:
    """Typed text without the isolates and marks it was copied with."""
    return _COPIED.sub("", text) if _COPIED.search(text) else text


def isolate(text: str) -> str:
    """`text` with each right-to-left run isolated (as it is when it has none)."""
    if not _MAYBE.search(text):
        return text
    return _RUN.sub(lambda m: FSI + m.group(0) + PDI, text)


def shown(text: str) -> str:
    """What people typed, as the bot may echo it: bidirectional controls as U+XXXX."""
    if not CONTROLS.search(text):
        return text
    return CONTROLS.sub(lambda m: f"<U+{ord(m.group(0)):04X}>", text)


def for_chat(text: str) -> str:
    """A reply's text as a platform that keeps isolates shows it: controls written out,
    right-to-left runs isolated."""
    return isolate(shown(text))
