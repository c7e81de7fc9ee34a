"""Storage: SQLite (default) or PostgreSQL through SQLAlchemy's async core."""

from bot.storage.database import open_store
from bot.storage.store import SqlStore

__all__ = ["SqlStore", "open_store"]
