"""The core stands in layers: no import circle among bot/core's modules, and the command
vocabulary below the games, the games below the club, the club below the command table,
the table below the handlers, the handlers below the assembly that names them, and that
below the service.

Read from the code's own import statements (ast), every one of them: at the top, inside a
function, under TYPE_CHECKING (a type named upward is still a tie upward), and a module
loaded by its name (importlib.import_module("bot.core.chart")). The packages
that Python loads on the way to a module (`bot.core.games` before `bot.core.games.base`) are
not counted; a package named in an import is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bot

ROOT = Path(bot.__file__).resolve().parent.parent  # the folder that holds bot/
CORE = "bot.core"

# Lowest first. A module of a layer may import its own layer and those below, never one above.
# A layer is its name and the modules (or packages) it holds.
Layers = tuple[tuple[str, ...], ...]
LAYERS: Layers = (
    ("the command vocabulary", "bot.core.commands"),
    ("the games", "bot.core.games"),
    ("the club: what spans tables (standings, ratings, seating), pure", "bot.core.club"),
    ("the command table", "bot.core.command_table"),
    ("the handlers", "bot.core.handlers"),
    ("the assembly", "bot.core.assembly"),
    ("the service", "bot.core.service"),
)

Graph = dict[str, dict[str, str]]  # module -> {module it imports: "file:line" of the first}


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of `package` under `root`, by dotted name (a package by its own)."""
    found = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(root: Path, package: str) -> Graph:
    """Who imports whom within `package`: each import resolved to the module it loads."""
    known = modules(root, package)

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {}
    for name, path in known.items():
        out = graph.setdefault(name, {})
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package this module is in
                    up = here.split(".")[:len(here.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # `from bot.core.handlers import hands` loads the module hands
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                           for a in node.names]
            elif isinstance(node, ast.Call) and _loaded(node):  # importlib.import_module
                targets = [_loaded(node) or ""]
            else:
                continue
            for target in targets:
                to = resolve(target)
                if to is not None and to != name:
                    out.setdefault(to, f"{path.relative_to(root)}:{node.lineno}")
    return graph


def _loaded(call: ast.Call) -> str | None:
    """The module a call imports by a constant name: import_module("bot.core.chart"), also
    as asyncio.to_thread(importlib.import_module, "bot.core.chart")."""
    func, args = call.func, call.args
    if (getattr(func, "attr", None) or getattr(func, "id", None)) == "to_thread" and args:
        func, args = args[0], args[1:]
    if (getattr(func, "attr", None) or getattr(func, "id", None)) in (
            "import_module", "__import__") and args and isinstance(args[0], ast.Constant) \
            and isinstance(args[0].value, str):
        return args[0].value
    return None


def circles(graph: Graph) -> list[list[str]]:
    """The groups of modules that import each other in a loop (strongly connected)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:  # Tarjan's, for a graph of a few hundred modules
        index[node] = low[node] = len(index)
        stack.append(node)
        for to in graph.get(node, {}):
            if to not in index:
                visit(to)
                low[node] = min(low[node], low[to])
            elif to in stack:
                low[node] = min(low[node], index[to])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer_of(module: str, layers: Layers = LAYERS) -> int | None:
    for number, (_, *prefixes) in enumerate(layers):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return number
    return None


def upward(graph: Graph, layers: Layers = LAYERS) -> list[str]:
    """Every import from a layer into one above it."""
    wrong = []
    for name, out in sorted(graph.items()):
        here = layer_of(name, layers)
        for to, where in sorted(out.items()):
            there = layer_of(to, layers)
            if here is not None and there is not None and there > here:
                wrong.append(f"{where}: {layers[here][0]} -> {layers[there][0]} ({to})")
    return wrong


def ties(graph: Graph, group: list[str]) -> list[str]:
    return [f"{where}: {name} -> {to}" for name in group
            for to, where in graph[name].items() if to in group]


def test_no_import_circle_among_the_cores_modules() -> None:
    graph = imports(ROOT, CORE)
    assert len(graph) > 50  # the core was read, not an empty folder
    found = circles(graph)
    assert not found, "import circles in bot/core:\n" + "\n\n".join(
        "\n".join(ties(graph, group)) for group in found)


def test_each_layer_imports_only_its_own_and_those_below() -> None:
    graph = imports(ROOT, CORE)
    for _, prefix in LAYERS:  # every layer is still there to be held to its place
        assert any(layer_of(name) is not None and name.startswith(prefix) for name in graph), \
            prefix
    wrong = upward(graph)
    assert not wrong, "imports that run up a layer:\n" + "\n".join(wrong)


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_finds_a_circle_made_inside_a_function_or_for_types(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "bot/__init__.py": "",
        "bot/core/__init__.py": "",
        "bot/core/board.py": "def f():\n    from bot.core.flows import Question\n",
        "bot/core/flows.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from bot.core import board\n"),
        "bot/core/money.py": ("import asyncio, importlib\nimport bot.core.board\n"
                              "async def f():\n"
                              "    await asyncio.to_thread(importlib.import_module, "
                              "'bot.core.stats')\n"),
        "bot/core/stats.py": "from bot.core.money import f\n",
    })
    graph = imports(tmp_path, CORE)
    assert circles(graph) == [["bot.core.board", "bot.core.flows"],
                              ["bot.core.money", "bot.core.stats"]]
    assert ties(graph, ["bot.core.board", "bot.core.flows"]) == [
        "bot/core/board.py:2: bot.core.board -> bot.core.flows",
        "bot/core/flows.py:3: bot.core.flows -> bot.core.board"]


def test_the_check_finds_a_game_that_imports_the_assembly(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "bot/__init__.py": "",
        "bot/core/__init__.py": "",
        "bot/core/commands/__init__.py": "",
        "bot/core/commands/spec.py": "",
        "bot/core/games/__init__.py": "",
        "bot/core/games/dice/__init__.py": "",
        "bot/core/games/dice/game.py": ("from bot.core.commands.spec import CommandSpec\n"
                                        "from ...assembly import built\n"),
        "bot/core/assembly/__init__.py": "",
        "bot/core/assembly/built.py": "from bot.core.games.dice import game\n",
    })
    graph = imports(tmp_path, CORE)
    assert upward(graph) == [
        "bot/core/games/dice/game.py:2: the games -> the assembly (bot.core.assembly.built)"]
    assert circles(graph) == [["bot.core.assembly.built", "bot.core.games.dice.game"]]


ROUTER_LINES = 300  # the service routes; what it does besides has modules of its own


def test_the_service_is_a_short_router_and_nothing_beside_it_imports_it() -> None:
    router = ROOT / "bot" / "core" / "service" / "__init__.py"
    assert len(router.read_text(encoding="utf-8").splitlines()) < ROUTER_LINES
    graph = imports(ROOT, CORE)
    beside = sorted(name for name in graph if name.startswith("bot.core.service."))
    assert {"bot.core.service.failures", "bot.core.service.taps"} <= set(beside)
    wrong = [f"{graph[name]['bot.core.service']}: {name}" for name in beside
             if "bot.core.service" in graph[name]]
    assert not wrong, "modules beside the router that import it:\n" + "\n".join(wrong)
