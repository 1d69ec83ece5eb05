"""The games the referee knows, behind one interface.

:class:`GameRules` is what the generic referee needs from a game: where its
rule programs are, the static facts of one game, and the game-specific
reading of the state (whose turn, which bookkeeping step, how to show a move).
"""

from __future__ import annotations

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
    def missing_chance(self, state: frozenset) -> str: ...
    def describe_outcome(self, state: frozenset) -> str: ...


def game_rules(transcript: Transcript, rules: str | None = None, board: str | None = None) -> GameRules:
    """The rules of the game the transcript's header names."""
    game = transcript.header.game.lower()
    if game == "cyclades":
        from .cyclades.game import CycladesRules
        return CycladesRules(transcript, board_file=board, rules=rules)
    span = transcript.header.spans.get("game")
    raise NotationError(f"unknown game '{transcript.header.game}'; the referee knows: cyclades",
                        Position(transcript.source, span.line, span.column) if span else None)
