"""The store the core sees (`SqlStore`, sql_store.py: one transaction per command,
serialised per chat) and whether the database is sound (health.py)."""
