"""One store of derived files (referee/store/files.py): no other module of the
referee finds the cache folder, writes a file into it, opens a derived
database or lets lark keep its own parser cache. Read from every module's
syntax tree, so that a new cache cannot slip in beside the store."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "referee"
STORE = PACKAGE / "store" / "files.py"

#: The store's own means of keeping a file: named by no module but the store (and the
#: store layer's judgement cache, which asks the store to open its database).
STORE_ONLY = {"cache_dir": {"store/files.py"}, "write_whole": {"store/files.py"}, "_prune": {"store/files.py"},
              "open_database": {"store/files.py", "store/judgements.py"},
              "XDG_CACHE_HOME": {"store/files.py"}}
#: The one database that is not derived: the service's tables (a game in progress, never rebuilt).
SQLITE_CONNECT = {"store/files.py", "service/tables.py"}

MODULES = sorted(PACKAGE.rglob("*.py"))


def _names(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id, node
        elif isinstance(node, ast.Attribute):
            yield node.attr, node
        elif isinstance(node, ast.alias):
            yield node.name.rpartition(".")[2], node
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value, node


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_store_keeps_derived_files(path):
    where = path.relative_to(PACKAGE).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name, node in _names(tree):
        if name in STORE_ONLY:
            assert where in STORE_ONLY[name], f"{where}:{node.lineno} uses {name}: keep derived files in the store"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Attribute) and function.attr == "connect" and \
                    isinstance(function.value, ast.Name) and function.value.id == "sqlite3":
                assert where in SQLITE_CONNECT, f"{where}:{node.lineno} opens a database: the store opens derived ones"
            if isinstance(function, ast.Name) and function.id == "Lark":
                assert not any(k.arg == "cache" for k in node.keywords), \
                    f"{where}:{node.lineno}: lark's own cache: keep the parser in the store (Kind.fetch)"


def test_every_kind_is_declared_once():
    """Each kind of derived file is one Kind(...) of the module that builds it,
    and no two share a name (their files would be taken for each other's)."""
    declared = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Kind" and \
                    node.args and isinstance(node.args[0], ast.Constant):
                declared.append(node.args[0].value)
    assert sorted(declared) == sorted(set(declared))
    assert set(declared) == {"toml", "lark", "entrypoints", "indexed", "outlines", "kept", "judgements"}
