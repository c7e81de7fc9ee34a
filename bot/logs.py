"""Logging: plain lines for a terminal, or one JSON object a line for a log collector
(LOG_FORMAT=json). Fields passed with `extra=` (chat, command, origin, ...) are kept."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        data.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


class PlainFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = {k: v for k, v in vars(record).items() if k not in _STANDARD}
        if fields:
            text += " " + " ".join(f"{k}={v}" for k, v in fields.items())
        return text


def setup_logging(level: str, fmt: str = "plain") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else PlainFormatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("sqlalchemy", "aiosqlite", "asyncio", "httpx", "discord.http",
                  "discord.gateway", "telegram.ext"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(level)))
