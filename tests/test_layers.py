"""No import circle anywhere in bot/: not in the core or storage (each held to its layers by
tests/core/test_layers.py and tests/storage/test_layers.py), nor in the adapters, the web
pages, or between packages. Read as those tests read imports (at the top, inside a function,
for types, by importlib)."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_layers import ROOT, _tree, circles, imports, ties

PACKAGES = ("bot.discord_adapter", "bot.telegram_adapter", "bot.web", "bot.core",
            "bot.storage", "bot.docs")


def test_no_import_circle_in_any_package_of_bot_nor_between_them() -> None:
    graph = imports(ROOT, "bot")
    for package in PACKAGES:  # each was read, not an empty folder
        assert any(name.startswith(package + ".") for name in graph), package
    found = circles(graph)
    assert not found, "import circles in bot/:\n" + "\n\n".join(
        "\n".join(ties(graph, group)) for group in found)


def test_the_check_finds_the_circle_the_web_pages_had(tmp_path: Path) -> None:
    """The server imported the routes, which took the server's type from the app module,
    which named the server for that type."""
    _tree(tmp_path, {
        "bot/__init__.py": "",
        "bot/web/server.py": "from bot.web import pad\nclass WebServer: ...\n",
        "bot/web/pad.py": "from bot.web.app import server_of\n",
        "bot/web/app.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                           "    from bot.web.server import WebServer\n"),
    })
    graph = imports(tmp_path, "bot")
    assert circles(graph) == [["bot.web.app", "bot.web.pad", "bot.web.server"]]
