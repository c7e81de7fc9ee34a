"""Marriage in other languages: what the game returns is rendered in Nepali from the
catalogue, a kept summary too; and the catalogues of marriage and marriage rummy translate
every message with the same placeholders, commands and option keys."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.core.command import Actor
from bot.core.errors import UserError
from bot.core.games.base import PlayContext
from bot.core.games.marriage import MarriageGame
from bot.core.i18n import decode, encode, translator
from bot.core.players import Player, Roster

NE = translator("ne", "marriage")
GAMES = Path(__file__).resolve().parents[3] / "bot" / "core" / "games"


def play(command: str, options: dict[str, str], **kw: object):
    game = MarriageGame()
    players = [Player(1, "alice"), Player(2, "bob"), Player(3, "carol")]
    ctx = PlayContext(command=command, options=options, roster=Roster(players),
                      hand_players=players, rules=game.rulebook.defaults(), pending=None,
                      actor=Actor(id="test:alice", name="alice"), actor_player=players[0],
                      **kw)  # type: ignore[arg-type]
    spec = next(s for s in game.declare() if s.name == command)
    assert spec.play is not None
    return spec.play(ctx)


def test_a_scored_hand_in_nepali_and_kept_as_a_message():
    outcome = play("hand", {"winner": "alice", "seen": "bob", "maal": "alice=10 bob=5",
                            "dublee": "yes"})
    summary = outcome.result.summary
    assert str(summary) == ("alice won with dublees; seen bob; unseen carol (maal murdered); "
                            "maal alice 10, bob 5")
    nepali = ("alice ले डबलीले जित्नुभयो; सिन bob; अनसिन carol (माल मर्डर); "
              "माल alice 10, bob 5")
    assert NE.render(summary) == nepali
    assert NE.render(decode(encode(summary))) == nepali  # stored, and shown later


def test_a_foul_error_and_the_counted_maal_in_nepali():
    with pytest.raises(UserError) as error:
        play("hand", {"winner": "alice", "seen": "bob", "foul": "alice"})
    assert NE.render(error.value.message) == \
        "alice एउटै हातमा जित्न र फाउल गर्न सक्नुहुन्न।"
    outcome = play("maal", {"tiplu": "8H", "cards": "8H 8H 9H 7H 8D"})
    assert NE.render(outcome.text) == "टिप्लु 8H सँग माल: म्यारिज 10 + टिप्लु 3 = 13"
    # a hand left waiting: the game adds nothing (the core says whose maal is missing)
    waiting = play("hand", {"winner": "alice", "seen": "bob", "maal": "alice=10"})
    assert waiting.pending is not None and NE.render(waiting.text) == ""
    with pytest.raises(UserError) as error:  # carol is unseen: her maal would be murdered
        play("hand", {"winner": "alice", "seen": "bob", "maal": "alice=10 bob=0 carol=4"})
    assert NE.render(error.value.message).startswith(
        "carol सँग माल छ तर seen: मा छैनन्, र यहाँ अनसिन खेलाडीको माल मर्डर हुन्छ।")


def test_the_maal_table_and_the_checker_in_nepali():
    table = play("setmaal", {})
    lines = NE.render(table.text).splitlines()
    assert lines[0] == "माल तालिका (1/2/3... वटा हुँदा पाइने अंक):"
    assert lines[1] == "tiplu 3/7 — टिप्लु (जोकर पत्ती)"
    with pytest.raises(UserError) as error:
        play("check", {"tiplu": "8H", "cards": "2C 2D"})
    assert NE.render(error.value.message) == \
        "फिनिस 21 पत्तीमा जाँचिन्छ (वा फाल्ने पत्ती पत्ता लगाउन 22 मा); तपाईंले 2 दिनुभयो।"


# --- the catalogues of marriage and marriage rummy ---------------------------------------

DOMAINS = ("marriage", "marriage_rummy")
LOCALES = ("ne", "hi", "pt_BR")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
COMMAND = re.compile(r"(?<![\w/])/[a-z]+\b")
# the option and rule keys people type, kept as they are in every language: a key with its
# value (tiplu:8H, seen:bob), and any key with an underscore (dublee_route:, foul_when:)
KEY = re.compile(r"\b(?:[a-z]+:(?=[\w{<])|[a-z]+_[a-z_]+:)")


def catalogue(domain: str, locale: str | None):
    folder = GAMES / domain / "locale"
    path = folder / f"{domain}.pot" if locale is None else \
        folder / locale / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=domain)


def forms(message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple) else [message.id]


def strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated_with_its_placeholders(domain: str, locale: str):
    template = catalogue(domain, None)
    translated = catalogue(domain, locale)
    problems = []
    for source in template:
        if not source.id:
            continue
        key = source.id[0] if isinstance(source.id, tuple) else source.id
        message = translated.get(key)
        if message is None or not all(strings(message)) or message.fuzzy:
            problems.append(f"untranslated or fuzzy: {key!r}")
            continue
        if isinstance(source.id, tuple) and len(strings(message)) != 2:
            problems.append(f"both plural forms needed: {key!r}")
        wanted = [set(PLACEHOLDER.findall(f)) for f in forms(source)]
        for text in strings(message):
            if set(PLACEHOLDER.findall(text)) not in wanted:
                problems.append(f"placeholders differ: {key!r} -> {text!r}")
            for pattern in (COMMAND, KEY):
                missing = sorted(set(pattern.findall(key)) - set(pattern.findall(text)))
                if missing:
                    problems.append(f"{missing} dropped: {key!r} -> {text!r}")
    assert not problems, "\n".join(problems)
