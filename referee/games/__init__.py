"""The games the referee knows, behind one interface.

:class:`GameRules` is what the generic referee needs from a game: where its
rule programs are, the static facts of one game, and the game-specific
reading of the state (whose turn, which bookkeeping step, how to show a move).
"""

from __future__ import annotations

import functools
import importlib
from importlib import resources
from pathlib import Path
from typing import Protocol

from ..errors import NotationError, Position
from ..terms import Fn, Term
from ..transcript import Play, Transcript


class GameRules(Protocol):
    """One game, set up from one transcript's header."""

    name: str
    program_files: tuple
    static: tuple[Fn, ...]
    players: tuple[str, ...]

    def control(self, state: frozenset) -> Term | None: ...
    def cycle(self, state: frozenset) -> int: ...
    def is_over(self, state: frozenset) -> bool: ...
    def game_step(self, state: frozenset) -> Fn | None: ...
    def forced_chance(self, state: frozenset) -> Fn | None: ...
    def fast_path_applies(self, state: frozenset, role: Term, move: Fn) -> bool: ...
    def fast_apply(self, state: frozenset, role: Term, move: Fn) -> frozenset: ...
    def has_pending(self, state: frozenset) -> bool: ...
    def end_of_turn(self, state: frozenset) -> tuple[Term, Fn] | None: ...
    def turn_gap(self, state: frozenset, play: Play) -> tuple[Term, Fn] | None: ...
    def resolve(self, state: frozenset, play: Play) -> Fn: ...
    def resolve_move(self, state: frozenset, move: Fn) -> Fn: ...
    def missing_chance(self, state: frozenset) -> str: ...
    def describe_outcome(self, state: frozenset) -> str: ...
    def winners(self, state: frozenset) -> list[str]: ...
    # speed only: guesses of the coming moves and states (see docs/architecture.md)
    def predict(self, state: frozenset, events: list) -> list[tuple[Term, Fn]]: ...
    def speculate(self, state: frozenset, role: Term, move: Fn) -> frozenset | None: ...
    # words for people
    def describe_move(self, move: Fn) -> str: ...
    def role_text(self, role: Term) -> str: ...
    def term_text(self, term: Term) -> str: ...
    def group_moves(self, moves: list[Fn], limit: int | None) -> list[str]: ...
    def warnings(self, move: Fn) -> tuple[str, ...]: ...
    # optional: what the referee worked out about a move (e.g. the rolls that explain a battle's losses)
    def notes(self, state: frozenset, move: Fn) -> tuple[str, ...]: ...


def rule_files(game: str) -> tuple[Path, ...]:
    """The shared contract (``referee/rules.lp``), every rule file of the game
    (``referee/games/<game>/rules/*.lp``) in a stable order, then every variant
    module of its readings (each reading switches its own on)."""
    from ..readings import load_readings

    pkg = resources.files("referee")
    rules_dir = pkg / "games" / game / "rules"
    files = [Path(str(pkg / "rules.lp"))]
    files += sorted(Path(str(rules_dir / entry.name)) for entry in rules_dir.iterdir() if entry.name.endswith(".lp"))
    files += load_readings(game).modules()
    return tuple(files)


def known_games() -> tuple[str, ...]:
    """The games the referee knows: every folder ``referee/games/<game>/`` with a
    ``game.py`` (adding a game adds a folder; nothing here names one)."""
    return _known_games()


@functools.cache
def _known_games() -> tuple[str, ...]:
    folder = resources.files(__name__)
    return tuple(sorted(entry.name for entry in folder.iterdir()
                        if entry.is_dir() and entry.joinpath("game.py").is_file()))


def rules_class(game: str) -> type:
    """The class implementing :class:`GameRules` for ``game``: by convention
    ``<Game>Rules`` in ``referee/games/<game>/game.py`` (``CycladesRules``)."""
    module = importlib.import_module(f"{__name__}.{game}.game")
    return getattr(module, f"{game.capitalize()}Rules")


def game_rules(transcript: Transcript, rules: str | None = None, board: str | None = None) -> GameRules:
    """The rules of the game the transcript's header names."""
    game = transcript.header.game.lower()
    if game in known_games():
        return rules_class(game)(transcript, board_file=board, rules=rules)
    span = transcript.header.spans.get("game")
    raise NotationError(f"unknown game '{transcript.header.game}'; the referee knows: {', '.join(known_games())}",
                        Position(transcript.source, span.line, span.column) if span else None)
