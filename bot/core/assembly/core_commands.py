"""The core's commands, each declared once. A game's own commands are in its folder."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.commands.spec import CommandSpec, Kind, Needs, Option
from bot.core.games.base import Game
from bot.core.handlers import (
    board_commands,
    chat,
    exchange,
    forget,
    hands,
    help,
    ledger_commands,
    looking_back,
    pages,
    season_commands,
    sessions,
)
from bot.core.handlers.club import accounts, club_commands, looking, tournaments
from bot.core.i18n import AUTO, LANGUAGES, N_, supported
from bot.core.permissions import Rule
from bot.core.rules import RuleSpec
from bot.core.session import LIVE, NEW_EACH

MAX_NUMBER = 1_000_000
RULES_USAGE = "/rules   /rules preset:kidnap   /rules unseen:15 rate:0.25 currency:Rs"
# "/board last" or "/board game:last": the words after the command are the game
PAST_GAME = Option("", Kind.TEXT, "a finished game: last, or its number (1: this chat's "
                   "first)", name="game")


# /history with each game's own key for one hand in full (Riichi: result:3), each translated
HISTORY_USAGES = {
    "hand": N_("/history   or   /history hand:3   or   /history last page:2"),
    "round": N_("/history   or   /history round:3   or   /history last page:2"),
    "result": N_("/history   or   /history result:3   or   /history last page:2"),
}


def _which(game: Game, help: str) -> Option:
    """The option that names a hand by its number (hand:, round:, result:)."""
    return Option(game.edit_key, Kind.INT, help, low=1, high=MAX_NUMBER)


def _history_usage(game: Game) -> str:
    return HISTORY_USAGES.get(game.edit_key, HISTORY_USAGES["hand"])


def _edit_usage(game: Game) -> str:
    """/edit as the game's own result command is typed: "/edit round:3 side:A table:300"."""
    if game.edit_example:
        return game.edit_example
    first = game.result_spec.usage.split("   ")[0]
    _, _, options = first.partition(" ")
    return f"/edit {game.edit_key}:3 {options}".strip()


def _rules_usage(game: Game) -> str:
    """/rules as the game's own rules are typed (Riichi's presets and uma, not Marriage's)."""
    return game.rules_example or RULES_USAGE


def _edit_options(game: Game) -> tuple[Option, ...]:
    which = _which(game, N_("which {hand} to change"))
    return (Option(which.key, which.kind, which.help, required=True, low=which.low,
                   high=which.high),
            *game.edit_options(), Option("reason", Kind.TEXT, "why, for the record"))


def _rule_option(spec: RuleSpec) -> Option:
    kind = {"int": Kind.INT, "bool": Kind.BOOL, "choice": Kind.CHOICE}.get(spec.kind,
                                                                          Kind.TEXT)
    return Option(spec.key, kind, spec.help[:100], low=spec.low, high=spec.high,
                  choices=spec.choices, topic=spec.topic)


def _rules_options(game: Game) -> tuple[Option, ...]:
    return (Option("preset", Kind.TEXT, "a named set of rules",
                   choices=tuple(p.name for p in game.rulebook.presets)),
            *(_rule_option(spec) for spec in game.rulebook.specs))


def core_commands(games: Mapping[str, Game]) -> list[CommandSpec]:
    presets = tuple(dict.fromkeys(p.name for g in games.values() for p in g.rulebook.presets))
    newgame_extra = tuple({o.key: o for g in games.values() for o in g.newgame_options}
                          .values())
    return [
        CommandSpec(
            "newgame", "start a game in this chat",
            "/newgame marriage players:alice bob carol [preset:kidnap]",
            "2 to 10 players with different names (letters, digits, - _ . '). Without "
            "players: you sit down and the others /join. One open game per chat: /endgame "
            "ends it first.",
            (Option("", Kind.TEXT, "which game", name="game", choices=tuple(games)),
             Option("players", Kind.TEXT, "@mentions or names, e.g. @ram sita hari"),
             *newgame_extra,
             Option("preset", Kind.TEXT, "a rule preset", choices=presets)),
            needs=Needs.NOTHING, run=sessions.newgame),
        CommandSpec(
            "join", "sit down in the open game", "/join   or   /join name:Ram   or   /join bob",
            "You play from the next {hand}. A seat typed by name at /newgame (the /newgame "
            "message has a button for each) is yours at once before the first {hand}; after "
            "it, the person who started the game or an admin lets you sit there with a tap "
            "(or /seat). Your own name, if a seat has it, is that seat: never a second one.",
            (Option("", Kind.TEXT, "the name to play under, or a seat typed by name",
                    name="name"),),
            may=Rule.SEAT, run=sessions.join),
        CommandSpec(
            "seat", "give a seat to a person", "/seat carol person:@carol",
            "Gives a seat to the person who plays it: person:@username (any valid username), "
            "a mention, or /seat carol sent in reply to a message of theirs (Telegram: for "
            "people with no @username). A person seated elsewhere moves, and the seat they "
            "left is a guest seat again; person:none makes a seat a guest seat. A seat bound "
            "to an account is that account's alone.",
            (Option("", Kind.PLAYER, "the seat", name="seat", required=True),
             Option("person", Kind.TEXT, "@the person, or none for a guest seat (empty: the "
                    "sender of the message this replies to)")),
            may=Rule.STARTER, run=sessions.seat),
        CommandSpec("players", "show the seats", "/players", run=sessions.players,
                    read_only=True),
        CommandSpec(
            "sitout", "sit out the next {hands}", "/sitout   or   /sitout bob",
            "The player keeps their seat and totals but is not in the {hands} that follow "
            "(n in the maal exchange counts only those playing).",
            (Option("", Kind.PLAYERS, "who sits out (you if empty)", name="player"),),
            may=Rule.SELF, run=sessions.sitout),
        CommandSpec(
            "back", "play again after sitting out", "/back   or   /back bob", "",
            (Option("", Kind.PLAYERS, "who is back (you if empty)", name="player"),),
            may=Rule.SELF, run=sessions.back),
        CommandSpec("board", "the last {hands} and the totals", "/board   /board last   /board 2",
                    "Money is shown when a rate or currency is set (/rules rate:0.25), {hand} by "
                    "{hand} at the rate of each {hand}'s time. last (or a number: 2 is this "
                    "chat's second game) shows a finished game.", (PAST_GAME,),
                    needs=Needs.NOTHING, run=board_commands.board,
                    read_only=True),
        CommandSpec(
            "undo", "undo the last {hand} (or drop a waiting one)",
            "/undo [reason:wrong winner]   /undo payment   /undo payment:3",
            "Nothing is deleted: the {hand} is kept in the log as undone. On Telegram and "
            "Discord a bare /undo asks first; with a reason it is done at once. /undo "
            "payment undoes the latest payment you recorded in the ledger (an admin: the "
            "latest of all), /undo payment:3 payment 3 of /ledger history: the person who "
            "recorded it or a chat admin may. With no game open, a bare /undo on Telegram and "
            "Discord asks about that payment.",
            (Option("", Kind.TEXT, "payment: the latest payment you recorded",
                    name="what"),
             Option("payment", Kind.INT, "a payment by its number in /ledger history",
                    low=1, high=1_000_000),
             Option("reason", Kind.TEXT, "why, for the record")),
            may=Rule.RECORDER, needs=Needs.NOTHING, run=hands.undo, confirm=True),
        CommandSpec(
            "edit", "re-enter a recorded {hand}", "/edit hand:3 maal:bob=6 seen:bob carol",
            "Give only what changes; the rest stays. The {hand} keeps the rules it was scored "
            "with, and the totals follow. Every later {hand} is scored again with what this "
            "one now carries forward (a foul charged in the next {hand}, riichi sticks and "
            "honba, a race already won), and the reply says which {hands} changed; an edit a "
            "later {hand} can't stand is refused.", may=Rule.HAND_PLAYER, run=hands.edit,
            derive=_edit_options, usage_for=_edit_usage),
        CommandSpec(
            "rules", "show or change the rules", RULES_USAGE,
            "Changes apply to the {hands} that follow; recorded {hands} keep their rules. See "
            "/help rules for every key.", may=Rule.TABLE_RULES, free_view=True,
            run=chat.rules, derive=_rules_options, usage_for=_rules_usage),
        CommandSpec(
            "endgame", "end the game: standings and who pays whom", "/endgame   /endgame sure",
            "Settles up in the fewest transfers. Whatever the game still owes is charged "
            "first, as one last {hand} (Marriage: a foul waiting for the next hand). The game "
            "is archived, not deleted; one with no {hand} recorded (none played, or every one "
            "undone) is closed without being kept. On Telegram and Discord it asks first.",
            (Option("", Kind.BOOL, "end it before the game's own end (a Riichi hanchan "
                    "with hands to play)", name="sure"),),
            may=Rule.PLAYER, run=sessions.endgame,
            confirm=True),
        CommandSpec("chart", "a chart of the running totals", "/chart   /chart last",
                    "A picture of every player's total {hand} by {hand}; last (or a game's "
                    "number) for a finished game.", (PAST_GAME,), needs=Needs.NOTHING,
                    run=looking_back.chart, read_only=True),
        CommandSpec(
            "history", "the {hands} as entered, undone and edited ones too",
            HISTORY_USAGES["hand"],
            "Who recorded each {hand} and when, what was undone or edited (with the reason "
            "when one was given), and every change of the rules, the rate or the seats, in "
            "order; the newest that fit, page:2 the ones before. last (or a game's number): "
            "a finished game.",
            (PAST_GAME, Option("page", Kind.INT, "older entries: 2 is the ones before the "
                               "newest", low=1, high=MAX_NUMBER)),
            needs=Needs.NOTHING, run=looking_back.history, read_only=True,
            derive=lambda game: (_which(game, N_("which {hand} in full")),),
            usage_for=_history_usage),
        CommandSpec(
            "settings", "this chat's settings",
            "/settings timezone:Asia/Kathmandu language:ne board:live",
            "timezone: used for the times in /history and the periods of /stats. board: live "
            "(default: one board message, pinned on Telegram, edited after every change; the "
            "reply to each command is one line) or new (a new board with every change). "
            "language: the replies' language, "
            + ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
            + "; auto (the default) answers each person in their own app's language.",
            (Option("timezone", Kind.TEXT, "e.g. Asia/Kathmandu"),
             Option("language", Kind.CHOICE, "the language of the replies (auto: each "
                    "person's own)", choices=(AUTO, *LANGUAGES), reads=supported),
             Option("board", Kind.CHOICE, "live: one board message kept up to date; new: a "
                    "new board with every change", choices=(LIVE, NEW_EACH))),
            may=Rule.ADMIN, free_view=True, needs=Needs.NOTHING, run=chat.settings),
        CommandSpec(
            "stats", "players' records across every game here",
            "/stats   /stats alice   /stats alice period:month",
            "Game by game, never adding different games' points: games, hands, wins and "
            "win rate, average maal (Marriage), net points and money (per currency), best "
            "and worst game; Riichi by the final results with uma and oka, average place "
            "and places; Tranca by games won, through each player's side. Without a name, "
            "a leaderboard per game. period: month, year or all (the chat's timezone).",
            (Option("", Kind.TEXT, "one player's record (the leaderboard if empty)",
                    name="player"),
             Option("period", Kind.CHOICE, "this month, this year or all time",
                    choices=looking_back.PERIODS),
             Option("season", Kind.TEXT, "a season's ranking, by its name (/stats season: "
                    "the current one); everyone, for the whole season")),
            needs=Needs.NOTHING, run=looking_back.stats_, read_only=True),
        CommandSpec(
            "season", "group the games into a season",
            "/season   /season start name:Autumn   /season end",
            "A season holds the games that end while it is open (a game still open: the "
            "season open now). /stats season ranks it game by game, as a table and a "
            "picture: Marriage by money and points per hand, Riichi by the final results "
            "with uma and oka (average place, places, best hand, busts), Tranca by wins. "
            "One season open at a time; a chat admin starts and ends it.",
            (Option("", Kind.CHOICE, "start or end (empty: show the season)", name="action",
                    choices=("start", "end")),
             Option("name", Kind.TEXT, "the new season's name, e.g. Autumn")),
            may=Rule.ADMIN, free_view=True, needs=Needs.NOTHING, run=season_commands.season),
        CommandSpec(
            "ledger", "who owes whom across game nights",
            "/ledger   /ledger history",
            "The money of every finished game played for money (Marriage, marriage rummy: "
            "at each hand's rate and currency; Riichi: the final results with uma and oka, "
            "as /endgame settled them; Call Break and a game of points: each score less "
            "the table's average, at each round's rate, or by place at the end) carries "
            "over until it is paid: each person's "
            "balance per currency (+ is owed, - owes; currencies are never added together) "
            "and the fewest transfers that clear it. Tranca never enters it (a race to a "
            "target): nobody pays anybody. history: the games and payments with their dates.",
            (Option("", Kind.TEXT, "history: the games and payments with dates",
                    name="show"),),
            needs=Needs.NOTHING, run=ledger_commands.ledger, read_only=True),
        CommandSpec(
            "paid", "record a payment in the ledger",
            "/paid bob 500 to:alice   /paid bob 1,200.50 Rs to:@alice",
            "Who paid and how much, then to: whom (a name they played under, or a "
            "mention). The currency (before or after the amount: Rs 500, 500 Rs, 500Rs; or "
            "currency:) only when the two "
            "have more than one in the ledger. The "
            "person paid records at most what the payer owes and they are owed; a chat "
            "admin may record more (the balance flips). /undo payment takes it back.",
            (Option("", Kind.TEXT, "who paid and how much, e.g. bob 500", name="payment",
                    required=True),
             Option("to", Kind.TEXT, "who was paid: a name or @mention", required=True),
             Option("currency", Kind.TEXT, "when they share more than one, e.g. Rs")),
            may=Rule.PAYEE, needs=Needs.NOTHING, run=ledger_commands.paid),
        CommandSpec(
            "link", "count a guest name as a person in /stats",
            "/link name:Bob @bob   or   /link name:Bob (yourself)",
            "Only a guest name played here (a seat typed by name) can be linked; the guest's "
            "games, money and payments count for that person in /stats and the ledger. "
            "Linking a guest again moves them on, and the reply says from whom.",
            (Option("name", Kind.TEXT, "the guest's name", required=True),
             Option("", Kind.MEMBER, "the person (you if empty)", name="user")),
            may=Rule.ADMIN, needs=Needs.NOTHING, run=chat.link),
        CommandSpec(
            "export", "the game as a file",
            "/export   /export last   /export 2 format:csv   /export all   /export club",
            "JSON (for /import) or CSV (a row per player per {hand}): the open game; last (or "
            "a number: 2 is this chat's second game) a finished one; all: every session of "
            "this chat, with its ledger and seasons; club: every table of this chat's club "
            "and the club itself (python -m bot restore makes it again).",
            (Option("format", Kind.CHOICE, "json (for /import) or csv",
                    choices=("json", "csv")),
             Option("", Kind.TEXT, "all, club, last or a game's number (the open game if "
                    "empty)", name="game")),
            needs=Needs.NOTHING, run=exchange.export, read_only=True),
        CommandSpec(
            "import", "bring an /export into a chat with no games yet",
            "/import, with the JSON file", "",
            (Option("", Kind.FILE, "the JSON file from /export", name="file"),),
            may=Rule.ADMIN, needs=Needs.NOTHING, run=exchange.import_),
        CommandSpec(
            "forget", "have the bot forget you (or, an admin, this chat)",
            "/forget   /forget chat",
            "/forget: your account and username leave the records of every chat the bot "
            "keeps; your seats stay as guest names (alice, or alice2 where another alice "
            "played), so everyone else's scores, stats and ledgers stay whole. /forget chat "
            "(a chat admin): every game, hand, payment, season and setting of this chat (in "
            "a forum's General topic, of its topics too) is deleted. On Telegram and "
            "Discord it asks first; it can't be undone.",
            (Option("", Kind.CHOICE, "me (the default) or chat (a chat admin: all of it)",
                    name="what", choices=("me", "chat")),),
            may=Rule.FORGET, needs=Needs.NOTHING, run=forget.forget, confirm=True),
        CommandSpec(
            "scoreboard", "the live scoreboard page",
            "/scoreboard   /scoreboard new   /scoreboard off",
            "A page that shows the game as the board does, with a chart of the running "
            "totals, kept up to date as {hands} are recorded; with ?tv, large for a TV "
            "across the room; a second view lists the finished games, the ledger and the "
            "season. The link is its key: anyone who has it sees the scores. new gives it a "
            "new link and off turns it off (a chat admin); the old link then opens nothing.",
            (Option("", Kind.CHOICE, "new: a new link; off: no page (a chat admin)",
                    name="action", choices=("new", "off")),),
            may=Rule.ADMIN, free_view=True, needs=Needs.NOTHING, run=pages.scoreboard),
        CommandSpec(
            "scorepad", "a whole {hand} on one screen",
            "/scorepad   /scorepad new",
            "On Telegram, a button opens the scorepad (a Mini App) in the group: every "
            "player's row, the winner, who has seen, each maal on a number pad, in a few "
            "taps; it is sent as if typed here, with the same checks. Its button is also "
            "under /newgame and the board. new gives it a new link (a chat admin): the old "
            "one opens nothing. On Discord, /hand with no options is the same as one form.",
            (Option("", Kind.CHOICE, "new: a new link (a chat admin)", name="action",
                    choices=("new",)),),
            may=Rule.ADMIN, free_view=True, needs=Needs.NOTHING, run=pages.scorepad),
        CommandSpec(
            "club", "several tables as one club",
            "/club   /club new name:Friday Marriage   /club join code:XXXX-XXXX   "
            "/club standings game:marriage",
            "A club is several chats (on Telegram, Discord or the console) that count as "
            "one: one league table per game, one rating for each member, the money owed "
            "across its tables. new makes it, with this chat its first table (a chat admin); "
            "its reply gives the command another chat types to join (code: good once, for "
            "24 hours; code gives a new one). leave takes this table out (a chat admin), "
            "remove N another (the club's owner or admins); a table that leaves takes its "
            "games out of the club's figures, its own scorebook untouched. admin @name: "
            "the owner names an admin. standings [game:] [season:]: the league table. "
            "ledger: each member's money across the tables and the fewest transfers. "
            "season start name:Spring | end: the club's own seasons. page [new|off]: the "
            "club's live page. night: an I'm here button (a club admin; here: typed). "
            "tables game: players:@a @b... [present:yes] [tables:N] [seed:N] [start:yes]: "
            "the people at the game's tables, kept apart from who they met, each table a "
            "chat of the club; start:yes begins the games there. A tournament of rounds: "
            "/tournament.",
            (Option("", Kind.TEXT, "new, join, code, leave, remove N, admin @name, "
                    "standings, ledger, season start|end, page [new|off], night, here, "
                    "tables; empty: the club", name="action"),
             Option("name", Kind.TEXT, "the new club's (or season's) name"),
             Option("code", Kind.TEXT, "the code a club gave, to join it"),
             Option("game", Kind.TEXT, "one game: marriage, riichi, or a points game's name"),
             Option("season", Kind.TEXT, "one of the club's seasons, by its name"),
             Option("who", Kind.MEMBER, "the person to name an admin"),
             Option("players", Kind.TEXT, "the people to seat: @mentions or names"),
             Option("present", Kind.BOOL, "seat who tapped I'm here under /club night"),
             Option("tables", Kind.INT, "how many tables", low=1, high=64),
             Option("seed", Kind.INT, "the seed of a seating: the same tables again", low=0,
                    high=999_999_999),
             Option("sanma", Kind.BOOL, "Riichi: tables of three where four don't fit"),
             Option("start", Kind.BOOL, "begin the games at the club's chats")),
            may=Rule.CLUB, needs=Needs.NOTHING, run=club_commands.club),
        CommandSpec(
            "tournament", "a club's tournament across its tables",
            "/tournament   /tournament new name:Dashain Cup game:riichi rounds:5   "
            "/tournament join   /tournament start",
            "A tournament of the club: new (a club admin) with its game, rounds, Riichi's "
            "rules (wrc, ema: (points - 30,000) / 1,000 + uma 15/5/-5/-15, ties split; "
            "mleague: uma 30/10/-10/-30 and the oka) and the seating of later rounds "
            "(swiss, shuffled, interval). join, or add @a @b (an admin). start seats a "
            "round (the first at random) and begins its games at the club's chats; seat or "
            "reseat seats it without beginning. Each table's game ends as any game does: "
            "when every table has finished, the standings go to every table and the next "
            "round is seated. sub @absent @sub, penalty @x -20 reason:..., withdraw [@x], "
            "timer 90m | off, tables, csv; empty: the standings (ties: the better sum of "
            "places, then more firsts).",
            (Option("", Kind.TEXT, "new, join, add @a @b, start, seat, reseat, tables, sub "
                    "@absent @sub, penalty @x -20, withdraw [@x], timer 90m, csv; empty: "
                    "the standings", name="action"),
             Option("name", Kind.TEXT, "the tournament's name"),
             Option("game", Kind.TEXT, "its game: riichi, marriage, callbreak..."),
             Option("rounds", Kind.INT, "how many rounds", low=1, high=20),
             Option("rules", Kind.CHOICE, "Riichi's scoring", choices=("wrc", "ema",
                                                                       "mleague")),
             Option("seating", Kind.CHOICE, "how rounds after the first are seated",
                    choices=("swiss", "shuffled", "interval")),
             Option("tables", Kind.INT, "how many tables a round (a game of any size)",
                    low=1, high=64),
             Option("seed", Kind.INT, "the seed of a round's seating", low=0,
                    high=999_999_999),
             Option("reason", Kind.TEXT, "why, for a penalty")),
            may=Rule.CLUB, needs=Needs.NOTHING, run=tournaments.tournament),
        CommandSpec(
            "account", "one person on Telegram and Discord",
            "/account   /account link   /account link code:XXXX-XXXX   /account unlink",
            "Your Telegram and Discord accounts are one member of every club once linked: "
            "/account link gives a code only you see (Discord: only to you; Telegram: in "
            "your private chat with the bot), good once for 15 minutes; type /account link "
            "code:... on the other platform. /account shows what is linked; /account "
            "unlink undoes it. Two accounts of one platform are never linked.",
            (Option("", Kind.TEXT, "link, link CODE or unlink; empty: what is linked",
                    name="action"),
             Option("code", Kind.TEXT, "the code your other account was given")),
            needs=Needs.NOTHING, run=accounts.account),
        CommandSpec(
            "rating", "the club's ratings, game by game",
            "/rating   /rating game:riichi   /rating alice",
            "One rating per member and game (OpenSkill, Plackett-Luce: mu 25, sigma 25/3 to "
            "start), from every finished game of the club's tables in the order they "
            "ended, each game's places its ranks. Shown as mu - 3 sigma; provisional until "
            "5 games. A guest (a name typed at one table) is never rated. /rating NAME: "
            "their mu and sigma and how it moved; season: as it stood at a season's end.",
            (Option("", Kind.TEXT, "a member (empty: everyone)", name="member"),
             Option("game", Kind.TEXT, "one game: marriage, riichi, or a points game's name"),
             Option("season", Kind.TEXT, "one of the club's seasons, by its name")),
            needs=Needs.NOTHING, run=looking.rating),
        CommandSpec(
            "vs", "two members head to head",
            "/vs alice bob   /vs alice bob game:riichi",
            "The games two members played together at the club's tables: who placed higher "
            "how often, and the points between them, game by game.",
            (Option("", Kind.TEXT, "two members", name="members", required=True),
             Option("game", Kind.TEXT, "one game: marriage, riichi, or a points game's name")),
            needs=Needs.NOTHING, run=looking.vs),
        CommandSpec(
            "records", "the club's records",
            "/records   /records game:riichi",
            "Game by game: the biggest hand won (Riichi: the most han, a yakuman above all), "
            "the longest run of games won, and who played the most games.",
            (Option("game", Kind.TEXT, "one game: marriage, riichi, or a points game's name"),),
            needs=Needs.NOTHING, run=looking.records),
        CommandSpec(
            "help", "this help", "/help [command]   /help rules",
            "", (Option("", Kind.TEXT, "a command, rules, words or a game", name="topic"),),
            needs=Needs.NOTHING, run=help.help_, read_only=True),
        CommandSpec("start", "this help", "/start", "",
                    (Option("", Kind.TEXT, "a command, rules, words or a game", name="topic"),),
                    needs=Needs.NOTHING, run=help.help_, hidden=True, read_only=True),
    ]
