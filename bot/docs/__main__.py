"""`python -m bot.docs`: write every generated page of the docs (the command reference and
the layout); `--check` exits 1 if any is stale, and writes nothing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from bot.docs import layout, reference

PAGES: tuple[tuple[Callable[[], Path], Callable[[], str]], ...] = (
    (lambda: reference.PAGE, reference.page),
    (lambda: layout.PAGE, layout.page),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.docs",
                                     description="Write the docs pages made from the code.")
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is stale")
    args = parser.parse_args(argv)
    stale = []
    for where, make in PAGES:
        path, text = where(), make()
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(path)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    for path in stale:
        print(f"{path} is stale: run python -m bot.docs", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
