"""A club: several tables (chats, on any platform) that count as one, with a league table
per game, an OpenSkill rating per member and game, the money owed across its tables, and
its records. Pure: built from the finished games of its tables (`summary.py`, one
`GameSummary` each) in the order they ended; what reads and writes them is the handlers'
(bot/core/handlers/club/) and storage's (bot/storage/transaction/clubs.py)."""
