"""Storage: SQLite (default) or PostgreSQL. The core sees `SqlStore` (store.py); what each
file owns is in docs/architecture.md, Storage."""

from bot.storage.opening import open_store
from bot.storage.store.sql_store import SqlStore

__all__ = ["SqlStore", "open_store"]
