"""The tests' own shape (issue 28): what tests share lives in modules of
tests/helpers/, so no test module imports another test module or a conftest
(pytest imports those itself, and a test module imported twice runs its set-up
twice and can collect its tests twice)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

TEST_SOURCES = sorted(TESTS.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by its full name (relative imports by their own)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.add(base)
            if not node.module:
                found.update(base + alias.name for alias in node.names)
    return found


def is_test_module_or_conftest(module: str) -> bool:
    last = module.lstrip(".").rpartition(".")[2]
    return last == "conftest" or last.startswith("test_")


@pytest.mark.parametrize("path", TEST_SOURCES, ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_file_imports_a_test_module_or_a_conftest(path):
    wrong = sorted(m for m in imported_modules(path) if is_test_module_or_conftest(m))
    assert not wrong, f"tests/{path.relative_to(TESTS)} imports {wrong}: move what is shared to tests/helpers/"


def test_the_check_sees_the_imports_it_forbids(tmp_path):
    source = tmp_path / "test_sample.py"
    source.write_text("import conftest\nfrom test_other import moves\nfrom . import test_third\n"
                      "from helpers.cyclades import play\n", encoding="utf-8")
    assert sorted(m for m in imported_modules(source) if is_test_module_or_conftest(m)) == \
        [".test_third", "conftest", "test_other"]
