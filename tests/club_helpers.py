"""Several tables of one club on one service, typed as the console types them: `@ana` is
the console's account console:ana (a member in every table), a bare name a guest of that
table; a line `bob: /cmd` is bob's. Each table's own person is its admin. What the bot posts
to other chats (a tournament's round at every table) is kept, to be looked at."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.console import line_to_command
from bot.core.command import Reply
from bot.core.service import Service

CODE = re.compile(r"code:([A-Z0-9]{4}-[A-Z0-9]{4})")
RATED = re.compile(r"μ (?P<mu>-?[\d.]+) σ (?P<sigma>[\d.]+)")


class Tables:
    def __init__(self, service: Service, host: str = "host") -> None:
        self.service, self.host = service, host
        self.posts: list[tuple[str, Reply]] = []  # what the bot posted to other chats
        service.posts.posters["*"] = self

    async def post(self, chat: str, reply: Reply) -> None:
        self.posts.append((chat, reply))

    async def posted(self) -> list[tuple[str, Reply]]:
        """The posts made since the last look, once they have all gone out."""
        await self.service.posts.sent()
        found, self.posts = self.posts, []
        return found

    async def __call__(self, chat: str, line: str, admin: bool = True) -> Reply:
        command = line_to_command(line, self.host, chat)
        if not admin:
            command = replace(command, actor=replace(command.actor, is_admin=False))
        return await self.service.handle(command)

    async def ok(self, chat: str, line: str, admin: bool = True) -> Reply:
        reply = await self(chat, line, admin)
        assert reply.ok, f"{chat}: {line}: {reply.text}"
        return reply

    async def error(self, chat: str, line: str, admin: bool = True) -> str:
        reply = await self(chat, line, admin)
        assert not reply.ok, f"{chat}: {line}: expected a refusal, got {reply.text}"
        return reply.text

    async def club(self, name: str, *chats: str) -> None:
        """A club of these chats: the first makes it, each other joins with a code."""
        made = await self.ok(chats[0], f"/club new name:{name}")
        for chat in chats[1:]:
            code = CODE.search(made.text)
            assert code is not None, made.text
            await self.ok(chat, f"/club join code:{code.group(1)}")
            made = await self.ok(chats[0], "/club code")

    async def game(self, chat: str, newgame: str, *rounds: str) -> Reply:
        """A whole game: /newgame, its rounds, /endgame (sure: a test's Riichi hanchan is
        a hand or two, ended before its own end); the /endgame reply."""
        await self.ok(chat, newgame)
        for line in rounds:
            await self.ok(chat, line)
        return await self.ok(chat, "/endgame sure")

    async def rated(self, chat: str, who: str, game: str = "") -> tuple[float, float]:
        """(mu, sigma) as /rating NAME says them (two decimals)."""
        reply = await self.ok(chat, f"/rating {who}" + (f" game:{game}" if game else ""))
        found = RATED.search(reply.text)
        assert found is not None, reply.text
        return float(found["mu"]), float(found["sigma"])
