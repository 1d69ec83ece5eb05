"""A game's speed: the steps with one answer computed in Python (the fast
path), and the guesses of the coming moves and states (speculation, only ever
a guess: a judgement is used only for the exact state it was made in). The
default has neither: the solver makes every step."""

from __future__ import annotations

from referee.base.terms import Fn, Term
from referee.game.parts import Part


class Speed(Part):
    """No fast path, no forced chance found in Python, no guesses."""

    def fast_path_applies(self, state: frozenset, role: Term, move: Fn) -> bool:
        """Whether ``fast_apply`` computes this step (False: the solver does)."""
        return False

    def fast_apply(self, state: frozenset, role: Term, move: Fn) -> frozenset:
        raise NotImplementedError("fast_apply is only called where fast_path_applies")

    def forced_chance(self, state: frozenset) -> Fn | None:
        """The chance outcome that can only be one thing now, found in Python (None: ask no one)."""
        return None

    def predict(self, state: frozenset, plays: list) -> list[tuple[Term, Fn]]:
        """The moves the referee will most likely judge from ``state`` on, given
        the events still to come (none guessed, by default)."""
        return []

    def speculate(self, state: frozenset, role: Term, move: Fn) -> frozenset | None:
        """The state a guessed move most likely leads to (None: no guess)."""
        return None
