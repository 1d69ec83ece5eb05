"""The values a judged record is made of: the one verdict (:class:`Verdict`:
legal, illegal, unreadable, not judged, failed), a rule broken
(:class:`Breach`), what the solver says of one move (:class:`Judgement`), one
move applied (:class:`Step`), what the referee assumed a record means
(:class:`Assumption`), and the whole result (:class:`Run`), with the problem
that ended it early if one did (``Run.problem``: a line that cannot be
followed, a bound hit, the referee's own failure at a step). The report
(referee/ask/report.py), ``compare`` and the archive's summaries speak of
verdicts and breaches in these values only. Frozen where they can be; nothing
here calls the solver."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum

from referee.base.errors import RefereeError, SolverLimitError
from referee.base.terms import Fn, Term
from referee.game.contract import Game
from referee.text.transcript import Play, Transcript


class Verdict(StrEnum):
    """The referee's verdict, on a move, a run or a record: legal or illegal
    when every move was judged; unreadable when the record cannot be read or
    followed from some line on; not judged when a bound outside the record was
    hit (the solver's time bound, an archive's bound on a record); failed when
    the referee itself failed (a bug, a worker process that died). Its value is
    the word the reports print."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNREADABLE = "unreadable"
    NOT_JUDGED = "not judged"
    FAILED = "failed"

    @classmethod
    def of(cls, breaches: Iterable) -> Verdict:
        """Legal when nothing is broken, else illegal."""
        return cls.ILLEGAL if any(True for _ in breaches) else cls.LEGAL

    @classmethod
    def of_problem(cls, problem: BaseException) -> Verdict:
        """The verdict of a record whose run a problem ended: a bound hit is not
        judged, any other error of the referee's (a line that cannot be read or
        followed) unreadable, anything else (a bug) failed."""
        if isinstance(problem, SolverLimitError):
            return cls.NOT_JUDGED
        return cls.UNREADABLE if isinstance(problem, RefereeError) else cls.FAILED

    @property
    def exit_code(self) -> int:
        """The command's exit code: 0 legal, 1 illegal, 2 anything that was not judged whole."""
        return {Verdict.LEGAL: 0, Verdict.ILLEGAL: 1}.get(self, 2)

    @classmethod
    def in_words(cls, rules: tuple[str, ...]) -> str:
        """A move's verdict from the rules it breaks, in words: "legal" or "illegal (rule, ...)"."""
        return cls.LEGAL.value if not rules else f"{cls.ILLEGAL.value} ({', '.join(rules)})"


@dataclass(frozen=True)
class Breach:
    """One broken rule, as the rule programs say it: ``violation(rule, role,
    move, args)``; ``rule`` is a catalogue id, ``args`` the parts of its message
    (the catalogue's wording fills them in: referee/game/catalogue.py)."""

    rule: str
    role: Term
    move: Fn
    args: tuple[Term, ...] = ()


def rules_broken(breaches: Iterable[Breach]) -> tuple[str, ...]:
    """The rule ids of some breaches, each once, sorted."""
    return tuple(sorted({b.rule for b in breaches}))


@dataclass(frozen=True)
class Judgement:
    """What the solver says about one move in one state: its violations and its
    effects, what the next state gains and loses (``next_state`` is the state
    with those applied)."""

    violations: tuple[Breach, ...]
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
    violations: tuple[Breach, ...]
    before: frozenset
    after: frozenset
    path: str  # 'fast' or 'solver'
    inserted: str | None = None
    seconds: float = 0.0  # time spent on this step (a batched solver call counts for its first move)

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def verdict(self) -> Verdict:
        return Verdict.of(self.violations)

    @property
    def rules_broken(self) -> tuple[str, ...]:
        """The rule ids this step breaks, sorted."""
        return rules_broken(self.violations)


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
    """The result of refereeing a transcript (or a prefix of it).

    ``problem`` is what ended the run before the record's end, recorded by the
    visitor (``Referee.handle_error``), the steps judged before it kept: a
    SequenceError (a line that cannot be followed), a SolverLimitError (a bound
    hit) or any other exception (the referee failed at a step); None when the
    run went where it was asked to."""

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
    problem: Exception | None = None

    @property
    def verdict(self) -> Verdict:
        """The run's verdict: its problem's (unreadable, not judged, failed) if it
        met one, else illegal when a step broke a rule, else legal."""
        if self.problem is not None:
            return Verdict.of_problem(self.problem)
        return Verdict.of(b for step in self.steps for b in step.violations)

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
