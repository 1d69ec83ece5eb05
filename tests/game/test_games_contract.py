"""The contract between the generic referee and a game (docs/architecture.md,
"Adding a game"): the games are found through the entry-point group
``referee.games``; one check says a game is unknown; what a game may lack has
a default and a clear error; and the generic modules name no game.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.game_names import lines_naming_a_shipped_game

from referee.base.errors import RefereeError
from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn
from referee.game.contract import Game, lacks
from referee.game.parts import part, part_class
from referee.game.parts.scenarios import Scenarios
from referee.game.parts.screen import Screen
from referee.game.parts.service import Service
from referee.game.parts.speed import Speed
from referee.game.parts.tolerance import Tolerance
from referee.game.parts.values import Values
from referee.game.parts.words import Words
from referee.game.picture import Picture
from referee.game.registry import (
    UnknownGameError,
    check_game,
    game_class,
    game_folder,
    game_package,
    game_reader,
    known_games,
    package_folder,
)

REPO = Path(__file__).resolve().parents[2]
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
    """Every optional part has a default (referee/game/parts/), so the generic
    modules ask for a part without probing (no hasattr); a game where players
    take turns and that is all needs none of them."""
    class Plain(Game):
        name = "plain"

    plain = object.__new__(Plain)
    state, move = frozenset(), Fn("take", (1, 2))
    assert plain.period_number(state) == 0 and plain.game_step(state) is None
    speed, tolerance = part(plain, Speed), part(plain, Tolerance)
    assert type(speed) is Speed and part(plain, Speed) is speed  # the default, made once per game
    assert not tolerance.has_pending(state) and speed.forced_chance(state) is None
    assert not speed.fast_path_applies(state, "Ann", move) and tolerance.end_of_turn(state) is None
    assert tolerance.resolve_move(state, move) == move and speed.predict(state, []) == []
    assert speed.speculate(state, "Ann", move) is None
    assert part(plain, Words).describe_move(move) == "take(1,2)"
    assert part(plain, Screen).screen(state, "Ann") is None and part(plain, Values).unverified_values(None) is None
    assert part(plain, Screen).highest() == 0 and part(plain, Screen).with_amount(state, "Ann", 3) == state
    assert part_class(Plain, Picture) is Picture and part_class(Plain, Scenarios).scenarios == ()
    assert part_class(Plain, Service).builtin_files == frozenset() and part_class(Plain, Service).warm_up == ""
    assert isinstance(lacks(Plain, "board picture"), RefereeError)
    assert lacks(Plain, "board picture").message == "Plain has no board picture yet"
    assert part_class(game_class("luna"), Scenarios).scenarios == ()


def test_a_part_a_game_declares_is_a_subclass_of_its_kind():
    class Wrong(Game):
        name = "wrong"
        parts = FrozenMap({Words: Speed})

    with pytest.raises(TypeError, match="Wrong.parts gives .* as its Words, not a subclass of it"):
        part_class(Wrong, Words)


def test_a_game_s_files_are_in_its_class_s_package():
    """The package of the class's module; or that module itself when it is a
    package (a class written in the package's __init__.py)."""
    in_module = type("InModule", (Game,), {"__module__": "referee.games.luna.game"})
    in_init = type("InInit", (Game,), {"__module__": "referee.games.luna"})
    assert game_package(in_module) == game_package(in_init) == "referee.games.luna"


def test_a_game_s_package_folder_holds_its_files_and_a_namespace_package_has_one(tmp_path, monkeypatch):
    """package_folder: where rules/, grammar.lark and catalogue.toml are; a package
    without __init__.py (a namespace package) is its one folder."""
    folder = game_folder("cyclades")
    assert folder == REPO / "referee" / "games" / "cyclades"
    assert (folder / "grammar.lark").is_file() and (folder / "rules").is_dir()
    (tmp_path / "bare_game_files").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert package_folder("bare_game_files") == tmp_path / "bare_game_files"


def test_a_part_declared_by_its_name_is_imported_when_first_asked_for():
    """A part given as 'package.module:Class' (the picture): the game's class is
    imported without its drawing code, and asking for the part gives its class."""
    code = ("import sys; from referee.game.registry import game_class; from referee.game.picture import Picture; "
            "from referee.game.parts import part_class; "
            "cls = game_class('cyclades'); before = 'referee.games.cyclades.draw' in sys.modules; "
            "picture = part_class(cls, Picture); print(before, issubclass(picture, Picture), "
            "part_class(cls, Picture) is picture, 'referee.games.cyclades.draw' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.split() == ["False", "True", "True", "True"]


def test_a_reading_module_that_lacks_a_part_of_the_contract_is_named(tmp_path, monkeypatch):
    """The reader contract (referee/text/syntax.py): read, expected, hint, START_RULES;
    a module without one is named when the game is first read, not in a traceback
    halfway through a transcript."""
    (tmp_path / "halfgame").mkdir()
    (tmp_path / "halfgame" / "__init__.py").write_text("")
    (tmp_path / "halfgame" / "reading.py").write_text("def read(tree, source): ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    half = type("HalfRules", (Game,), {"__module__": "halfgame", "name": "half"})
    with pytest.raises(TypeError, match=r"^halfgame\.reading lacks expected, hint, START_RULES: "):
        game_reader(half)


def test_the_generic_modules_do_not_probe_a_game():
    """No hasattr/getattr on a game's rules object outside referee/games/."""
    for path in _generic_modules():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(hasattr|getattr)\(\s*(self\.)?rules\b", text), path


def _generic_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def test_no_generic_module_names_a_game():
    """Issue 15: everything about one game lives in referee/games/<game>/; the
    generic modules (code, comments and docstrings alike) name no game."""
    found = lines_naming_a_shipped_game()
    assert not found, "\n".join(found)


def test_no_generic_module_imports_a_game():
    for path in _generic_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not re.match(r"(referee\.)?games\.\w+", node.module.lstrip(".")), (path, node.module)
