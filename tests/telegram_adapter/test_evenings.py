"""Whole evenings in a table's own language, through the real python-telegram-bot against
the fake Bot API: everything the bot shows (replies, edits, buttons, tap notices, the
prompt, the chart's caption, the standings and the settle-up) is in that language; the only
Latin words left are the table's names and the command grammar people type (/hand,
winner:, rule keys and the values they take).

Nepali with Nepali Marriage (buttons and the maal prompt), Hindi with marriage rummy and
Portuguese (Brazil) with Tranca, as the issue asks; Hindi again with a game of points, and
Nepali with Dhumbal."""

from __future__ import annotations

import html
import re
from typing import Any

from babel.messages.pofile import read_po

from bot.core.games import GAMES
from bot.core.i18n.catalogues import po_path, pot_path
from tests.telegram_helpers import ALICE, CAROL, GROUP, Harness

# What people type stays as typed: commands, key:value options, numbers, `quoted` input.
GRAMMAR = re.compile(r"/help (?:rules|words)\b|/\w+|@\w+|[\w-]+:\S*|`[^`]*`|\b\d[\d.,]*\w*\b"
                     r"|tg://\S+")
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
# values people type or pick as they are: setting values, timezones, language codes
TYPED = {"yes", "no", "auto", "live", "new", "last", "all", "none", "rs", "utc", "en", "ne",
         "hi", "pt", "br",
         # /help's topics as people type them (/help seat, /help marriage; COMMAND stands for
         # a command's name in "/help COMMAND")
         "command", "seat", "money", "words", "rules", "marriage", "marriage_rummy", "tranca",
         "riichi", "callbreak", "points", "dhumbal"}


def shown(fake: Any) -> list[str]:
    """Every text the bot put in front of people in the group."""
    texts: list[str] = []
    for call in fake.calls:
        params = call.params
        if str(params.get("chat_id")) not in (str(GROUP), "") and call.method != \
                "answerCallbackQuery":
            continue
        for key in ("text", "caption"):
            if params.get(key):
                texts.append(str(params[key]))
        markup = params.get("reply_markup") or {}
        if isinstance(markup, dict):
            texts += [b["text"] for row in markup.get("inline_keyboard", []) for b in row]
            if markup.get("input_field_placeholder"):
                texts.append(markup["input_field_placeholder"])
    return texts


def latin_words(text: str, allowed: set[str]) -> list[str]:
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
    plain = GRAMMAR.sub(" ", plain)
    return [w for w in WORD.findall(plain) if w.lower() not in allowed]


def grammar_of(game_key: str) -> set[str]:
    """The rule keys and the values they take: typed as they are, in every language."""
    book = GAMES[game_key].rulebook
    words = {spec.key.lower() for spec in book.specs}
    for spec in book.specs:
        words |= {c.lower() for c in spec.choices}
        words |= {part for key in [spec.key] for part in key.lower().split("_")}
    # a preset's name as typed, and its words (rummy500 is read as the word rummy)
    words |= {part for p in book.presets
              for part in [p.name.lower(), *re.findall(r"[a-z]+", p.name.lower())]}
    return words | TYPED


def no_latin(texts: list[str], allowed: set[str]) -> None:
    leftovers = {(w, t[:120]) for t in texts for w in latin_words(t, allowed)}
    assert not leftovers, "English left in the replies:\n" + "\n".join(
        f"{w!r} in {t!r}" for w, t in sorted(leftovers))


async def answered(tg: Harness, who: dict, text: str, **kw: Any) -> dict[str, Any]:
    return await tg.reply_to(await tg.say(who, text, **kw))


async def tap_label(tg: Harness, who: dict, asked: dict[str, Any], label: str) -> dict[str, Any]:
    """Tap the button called `label` on the message `asked`; the edit of that message that
    answers it (a live board edited meanwhile is another message)."""
    chat, message_id = int(asked["chat_id"]), asked["_message_id"]

    def edits() -> list[dict[str, Any]]:
        return [p for p in tg.fake.sent("editMessageText", chat)
                if int(p["message_id"]) == message_id]

    before = len(edits())
    await tg.tap(who, tg.sent_message(asked), tg.buttons(asked)[label])
    return await tg.fake.wait_until(lambda: edits()[before] if len(edits()) > before else None)


async def test_a_marriage_evening_in_nepali(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await answered(tg, ALICE, "/settings language:ne")
    new = await answered(tg, ALICE, "/newgame marriage players:@alice ram @carol")
    assert new["text"].startswith("नयाँ")
    await answered(tg, ALICE, "/rules rate:10 currency:Rs")
    # a hand by taps: who won, who else has seen, then the maal prompt
    asked = await answered(tg, ALICE, "/hand")
    seen = await tap_label(tg, ALICE, asked, "alice")
    marked = await tap_label(tg, ALICE, seen, "ram")
    await tap_label(tg, ALICE, marked, "सकियो")  # Done
    prompt = await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("sendMessage", GROUP)
         if (p.get("reply_markup") or {}).get("force_reply")), None))
    await tg.say(ALICE, "10", reply_to=tg.sent_message(prompt))
    await tg.say(ALICE, "ram=2", reply_to=tg.sent_message(prompt))
    await tg.fake.wait_until(lambda: any("हात 1" in p.get("text", "")
                                         for p in tg.fake.sent("sendMessage", GROUP)))
    # a typed hand, then undone by its confirmation
    await answered(tg, CAROL, "/hand winner:carol seen:alice maal:alice=3 carol=4")
    ask = await answered(tg, CAROL, "/undo")
    undone = await tap_label(tg, CAROL, ask, "हो, फिर्ता लिनुहोस्")
    assert "फिर्ता" in undone["text"]
    await answered(tg, CAROL, "/hand winner:carol seen:alice maal:alice=3 carol=4")
    await answered(tg, ALICE, "/rules")
    await answered(tg, ALICE, "/board")
    await answered(tg, ALICE, "/help")
    await tg.say(ALICE, "/chart")
    await tg.fake.wait_for("sendPhoto", 1)
    ask = await answered(tg, ALICE, "/endgame")
    await tap_label(tg, ALICE, ask, "हो, सक्नुहोस्")
    standings = await tg.fake.wait_until(lambda: next(
        (t for t in shown(tg.fake) if "हिसाब मिलाउन" in t), None))
    assert "ram ले alice लाई" in standings  # who pays whom, in Nepali
    no_latin(shown(tg.fake), {"alice", "ram", "carol"} | grammar_of("marriage"))


async def test_a_marriage_rummy_evening_in_hindi(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await answered(tg, ALICE, "/settings language:hi")
    await answered(tg, ALICE, "/newgame marriage_rummy players:asha bikash chetan")
    await answered(tg, ALICE, "/rules rate:0.5 currency:Rs")
    await answered(tg, ALICE, "/hand")  # no taps in rummy: it says how to type it
    await answered(tg, ALICE, "/hand winner:asha honours:asha=3 bikash=1 points:bikash=25 "
                              "chetan=40")
    await answered(tg, ALICE, "/hand winner:bikash points:asha=12 chetan=30")
    ask = await answered(tg, ALICE, "/undo")
    await tap_label(tg, ALICE, ask, next(k for k in tg.buttons(ask) if k != "रद्द करें"
                                         and "वापस" in k))
    await answered(tg, ALICE, "/hand winner:chetan points:asha=7 bikash=50")
    await answered(tg, ALICE, "/hand winner:zed")  # a mistake: the error is Hindi too
    await answered(tg, ALICE, "/rules")
    await answered(tg, ALICE, "/board")
    await tg.say(ALICE, "/chart")
    await tg.fake.wait_for("sendPhoto", 1)
    ask = await answered(tg, ALICE, "/endgame")
    yes = next(k for k in tg.buttons(ask) if "हाँ" in k)
    await tap_label(tg, ALICE, ask, yes)
    no_latin(shown(tg.fake), {"asha", "bikash", "chetan", "zed"}
             | grammar_of("marriage_rummy"))


def english_vocabulary(domains: tuple[str, ...], locale: str) -> set[str]:
    """Words of the English messages that the translations never use: seen in a
    Portuguese reply, they are English left behind (a shared word like "a" or "total" is
    Portuguese too, so it doesn't count)."""
    english: set[str] = set()
    translated: set[str] = set()
    for domain in domains:
        with pot_path(domain).open("rb") as handle:
            for message in read_po(handle):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                for text in ids:
                    english |= {w.lower() for w in WORD.findall(GRAMMAR.sub(" ", text))}
        with po_path(domain, locale).open("rb") as handle:
            for message in read_po(handle, locale=locale):
                strings = message.string if isinstance(message.string, tuple) \
                    else (message.string,)
                for text in strings:
                    translated |= {w.lower() for w in WORD.findall(text or "")}
    return english - translated


async def test_a_tranca_evening_in_portuguese(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await answered(tg, ALICE, "/settings language:pt-BR")
    new = await answered(tg, ALICE, "/newgame tranca teams:ana+bruno carla+davi")
    assert "Tranca" in new["text"]
    await answered(tg, ALICE, "/round side:A table:365 hand:40 clean:1 dirty:1 red3:1 "
                              "out:yes")
    await answered(tg, ALICE, "/round side:B table:240 hand:85 dirty:1")
    await answered(tg, ALICE, "/round side:A table:500 hand:0 clean:2 out:yes")
    await answered(tg, ALICE, "/round side:B table:120 hand:30")
    ask = await answered(tg, ALICE, "/undo")
    await tap_label(tg, ALICE, ask, next(k for k in tg.buttons(ask)
                                         if k.lower().startswith("sim")))
    await answered(tg, ALICE, "/round side:A table:500 hand:0 clean:2 out:yes")
    await answered(tg, ALICE, "/round side:B table:120 hand:30")
    await answered(tg, ALICE, "/round side:Q table:10")  # a mistake, answered in Portuguese
    await answered(tg, ALICE, "/rules")
    await answered(tg, ALICE, "/board")
    await answered(tg, ALICE, "/help round")
    await tg.say(ALICE, "/chart")
    await tg.fake.wait_for("sendPhoto", 1)
    ask = await answered(tg, ALICE, "/endgame")
    await tap_label(tg, ALICE, ask, next(k for k in tg.buttons(ask)
                                         if k.lower().startswith("sim")))
    english = english_vocabulary(("maalbot", "tranca"), "pt_BR") - grammar_of("tranca")
    texts = shown(tg.fake)
    leftovers = {(w, t[:120]) for t in texts for w in latin_words(t, set())
                 if w.lower() in english and w.lower() not in {"ana", "bruno", "carla",
                                                                "davi"}}
    assert not leftovers, "English left in the replies:\n" + "\n".join(
        f"{w!r} in {t!r}" for w, t in sorted(leftovers))


async def test_an_evening_of_points_in_hindi(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await answered(tg, ALICE, "/settings language:hi")
    await answered(tg, ALICE, "/newgame points players:asha bikash chetan")
    await answered(tg, ALICE, "/rules winner_takes:yes rate:10 currency:Rs")
    first = await answered(tg, ALICE, "/round winner:asha bikash=12 chetan=7")
    assert "asha +19  bikash -12  chetan -7" in first["text"]
    await answered(tg, ALICE, "/round winner:chetan asha=30 bikash=1")
    ask = await answered(tg, ALICE, "/undo")
    await tap_label(tg, ALICE, ask, next(k for k in tg.buttons(ask) if "वापस" in k))
    await answered(tg, ALICE, "/round winner:chetan asha=4 bikash=10")
    await answered(tg, ALICE, "/round winner:zed asha=1")  # a mistake: the error is Hindi too
    await answered(tg, ALICE, "/round asha=1 bikash=2 chetan=3")  # no winner: said in Hindi
    await answered(tg, ALICE, "/rules")
    await answered(tg, ALICE, "/board")
    await answered(tg, ALICE, "/help round")
    await answered(tg, ALICE, "/help points")
    await tg.say(ALICE, "/chart")
    await tg.fake.wait_for("sendPhoto", 1)
    ask = await answered(tg, ALICE, "/endgame")
    await tap_label(tg, ALICE, ask, next(k for k in tg.buttons(ask) if "हाँ" in k))
    standings = await tg.fake.wait_until(lambda: next(
        (t for t in shown(tg.fake) if "bikash" in t and "150 Rs" in t), None))
    assert "asha" in standings  # bikash pays asha 150 Rs, in Hindi
    no_latin(shown(tg.fake), {"asha", "bikash", "chetan", "zed"} | grammar_of("points"))


async def test_a_dhumbal_evening_in_nepali(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await answered(tg, ALICE, "/settings language:ne")
    await answered(tg, ALICE, "/newgame dhumbal players:asha bikash chetan")
    await answered(tg, ALICE, "/rules limit:50 per_place:20 0 -20 currency:Rs")
    held = await answered(tg, ALICE, "/round show:asha asha=3 bikash=12 chetan=7")
    assert "asha 0  bikash +12  chetan +7" in held["text"]
    caught = await answered(tg, ALICE, "/round show:asha asha=3 bikash=3 chetan=7")
    assert "asha +28  bikash +3  chetan +7" in caught["text"]  # 3 + 25
    await answered(tg, ALICE, "/round asha=40 bikash=2 chetan=9")  # asha 68: out
    await answered(tg, ALICE, "/round show:asha asha=1 bikash=2 chetan=3")  # she is out
    ask = await answered(tg, ALICE, "/undo")
    await tap_label(tg, ALICE, ask, next(k for k in tg.buttons(ask) if "फिर्ता" in k))
    await answered(tg, ALICE, "/round asha=40 bikash=2 chetan=9")
    await answered(tg, ALICE, "/round show:bikash bikash=2 chetan=30")  # chetan 53: out
    await answered(tg, ALICE, "/round bikash=1 chetan=2")  # the game is over
    await answered(tg, ALICE, "/rules")
    await answered(tg, ALICE, "/board")
    await answered(tg, ALICE, "/help dhumbal")
    await tg.say(ALICE, "/chart")
    await tg.fake.wait_for("sendPhoto", 1)
    ask = await answered(tg, ALICE, "/endgame")
    await tap_label(tg, ALICE, ask, "हो, सक्नुहोस्")
    standings = await tg.fake.wait_until(lambda: next(
        (t for t in shown(tg.fake) if "हिसाब मिलाउन" in t), None))
    assert "asha ले bikash लाई" in standings  # the last one in wins the first place's 20
    no_latin(shown(tg.fake), {"asha", "bikash", "chetan"} | grammar_of("dhumbal"))
