"""A host that routes one port to the app (a platform's PORT, a `web:` line in the Procfile):
`python -m bot run` serves the pages, GET /health and Telegram's webhook on it, with
WEB_PORT, HEALTH_PORT and TELEGRAM_WEBHOOK_PORT unset."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from bot.settings import Settings
from tests.fakes.telegram_api import FakeTelegram
from tests.telegram_helpers import ALICE, GROUP

ROOT = Path(__file__).resolve().parent.parent
HOOK_PATH = "/telegram/a-path-only-telegram-knows"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def settings(**env: str) -> Settings:
    return Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})  # type: ignore[arg-type]


@pytest.mark.parametrize(("env", "pages", "webhook"), [
    ({"PORT": "8099"}, 8099, 8099),  # a platform's one port: all on it
    ({"WEB_PORT": "8080"}, 8080, 8443),  # a VPS: the webhook where it always was
    ({"PORT": "8099", "WEB_PORT": "8080", "TELEGRAM_WEBHOOK_PORT": "8443"}, 8080, 8443),
    ({}, None, 8443),
])
def test_the_ports_the_settings_name(env: dict[str, str], pages: int | None, webhook: int,
                                     monkeypatch: pytest.MonkeyPatch):
    for name in ("PORT", "WEB_PORT", "TELEGRAM_WEBHOOK_PORT", "HEALTH_PORT"):
        monkeypatch.delenv(name, raising=False)
    chosen = settings(**env)
    assert (chosen.pages_port(), chosen.webhook_port()) == (pages, webhook)


async def test_pages_health_and_webhook_on_the_hosts_one_port(tmp_path: Path):
    telegram = FakeTelegram()
    await telegram.start()
    port = free_port()
    env = {name: value for name, value in os.environ.items()
           if name not in ("WEB_PORT", "HEALTH_PORT", "TELEGRAM_WEBHOOK_PORT")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}",
               PORT=str(port), TELEGRAM_TOKEN=telegram.token, TELEGRAM_API_URL=telegram.base,
               TELEGRAM_WEBHOOK_URL=f"https://bot.example.org{HOOK_PATH}",
               WEB_URL="https://maal.example.org", TELEGRAM_MINIAPP="scorepad")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    secret = hashlib.sha256(f"maalbot:{telegram.token}".encode()).hexdigest()[:48]
    try:
        await telegram.wait_for("setWebhook", 1, timeout=30)
        assert telegram.webhook["url"] == f"https://bot.example.org{HOOK_PATH}"
        async with aiohttp.ClientSession() as http:
            deadline = time.monotonic() + 30
            while True:  # the webhook is taken once the adapter has started
                update = {"update_id": 1, "message": {
                    "message_id": 1, "date": int(time.time()), "from": ALICE, "text": "/help",
                    "chat": telegram.chat(GROUP).to_json(),
                    "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}
                async with http.post(base + HOOK_PATH, json=update, headers={
                        "X-Telegram-Bot-Api-Secret-Token": secret}) as answer:
                    if answer.status == 200 or time.monotonic() > deadline:
                        assert answer.status == 200, await answer.text()
                        break
                await asyncio.sleep(0.1)
            await telegram.wait_for("sendMessage", 1, chat_id=GROUP, timeout=30)
            async with http.post(base + HOOK_PATH, json=update) as answer:
                assert answer.status == 403  # not Telegram: no secret
            async with http.get(base + "/health") as answer:
                assert answer.status == 200
                assert (await answer.json())["ok"] is True
            async with http.get(base + "/static/pad.css") as answer:
                assert answer.status == 200
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 30)
        stderr = (await process.stderr.read()).decode()  # type: ignore[union-attr]
        assert code == 0, stderr
        assert "Traceback" not in stderr, stderr
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await telegram.stop()
