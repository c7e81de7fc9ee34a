"""The whole process: `python -m bot run` with both adapters against their fakes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.discord_helpers import ALICE as DISCORD_ALICE
from tests.discord_helpers import slash
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram
from tests.telegram_helpers import ALICE, Harness

ROOT = Path(__file__).resolve().parent.parent


async def test_both_adapters_in_one_process_stop_cleanly_on_sigterm(tmp_path: Path):
    telegram, discord = FakeTelegram(), FakeDiscord()
    await telegram.start()
    await discord.start()
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}",
               TELEGRAM_TOKEN=telegram.token, TELEGRAM_API_URL=telegram.base,
               TELEGRAM_POLL_TIMEOUT="1", DISCORD_TOKEN=discord.token,
               DISCORD_API_URL=discord.base, DISCORD_GATEWAY_URL=discord.gateway_url)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        await telegram.wait_for("setMyCommands", 1, timeout=30)
        await asyncio.wait_for(discord.identified.wait(), 30)
        assert "hand" in {c["name"] for c in discord.commands["global"]}

        chat = Harness(telegram, None, None)  # type: ignore[arg-type]
        await chat.say(ALICE, "/newgame players:alice bob")
        await chat.say(ALICE, "/hand winner:alice seen:bob maal:alice=5 bob=1")
        assert "Hand 1: alice won" in (await chat.replies(2))[1]["text"]

        for payload in (slash("newgame", DISCORD_ALICE, players="ram sita"),
                        slash("hand", DISCORD_ALICE, winner="ram", seen="sita",
                              maal="ram=2 sita=0")):
            await discord.dispatch("INTERACTION_CREATE", payload)
        await discord.wait_callbacks(2)
        assert "Hand 1: ram won" in discord.callbacks()[1]["data"]["content"]

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
        await discord.stop()
