"""The tests' own shape (issue 28): what tests share lives in modules of
tests/helpers/, so no test module imports another test module or a conftest
(pytest imports those itself, and a test module imported twice runs its set-up
twice and can collect its tests twice); and no test module does solver work
while it is imported (a failure there would be a collection error, and every
run, even of one other test, would pay for it)."""

from __future__ import annotations

import ast
import importlib.util
import inspect
from pathlib import Path

import pytest
from helpers.import_guard import SolvingAtImport, no_solving

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


# -- no solver work at import time (tests/helpers/import_guard.py) ------------------------------

def _import_guarded(path: Path) -> None:
    spec = importlib.util.spec_from_file_location(f"sample_{path.stem}", path)
    with no_solving(path.name):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


@pytest.mark.parametrize("solving", [
    "from referee.ask.session import Session\nREPORT = Session('transcripts/luna/disputed-occupy-tile.txt').check()\n",
    "import clingo\nCONTROL = clingo.Control()\nCONTROL.add('base', [], 'a.')\nCONTROL.ground([('base', [])])\n",
    "import clingo\nclingo.Control().solve()\n",
], ids=["a-check", "grounding", "solving"])
def test_a_module_that_solves_while_imported_is_refused(tmp_path, solving):
    sample = tmp_path / "test_sample.py"
    sample.write_text(solving, encoding="utf-8")
    with pytest.raises(SolvingAtImport, match="test_sample.py does solver work at import time"):
        _import_guarded(sample)


def test_a_module_that_only_reads_while_imported_is_let_through(tmp_path):
    sample = tmp_path / "test_sample.py"
    sample.write_text("from referee.game.readings import load_readings\nREADINGS = load_readings('luna')\n"
                      "import clingo\nCONTROL = clingo.Control()\n", encoding="utf-8")
    _import_guarded(sample)


def test_every_test_module_is_collected_with_solving_refused(request):
    """tests/conftest.py wraps the collection of each test module in ``no_solving``."""
    conftest = TESTS / "conftest.py"
    plugins = [p for p in request.config.pluginmanager.get_plugins()
               if Path(getattr(p, "__file__", "") or "") == conftest]
    assert plugins and hasattr(plugins[0], "pytest_make_collect_report")
    assert "no_solving(" in inspect.getsource(plugins[0].pytest_make_collect_report)
