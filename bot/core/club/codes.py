"""One-time codes: a chat joining a club (`/club join code:...`, good for a day) and a
person linking their accounts (`/account link code:...`, good for a quarter of an hour).
A code is random, typed by a person (no letters that read as others: no 0/O, 1/I/L), and
only its hash is kept, so the database alone lets nobody in."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # 31 signs: no 0/O, 1/I/L
LENGTH = 8  # 31^8 ~ 8.5e11: a day's guessing at the rate limits gets nowhere near one
JOIN_FOR = timedelta(hours=24)
LINK_FOR = timedelta(minutes=15)
_TYPED = re.compile(r"[\s-]+")


def new_code() -> str:
    """A code as people read and type it: XXXX-XXXX."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{code[:4]}-{code[4:]}"


def typed(text: str) -> str:
    """A code as typed, read as made: any case, with or without its dash or spaces."""
    return _TYPED.sub("", text).upper()


def looks_like_code(text: str) -> bool:
    code = typed(text)
    return len(code) == LENGTH and all(c in ALPHABET for c in code)


def digest_of(code: str) -> str:
    """What the database keeps of a code."""
    return hashlib.sha256(f"maalbot-code:{typed(code)}".encode()).hexdigest()
