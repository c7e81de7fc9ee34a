"""Settings from the environment and a .env file in the working folder."""

from __future__ import annotations

import hashlib
import ipaddress
import re

from pydantic import ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.core.i18n import Text, _, join
from bot.failures import lazy


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = "sqlite:///maalbot.db"  # a file in the working folder
    discord_token: str | None = None
    telegram_token: str | None = None
    log_level: str = "INFO"
    log_format: str = "plain"  # or "json": one object a line, with chat and command ids
    # serve GET /health on this port while running; with the web pages on the same port (or
    # unset while they are served), their server answers it
    health_port: int | None = None
    button_secret: str | None = None  # seals button data; derived from the tokens if unset
    # The web pages (the scorepad, the scoreboard): WEB_PORT is where the bot's web server
    # listens (on WEB_HOST), WEB_URL the public https address its links use (a reverse proxy
    # in front of WEB_PORT); TELEGRAM_MINIAPP the Mini App's short name (BotFather's /newapp)
    web_port: int | None = None
    web_host: str = "0.0.0.0"
    web_url: str | None = None
    telegram_miniapp: str | None = None
    # A host that routes one port to the app (a platform's PORT): the pages listen on it when
    # WEB_PORT is unset, with /health and Telegram's webhook beside them.
    port: int | None = None
    # The bounds of the pages in public (bot/web/limits.py): the reverse proxies whose
    # X-Forwarded-For is believed (addresses or networks, comma-separated), connections and
    # live feeds in all, and connections (behind the proxy: requests) from one address.
    web_trusted_proxy: str | None = None
    web_max_connections: int | None = None  # unset: as many as the file limit leaves room for
    web_max_feeds: int = 4000
    web_per_address: int = 64

    # Telegram: polling by default; a webhook when TELEGRAM_WEBHOOK_URL is set (several
    # processes behind a load balancer). TELEGRAM_API_URL points at another Bot API server.
    telegram_api_url: str = "https://api.telegram.org"
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int | None = None  # unset: PORT on a one-port host, else 8443
    telegram_webhook_secret: str | None = None
    telegram_poll_timeout: int = 10  # seconds a getUpdates long poll waits
    # Telegram's flood limit for a group: messages a minute (20); a test server may allow more
    telegram_group_rate: int = 20

    # Discord: the URLs point the client at another server (the tests' fakes); commands sync
    # globally, or to one test server; shards split between processes by count and ids.
    discord_api_url: str | None = None
    discord_gateway_url: str | None = None
    discord_test_guild: int | None = None
    discord_shard_count: int | None = None
    discord_shard_ids: str | None = None  # e.g. "0,1": the shards this process runs

    @field_validator("discord_token", "telegram_token", "telegram_webhook_url", "button_secret",
                     "telegram_webhook_secret", "discord_api_url", "discord_gateway_url",
                     "discord_shard_ids", "discord_test_guild", "discord_shard_count",
                     "health_port", "web_port", "web_url", "telegram_miniapp", "port",
                     "web_trusted_proxy", "web_max_connections", "telegram_webhook_port",
                     mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError(_("LOG_LEVEL is one of DEBUG, INFO, WARNING, ERROR, CRITICAL"))
        return level

    @field_validator("log_format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value.lower() not in ("plain", "json"):
            raise ValueError(_("LOG_FORMAT is plain or json"))
        return value.lower()

    @field_validator("web_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        local = value.startswith(("http://127.0.0.1", "http://localhost", "http://[::1]"))
        if not (value.startswith("https://") or local) or " " in value:
            raise ValueError(_("WEB_URL is the https address of the bot's pages, like "
                               "https://maal.example.org (http only for 127.0.0.1)"))
        return value

    @field_validator("telegram_miniapp")
    @classmethod
    def _short_name(cls, value: str | None) -> str | None:
        # BotFather's short names: 3 to 30 letters, digits and underscores
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value.strip()):
            raise ValueError(_("TELEGRAM_MINIAPP is the Mini App's short name from "
                               "BotFather's /newapp: 3 to 30 letters, digits or _"))
        return value.strip() if value is not None else None

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_list(cls, value: str | None) -> str | None:
        if value is not None and not all(p.strip().isdigit() for p in value.split(",")):
            raise ValueError(_("DISCORD_SHARD_IDS is a list of shard numbers like 0,1"))
        return value

    @field_validator("web_trusted_proxy")
    @classmethod
    def _proxies(cls, value: str | None) -> str | None:
        for part in (value or "").split(","):
            try:
                if part.strip():
                    ipaddress.ip_network(part.strip(), strict=False)
            except ValueError:
                raise ValueError(_("WEB_TRUSTED_PROXY is the proxy's address, or several, "
                                   "like 127.0.0.1 or 10.0.0.0/8,::1")) from None
        return value

    def trusted_proxies(self) -> list[str]:
        return [p.strip() for p in (self.web_trusted_proxy or "").split(",") if p.strip()]

    def pages_port(self) -> int | None:
        """Where the web pages listen: WEB_PORT, else the host's one port (PORT)."""
        return self.web_port or self.port

    def webhook_port(self) -> int:
        """Where Telegram's webhook is taken: TELEGRAM_WEBHOOK_PORT, else the host's one port
        (PORT), else 8443."""
        return self.telegram_webhook_port or self.port or 8443

    def shard_ids(self) -> list[int] | None:
        if not self.discord_shard_ids:
            return None
        return [int(p) for p in self.discord_shard_ids.split(",")]

    def button_key(self) -> bytes:
        """The key that seals button data: BUTTON_SECRET, else derived from the tokens, so
        every process of one bot agrees and buttons outlive a restart."""
        if self.button_secret:
            return self.button_secret.encode()
        seed = f"maalbot-buttons:{self.telegram_token or ''}|{self.discord_token or ''}"
        return hashlib.sha256(seed.encode()).digest()

    def platforms(self) -> dict[str, str | None]:
        return {"discord": self.discord_token, "telegram": self.telegram_token}


def setting_problem(error: ValidationError) -> Text:
    """A settings error in our words: the environment variable, what was given, and what it
    takes (not pydantic's message); lazy text, shown in the command line's language. Our
    validators raise lazy messages; pydantic's own words for other kinds stay as they are."""
    problems: list[Text] = []
    for item in error.errors():
        name: Text = str(item["loc"][0]).upper() if item["loc"] else _("a setting")
        given = item.get("input")
        kind = item.get("type", "")
        takes: Text
        if kind.startswith("int"):
            takes = _("a whole number")
        elif kind.startswith("bool"):
            # TRANSLATORS: true and false are typed as they are
            takes = _("true or false")
        elif isinstance(item.get("ctx", {}).get("error"), ValueError):
            takes = lazy(item["ctx"]["error"])
        else:
            takes = str(item.get("msg", "")).removeprefix("Value error, ")
        if isinstance(given, str | int):
            problems.append(_("{setting}={value} is wrong: {takes}", setting=name,
                              value=str(given)[:40], takes=takes))
        else:
            problems.append(_("{setting} is wrong: {takes}", setting=name, takes=takes))
    # TRANSLATORS: {problems} are the settings that are wrong; .env is a file's name
    return _("{problems} (environment or .env).", problems=join(problems, "; "))
