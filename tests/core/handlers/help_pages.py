"""A help read whole, page after page, as a person types /help rules, /help rules 2, ..."""

from __future__ import annotations

from tests.conftest import Table


async def every_page(table: Table, line: str) -> list[str]:
    """The lines of a help, page after page ("(1/3) More: /help rules 2" at the foot of
    each but the last)."""
    lines: list[str] = []
    for page in range(1, 10):
        shown = (await table.ok(f"{line} {page}")).text.splitlines()
        foot = shown[-1] if shown[-1].startswith(f"({page}/") else None
        lines += shown[:-1] if foot else shown
        if foot is None or "More:" not in foot:
            return lines
    raise AssertionError("more pages than a help has")


async def whole(table: Table, line: str) -> str:
    return "\n".join(await every_page(table, line))
