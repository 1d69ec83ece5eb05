"""The values a judged record is made of: a rule broken (:class:`Violation`),
what the solver says of one move (:class:`Judgement`), one move applied
(:class:`Step`), what the referee assumed a record means (:class:`Assumption`),
and the whole result (:class:`Run`). Frozen where they can be; nothing here
calls the solver."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Iterator

from referee.base.terms import Fn, Term
from referee.game.contract import Game
from referee.text.transcript import Play, Transcript


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``violation(rule, role, move, args)``."""

    rule: str
    role: Term
    move: Fn
    args: tuple[Term, ...] = ()


@dataclass(frozen=True)
class Judgement:
    """What the solver says about one move in one state: its violations and its
    effects, what the next state gains and loses (``next_state`` is the state
    with those applied)."""

    violations: tuple[Violation, ...]
    next_state: frozenset[Fn]
    legal: tuple[tuple[Term, Fn], ...] = ()
    goals: tuple[tuple[Term, int], ...] = ()
    gains: frozenset[Fn] = frozenset()
    loses: frozenset[Fn] = frozenset()

    @property
    def is_legal(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class Step:
    """One move applied to the game, written in the transcript or inserted.

    ``number`` is the move's number in the transcript (1-based) or ``None``
    for a step the referee inserted (``inserted`` says why: bookkeeping, a
    forced move, the end of a turn nobody wrote down).
    """

    number: int | None
    play: Play | None
    role: Term
    move: Fn
    violations: tuple[Violation, ...]
    before: frozenset
    after: frozenset
    path: str  # 'fast' or 'solver'
    inserted: str | None = None
    seconds: float = 0.0  # time spent on this step (a batched solver call counts for its first move)

    @property
    def legal(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class Assumption:
    """What the referee took a record to mean where it had to guess (a heading
    forgotten or written too early): said in the report at the line concerned.
    ``number`` is the written move it goes with (the next one, for a heading)."""

    number: int | None
    line: int
    column: int
    text: str


@dataclass
class Run:
    """The result of refereeing a transcript (or a prefix of it)."""

    transcript: Transcript
    rules: Game
    initial: frozenset
    steps: list[Step] = field(default_factory=list)
    stopped: bool = False  # strict mode stopped at an illegal move
    assumptions: list[Assumption] = field(default_factory=list)
    periods: int = 0  # the periods (rounds) begun, at a heading or assumed
    # A whole run's steps up to where the record stops, before the turns nobody
    # wrote are ended (None for any other run): run(close=False) makes just those.
    record_end: int | None = None

    @property
    def final(self) -> frozenset:
        return self.steps[-1].after if self.steps else self.initial

    def unclosed(self) -> Run | None:
        """This whole run as ``run(close=False)`` makes it: its steps up to where
        the record stops (the position ``moves`` and the picture ask about); None
        when not known."""
        if self.record_end is None:
            return None
        return replace(self, steps=self.steps[:self.record_end], record_end=None)

    def add(self, step: Step) -> None:
        """Record a step with the time spent since the previous one."""
        now = time.perf_counter()
        self.steps.append(replace(step, seconds=now - self._clock))
        self._clock = now

    _clock: float = field(default_factory=time.perf_counter, repr=False)

    def written(self) -> Iterator[Step]:
        return (s for s in self.steps if s.number is not None)

    def step_of(self, number: int) -> Step | None:
        return next((s for s in self.written() if s.number == number), None)
