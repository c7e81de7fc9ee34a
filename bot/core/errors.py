"""Errors a person caused and can fix: shown to them, never logged as a crash."""


class UserError(Exception):
    """Bad input. The message is shown to the person as it is; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
