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

# Lowest first (docs/architecture.md, Storage): each layer is a folder of bot/storage, and
# the package's own two files (its face and opening.py) are the top.
LAYERS: Layers = (
    ("the ground: engines, the file, tables, records", f"{STORAGE}.engine"),
    ("the keepers: one command's transaction and what is kept beside it",
     f"{STORAGE}.transaction"),
    ("whole chats: files written, read, checked, imported, restored; forgetting",
     f"{STORAGE}.chats"),
    ("the store", f"{STORAGE}.store"),
    ("the top", f"{STORAGE}.opening", STORAGE),
)


def test_every_folder_of_storage_is_a_layer_and_the_top_holds_two_files() -> None:
    folders = sorted(path.name for path in (ROOT / "bot" / "storage").iterdir()
                     if path.is_dir() and path.name != "__pycache__")
    assert folders == sorted(prefix.rpartition(".")[2] for _, prefix, *_ in LAYERS[:-1])
    top = sorted(path.name for path in (ROOT / "bot" / "storage").glob("*.py"))
    assert top == ["__init__.py", "opening.py"]


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
        "bot/storage/engine/database.py": ("async def open_store(url):\n"
                                    "    from bot.storage.store.sql_store import SqlStore\n"),
        "bot/storage/store/sql_store.py": "from bot.storage.chats.backup import export_parts\n",
        "bot/storage/chats/backup.py": "from bot.storage.engine.database import READ_ONLY\n",
        "bot/storage/opening.py": "",
    })
    graph = imports(tmp_path, STORAGE)
    assert circles(graph) == [["bot.storage.chats.backup", "bot.storage.engine.database",
                               "bot.storage.store.sql_store"]]
    assert upward(graph, LAYERS) == [
        "bot/storage/engine/database.py:2: the ground: engines, the file, tables, records -> "
        "the store (bot.storage.store.sql_store)"]
