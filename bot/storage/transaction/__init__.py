"""One command's transaction (hot.py) on the connections the store owns, and what is kept
beside it: a hand's rules once per game, the replies kept for exactly-once and how long,
the session event log, the inbox of updates, a chat moved to a new key, the pages' rows,
damage found in a record, and the numbered schema migrations."""
