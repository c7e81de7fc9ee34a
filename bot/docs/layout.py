"""The layout page (docs/layout.md): every file of bot/, each with the first paragraph of its
own docstring, so the map is the code's own words and can't go stale unseen
(`tests/docs/test_pages.py`). Catalogues (.po, .pot) are listed per folder."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bot"
PAGE = ROOT / "docs" / "layout.md"

HEAD = """# Layout

<!-- Written by `python -m bot.docs` from the files of bot/ and their docstrings.
Do not edit by hand: change the docstring, then run it again. -->

Every file of `bot/`, with the first paragraph of its docstring. How the parts work
together is in [Architecture](architecture.md). Tests mirror this tree under `tests/`.
"""


def summary(path: Path) -> str:
    """The first paragraph of a module's docstring, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def _escape(text: str) -> str:
    # a docstring's <pre> or * is text here, not Markdown or HTML
    return text.replace("<", "&lt;").replace("*", "\\*")


def page() -> str:
    folders: dict[Path, list[str]] = defaultdict(list)
    catalogues: dict[Path, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        relative = path.relative_to(ROOT)
        if path.suffix == ".py":
            folders[relative.parent].append(
                f"- `{relative.name}`: {_escape(summary(path)) or 'no docstring'}")
        elif path.suffix in (".po", ".pot"):
            # bot/locale/ne/LC_MESSAGES/maalbot.po -> listed once under bot/locale/
            parts = relative.parts
            base = Path(*parts[:parts.index("locale") + 1])
            catalogues[base].add(path.suffix)
    lines = [HEAD]
    for folder in sorted(set(folders) | set(catalogues)):
        if folder in catalogues and folder not in folders:
            continue
        lines += [f"## `{folder.as_posix()}/`", "", *folders[folder], ""]
        local = folder / "locale"
        if local in catalogues:
            lines += ["- `locale/`: this part's messages: the template (`.pot`) and a "
                      "`<language>/LC_MESSAGES/*.po` catalogue per language.", ""]
    return "\n".join(lines).rstrip() + "\n"
