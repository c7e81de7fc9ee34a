"""docs/reference.md is the command table written out: stale means the test fails."""

from pathlib import Path

import pytest

from bot.core.assembly.built import TABLE
from bot.docs import reference


def test_the_checked_in_page_is_the_table_written_out() -> None:
    # when this fails: python -m bot.docs
    assert reference.PAGE.read_text(encoding="utf-8") == reference.page()


def test_every_command_and_option_is_on_the_page() -> None:
    page = reference.page()
    for name in TABLE.names():
        assert f"\n## /{name}\n" in page
        for spec in TABLE.variants(name).values():
            assert f"`{spec.usage}`" in page
            for option in spec.options:
                assert (f"| `{option.key}:` |" if option.key
                        else f"| {option.label} (free words) |") in page


def test_bounds_choices_and_who_may_are_written_from_the_spec() -> None:
    page = reference.page()
    # /undo's payment: is an INT option declared with low=1, high=1_000_000
    assert "| `payment:` | whole number, 1 to 1,000,000 |" in page
    # /settings is Rule.ADMIN; its board: option is a CHOICE of live and new
    settings = page.split("\n## /settings\n")[1].split("\n## ")[0]
    assert "Who may: A chat admin." in settings
    assert "one of `live`, `new`" in settings
    # /maal is Nepali Marriage's alone
    maal = page.split("\n## /maal\n")[1].split("\n## ")[0]
    assert "Games: Nepali Marriage." in maal


@pytest.mark.parametrize("edit", ["stale", "missing"])
def test_check_fails_on_a_stale_or_missing_page(tmp_path: Path, monkeypatch,
                                                edit: str) -> None:
    page = tmp_path / "reference.md"
    if edit == "stale":
        page.write_text(reference.page().replace("/newgame", "/newgaem", 1), encoding="utf-8")
    monkeypatch.setattr(reference, "PAGE", page)
    assert reference.main(["--check"]) == 1
    assert reference.main([]) == 0
    assert reference.main(["--check"]) == 0
