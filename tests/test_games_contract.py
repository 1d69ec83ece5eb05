"""The contract between the generic referee and a game (docs/architecture.md,
"Adding a game"): the games are found through the entry-point group
``referee.games``; one check says a game is unknown; what a game may lack has
a default and a clear error; and the generic modules name no game.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee.errors import RefereeError
from referee.game import Game, UnknownGameError, check_game, game_class, known_games

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "referee"


def test_the_games_are_the_entry_points_each_a_game_of_its_name():
    from importlib.metadata import entry_points

    registered = {ep.name for ep in entry_points(group="referee.games")}
    assert set(known_games()) == registered and {"cyclades", "luna"} <= registered
    for name in known_games():
        cls = game_class(name)
        assert issubclass(cls, Game) and cls.name == name
        assert game_class(name.upper()) is cls  # a game's name is read without case


def test_an_unknown_game_is_one_error_naming_the_known_ones():
    with pytest.raises(UnknownGameError) as error:
        check_game("chess")
    assert error.value.message == f"unknown game 'chess'; the referee knows: {', '.join(known_games())}"
    assert error.value.code == "unknown-game"


def test_what_a_game_may_lack_has_a_default():
    """The optional members of the contract are defined on Game itself, so the
    generic modules call them without probing (no hasattr)."""
    for member in ("starting_position", "screen", "notes", "warnings", "predict", "speculate",
                   "search_scenarios", "use_variants", "position_item", "period", "picture", "builtin_boards"):
        assert hasattr(Game, member), member
    assert Game.picture is None

    class Nim(Game):  # a game that draws no board: the default, and its clear error
        name = "nim"

    assert Nim.picture is None and Nim.search_scenarios() == ()
    assert isinstance(Nim.lacks("board picture"), RefereeError)
    assert Nim.lacks("board picture").message == "Nim has no board picture yet"
    luna = game_class("luna")
    assert luna.search_scenarios() == ()


def test_the_generic_modules_do_not_probe_a_game():
    """No hasattr/getattr on a game's rules object outside referee/games/."""
    for path in _generic_modules():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(hasattr|getattr)\(\s*(self\.)?rules\b", text), path


def _generic_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def _generic_files() -> list[Path]:
    """The generic modules, and the generic grammar, rule program and schema.
    The page (referee/web/) is left out: it shows users an example transcript."""
    kept = []
    for p in PACKAGE.rglob("*"):
        parts = p.relative_to(PACKAGE).parts
        if p.is_file() and p.suffix in (".py", ".lark", ".lp", ".json") and parts[0] not in ("games", "web"):
            kept.append(p)
    return sorted(kept)


def test_no_generic_module_names_a_game():
    """Issue 15: everything about one game lives in referee/games/<game>/; the
    generic modules (code, comments and docstrings alike) name no game."""
    names = re.compile("|".join(re.escape(g) for g in known_games()), re.IGNORECASE)
    assert len(_generic_files()) > 20
    found = []
    for path in _generic_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if names.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_no_generic_module_imports_a_game():
    for path in _generic_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not re.match(r"(referee\.)?games\.\w+", node.module.lstrip(".")), (path, node.module)
