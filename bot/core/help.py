"""/help: the commands, the game's words and its rules, in one place."""

from __future__ import annotations

from bot.core.games.base import CommandInfo, Game
from bot.core.games.registry import GAMES
from bot.core.i18n import has, t

CORE_HELP: dict[str, CommandInfo] = {
    c.name: c
    for c in (
        CommandInfo("newgame", "start a game in this chat",
                    "/newgame marriage players:alice bob carol [preset:kidnap]",
                    "2 to 10 players with different names (letters, digits, - _ . '). "
                    "Without players: you sit down and the others /join. One open game per "
                    "chat: /endgame ends it first."),
        CommandInfo("join", "sit down in the open game",
                    "/join   or   /join name:Ram",
                    "You play from the next hand. If a guest seat has your name, /join "
                    "name:THAT links it to you."),
        CommandInfo("players", "show the seats", "/players"),
        CommandInfo("sitout", "sit out the next hands", "/sitout   or   /sitout bob",
                    "The player keeps their seat and totals but is not in the hands that "
                    "follow (n in the maal exchange counts only those playing)."),
        CommandInfo("back", "play again after sitting out", "/back   or   /back bob"),
        CommandInfo("board", "the last hands and the totals", "/board",
                    "Money is shown when a rate or currency is set (/rules rate:0.25)."),
        CommandInfo("undo", "undo the last hand (or drop a waiting one)",
                    "/undo [reason:wrong winner]",
                    "Only the person who recorded the hand, or a chat admin. Nothing is "
                    "deleted: the hand is kept in the log as undone."),
        CommandInfo("edit", "re-enter a recorded hand", "/edit hand:3 maal:bob=6 seen:bob carol",
                    "Give only what changes; the rest stays. The hand keeps the rules it was "
                    "scored with, and the totals follow."),
        CommandInfo("rules", "show or change the rules",
                    "/rules   /rules preset:kidnap   /rules unseen:15 rate:0.25 currency:Rs",
                    "Changes apply to the hands that follow; recorded hands keep their "
                    "rules. See /help rules for every key."),
        CommandInfo("endgame", "end the game: standings and who pays whom", "/endgame",
                    "Settles up in the fewest transfers. The game is archived, not deleted."),
        CommandInfo("chart", "a chart of the running totals", "/chart",
                    "A picture of every player's total hand by hand (money too when a rate "
                    "is set)."),
        CommandInfo("history", "the hands as entered, undone and edited ones too",
                    "/history   or   /history hand:3",
                    "Who recorded each hand and when, and what was undone or edited, with the "
                    "reason when one was given (/undo reason:...)."),
        CommandInfo("settings", "this chat's settings",
                    "/settings timezone:Asia/Kathmandu language:ne",
                    "timezone: used for the times in /history and the periods of /stats. "
                    "language: en (English) or ne (नेपाली) for the main replies and the "
                    "Marriage words."),
        CommandInfo("stats", "players' records across every game here",
                    "/stats   /stats alice   /stats alice period:month",
                    "Sessions, hands, wins and win rate, average maal (Marriage), net points "
                    "and money, best and worst night; without a name, the leaderboard. "
                    "period: month, year or all (in the chat's timezone). Tranca keeps score "
                    "by side and is left out."),
        CommandInfo("link", "count a guest name as a person in /stats",
                    "/link name:Bob @bob   or   /link name:Bob (yourself)"),
        CommandInfo("export", "the game as a file", "/export   /export format:csv   "
                    "/export all", "JSON (for /import) or CSV (a row per player per hand); "
                    "all: every session of this chat."),
        CommandInfo("import", "bring an /export into a chat with no games yet",
                    "/import, with the JSON file"),
        CommandInfo("help", "this help", "/help [command]   /help rules"),
    )
}


def render(topic: str, game: Game) -> str:
    commands = {**CORE_HELP, **game.commands}
    if not topic:
        lines = [t("help_intro", title=game.title)]
        lines += [f"/{c.name} - {c.summary}" for c in commands.values()]
        glossary = t(f"glossary_{game.key}") if has(f"glossary_{game.key}") else game.glossary
        lines += ["", "Options are key:value, e.g. " + game.commands[game.result_command].usage,
                  "Names: @name or just name, any case.", "", glossary, "", t("help_more")]
        return "\n".join(lines)
    if topic == "rules":
        lines = [f"Rules for {game.title}.", f"Usage: {CORE_HELP['rules'].usage}"]
        lines += [f"{s.key} (default {s.show(s.default) or 'none'}): {s.help}"
                  for s in game.rulebook.specs]
        lines.append("Presets (/rules preset:NAME):")
        lines += [f"{p.name}: {p.description}" for p in game.rulebook.presets]
        lines.append("Money: rate applies to the whole session's points.")
        if game.rules_note:
            lines.append(game.rules_note)
        return "\n".join(lines)
    glossary = t(f"glossary_{game.key}") if has(f"glossary_{game.key}") else game.glossary
    if topic == "words":
        return glossary
    if topic in GAMES:  # /help tranca, /help riichi: the words and the game's own commands
        chosen = GAMES[topic]
        words = glossary if chosen is game else chosen.glossary
        lines = [f"{chosen.title} (/newgame {chosen.key} ...).", words, ""]
        for info in chosen.commands.values():
            lines.append(f"/{info.name} - {info.summary}\nUsage: {info.usage}")
            if info.details:
                lines.append(info.details)
        return "\n".join(lines)
    info = commands.get(topic)
    if info is None:
        return (f"No help for `{topic[:30]}`. Topics: "
                + ", ".join(sorted(commands)) + ", rules, words, " + ", ".join(GAMES) + ".")
    text = f"/{info.name} - {info.summary}\nUsage: {info.usage}"
    return text + (f"\n{info.details}" if info.details else "")


def command_menu(games: list[Game]) -> list[tuple[str, str]]:
    """(name, one-line description) of every command, for a platform's command menu."""
    seen: dict[str, str] = {}
    for game in games:
        for info in (*CORE_HELP.values(), *game.commands.values()):
            seen.setdefault(info.name, info.summary)
    return list(seen.items())
