"""Errors a person caused and can fix: shown to them, never logged as a crash."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.i18n import Text


class UserError(Exception):
    """Bad input; nothing was changed. The message is lazy text (`_("...", x=1)`), shown in
    the language of the command being answered; a plain str is shown as it is."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.message = message
