"""A club's records as the core sees them (the club, its tables, its seasons, one-time codes,
linked accounts, its finished games, its tournaments and nights) and `ClubBook`: what the
handlers read and write of them in a command's transaction (bot/storage/transaction/clubs.py
is the one book)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from bot.core.club.figures import ClubSeason
from bot.core.club.night import Night
from bot.core.club.summary import GameSummary
from bot.core.club.tournament import Tournament
from bot.core.session import ChatSettings, HandRecord, SessionState

CLUB, ACCOUNT = "club", "account"  # what a one-time code is for: joining a club, linking
PLATFORMS = {"telegram": "Telegram", "discord": "Discord", "console": "console"}  # by name


@dataclass
class Club:
    id: int
    name: str
    owner: str  # the member who made it
    created_at: datetime | None = None
    epoch: int = 0  # changes whenever its figures must be built again (not a game's end)
    # member key -> name: the club's admins besides its owner
    admins: dict[str, str] = field(default_factory=dict)
    owner_name: str = ""
    page: str | None = None  # the nonce of the club page's link (bot/core/pages.py)
    language: str = ""  # the page's language ("" : the reader's)

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"admins": self.admins, "owner_name": self.owner_name}
        if self.page:
            out["page"] = self.page
        if self.language:
            out["language"] = self.language
        return out

    @staticmethod
    def read(id: int, name: str, owner: str, created_at: datetime | None, epoch: int,
             data: Mapping[str, Any] | None) -> Club:
        data = data or {}
        return Club(id, name, owner, created_at, epoch,
                    {str(k): str(v) for k, v in (data.get("admins") or {}).items()},
                    str(data.get("owner_name") or ""), data.get("page") or None,
                    str(data.get("language") or ""))

    def is_admin(self, member: str) -> bool:
        return member == self.owner or member in self.admins


@dataclass(frozen=True)
class ClubTable:
    chat: str
    club_id: int
    name: str  # the chat's name as the platform gave it when it joined (or its key)
    joined_by: str
    joined_at: datetime | None = None

    @property
    def platform(self) -> str:
        return self.chat.split(":", 1)[0]


@dataclass(frozen=True)
class CodeUse:
    """What a typed code turned out to be: its subject if it was good now (it is used up
    from here), else why not."""

    subject: str | None
    why: str = ""  # "unknown", "used", "expired", "kind" (a code of the other kind)


class ClubBook(Protocol):
    # the club and its tables
    async def club_of(self, chat: str) -> Club | None: ...
    async def club(self, club_id: int) -> Club | None: ...
    async def new_club(self, name: str, owner: str, owner_name: str) -> Club: ...
    async def save_club(self, club: Club) -> None: ...
    async def changed(self, club_id: int) -> None: ...  # its figures are to be built again
    async def tables(self, club_id: int) -> list[ClubTable]: ...
    async def add_table(self, table: ClubTable) -> None: ...
    async def remove_table(self, chat: str) -> None: ...
    async def lock(self, club_id: int) -> None: ...  # until the transaction ends
    # one-time codes: only their hash is kept
    async def add_code(self, digest: str, kind: str, subject: str, made_by: str,
                       expires_at: datetime) -> None: ...
    async def use_code(self, digest: str, kind: str, used_by: str,
                       now: datetime) -> CodeUse: ...
    # people: account -> the person it is linked to
    async def persons(self) -> dict[str, str]: ...
    async def link(self, account: str, person: str) -> None: ...
    async def unlink(self, person: str) -> None: ...
    async def all_changed(self) -> None: ...  # every club's figures, built again
    async def games_changed(self, chat: str) -> None: ...  # the chat's games counted again
    # seasons
    async def seasons(self, club_id: int) -> list[ClubSeason]: ...
    async def add_season(self, club_id: int, name: str, by: str, by_name: str
                         ) -> ClubSeason: ...
    async def end_season(self, season_id: int, by: str) -> None: ...
    # the finished games, as the club counts them
    async def summaries(self, club_id: int, after: int = 0
                        ) -> list[tuple[int, GameSummary]]: ...
    def in_order(self, club_id: int) -> AsyncIterator[list[tuple[int, GameSummary]]]: ...
    async def add_summary(self, summary: GameSummary) -> int | None: ...
    async def unsummarised(self, club_id: int) -> dict[str, list[int]]: ...
    async def chat_games(self, chat: str) -> tuple[list[SessionState], ChatSettings]: ...
    async def hands_of(self, session_id: int) -> list[HandRecord]: ...
    async def payments(self, club_id: int) -> list[tuple[str, Any]]: ...
    def after_commit(self, done: Callable[[], None]) -> None: ...
    # tournaments and nights (each changed under the club's lock)
    async def tournaments(self, club_id: int) -> list[Tournament]: ...
    async def add_tournament(self, made: Tournament) -> Tournament: ...
    async def save_tournament(self, changed: Tournament) -> None: ...
    async def timed_tournaments(self) -> list[Tournament]: ...
    async def night(self, club_id: int) -> Night | None: ...
    async def add_night(self, night: Night) -> Night: ...
    async def save_night(self, night: Night) -> None: ...
