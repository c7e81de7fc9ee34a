"""/help: the commands of the chat's game, each command in full, the game's words and its
rules; all of it from the command table, so help names every option a command takes. The
declared text (command help, a game's glossary, rule help) is translated as it is shown."""

from __future__ import annotations

from bot.core.command import Reply
from bot.core.commands.spec import CommandSpec, spec_text
from bot.core.commands.table import CommandTable
from bot.core.examples import personal
from bot.core.games.base import Game
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import ENGLISH, Msg, Tr
from bot.core.i18n.words import placeholders
from bot.core.permissions import WHO


async def help_(call: Call) -> Outcome:
    topic = call.options.get("", "").strip().lstrip("/").lower()
    text = render(call.tr, call.table, topic, call.game)
    if call.session is not None:  # examples with the table's own names
        text = personal(text, [p.name for p in call.session.players])
    return Outcome(Reply(text))


def glossary(tr: Tr, game: Game) -> str:
    """The game's words, explained (its declared glossary, translated)."""
    return tr.text(game.glossary)


def command_help(spec: CommandSpec, tr: Tr = ENGLISH, game: Game | None = None) -> str:
    """One command in full, as it stands in a chat playing `game`."""
    word = game.hand_word if game is not None else "hand"
    lines = [f"/{spec.name} - {spec_text(tr, spec.summary, game)}",
             tr("Usage: {usage}", usage=spec_text(tr, spec.usage, game))]
    if spec.details:
        lines.append(spec_text(tr, spec.details, game))
    if spec.options:
        lines.append(tr("Options:"))
        lines += [f"  {o.describe(tr, word)}" for o in spec.options]
    if spec.free_view:
        lines.append(tr("Who: {who} (anyone may look).", who=WHO[spec.may]))
    else:
        lines.append(tr("Who: {who}.", who=WHO[spec.may]))
    return "\n".join(lines)


def languages_help(tr: Tr) -> str:
    """What /help settings adds about the languages."""
    from bot.core.handlers.chat import languages_line

    return "\n".join([
        tr("Replies come in the chat's language (/settings language:ne). With auto, the "
           "default, each person is answered in their own app's language when the bot "
           "speaks it, else in English. Names, card codes and commands stay as typed."),
        languages_line(tr)])


def render(tr: Tr, table: CommandTable, topic: str, game: Game) -> str:
    specs = [s for s in table.for_game(game) if not s.hidden]
    if not topic:
        lines = [tr("Maalbot keeps score ({game}). Commands:", game=Msg(game.title))]
        lines += [f"/{s.name} - {spec_text(tr, s.summary, game)}" for s in specs]
        lines += ["", tr("Options are key:value, e.g. {usage}",
                         usage=spec_text(tr, game.result_spec.usage, game)),
                  tr("Names: @name or just name, any case."), "", glossary(tr, game), "",
                  tr("/help COMMAND for details, /help rules for the rules.")]
        return "\n".join(lines)
    if topic == "rules":
        rules_spec = table.lookup("rules", game)
        assert rules_spec is not None
        lines = [tr("Rules for {game}. Usage: {usage}", game=Msg(game.title),
                    usage=spec_text(tr, rules_spec.usage, game)),
                 tr("Who may change them: {who}.", who=WHO[rules_spec.may])]
        lines += [tr("{key} (default {value}): {help}", key=s.key,
                     value=tr.render(s.show(s.default)) or tr("none"), help=tr.text(s.help))
                  for s in game.rulebook.specs]
        lines.append(tr("Presets (/rules preset:NAME):"))
        lines += [f"{p.name}: {tr.text(p.description)}" for p in game.rulebook.presets]
        lines.append(tr("Money: each {hand} counts at the rate and in the currency of its "
                        "own time; a change applies to the {hands} that follow, and "
                        "currencies are never added together.", **placeholders(game.hand_word)))
        if game.rules_note:
            lines.append(tr.text(game.rules_note))
        return "\n".join(lines)
    if topic == "words":
        return glossary(tr, game)
    if topic in table.games:  # /help tranca: that game's words and its own commands in full
        chosen = table.games[topic]
        lines = [tr("{game} (/newgame {key} ...).", game=Msg(chosen.title), key=chosen.key),
                 glossary(tr, chosen), ""]
        lines += [command_help(spec, tr, chosen) for spec in chosen.commands]
        return "\n".join(lines)
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
        topics = [s.name for s in specs] + ["rules", "words"] + list(table.games)
        return tr("No help for `{topic}`. Topics: {topics}.", topic=topic[:30],
                  topics=", ".join(topics))
    text = command_help(spec, tr, shown_for)
    if spec.name == "settings":
        text += "\n" + languages_help(tr)
    return text
