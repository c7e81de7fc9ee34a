"""Storage stands in layers as the core does (tests/core/test_layers.py, whose reading of the
import statements this uses: at the top, inside a function, for types): no import circle
among bot/storage's modules, each layer importing only its own and those below, and every
module placed in one (a new file says where it stands)."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_layers import (
    ROOT,
    Layers,
    _tree,
    circles,
    imports,
    layer_of,
    ties,
    upward,
)

STORAGE = "bot.storage"


def _in(*names: str) -> tuple[str, ...]:
    return tuple(f"{STORAGE}.{name}" for name in names)


# Lowest first (docs/architecture.md, Storage)
LAYERS: Layers = (
    # what a stored row is and reads back as, what can go wrong, the engines, the file
    ("the ground", *_in("problems", "tables", "records", "database", "sqlite_link",
                        "sqlite_file")),
    # one command's transaction and what is kept beside it; the schema; damage found
    ("the keepers", *_in("hot", "connections", "rule_sets", "retention", "events", "rekey",
                         "inbox", "migrations", "damage", "pages")),
    # whole chats at a time: files written, read, checked, imported, restored; forgetting
    ("whole chats", *_in("validate", "reading", "backup", "importer", "restore", "forget")),
    # what the core sees, and whether the database is sound
    ("the store", *_in("store", "health")),
    # the store opened; the package's face
    ("the top", *_in("opening"), STORAGE),
)


def test_no_import_circle_among_the_storages_modules() -> None:
    graph = imports(ROOT, STORAGE)
    assert len(graph) > 20  # storage was read, not an empty folder
    found = circles(graph)
    assert not found, "import circles in bot/storage:\n" + "\n\n".join(
        "\n".join(ties(graph, group)) for group in found)


def test_each_storage_layer_imports_only_its_own_and_those_below() -> None:
    graph = imports(ROOT, STORAGE)
    unplaced = sorted(name for name in graph if layer_of(name, LAYERS) is None)
    assert not unplaced, f"modules of bot/storage in no layer (place them): {unplaced}"
    wrong = upward(graph, LAYERS)
    assert not wrong, "imports that run up a layer:\n" + "\n".join(wrong)


def test_the_check_finds_a_circle_in_storage_and_an_import_up_a_layer(tmp_path: Path):
    """The circle there was: the engines' module opened the store, which imports the
    engines' module (through backup, forget, inbox, connections)."""
    _tree(tmp_path, {
        "bot/__init__.py": "",
        "bot/storage/__init__.py": "from bot.storage.opening import open_store\n",
        "bot/storage/database.py": ("async def open_store(url):\n"
                                    "    from bot.storage.store import SqlStore\n"),
        "bot/storage/store.py": "from bot.storage.backup import export_parts\n",
        "bot/storage/backup.py": "from bot.storage.database import READ_ONLY\n",
        "bot/storage/opening.py": "",
    })
    graph = imports(tmp_path, STORAGE)
    assert circles(graph) == [["bot.storage.backup", "bot.storage.database",
                               "bot.storage.store"]]
    assert upward(graph, LAYERS) == [
        "bot/storage/database.py:2: the ground -> the store (bot.storage.store)"]
