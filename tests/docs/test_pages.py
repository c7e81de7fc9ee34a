"""The generated pages are checked in up to date, and the repository's .env.example names
only settings the bot reads."""

import re
from pathlib import Path

import pytest

from bot.docs import __main__ as docs
from bot.docs import layout
from bot.settings import Settings


def test_the_layout_page_lists_every_file_of_bot() -> None:
    # when this fails: python -m bot.docs
    assert layout.PAGE.read_text(encoding="utf-8") == layout.page()
    page = layout.page()
    for path in layout.PACKAGE.rglob("*.py"):
        folder = path.parent.relative_to(layout.ROOT).as_posix()
        assert f"## `{folder}/`" in page
        assert f"- `{path.name}`: " in page.split(f"## `{folder}/`")[1].split("\n## ")[0]


def test_a_module_is_described_by_its_own_docstring(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""First line\nstill the first paragraph.\n\nNot this."""\n')
    assert layout.summary(module) == "First line still the first paragraph."


def test_check_reports_a_stale_page_and_writing_fixes_it(tmp_path: Path, monkeypatch) -> None:
    page = tmp_path / "layout.md"
    page.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(layout, "PAGE", page)
    assert docs.main(["--check"]) == 1
    assert page.read_text(encoding="utf-8") == "old\n"  # --check writes nothing
    assert docs.main([]) == 0
    assert docs.main(["--check"]) == 0


@pytest.mark.parametrize("line", (layout.ROOT / ".env.example").read_text().splitlines())
def test_env_example_names_only_settings(line: str) -> None:
    found = re.match(r"#?\s*([A-Z][A-Z_]+)=", line)
    if found:
        assert found.group(1).lower() in Settings.model_fields


def test_every_setting_is_in_the_hosting_page() -> None:
    page = (layout.ROOT / "docs" / "hosting" / "running.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"`{name.upper()}`" in page, name
