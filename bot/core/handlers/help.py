"""/help: the commands of the chat's game, each command in full, the game's words and its
rules; all of it from the command table, so help names every option a command takes."""

from __future__ import annotations

from bot.core.command import Reply
from bot.core.commands.spec import CommandSpec
from bot.core.commands.table import CommandTable
from bot.core.examples import personal
from bot.core.games.base import Game
from bot.core.handlers.call import Call, Outcome
from bot.core.i18n import has, t
from bot.core.permissions import WHO


async def help_(call: Call) -> Outcome:
    topic = call.options.get("", "").strip().lstrip("/").lower()
    text = render(call.table, topic, call.game)
    if call.session is not None:  # examples with the table's own names
        text = personal(text, [p.name for p in call.session.players])
    return Outcome(Reply(text))


def glossary(game: Game) -> str:
    return t(f"glossary_{game.key}") if has(f"glossary_{game.key}") else game.glossary


def command_help(spec: CommandSpec) -> str:
    lines = [f"/{spec.name} - {spec.summary}", f"Usage: {spec.usage}"]
    if spec.details:
        lines.append(spec.details)
    if spec.options:
        lines.append("Options:")
        lines += [f"  {o.describe()}" for o in spec.options]
    lines.append(f"Who: {WHO[spec.may]}" + (" (anyone may look)" if spec.free_view else "")
                 + ".")
    return "\n".join(lines)


def render(table: CommandTable, topic: str, game: Game) -> str:
    specs = [s for s in table.for_game(game) if not s.hidden]
    if not topic:
        lines = [t("help_intro", title=game.title)]
        lines += [f"/{s.name} - {s.summary}" for s in specs]
        lines += ["", "Options are key:value, e.g. " + game.result_spec.usage,
                  "Names: @name or just name, any case.", "", glossary(game), "",
                  t("help_more")]
        return "\n".join(lines)
    if topic == "rules":
        rules_spec = table.lookup("rules", game)
        assert rules_spec is not None
        lines = [f"Rules for {game.title}. Usage: {rules_spec.usage}",
                 f"Who may change them: {WHO[rules_spec.may]}."]
        lines += [f"{s.key} (default {s.show(s.default) or 'none'}): {s.help}"
                  for s in game.rulebook.specs]
        lines.append("Presets (/rules preset:NAME):")
        lines += [f"{p.name}: {p.description}" for p in game.rulebook.presets]
        lines.append("Money: each hand counts at the rate and in the currency of its own "
                     "time; a change applies to the hands that follow, and currencies are "
                     "never added together.")
        if game.rules_note:
            lines.append(game.rules_note)
        return "\n".join(lines)
    if topic == "words":
        return glossary(game)
    if topic in table.games:  # /help tranca: that game's words and its own commands in full
        chosen = table.games[topic]
        lines = [f"{chosen.title} (/newgame {chosen.key} ...).", glossary(chosen), ""]
        lines += [command_help(spec) for spec in chosen.commands]
        return "\n".join(lines)
    spec = table.lookup(topic, game)
    if spec is None:
        elsewhere = table.games_with(topic)
        if elsewhere:
            spec = table.lookup(topic, elsewhere[0])
    if spec is None:
        return (f"No help for `{topic[:30]}`. Topics: "
                + ", ".join(s.name for s in specs) + ", rules, words, "
                + ", ".join(table.games) + ".")
    return command_help(spec)
