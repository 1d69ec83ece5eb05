"""A game's tolerance (docs/notation.md): what a hurried writer leaves out and
the referee fills in, and the lines written out of sequence. The default
tolerates nothing: every move is read exactly as written, turns end by
themselves, no decision is left pending."""

from __future__ import annotations

from referee.base.terms import Fn, Term
from referee.game.parts import Part
from referee.text.transcript import Play, Transcript


class Tolerance(Part):
    """Nothing left out, nothing out of sequence."""

    def header_assumptions(self, transcript: Transcript) -> list[tuple[int | None, int, int, str]]:
        """What the referee supplies that the header leaves out, each as (the move
        it goes with, line, column, words): nothing, by default."""
        return []

    def decided_later(self, state: frozenset, play: Play, implied: tuple[Term, Fn],
                      coming: list[tuple[int, Play]]) -> int | None:
        """When ``play`` would make the referee take ``implied`` (a decision of
        another role, left unwritten) but that role's own decision is written in
        the lines just after it (``coming``: their indices and plays): the index
        of that line, which comes first (the two lines were swapped). None, by
        default: the implied move is taken."""
        return None

    def has_pending(self, state: frozenset) -> bool:
        """Whether a decision with one possible answer may be left unwritten."""
        return False

    def end_of_turn(self, state: frozenset) -> tuple[Term, Fn] | None:
        """The move that ends a turn nobody wrote the end of (None: turns end by themselves)."""
        return None

    def turn_gap(self, state: frozenset, play: Play) -> tuple[Term, Fn] | None:
        """The end of a turn that ``play`` implies (None: nothing is implied)."""
        return None

    def begins_period(self, state: frozenset, play: Play) -> bool:
        """Whether ``play`` is a line only a new period holds, written while the
        current one goes on (its heading forgotten): never, by default."""
        return False

    def opens_period(self, play: Play) -> bool:
        """Whether ``play`` may be the first line of a period (else a heading
        before it was written too early): any line, by default."""
        return True

    def forced_together(self, moves: list[Fn]) -> list[Fn] | None:
        """Legal moves that are one decision with one answer whatever their order
        (taken together for the player); None, by default."""
        return None

    def left_out(self, state: frozenset, move: Fn, line: list[Fn] = ()) -> Fn | None:
        """A chance outcome the line leaves out that can only be one thing, before
        the written ``move``; None, by default."""
        return None

    def skipped(self, line: int, move: Fn) -> None:
        """Note that ``move`` of source line ``line`` was filled in (the line's
        next pieces move on); nothing to note, by default."""

    def resolve_move(self, state: frozenset, move: Fn) -> Fn:
        """A move in the one form the rules judge, whatever form was written (as
        written, by default)."""
        return move
