"""The console's secret, kept with its database, so its pages' links open the same table
after a restart (a TV tab left open the night before still works).

The secret makes the links (bot/core/pages.py) and seals the buttons. `python -m bot run`
derives it from the tokens or BUTTON_SECRET; the console has neither, so it keeps a random
one in a file beside its SQLite file (`maalbot.db.console-key`, readable by its owner only),
or for another database in the user's data folder, named by the database's address. The
database alone still opens nothing: the key is not in it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

SUFFIX = ".console-key"


def key_path(url: str, data: Path) -> Path | None:
    """Where the console of the database at `url` keeps its key (`data`: the user's data
    folder); None for a database that lasts one run (SQLite in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        file = parsed.database
        if not file or file == ":memory:":
            return None
        return Path(file).expanduser().resolve().with_name(Path(file).name + SUFFIX)
    named = hashlib.sha256(parsed.render_as_string(hide_password=True).encode()).hexdigest()
    return data / f"console-{named[:16]}{SUFFIX}"


def console_secret(url: str, data: Path) -> bytes:
    """The console's secret for the database at `url`: the one kept, or a new one kept
    now. Where none can be kept, a new one for this run (its links open nothing after)."""
    path = key_path(url, data)
    if path is None:
        return secrets.token_bytes(32)
    try:
        return _kept(path)
    except OSError as error:
        log.warning("console: can't keep its key in %s (%s): its pages' links last this run",
                    path, error.strerror)
        return secrets.token_bytes(32)


def _kept(path: Path) -> bytes:
    for _ in range(2):
        try:
            key = bytes.fromhex(path.read_text(encoding="ascii").strip())
        except FileNotFoundError:
            pass
        except ValueError as error:  # not ours: keep it, say so, and make none
            raise OSError(0, f"{path.name} is not a key") from error
        else:
            if len(key) != 32:
                raise OSError(0, f"{path.name} is not a key")
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        try:  # made by the owner, for the owner: never readable by others, even for a moment
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another console made it meanwhile: read theirs
            continue
        key = secrets.token_bytes(32)
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(key.hex() + "\n")
        return key
    raise OSError(0, "it comes and goes")
