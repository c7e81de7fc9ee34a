"""/help: the commands of the chat's game, each command in full, the game's words and its
rules; all of it from the command table, so help names every option a command takes. The
declared text (command help, a game's glossary, rule help) is translated as it is shown.

Each page fits a phone: about 1,200 characters at most (a longer topic goes on in pages,
/help rules 2), lines broken between sentences, and no page repeating another (/help
marriage lists its commands, each in full on its own page). Examples name the table's own
players and run there as written (a game's `fit_usage`)."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from bot.core.command import Reply
from bot.core.command_table import CommandTable
from bot.core.commands.spec import CommandSpec, spec_text
from bot.core.examples import personal
from bot.core.games.base import Game
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import ENGLISH, Msg, Tr
from bot.core.i18n.words import placeholders
from bot.core.permissions import WHO
from bot.core.rules import ADDITION, WHOLE_TABLE

LONGEST_LINE = 240  # a help line read on a phone: longer ones are broken between sentences
PAGE = 1_200  # a help page read on a phone: a longer topic goes on in pages
FOOT = 60  # room at the end of a page for the line that says where the next is
# The core's commands the first page lists one a line, as a table uses them through a
# game; the others are named together under them
AT_THE_TABLE = ("newgame", "join", "board", "undo", "edit", "endgame", "rules", "scorepad",
                "scoreboard")
# A command's usage as the table asking can type it (the game's fit_usage), or as declared
Fit = Callable[[CommandSpec, Game, str], str]


async def help_(call: Call) -> Outcome:
    asked = call.options.get("") or ""
    page, asked = page_of(asked)
    topic = topic_of(asked, call.table, call.game)
    fit: Fit | None = None
    session = call.session
    if session is not None:
        rules = call.game.rulebook.complete(session.rules)

        def fit(spec: CommandSpec, game: Game, usage: str) -> str:
            if game.key != call.game.key:  # another game's help: as it declares it
                return usage
            return game.fit_usage(spec.name, usage, rules, session.roster, session.game_state)

    text = render(call.tr, call.table, topic, call.game, fit)
    if session is not None:  # examples with the table's own names
        text = personal(text, [p.name for p in session.players])
    return Outcome(Reply(paged(call.tr, wrap(text), topic, page)))


def page_of(asked: str) -> tuple[int, str]:
    """The page asked for ("rules 2": the second) and the topic without it."""
    words = asked.split()
    if words and words[-1].isdecimal() and words[-1].isascii():
        return max(1, int(words[-1][:4])), " ".join(words[:-1])
    return 1, asked


def pages(text: str, limit: int = PAGE - FOOT) -> list[str]:
    """`text` in pages of at most about `limit` characters, each ending between lines (a
    blank line, where there is one near the end of a page)."""
    found, page = [], ""
    for line in text.split("\n"):
        if page and len(page) + 1 + len(line) > limit:
            found.append(page.rstrip("\n"))
            page = ""
        page = f"{page}\n{line}" if page else line.strip()  # a page starts with words
    found.append(page.rstrip("\n"))
    return [p for p in found if p.strip()] or [""]


def paged(tr: Tr, text: str, topic: str, page: int) -> str:
    """Page `page` of a help, with where the next is; one page alone as it is."""
    split = pages(text)
    if len(split) == 1:
        return split[0]
    page = min(page, len(split))
    asked = f"{topic} {page + 1}".strip()
    if page < len(split):
        # TRANSLATORS: a help page of several; {next} is what to type for the next one
        more = tr("({page}/{pages}) More: /help {next}", page=page, pages=len(split),
                  next=asked)
    else:
        more = tr("({page}/{pages})", page=page, pages=len(split))
    return f"{split[page - 1]}\n{more}"


def topic_of(asked: str | None, table: CommandTable, game: Game) -> str:
    """What /help was asked about, as a person types it: "/hand@MaalBot" and "hand winner"
    are /hand's help, "marriage rummy" the game marriage_rummy's."""
    words = (asked or "").lower().split()
    if not words:
        return ""
    known = {"seat", "seats", "money", "rules", "words", *table.games}
    first = words[0].lstrip("/").split("@")[0]
    for topic in ("_".join(words).lstrip("/"), "".join(words).lstrip("/"), first):
        if topic in known or table.lookup(topic, game) or table.games_with(topic):
            return topic
    return " ".join(words).lstrip("/")


def wrap(text: str, limit: int = LONGEST_LINE) -> str:
    """Every line at most `limit` characters: a longer one (a command's details, a game's
    glossary) is broken after a sentence (". "), else after a "; ", else between words,
    so that each line reads whole on a phone."""
    out = []
    for line in text.split("\n"):
        while len(line) > limit:
            cut = -1
            for mark in (". ", "; ", ", ", " "):
                cut = line.rfind(mark, limit // 3, limit)
                if cut > 0:
                    cut += len(mark) - 1
                    break
            if cut <= 0:
                cut = limit
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    return "\n".join(out)


def glossary(tr: Tr, game: Game) -> str:
    """The game's words, explained (its declared glossary, translated)."""
    return tr.text(game.glossary)


def seat_help(tr: Tr) -> str:
    """/help seat: how a seat is taken and given (a seat is a person's by their account).
    The button is named by its own label (flows.seats), so the two can't drift apart."""
    return "\n".join([
        tr("Seats. A seat is a person's by their account, never by a name typed."),
        # TRANSLATORS: {button} is the label of the button under /newgame, as it shows
        # ("Sit at NAME"), filled in from its own translation
        tr("Take a seat: tap the \"{button}\" button under /newgame, or type /join NAME. "
           "Before the first hand it is yours at once; after it, the game's starter or an "
           "admin confirms.", button=tr("Sit at {name}", name="NAME")),
        tr("Give a seat (the starter or an admin): /seat NAME person:@them, or a text "
           "mention of them, or /seat NAME in reply to one of their messages (for someone "
           "with no @username). /seat NAME person:none makes it a guest seat again."),
        tr("Sit out hands with /sitout, come back with /back; /players lists the seats. "
           "/history shows who sat where, and when."),
    ])


def money_help(tr: Tr) -> str:
    """/help money: the rate, the currency, the ledger."""
    return "\n".join([
        tr("Money. /rules rate:0.25 currency:Rs plays for money: each hand counts at the "
           "rate and in the currency of its own time, so a change applies from the next "
           "hand, and /endgame, /history and /stats say which hands were played at which "
           "rate."),
        tr("/endgame settles up in the fewest transfers (Call Break: each score less the "
           "table's average; Riichi: the final results with uma and oka). The money then "
           "enters the ledger: /ledger, /paid, /ledger history."),
    ])


def command_help(spec: CommandSpec, tr: Tr = ENGLISH, game: Game | None = None,
                 fit: Fit | None = None) -> str:
    """One command in full, as it stands in a chat playing `game`: what it does, its usage
    (as the table asking types it, with `fit`), its options and who may use it, then how
    it works."""
    word = game.hand_word if game is not None else "hand"
    usage = spec_text(tr, spec.usage, game)
    if fit is not None and game is not None:
        usage = fit(spec, game, usage)
    lines = [f"/{spec.name} - {spec_text(tr, spec.summary, game)}",
             tr("Usage: {usage}", usage=usage)]
    if spec.options:
        lines.append(tr("Options:"))
        lines += [f"  {o.describe(tr, word)}" for o in spec.options]
    if spec.free_view:
        lines.append(tr("Who: {who} (anyone may look).", who=WHO[spec.may]))
    else:
        lines.append(tr("Who: {who}.", who=WHO[spec.may]))
    if spec.details:
        lines.append(spec_text(tr, spec.details, game))
    return "\n".join(lines)


def languages_help(tr: Tr) -> str:
    """What /help settings adds about the languages."""
    from bot.core.handlers.chat import languages_line

    return "\n".join([
        tr("Replies come in the chat's language (/settings language:ne). With auto, the "
           "default, each person is answered in their own app's language when the bot "
           "speaks it, else in English. Names, card codes and commands stay as typed."),
        languages_line(tr)])


def preset_help(tr: Tr, game: Game) -> list[str]:
    """The presets (/rules preset:NAME), the whole tables apart from the additions."""
    book, lines = game.rulebook, []
    tables = [p for p in book.presets if p.kind == WHOLE_TABLE]
    additions = [p for p in book.presets if p.kind == ADDITION]
    if tables:
        # TRANSLATORS: {kept}: rule keys, "rate, currency"
        lines.append(tr("Presets, whole tables (/rules preset:NAME): each replaces every "
                        "rule but {kept}:", kept=", ".join(book.kept())))
        lines += [f"{p.name}: {tr.text(p.description)}" for p in tables]
    if additions:
        lines.append(tr("Presets that add to the rules in force, changing only their own:"))
        lines += [f"{p.name}: {tr.text(p.description)}" for p in additions]
    return lines


def home(tr: Tr, table: CommandTable, game: Game, fit: Fit | None = None) -> str:
    """The first page: the game's commands and the core's a table uses, a line each, the
    others named together, and the topics."""
    specs = [s for s in table.for_game(game) if not s.hidden]
    own = [s for s in specs if s.game == game.key]
    used = [s for name in AT_THE_TABLE for s in specs if s.name == name]
    others = [s for s in specs if s not in own and s not in used and s.name != "help"]
    lines = [tr("Maalbot keeps score ({game}). Commands:", game=Msg(game.title))]
    lines += [f"/{s.name} - {spec_text(tr, s.summary, game)}" for s in [*own, *used]]
    lines.append(tr("Also: {commands}.", commands=" ".join(f"/{s.name}" for s in others)))
    first = spec_text(tr, game.result_spec.usage, game)
    if fit is not None:
        first = fit(game.result_spec, game, first)
    lines += ["", tr("Options are key:value, e.g. {usage}", usage=first.split("   ")[0]),
              tr("More: /help COMMAND, /help {game} (its words and commands), /help "
                 "rules, /help seat, /help money.", game=game.key)]
    return "\n".join(lines)


def game_help(tr: Tr, game: Game) -> str:
    """/help GAME: its words, and its own commands a line each (each in full on its own
    page, /help COMMAND)."""
    lines = [tr("{game} (/newgame {key} ...).", game=Msg(game.title), key=game.key),
             glossary(tr, game), ""]
    lines += [f"/{s.name} - {spec_text(tr, s.summary, game)}" for s in game.commands
              if not s.hidden]
    lines.append(tr("Each in full: /help COMMAND."))
    return "\n".join(lines)


def render(tr: Tr, table: CommandTable, topic: str, game: Game,
           fit: Fit | None = None) -> str:
    """The help on `topic` ("" the first page) in a chat playing `game`, whole (`paged`
    splits it); `fit`: the table asking's usages."""
    if not topic:  # short enough for a phone: the rest is in the topics it names
        return home(tr, table, game, fit)
    if topic in ("seat", "seats"):  # how seats work, then /seat in full
        seat = table.lookup("seat", game)
        return seat_help(tr) + ("\n\n" + command_help(seat, tr, game, fit) if seat else "")
    if topic == "money":
        return money_help(tr)
    if topic == "rules":
        rules_spec = table.lookup("rules", game)
        assert rules_spec is not None
        lines = [tr("Rules for {game}. Usage: {usage}", game=Msg(game.title),
                    usage=spec_text(tr, rules_spec.usage, game)),
                 tr("Who may change them: {who}.", who=WHO[rules_spec.may])]
        lines += [tr("{key} (default {value}): {help}", key=s.key,
                     value=tr.render(s.show(s.default)) or tr("none"), help=tr.text(s.help))
                  for s in game.rulebook.specs]
        lines += preset_help(tr, game)
        lines.append(tr("Money: each {hand} counts at the rate and in the currency of its "
                        "own time; a change applies to the {hands} that follow, and "
                        "currencies are never added together.", **placeholders(game.hand_word)))
        if game.rules_note:
            lines.append(tr.text(game.rules_note))
        return "\n".join(lines)
    if topic == "words":
        return glossary(tr, game)
    if topic in table.games:  # /help tranca: that game's words and its own commands
        return game_help(tr, table.games[topic])
    spec = table.lookup(topic, game)
    shown_for = game
    if spec is None:
        elsewhere = table.games_with(topic)
        if len(elsewhere) > 1:  # /round of Tranca and of Call Break: each game's own
            return "\n\n".join(
                tr("{game}:", game=Msg(other.title)) + "\n"
                + command_help(table.lookup(topic, other), tr, other)  # type: ignore[arg-type]
                for other in elsewhere)
        if elsewhere:
            spec = table.lookup(topic, elsewhere[0])
            shown_for = elsewhere[0]
    if spec is None:
        specs = [s for s in table.for_game(game) if not s.hidden]
        # each once: /rules and /seat are commands and topics both
        topics = list(dict.fromkeys([s.name for s in specs] + ["rules", "words", "seat",
                                                                "money", *table.games]))
        close = difflib.get_close_matches(topic, topics, n=1, cutoff=0.6)
        if close:  # a typo, as an unknown command's: /help hnad
            return tr("No help for `{topic}`. Did you mean /help {close}? Topics: {topics}.",
                      topic=topic[:30], close=close[0], topics=", ".join(topics))
        return tr("No help for `{topic}`. Topics: {topics}.", topic=topic[:30],
                  topics=", ".join(topics))
    text = command_help(spec, tr, shown_for, fit)
    if spec.name == "settings":
        text += "\n" + languages_help(tr)
    return text
