"""A club night (pure): who said they are here (the "I'm here" button under /club night,
or /club here), and the tables seated that night, so that a second seating keeps apart who
sat together earlier and gives each their Riichi winds in turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.core.club.seating import Pair, pair

NIGHT_LASTS = timedelta(hours=24)  # a night's list is the club's until this long after it
TONIGHT = 10.0  # two who sat together earlier tonight weigh as much as a meeting today


@dataclass
class Seated:
    """One /club tables of the night: the game, its seed and the tables (seat order)."""

    game: str
    seed: int
    tables: list[list[str]]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "tables": self.tables}

    @staticmethod
    def read(data: Mapping[str, Any]) -> Seated:
        return Seated(str(data["game"]), int(data["seed"]),
                      [[str(m) for m in t] for t in data["tables"]])


@dataclass
class Night:
    id: int
    club_id: int
    started_at: datetime
    by: str = ""
    present: dict[str, str] = field(default_factory=dict)  # member -> name, in tap order
    accounts: dict[str, str] = field(default_factory=dict)  # member -> the account tapped
    seated: list[Seated] = field(default_factory=list)

    def data(self) -> dict[str, Any]:
        return {"by": self.by, "present": self.present, "accounts": self.accounts,
                "seated": [s.to_json() for s in self.seated]}

    @staticmethod
    def read(id: int, club_id: int, started_at: datetime,
             data: Mapping[str, Any] | None) -> Night:
        data = data or {}
        return Night(id, club_id, started_at, str(data.get("by") or ""),
                     {str(k): str(v) for k, v in (data.get("present") or {}).items()},
                     {str(k): str(v) for k, v in (data.get("accounts") or {}).items()},
                     [Seated.read(s) for s in data.get("seated") or ()])

    def open_at(self, now: datetime) -> bool:
        return now - self.started_at < NIGHT_LASTS

    def sat_together(self) -> dict[Pair, int]:
        out: dict[Pair, int] = {}
        for seated in self.seated:
            for table in seated.tables:
                for i, a in enumerate(table):
                    for b in table[i + 1:]:
                        out[pair(a, b)] = out.get(pair(a, b), 0) + 1
        return out

    def winds(self, game: str) -> dict[str, list[int]]:
        """How often each member sat in each seat of this game's tables tonight."""
        out: dict[str, list[int]] = {}
        for seated in self.seated:
            if seated.game != game:
                continue
            for table in seated.tables:
                for at, member in enumerate(table):
                    out.setdefault(member, [0, 0, 0, 0])[at % 4] += 1
        return out
