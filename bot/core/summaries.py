"""A hand's summary ("alice won; seen bob; maal alice 10"), derived when it is shown rather
than kept with every hand (issue 27): scored again from what the hand keeps (its inputs,
rules and the state it started from, with its seats as the game names them now).

A summary is kept as it was, in the hand's row, when deriving it would not give the same
text the moment it is recorded: a hand recorded before summaries were messages (plain
English), Call Break's notes said only when a round is first entered, what a game charges
at /endgame (Marriage's foul carried to the end), a hand whose game can't score it again
from its inputs, and an imported file's hands whose text differs. A new hand's row keeps
its summary; a background pass (bot/storage/transaction/retention.py, off /hand's path) leaves it
out where `can_derive` says so, once; a row's empty summary means "derived"."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.core import stored_json
from bot.core.command import Actor
from bot.core.games.base import Game, PlayContext
from bot.core.i18n.text import Text, encode
from bot.core.players import Player, Roster
from bot.core.points import show
from bot.core.session import HandRecord

DERIVED = ""  # a hand row's summary when it is derived when shown
_NOBODY = Actor(id="", name="")


def derive(game: Game, roster: Roster, players: Iterable[int], inputs: Mapping[str, Any],
           rules: Mapping[str, Any], state_before: Mapping[str, Any] | None) -> Text | None:
    """The summary the game gives the hand scored again, or None if it can't score it."""
    seats = set(players)
    ctx = PlayContext(
        command=game.result_command, options={}, roster=roster,
        hand_players=[p for p in roster if p.seat in seats],
        rules=game.rulebook.complete(rules), pending=None, actor=_NOBODY, actor_player=None,
        # copies (JSON both, as kept): a game may change what it reads, and this hand is
        # kept as it is
        editing=_copy(inputs), state=None if state_before is None else _copy(state_before))
    try:
        said = game.summary_of(ctx)
        if said is not None:
            return said
        outcome = game.rescore(ctx)
        if outcome is None:  # a game whose hands depend on nothing before them
            outcome = game.reenter(ctx)
    except Exception:  # a hand it can't score again: its summary is kept
        return None
    return outcome.result.summary if outcome.result is not None else None


def _copy(value: Mapping[str, Any]) -> dict[str, Any]:
    return stored_json.loads(stored_json.dumps(dict(value)))


def derived(game: Game, roster: Roster, hand: HandRecord) -> Text | None:
    return derive(game, roster, hand.players, hand.inputs, hand.rules, hand.state_before)


def shown(game: Game, roster: Roster, hand: HandRecord) -> Text:
    """A recorded hand's summary: as kept, or derived now. A derived one the game can no
    longer score (a later version refuses its inputs) shows its points instead."""
    if hand.summary != DERIVED:
        return hand.summary
    again = derived(game, roster, hand)
    if again is not None:
        return again
    labels = dict(game.columns(roster))
    return "  ".join(f"{labels.get(k, k)} {show(v, game.point_places)}"
                     for k, v in hand.deltas.items())


def stored_text(game_key: str, players: list[Mapping[str, Any]], hand: Mapping[str, Any]
                ) -> str:
    """A hand row's summary as an export writes it: the kept text, or derived now (for
    files, which carry every summary whole)."""
    summary = hand.get("summary")
    if summary != DERIVED:
        return str(summary)
    from bot.core.games.registry import GAMES

    game = GAMES.get(game_key)
    if game is None:
        return ""
    roster = Roster([Player.from_json(p) for p in players])
    record = HandRecord(no=hand.get("no") or 0, players=list(hand.get("players") or []),
                        inputs=dict(hand.get("inputs") or {}), rules=dict(hand.get("rules") or {}),
                        deltas={int(k): v for k, v in (hand.get("deltas") or {}).items()},
                        summary=DERIVED, recorded_by="", recorded_by_name="",
                        state_before=hand.get("state_before"))
    return encode(shown(game, roster, record))


def can_derive(game_key: str, players: list[Mapping[str, Any]], hand: Mapping[str, Any]
               ) -> bool:
    """Whether a kept summary (a row's, a file's) is what deriving it gives: then it need
    not be kept (migration 16, an import)."""
    from bot.core.games.registry import GAMES

    game = GAMES.get(game_key)
    summary = hand.get("summary")
    if game is None or not isinstance(summary, str) or summary == DERIVED:
        return False
    roster = Roster([Player.from_json(p) for p in players])
    try:
        again = derive(game, roster, hand.get("players") or [], hand.get("inputs") or {},
                       hand.get("rules") or {}, hand.get("state_before"))
    except Exception:
        return False
    return again is not None and encode(again) == summary
