"""Seats at the table and how typed names find them."""

from __future__ import annotations

import contextlib
import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.actor import Actor
from bot.core.confusables import LOOK_ALIKES
from bot.core.errors import UserError
from bot.core.grammar import clip, cut, parse_pairs, split_list
from bot.core.i18n.text import Msg, Text, _, join
from bot.core.lookalike import shape, shapes

MAX_NAME_LENGTH = 24  # a name people type
# An @username names its account whole: Telegram allows 5 to 32 characters, Discord 2 to 32.
MAX_USERNAME_LENGTH = 32
# Words that mean something else on a chat platform or in the grammar.
RESERVED_NAMES = {"everyone", "here", "all", "me", "channel", "nobody", "none"}
_MENTION = re.compile(r"^<@!?(\d+)>$")


@dataclass
class Player:
    seat: int  # stable id within a session, 1-based, in the order players sat down
    name: str
    user_id: str | None = None  # platform-qualified actor id once the seat is linked to a person
    joined_after: int = 0  # number of hands already recorded when this player sat down
    sitting_out: bool = False  # seated, but not in the hands being dealt now
    # The @username the seat was named by ("@alice"): the account with that username is
    # this player (usernames are unique on Telegram; display names are not and never count).
    handle: str | None = None
    # Someone who asked to sit in this seat typed by name once hands were recorded, waiting
    # for the starter's or an admin's tap: {"id": actor id, "name": shown name, "handle"}.
    claim: dict[str, str] | None = None

    @property
    def typed(self) -> bool:
        """A seat typed by name at /newgame: nobody's account, no @username."""
        return self.user_id is None and self.handle is None

    def to_json(self) -> dict[str, Any]:
        # as asdict(self), without its deep copy: every field is a plain value
        data: dict[str, Any] = {"seat": self.seat, "name": self.name, "user_id": self.user_id,
                                "joined_after": self.joined_after,
                                "sitting_out": self.sitting_out, "handle": self.handle}
        if self.claim is not None:  # only while someone waits for a tap
            data["claim"] = self.claim
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        player = cls(**data)
        claim = player.claim
        if claim is not None and not (isinstance(claim, Mapping)
                                      and isinstance(claim.get("id"), str)):
            player.claim = None  # an imported file's: nobody is waiting
        return player


def account_handle(actor: Actor) -> str | None:
    """The @username of an account (lowercase, no @), kept on a seat it sits in: a seat
    named by that @username elsewhere is the same person (`bot/core/stats.py` identity)."""
    handle = actor.handles[0].strip().lstrip("@").lower() if actor.handles else ""
    return handle or None


# A name is compared by its skeletons (bot/core/lookalike.py, Unicode's confusables), so
# "аlice" (Cyrillic а), "ᴀᴄᴇ" (small capitals) or "ıce" (dotless i) can't sit beside the
# player it copies.
_CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")
# Characters that show as nothing (Unicode's Default_Ignorable_Code_Point). Most are format
# characters, refused as symbols; these few are letters or marks (a grapheme joiner, the
# Hangul fillers, variation selectors), so "ace" with one after it would sit beside "ace"
# looking the same. A name never holds them; a display name drops them.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def fold(name: str) -> str:
    """A name as it is matched: any case, any compatible form (ｂｏｂ is bob)."""
    return unicodedata.normalize("NFKC", name).casefold()


def skeleton(name: str) -> str:
    """What a name looks like in any case: compatibility forms folded, accents and case
    dropped, each letter read as the one it looks like (Unicode's confusables)."""
    return shape(_INVISIBLE.sub("", name))


def skeletons(name: str) -> frozenset[str]:
    """Every skeleton of a name: also as its capitals read (ЬоЬ looks like bob)."""
    return shapes(_INVISIBLE.sub("", name))


def look_alike(name: str, other: str) -> bool:
    """Whether two names read the same to someone looking at them."""
    return not skeletons(name).isdisjoint(skeletons(other))


def _as_latin(text: str) -> str:
    """Letters of other alphabets that look like Latin ones, read as Latin (in their case)."""
    read = []
    for char in text:
        latin = LOOK_ALIKES.get(char, char) if not char.isascii() else char
        if latin.isascii() and latin.isalpha() and char not in latin:
            read.append(latin.upper() if char.isupper() else latin)
        else:
            read.append(char)
    return "".join(read)


def _scripts(name: str) -> set[str]:
    found = set()
    for char in name:
        if unicodedata.category(char)[0] == "L":
            found.add(unicodedata.name(char, "?").split()[0])
    return found & set(_CONFUSABLE_SCRIPTS)


def check_name(raw: str, *, username: bool = False) -> str:
    """A name people can type back: letters, marks, digits and - _ . ' only, in one of the
    alphabets that look alike (not Latin and Cyrillic mixed), with at least one letter.
    `username`: an @username, which names its account whole (up to 32 characters)."""
    # one form for what looks the same: fullwidth ａｌｉｃｅ is alice, é is one character
    name = unicodedata.normalize("NFKC", raw.strip()).lstrip("@")
    if not name:
        raise UserError(_("A player needs a name."))
    limit = MAX_USERNAME_LENGTH if username else MAX_NAME_LENGTH
    if len(name) > limit:
        raise UserError(_("`{name}` is too long for a name ({length} characters); use at "
                          "most {limit}.", name=clip(name), length=len(name),
                          limit=limit))
    for char in name:
        if not (unicodedata.category(char)[0] in "LMN" or char in "-_.'") \
                or _INVISIBLE.match(char):
            raise UserError(_(
                "`{name}` can't be a name: use letters, digits and - _ . ' "
                "(no spaces, emoji or symbols), so it can be typed back in a command.",
                name=clip(name)))
    if not any(unicodedata.category(c)[0] == "L" for c in name):
        raise UserError(_("`{name}` can't be a name: it needs a letter.", name=clip(name)))
    scripts = _scripts(name)
    if len(scripts) > 1:
        mixed = ", ".join(sorted(scripts)).lower()
        raise UserError(_("`{name}` mixes alphabets ({alphabets}); letters that look alike "
                          "would make two players look the same. Type it in one alphabet.",
                          name=clip(name), alphabets=mixed))
    if name.lower() in RESERVED_NAMES:
        raise UserError(_("`{name}` is a reserved word on chat platforms; pick another "
                          "name.", name=clip(raw.strip())))
    if name[0].isdecimal():
        raise UserError(_("`{name}` can't be a name: start it with a letter.", name=name))
    return name


def suggest_name(display_name: str, taken: Iterable[str]) -> str:
    """A typeable, unique name from a display name ("Ram Bahadur 🎲" -> "Ram_Bahadur"); it
    never looks like a name already taken."""
    display = _INVISIBLE.sub("", unicodedata.normalize("NFKC", display_name))
    if len(_scripts(display)) > 1:  # "Аlice" with a Cyrillic А: read the look-alikes as Latin
        display = _as_latin(display)
    kept = "".join(
        c if unicodedata.category(c)[0] in "LMN" or c in "-_.'" else "_" for c in display
    )
    # cut between letters as people see them (never inside a Devanagari conjunct)
    base = cut(re.sub(r"_+", "_", kept).strip("_"), MAX_NAME_LENGTH).strip("_")
    if not any(unicodedata.category(c)[0] == "L" for c in base) or len(_scripts(base)) > 1:
        base = "player"
    if base[0].isdecimal() or base.lower() in RESERVED_NAMES:
        base = cut("p_" + base, MAX_NAME_LENGTH)
    seen = frozenset().union(*(skeletons(t) for t in taken))
    candidate, n = base, 2
    while not skeletons(candidate).isdisjoint(seen):
        suffix = str(n)
        candidate = cut(base, MAX_NAME_LENGTH - len(suffix)) + suffix
        n += 1
    return candidate


@dataclass(frozen=True)
class Miss:
    """Why a name finds no seat: `why` on its own, `short` in a list of several."""

    token: str
    why: Msg
    short: Text
    absent: bool = False  # a player sitting out, not a stranger


def names_in(options: Mapping[str, str], lists: Iterable[str],
             pairs: Iterable[str]) -> list[str]:
    """The player names a line gives: every word of the `lists` options (winner:, seen:;
    none and - name nobody) and the name of each pair of the `pairs` options (maal:bob=5)."""
    names = [w for key in lists if key in options for w in split_list(options[key])
             if w.lower() not in ("none", "-")]
    for key in pairs:
        if key in options:
            # a malformed pair is reported where the option is read
            with contextlib.suppress(UserError):
                names += [name for name, _value in parse_pairs(options[key]) if name]
    return names


class Roster:
    """The players of a session, looked up by what people type. `absent`: players seated at
    the table but not in this hand (sitting out), named in an error rather than unknown."""

    def __init__(self, players: Iterable[Player], absent: Iterable[Player] = ()) -> None:
        self.players = list(players)
        self.absent = list(absent)

    def in_hand(self, seats: Iterable[int]) -> Roster:
        """The players of one hand; the others are absent from it."""
        chosen = set(seats)
        return Roster([p for p in self.players if p.seat in chosen],
                      [p for p in self.players if p.seat not in chosen])

    def __iter__(self):
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def by_seat(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    def by_name(self, name: str) -> Player | None:
        """The player of that name, as typed (any case, any compatible form)."""
        key = fold(name)
        return next((p for p in self.players if p.name.casefold() == key), None)

    def looks_like(self, name: str) -> Player | None:
        """A player whose name looks the same as `name` (alice and аlice, jose and josé)."""
        return next((p for p in self.players if look_alike(p.name, name)), None)

    def find_user(self, user_id: str) -> Player | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def resolve(self, token: str, mentions: Mapping[str, Actor] | None = None) -> Player:
        """`@Bob`, `bob` or a platform mention -> the player; anything else is an error that
        says why. A name is matched whole (any case, any compatible form): a near miss
        (`prakas`) is never taken for another player, it is asked about. A mentioned person
        is a player by their account (or the @username the seat was named by), or by a seat
        typed with their name that nobody's account holds; never by another's seat."""
        found = self.find(token, mentions)
        if isinstance(found, Miss):
            raise UserError(join([found.why, self._players_line()], " "))
        return found

    def find(self, token: str, mentions: Mapping[str, Actor] | None = None) -> Player | Miss:
        raw = token.strip()
        mentioned = (mentions or {}).get(raw.lower()) or (mentions or {}).get(raw)
        if mentioned is not None:
            return self._mentioned(raw, mentioned)
        if _MENTION.match(raw):
            return Miss(raw, _("That person is not a player here."), _("that person"))
        key = fold(raw.lstrip("@"))
        exact = next((p for p in self.players if p.name.casefold() == key), None)
        if exact is not None:
            return exact
        away = next((p for p in self.absent if p.name.casefold() == key), None)
        if away is not None:
            return Miss(raw, _("{name} is sitting out: /back {back} brings them back in.",
                               name=away.name, back=away.name.lower()),
                        _("{name} (sitting out)", name=away.name), absent=True)
        close = difflib.get_close_matches(key, [p.name.casefold() for p in self.players],
                                          n=1, cutoff=0.6)
        if close:
            suggestion = next(p.name for p in self.players if p.name.casefold() == close[0])
            return Miss(raw, _("No player called `{name}`: did you mean {close}?",
                               name=clip(raw), close=suggestion),
                        _("`{name}` (did you mean {close}?)", name=clip(raw),
                          close=suggestion))
        return Miss(raw, _("No player called `{name}`.", name=clip(raw)),
                    f"`{clip(raw)}`")

    def _mentioned(self, raw: str, person: Actor) -> Player | Miss:
        player = self.find_user(person.id) or self._by_handle(person.handles)
        if player is not None:
            return player
        # a seat typed with the name they go by, which no account holds: the author could
        # have typed that name (`seen:@Sita` for the seat typed `sita`)
        said = {fold(n.lstrip("@")) for n in (person.name, *person.handles, raw) if n}
        named = [p for p in self.players if p.name.casefold() in said]
        free = [p for p in named if p.typed or (person.by_name and p.user_id is None)]
        if len(free) == 1:
            return free[0]
        shown = clip(person.name)
        if named:
            seat = named[0]
            owner = (_("{person} is not the {name} seated here: that seat is another "
                       "account's.", person=shown, name=seat.name) if seat.user_id else
                     _("{person} is not the {name} seated here: that seat is @{handle}'s.",
                       person=shown, name=seat.name, handle=seat.handle))
            return Miss(raw, owner, _("{person} (not the {name} seated here)", person=shown,
                                      name=seat.name))
        away = next((p for p in self.absent if p.user_id == person.id), None)
        if away is not None:
            return Miss(raw, _("{name} is sitting out: /back {back} brings them back in.",
                               name=away.name, back=away.name.lower()),
                        _("{name} (sitting out)", name=away.name), absent=True)
        typed = [p.name for p in self.players if p.typed]
        if typed:  # they may be one of them: say how a seat becomes theirs
            return Miss(raw, _("{name} sits in no seat here; the seats typed by name ({seats}) "
                               "are nobody's account yet: write the seat's name, or give it "
                               "with /seat NAME person:@them.", name=shown,
                               seats=", ".join(typed)),
                        _("{name} (not seated)", name=shown))
        return Miss(raw, _("{name} is not a player here.", name=shown),
                    _("{name} (not seated)", name=shown))

    def check_known(self, tokens: Iterable[str],
                    mentions: Mapping[str, Actor] | None = None) -> None:
        """Every name of one line at once: an error that reports each name finding no
        seat, not only the first."""
        misses: list[Miss] = []
        for token in dict.fromkeys(t for t in tokens if t.strip()):
            found = self.find(token, mentions)
            if isinstance(found, Miss):
                misses.append(found)
        if len(misses) == 1:
            raise UserError(join([misses[0].why, self._players_line()], " "))
        if misses:
            raise UserError(join([_("Not players here: {names}.", names=join(
                [m.short for m in misses], ", ")), self._players_line()], " "))

    def _by_handle(self, handles: Iterable[str]) -> Player | None:
        wanted = {h.lower() for h in handles}
        return next((p for p in self.players if p.user_id is None and p.handle in wanted),
                    None)

    def _players_line(self) -> Msg:
        return _("Players: {players}.", players=self.listing())

    def resolve_many(self, tokens: Iterable[str], mentions: Mapping[str, Actor] | None = None,
                     what: str = "players") -> list[Player]:
        """`what`: the option they were given in (players, seen:), as people type it."""
        tokens = list(tokens)
        self.check_known(tokens, mentions)  # every unknown name reported at once
        found: list[Player] = []
        for token in tokens:
            player = self.resolve(token, mentions)
            if player in found:
                raise UserError(_("{name} is listed twice in {option}.", name=player.name,
                                  option=what))
            found.append(player)
        return found

    def listing(self) -> Text:
        # TRANSLATORS: the players of a table that has none yet
        return ", ".join(self.names()) if self.players else _("none yet")
