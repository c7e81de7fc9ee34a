"""Errors a person caused and can fix: shown to them, never logged as a crash.

A refusal may also say what it is about (`About`): the options and the players it names,
and how a form words it ("seen: tick it for gita, or clear gita's maal"), so a face with a
control for each (the scorepad) shows it beside them; the chat keeps its command form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.i18n import Text


@dataclass(frozen=True)
class About:
    """What a refusal is about: option keys ("" the words after the command), the players
    (or a game of sides' letters) it names, and its words on a form, where they differ from
    the command's ("" the message itself)."""

    options: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    said: Text = ""


class UserError(Exception):
    """Bad input; nothing was changed. The message is lazy text (`_("...", x=1)`), shown in
    the language of the command being answered; a plain str is shown as it is."""

    def __init__(self, message: Text, about: About | None = None) -> None:
        super().__init__(str(message))
        self.message = message
        self.about = about
