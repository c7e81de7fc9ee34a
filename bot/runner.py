"""`python -m bot run`: every platform whose token is set, in one asyncio loop, until SIGTERM.

With the web pages on (WEB_PORT, or the host's one port PORT), their server also answers
GET /health (unless HEALTH_PORT names another port) and Telegram's webhook (when
TELEGRAM_WEBHOOK_PORT is theirs: on a one-port host, by default), as a platform that routes
one port to the app needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any, Protocol

from aiohttp import web

from bot.core.i18n import _
from bot.core.service import Service
from bot.failures import BAD_SETTING, PLATFORM, Failure, database_failure
from bot.settings import Settings
from bot.storage import SqlStore, open_store
from bot.storage.store.health import engine_health
from bot.storage.transaction.retention import keep_pruning

log = logging.getLogger(__name__)


class Adapter(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...


def platform_failure(adapter: Adapter, error: Exception) -> Failure:
    """A platform that can't be reached or refuses the token, in one line."""
    name = type(adapter).__name__.removesuffix("Adapter")
    text = f"{type(error).__name__}: {error}"
    if any(word in text for word in ("Unauthorized", "InvalidToken", "LoginFailure",
                                     "Improper token", "401")):
        return Failure(PLATFORM, _("{platform} refused the token: check {variable}.",
                                   platform=name, variable=f"{name.upper()}_TOKEN"))
    # the platform's library's own words (`error`) are as it says them
    return Failure(PLATFORM, _("Can't reach {platform} ({error}): check the network and "
                               "{variable} if you set it.", platform=name, error=text[:160],
                               variable=f"{name.upper()}_API_URL"))


def shares_webhook(settings: Settings) -> bool:
    """Whether the web pages' server takes Telegram's webhook, on their port."""
    port = settings.pages_port()
    return bool(settings.telegram_webhook_url) and port is not None \
        and settings.webhook_port() == port


def shares_health(settings: Settings) -> bool:
    """Whether the web pages' server answers GET /health: HEALTH_PORT unset or theirs."""
    port = settings.pages_port()
    return port is not None and settings.health_port in (None, port)


def build_adapters(settings: Settings, service: Service) -> list[Adapter]:
    adapters: list[Adapter] = []
    if settings.telegram_token:
        from bot.telegram_adapter import TelegramAdapter
        from bot.telegram_adapter.ratelimit import ChatRateLimiter

        adapters.append(TelegramAdapter(
            service, settings.telegram_token, settings.telegram_api_url,
            webhook_url=settings.telegram_webhook_url,
            webhook_listen=settings.telegram_webhook_listen,
            webhook_port=settings.webhook_port(),
            webhook_secret=settings.telegram_webhook_secret,
            poll_timeout=settings.telegram_poll_timeout,
            rate_limiter=ChatRateLimiter(group_max_rate=settings.telegram_group_rate),
            miniapp=settings.telegram_miniapp if settings.pages_port() else None,
            webhook_shared=shares_webhook(settings),
        ))
    if settings.discord_token:
        from bot.discord_adapter import DiscordAdapter

        adapters.append(DiscordAdapter(
            service, settings.discord_token, api_url=settings.discord_api_url,
            gateway_url=settings.discord_gateway_url, test_guild=settings.discord_test_guild,
            shard_count=settings.discord_shard_count, shard_ids=settings.shard_ids(),
        ))
    return adapters


def health_of(store: SqlStore, public: bool = False) -> Any:
    """GET /health: 200 and JSON while the database answers and is up to date, else 503.
    `public` (the web pages' port, open to anyone): whether it is well and its schema only;
    what is wrong, which may name files, goes to the log."""

    async def health(_: web.Request) -> web.Response:
        report = await engine_health(store.engine, store.file)
        if public:
            if not report["ok"]:
                log.warning("health: %s", report.get("error"))
            report = {key: report[key] for key in ("ok", "database", "schema", "latest")
                      if key in report}
        return web.json_response(report, status=200 if report["ok"] else 503)

    return health


async def serve_health(store: SqlStore, port: int) -> web.AppRunner:
    """GET /health on a port of its own (HEALTH_PORT)."""
    app = web.Application()
    app.router.add_get("/health", health_of(store))
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "0.0.0.0", port).start()
    log.info("health on port %d", port)
    return runner


def web_limits(settings: Settings) -> Any:
    """The web pages' bounds as the settings give them (bot/web/limits.py)."""
    from bot.web.limits import Limits

    return Limits(connections=settings.web_max_connections or 0,
                  per_address=settings.web_per_address, feeds=settings.web_max_feeds)


def build_web(settings: Settings, service: Service, adapters: list[Adapter]) -> Any:
    """The web server of the scorepad and the scoreboard, when WEB_PORT (or PORT) is set,
    with /health and the webhook when they share its port."""
    port = settings.pages_port()
    if not port:
        return None
    from bot.web.server import WebServer

    if settings.telegram_miniapp and not settings.web_url:
        raise Failure(BAD_SETTING, _("TELEGRAM_MINIAPP needs WEB_URL: the https address "
                                     "the Mini App is registered at, without /pad."))
    faces = {type(a).__name__.removesuffix("Adapter").lower(): a for a in adapters}
    base = settings.web_url or f"http://127.0.0.1:{port}"
    if not settings.web_port:
        log.info("web: WEB_PORT is not set: the pages listen on the host's PORT, %d", port)
    if not settings.web_url:
        log.warning("web: WEB_URL is not set; links say %s, which only this machine opens",
                    base)
    routes = []
    if shares_health(settings):
        routes.append(("GET", "/health", health_of(service.store, public=True)))  # type: ignore[arg-type]
    telegram = faces.get("telegram")
    if telegram is not None and shares_webhook(settings):
        routes.append(("POST", telegram.webhook_path, telegram.webhook))  # type: ignore[attr-defined]
    token = settings.telegram_token if settings.telegram_miniapp else None
    return WebServer(service, base_url=base, secret=service.secret, host=settings.web_host,
                     port=port, faces=faces,  # type: ignore[arg-type]
                     telegram_token=token, limits=web_limits(settings),
                     trusted_proxies=settings.trusted_proxies(), routes=routes)


async def keep_ticking(service: Service, every: float = 20.0) -> None:
    """The tournaments' timers: their due posts, every `every` seconds until cancelled."""
    while True:
        try:
            await service.tick()
        except Exception:
            log.exception("the tournaments' timers were not looked at")
        await asyncio.sleep(every)


async def run(settings: Settings) -> int:
    try:
        store = await open_store(settings.database_url)
    except Exception as error:
        raise database_failure(settings.database_url, error) from error
    service = Service(store, secret=settings.button_key())
    adapters = build_adapters(settings, service)
    for adapter in adapters:  # where a club's posts to other chats go
        service.posts.posters[type(adapter).__name__.removesuffix("Adapter").lower()] = \
            adapter  # type: ignore[assignment]
    pages = build_web(settings, service, adapters)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    started: list[Adapter] = []
    health = None
    # kept replies emptied once no platform can deliver their update again (issue 27)
    pruning = asyncio.create_task(keep_pruning(store.engine, writable=store.writable))
    ticking = asyncio.create_task(keep_ticking(service))  # tournaments' timers
    try:
        if settings.health_port and not shares_health(settings):
            health = await serve_health(store, settings.health_port)
        if pages is not None:
            try:
                await pages.start()
            except OSError as error:
                pages = None
                raise Failure(BAD_SETTING, _("The web pages can't listen on WEB_PORT={port} "
                                             "({error}): choose a free port.",
                                             port=settings.pages_port(),
                                             error=str(error)[:120])) from error
        for adapter in adapters:
            try:
                await adapter.start()
            except Exception as error:
                started.append(adapter)  # half started: it has sessions to close
                raise platform_failure(adapter, error) from error
            started.append(adapter)
        log.info("running %d adapter(s); SIGTERM stops", len(started))
        await stop.wait()
        log.info("stopping")
    finally:
        with contextlib.suppress(Exception):  # what a club posted goes out before the stop
            await asyncio.wait_for(service.posts.sent(), 5.0)
        for adapter in reversed(started):
            try:
                await adapter.stop()
            except Exception:
                log.exception("an adapter failed to stop cleanly")
        if pages is not None:
            await pages.stop()
        pruning.cancel()
        ticking.cancel()
        await asyncio.gather(pruning, ticking, return_exceptions=True)
        if health is not None:
            await health.cleanup()
        await store.close()
    return 0
