"""Inline keyboards for tapping instead of typing, with state kept in callback_data.

Everything a flow needs rides in the button (at most 64 bytes), so a restart loses nothing:
`kind|starter|args...`, seats as numbers and the seen players as a bit mask.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.players import Player

MAX_CALLBACK_BYTES = 64

PICK_WINNER, TOGGLE_SEEN, SEEN_DONE, CANCEL = "hw", "hs", "hd", "hx"
CONFIRM_UNDO, CONFIRM_END, CONFIRM_NO = "cu", "ce", "cx"


@dataclass(frozen=True)
class Tap:
    kind: str
    starter: int
    args: tuple[int, ...] = ()

    def encode(self) -> str:
        data = "|".join([self.kind, str(self.starter), *map(str, self.args)])
        if len(data.encode()) > MAX_CALLBACK_BYTES:
            raise ValueError(f"callback_data over {MAX_CALLBACK_BYTES} bytes: {data}")
        return data

    @classmethod
    def decode(cls, data: str) -> Tap | None:
        parts = data.split("|")
        try:
            return cls(parts[0], int(parts[1]), tuple(int(p) for p in parts[2:]))
        except (IndexError, ValueError):
            return None


def _rows(buttons: list[InlineKeyboardButton], width: int = 2) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _button(text: str, tap: Tap) -> InlineKeyboardButton:
    return InlineKeyboardButton(text[:60], callback_data=tap.encode())


def winner_keyboard(starter: int, players: list[Player]) -> InlineKeyboardMarkup:
    buttons = [_button(p.name, Tap(PICK_WINNER, starter, (p.seat,))) for p in players]
    return InlineKeyboardMarkup([*_rows(buttons), [_button("Cancel", Tap(CANCEL, starter))]])


def seen_keyboard(starter: int, players: list[Player], winner: int,
                  mask: int) -> InlineKeyboardMarkup:
    buttons = [
        _button(("✅ " if mask >> p.seat & 1 else "") + p.name,
                Tap(TOGGLE_SEEN, starter, (winner, mask, p.seat)))
        for p in players if p.seat != winner
    ]
    return InlineKeyboardMarkup([
        *_rows(buttons),
        [_button("Done", Tap(SEEN_DONE, starter, (winner, mask))),
         _button("Cancel", Tap(CANCEL, starter))],
    ])


def confirm_keyboard(starter: int, kind: str, yes: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        _button(yes, Tap(kind, starter)),
        _button("No, keep it", Tap(CONFIRM_NO, starter)),
    ]])
