#!/usr/bin/env python3
"""Regenerate (or verify) the shipped example of the translation report:
docs/examples/compare-en-zh-001.html, what

    referee compare cyclades --rules en --rules zh-001 --report FILE.html

writes (docs/translations.md, "The translation report"). The report depends on
the search's result alone (no time of day, a stable order), so the file is
current exactly when regenerating it gives the same bytes; tests/compare/test_compare.py
checks that in CI from the search it runs anyway.

Usage (from the repository root):

    python tools/compare_example.py            # rewrite the example
    python tools/compare_example.py --check    # exit 1 if it would change
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "compare-en-zh-001.html"
PAIR = ("cyclades", "en", "zh-001")


def render(result) -> str:
    """The example's text from the search result of PAIR."""
    from referee.compare.report import to_html

    return to_html(result)


def search():
    from referee.compare.search import compare_search

    return compare_search(*PAIR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped example is not current")
    args = parser.parse_args(argv)
    text = render(search())
    if args.check:
        current = EXAMPLE.read_text(encoding="utf-8") if EXAMPLE.exists() else None
        if current != text:
            print(f"{EXAMPLE.relative_to(ROOT)} is not current: run python tools/compare_example.py", file=sys.stderr)
            return 1
        print(f"{EXAMPLE.relative_to(ROOT)} is current")
        return 0
    EXAMPLE.parent.mkdir(parents=True, exist_ok=True)
    EXAMPLE.write_text(text, encoding="utf-8")
    print(f"wrote {EXAMPLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
