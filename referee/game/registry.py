"""The games the referee knows, and where each one's files are.

Games are found through the Python entry-point group ``referee.games`` (the
project's pyproject.toml registers its own), so a separate package can add a
game: a subclass of :class:`referee.game.contract.Game` in a package (the shipped
games are ``referee/games/<game>/``) that holds its reader (``reading.py``, the
contract in :mod:`referee.text.syntax`), its grammar (``grammar.lark``), its rule
catalogue (``catalogue.toml``) and its rule programs (``rules/*.lp``); names
(``names.toml``) and readings (``readings.toml``) only if it has them. Nothing
here names a game; docs/adding-a-game.md walks through adding one.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from pathlib import Path
from types import ModuleType

from referee.base.errors import RefereeError
from referee.game.contract import Game
from referee.store.files import Kind, key_of

#: The entry-point group games register under (pyproject.toml).
ENTRY_POINTS = "referee.games"
#: What a game's reading module defines (the contract is in referee/text/syntax.py).
READER_CONTRACT = ("read", "expected", "hint", "START_RULES")


class UnknownGameError(RefereeError):
    """A game name the referee does not know."""

    code = "unknown-game"


def package_folder(package: str) -> Path:
    """The folder of an installed package, which holds its data files (rule
    programs, grammars, data files, catalogues). The referee's packages are folders
    on disk, as clingo reads rule files by path; importlib.resources would find
    the same folder at the cost of importing tempfile and zipfile, several
    milliseconds of every new process."""
    module = importlib.import_module(package)
    if getattr(module, "__file__", None) is None:  # a namespace package (no __init__.py): its one folder
        return Path(next(iter(module.__path__)))
    return Path(module.__file__).parent


def game_package(cls: type[Game]) -> str:
    """The Python package holding the game's files: the package of the
    class's module (``<pkg>.game``), or that module when it is itself a
    package (a class defined in ``<pkg>/__init__.py``)."""
    module = importlib.import_module(cls.__module__)
    if getattr(module, "__path__", None) is not None:  # a package's __init__
        return cls.__module__
    return cls.__module__.rpartition(".")[0]

def game_grammar(cls: type[Game]) -> tuple[str, str]:
    """The game's grammar: a name for messages and the text of ``grammar.lark``
    in its package (which may ``%import .common``, referee/text/grammar/common.lark)."""
    text = (package_folder(game_package(cls)) / "grammar.lark").read_text(encoding="utf-8")
    return f"{game_package(cls).replace('.', '/')}/grammar.lark", text

def game_reader(cls: type[Game]) -> ModuleType:
    """The game's reader: the module ``reading`` of its package (the contract
    is in :mod:`referee.syntax`). Every game reads its own lines; a module
    that lacks a part of the contract is named at once, with what it lacks."""
    module = importlib.import_module(f"{game_package(cls)}.reading")
    missing = [part for part in READER_CONTRACT if not hasattr(module, part)]
    if missing:
        raise TypeError(f"{module.__name__} lacks {', '.join(missing)}: a game's reading module defines "
                        f"{', '.join(READER_CONTRACT)} (referee/syntax.py)")
    return module


def game_folder(game: str) -> Path:
    """The folder of a game's package, by the game's name: its rule programs,
    grammar, catalogue and data files are there."""
    return package_folder(game_package(game_class(game)))


def known_games() -> tuple[str, ...]:
    """The games the referee knows: every entry point of the group
    ``referee.games`` (adding a game registers one; nothing here names one)."""
    return tuple(sorted(_entry_points()))


#: The games' entry points in the store of derived files (JSON, name -> value).
ENTRY_POINT_FILES = Kind("entrypoints", 1)


@functools.cache
def _entry_points() -> dict[str, str]:
    """The group's entry points, name -> ``module:object``. Finding them takes
    importlib.metadata some 25 ms (importing it, reading every distribution's
    metadata), so they are kept in the store of derived files
    (referee/store/files.py) under a key of ``sys.path``: each of its folders
    with its modification time, which changes whenever a distribution is
    installed into it or removed from it."""
    parts = [ENTRY_POINTS]
    for folder in map(os.path.abspath, sys.path):  # ('' is the working folder)
        try:
            parts.append(f"{folder}\0{os.stat(folder).st_mtime_ns}")
        except OSError:
            parts.append(f"{folder}\0-")
    return ENTRY_POINT_FILES.fetch(key_of(*parts), _looked_up, _encode_entry_points, _decode_entry_points)


def _looked_up() -> dict[str, str]:
    from importlib import metadata

    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINTS)}


def _encode_entry_points(found: dict[str, str]) -> bytes:
    return json.dumps(found, sort_keys=True).encode("utf-8")


def _decode_entry_points(content: bytes) -> dict[str, str]:
    found = json.loads(content)
    if not (isinstance(found, dict) and all(isinstance(v, str) for v in found.values())):
        raise ValueError("not entry points")
    return found


def load_object(value: str) -> object:
    """The object an entry point's value names (``package.module:Class``)."""
    module, _, attributes = value.partition(":")
    found = importlib.import_module(module.strip())
    for attribute in attributes.strip().split(".") if attributes.strip() else ():
        found = getattr(found, attribute)
    return found


def forget_games() -> None:
    """Look the entry points up again on the next question: for a process that
    has put another distribution on ``sys.path`` since (the tests' example game,
    tests/game/test_example_game.py). An installed game needs no call."""
    _entry_points.cache_clear()
    game_class.cache_clear()


def default_game() -> str:
    """The game a command or request means when it names none: the first the
    referee knows."""
    return known_games()[0]


def check_game(game: str) -> str:
    """``game`` (casefolded) if the referee knows it, else an UnknownGameError
    naming the games it knows: the one check of every command and request."""
    name = game.casefold() if isinstance(game, str) else game
    if name not in _entry_points():
        raise UnknownGameError(f"unknown game '{game}'; the referee knows: {', '.join(known_games())}")
    return name


@functools.cache
def game_class(game: str) -> type[Game]:
    """The class of a game: its entry point's object, a subclass of :class:`Game`
    whose ``name`` is the entry point's."""
    name = check_game(game)
    cls = load_object(_entry_points()[name])
    if not (isinstance(cls, type) and issubclass(cls, Game)) or cls.name != name:
        raise TypeError(f"the entry point '{name}' of {ENTRY_POINTS} is not a Game subclass named '{name}'")
    return cls


def game_stamp(game: str) -> str:
    """The stamp of a game's own code (its package's folder, referee/store/files.py's
    code_stamp): what was derived with it is kept under it."""
    from referee.store.files import code_stamp

    return code_stamp(game_folder(game))
