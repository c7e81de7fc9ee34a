"""The old dict catalogue, read through a context variable: kept only while messages move
to the gettext catalogues (issue 16); nothing new uses it.

A chat's language is a setting (/settings language:ne); the service sets it for the command
being handled, and `t()` finds the message. A key missing in a language falls back to
English, so a new message is never lost, only untranslated.
"""

from __future__ import annotations

from contextvars import ContextVar

LANGUAGES = {"en": "English", "ne": "नेपाली"}
language: ContextVar[str] = ContextVar("language", default="en")

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        "hand": "hand", "hands": "hands", "round": "round", "rounds": "rounds",
        "result": "result", "results": "results", "player": "player", "players": "players",
        "session": "session", "sessions": "sessions",
        "no_game": "No game is open here. Start one with "
                   "/newgame marriage players:alice bob carol",
        "new_game": "New {title} game. Players: {players}.{more}\nRules: {rules}. Change them "
                    "with /rules.\nRecord a {word} with {usage}",
        "more_join": " Others sit down with /join (at least {n} players).",
        "recorded": "{Word} {no}: {summary}",
        "board_head": "{title}: {count}",
        "finished": "finished",
        "undid": "Undid {word} {no} ({summary}).",
        "dropped": "Dropped the waiting {word}.",
        "waiting_maal": "The hand is scored once the maal of {who} is in: {how}. /undo "
                        "drops the hand.",
        "maal_how_one": "{who} sends /maal 7, or anyone sends /maal {first}=7",
        "maal_how_many": "each sends /maal 7 for their own, or anyone sends /maal {first}=7",
        "game_over": "Game over after {count}.",
        "final_standings": "Final standings:",
        "settle": "To settle up:",
        "pays": "{payer} pays {payee} {amount}",
        "nobody_owes": "Nobody owes anybody anything.",
        "archived": "The game is archived. /newgame starts another.",
        "help_intro": "Maalbot keeps score ({title}). Commands:",
        "help_more": "/help COMMAND for details, /help rules for the rules.",
        "settings": "timezone: {timezone} · language: {language} · board: {board}",
        "settings_saved": "Settings saved. timezone: {timezone} · language: {language} · "
                          "board: {board}",
        "past_games": "A finished game: /board last (or /board 2 for this chat's second "
                      "game; /chart and /history the same).",
        "no_such_player": "No player called `{name}`. Players: {players}.",
        "sitting_out": "{name} is sitting out: /back {back} brings them back in.",
        "no_such_player_close": "No player called `{name}`: did you mean {close}? Players: "
                                "{players}.",
        "already_open": "A {title} game is already open here ({count}, players {players}). "
                        "End it with /endgame before starting another.",
        "joins": "{name} joins at seat {seat}, {when}. Players: {players}.",
        "from_next": "from the next {word}", "from_first": "from the first {word}",
        "rules_changed": "Rules changed for the hands that follow; recorded hands keep "
                         "theirs.{note}\n{rules}",
        "waiting_note": " A waiting hand is scored with them too.",
        "still_waiting": "A hand is waiting for maal from {who}. Send /maal 7 (or "
                         "/maal {first}=7), or /undo to drop that hand first.",
        "name_winner": "Name the winner: {usage}",
        "flow_who_won": "{Word} {no}: who won?",
        "flow_who_saw": "{winner} won. Who else has seen? Tap to mark, then Done.",
        "flow_done": "Done",
        "flow_cancel": "Cancel",
        "flow_keep": "No, keep it",
        "flow_cancelled": "Cancelled; nothing changed.",
        "flow_next_hand": "Next hand",
        "flow_undo": "Undo",
        "flow_enter": "Enter {what}",
        "flow_input": "{What} for {word} {no}: reply to this message. Each player can send "
                      "their own number, or anyone sends {example}. Still needed: {names}.",
        "flow_undo_question": "Undo {word} {no} ({summary})?",
        "flow_yes_undo": "Yes, undo",
        "flow_drop_waiting": "Drop the {word} that is waiting?",
        "flow_yes_drop": "Yes, drop it",
        "flow_end_question": "End the game after {count}? Standings and {what} follow; the "
                             "game is archived.",
        "flow_yes_end": "Yes, end it",
        "same_as_last": "This is the same as {word} {no}. If it was sent twice, /undo "
                        "takes this one back.",
    },
    "ne": {
        "hand": "हात", "hands": "हात", "round": "राउन्ड", "rounds": "राउन्ड",
        "result": "नतिजा", "results": "नतिजा", "player": "खेलाडी", "players": "खेलाडी",
        "session": "सत्र", "sessions": "सत्र",
        "no_game": "यहाँ कुनै खेल खुला छैन। /newgame marriage players:alice bob carol ले "
                   "सुरु गर्नुहोस्।",
        "new_game": "नयाँ {title} खेल। खेलाडी: {players}।{more}\nनियम: {rules}। /rules ले "
                    "बदल्नुहोस्।\n{word} यसरी लेख्नुहोस्: {usage}",
        "more_join": " अरू /join ले बस्नुहोस् (कम्तीमा {n} जना)।",
        "recorded": "{Word} {no}: {summary}",
        "board_head": "{title}: {count}",
        "finished": "सकिएको",
        "undid": "{word} {no} फिर्ता लिइयो ({summary})।",
        "dropped": "कुरिरहेको {word} हटाइयो।",
        "waiting_maal": "{who} को माल कुरिँदै: {how}। /undo ले हात हटाउँछ।",
        "maal_how_one": "{who} ले /maal 7 पठाउनुहोस्, वा कसैले /maal {first}=7",
        "maal_how_many": "हरेकले आफ्नो /maal 7 पठाउनुहोस्, वा कसैले /maal {first}=7",
        "game_over": "{count} पछि खेल सकियो।",
        "final_standings": "अन्तिम नतिजा:",
        "settle": "हिसाब मिलाउन:",
        "pays": "{payer} ले {payee} लाई {amount} तिर्ने",
        "nobody_owes": "कसैले कसैलाई केही तिर्नु पर्दैन।",
        "archived": "खेल अभिलेखमा राखियो। /newgame ले अर्को सुरु गर्नुहोस्।",
        "help_intro": "मालबोटले अंक राख्छ ({title})। आदेशहरू:",
        "help_more": "विवरणका लागि /help आदेश, नियमका लागि /help rules।",
        "settings": "समय क्षेत्र: {timezone} · भाषा: {language} · बोर्ड: {board}",
        "settings_saved": "सेटिङ सुरक्षित भयो। समय क्षेत्र: {timezone} · भाषा: {language} · "
                          "बोर्ड: {board}",
        "past_games": "सकिएको खेल: /board last (वा यो च्याटको दोस्रो खेलका लागि /board 2; "
                      "/chart र /history पनि त्यसै)।",
        "no_such_player": "`{name}` नामको खेलाडी छैन। खेलाडी: {players}।",
        "sitting_out": "{name} बाहिर बसेका छन्: /back {back} ले फेरि खेलमा ल्याउँछ।",
        "no_such_player_close": "`{name}` नामको खेलाडी छैन: {close} भन्न खोज्नुभएको? खेलाडी: "
                                "{players}।",
        "already_open": "यहाँ {title} खेल पहिल्यै खुला छ ({count}, खेलाडी {players})। अर्को "
                        "सुरु गर्नुअघि /endgame ले यसलाई सक्नुहोस्।",
        "joins": "{name} {seat} नम्बर सिटमा बस्नुभयो, {when}। खेलाडी: {players}।",
        "from_next": "अर्को {word}देखि", "from_first": "पहिलो {word}देखि",
        "rules_changed": "नियम अबका हातहरूका लागि बदलियो; लेखिसकेका हातले आफ्नै नियम "
                         "राख्छन्।{note}\n{rules}",
        "waiting_note": " कुरिरहेको हात पनि यिनै नियमले गनिन्छ।",
        "still_waiting": "{who} को माल कुरिँदै गरेको हात छ। /maal 7 (वा /maal {first}=7) "
                         "पठाउनुहोस्, वा पहिले /undo ले त्यो हात हटाउनुहोस्।",
        "name_winner": "जित्ने खेलाडीको नाम दिनुहोस्: {usage}",
        "flow_who_won": "{Word} {no}: कसले जित्यो?",
        "flow_who_saw": "{winner} ले जित्नुभयो। अरू कसले सिन गरेको छ? छानेर 'सकियो' थिच्नुहोस्।",
        "flow_done": "सकियो",
        "flow_cancel": "रद्द",
        "flow_keep": "होइन, राख्नुहोस्",
        "flow_cancelled": "रद्द गरियो; केही बदलिएन।",
        "flow_next_hand": "अर्को हात",
        "flow_undo": "फिर्ता",
        "flow_enter": "{what} लेख्नुहोस्",
        "flow_input": "{word} {no} को {What}: यो सन्देशमा जवाफ दिनुहोस्। हरेक खेलाडीले आफ्नो "
                      "अंक पठाउन सक्नुहुन्छ, वा कसैले {example} पठाउनुहोस्। अझै चाहिने: {names}।",
        "flow_undo_question": "{word} {no} फिर्ता लिने ({summary})?",
        "flow_yes_undo": "हो, फिर्ता लिनुहोस्",
        "flow_drop_waiting": "कुरिरहेको {word} हटाउने?",
        "flow_yes_drop": "हो, हटाउनुहोस्",
        "flow_end_question": "{count} पछि खेल सक्ने? नतिजा र {what} आउँछ; खेल अभिलेखमा राखिन्छ।",
        "flow_yes_end": "हो, सक्नुहोस्",
        "same_as_last": "यो {word} {no} जस्तै हो। दुई पटक पठाइएको भए /undo ले यो फिर्ता "
                        "लिन्छ।",
        "glossary_marriage": (
            "म्यारिजका शब्दहरू: टिप्लु = कसैले तीन शुद्ध सेट देखाएपछि पल्टाइने जोकर पत्ती "
            "(त्यसका अरू प्रति पनि टिप्लु); पोप्लु = टिप्लुभन्दा एक माथिको, झिप्लु = एक तलको, "
            "उही सूटको; म्यारिज = झिप्लु+टिप्लु+पोप्लु; अल्टर = टिप्लुकै अंक र रङको अर्को "
            "पत्ती; म्यान = छापिएको जोकर; टनेला = उस्तै तीन पत्ती; डबली = उस्तै दुई पत्तीको "
            "जोडी; माल = टिप्लु थाहा भएपछि तपाईंका पत्तीले कमाउने अंक; सिन = तीन शुद्ध सेट "
            "(वा ७ डबली) देखाएर टिप्लु हेरेको, अनसिन = नहेरेको; फाउल = गलत शो वा गलत बाँड; "
            "किडन्याप र मर्डर: /help rules हेर्नुहोस्।"),
    },
}


def t(key: str, **values: object) -> str:
    """The message `key` in the language of the command being handled."""
    messages = CATALOGUE.get(language.get(), CATALOGUE["en"])
    template = messages.get(key) or CATALOGUE["en"].get(key, key)
    return template.format(**values)


def has(key: str) -> bool:
    return key in CATALOGUE.get(language.get(), {})


def plural(count: int, word: str) -> str:
    """"3 hands" / "३ हात": the word in the chat's language."""
    return f"{count} {t(word if count == 1 else word + 's')}"
