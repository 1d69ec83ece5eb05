"""The package's shape (docs/architecture.md, "The layers"): its folders are
layers, each importing only the layers below it, so that a newcomer can read
the referee from the ground up and no change in a higher layer reaches down.

Every import of every module is read from its syntax tree, those inside
functions included (an import made on first use is still a dependency)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "referee"

#: Each layer and the layers it may import (besides itself). The games stand
#: on the generic layers a game needs and on nothing that asks or answers.
MAY_IMPORT = {
    "base": set(),
    "store": {"base"},
    "text": {"base", "store"},
    "game": {"base", "store", "text"},
    "judge": {"base", "store", "text", "game"},
    "games": {"base", "text", "game", "judge"},
    "ask": {"base", "store", "text", "game", "judge"},
    "compare": {"base", "store", "text", "game", "judge", "ask"},
    "run": {"base", "store", "text", "game", "judge", "ask"},
    "service": {"base", "store", "text", "game", "judge", "ask", "compare", "run"},
    "cli": {"base", "store", "text", "game", "judge", "ask", "compare", "run", "service"},
    "__main__": {"cli"},
    "__init__": set(),
}


def _layer(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else path.stem


def _imported(path: Path) -> set[str]:
    """The layers of the referee a module imports (absolute or relative)."""
    module = ".".join(("referee", *path.relative_to(PACKAGE).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base] if node.module else [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "referee" and len(parts) > 1 and parts[1] != "__version__":
                found.add(parts[1])
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_imports_only_the_layers_below_its_own(path):
    layer = _layer(path)
    wrong = {other for other in _imported(path) - {layer} if other not in MAY_IMPORT[layer]}
    assert not wrong, f"referee/{path.relative_to(PACKAGE)} ({layer}) imports {sorted(wrong)}"


def test_every_module_is_in_a_layer_s_folder():
    """Besides the package's face, ``python -m referee`` and the command line,
    every module is in the folder of its layer."""
    alone = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert alone == ["__init__.py", "__main__.py", "cli.py"]
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(MAY_IMPORT) - {"cli", "__main__", "__init__"}


def test_the_layers_cannot_reach_up():
    """The table itself: no two layers may import each other (no circle)."""
    for layer, below in MAY_IMPORT.items():
        for other in below:
            assert layer not in MAY_IMPORT[other], f"{layer} and {other} may import each other"
