"""The ground of storage: the engines for the database URLs people write, the SQLite file
and the commands' own links to it, the tables as queries see them, a stored row read back,
and what the store can't do said so a person knows. It imports nothing of storage above it."""
