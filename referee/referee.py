"""The referee: a visitor over a transcript's events that judges every move.

For each move it decides who is to move (reading ``control`` from the state),
lets the game's bookkeeping happen (the fast path in Python, or the solver with
``fast_path=False``), judges the written move with the solver, and records a
:class:`Step`. In lenient mode an illegal move is recorded and applied as
played; in strict mode the run stops at the first one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Iterator

from .engine import Engine, Violation
from .errors import Position, SequenceError
from .games import GameRules, game_rules
from .terms import Fn, Term
from .transcript import CHANCE, CycleStart, Play, Transcript

GAME = Fn("game")
#: How many written moves ahead the referee asks the solver to judge in one call.
BATCH = 250
#: The most moves a transcript may hold: a real game has a few hundred, and each
#: move costs one to two milliseconds of solving.
MAX_MOVES = 2_000


def role_term(play: Play) -> Term:
    """The role of a written move as the rule programs name it."""
    return Fn("chance") if play.role == CHANCE else play.role


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


@dataclass
class Run:
    """The result of refereeing a transcript (or a prefix of it)."""

    transcript: Transcript
    rules: GameRules
    initial: frozenset
    steps: list[Step] = field(default_factory=list)
    stopped: bool = False  # strict mode stopped at an illegal move

    @property
    def final(self) -> frozenset:
        return self.steps[-1].after if self.steps else self.initial

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


class Referee:
    """Judges transcripts of one game with one engine."""

    def __init__(self, transcript: Transcript, *, fast_path: bool = True, strict: bool = False,
                 rules: str | None = None, board: str | None = None, engine: Engine | None = None,
                 time_limit: float | None = None, cache: bool = True):
        self.transcript = transcript
        plays = transcript.plays
        if len(plays) > MAX_MOVES:
            raise self._sequence_error(f"the transcript holds {len(plays)} moves; the referee judges at most "
                                       f"{MAX_MOVES} (a whole game has a few hundred)", plays[MAX_MOVES])
        self.rules = game_rules(transcript, rules=rules, board=board)
        if engine is None:
            from .cache import default_store  # the judgement cache on disk (None when switched off)

            engine = Engine(self.rules.program_files, store=default_store() if cache else None)
        self.engine = engine
        if time_limit is not None:
            self.engine.time_limit = time_limit
        self.fast_path = fast_path
        self.strict = strict

    # -- the visitor ---------------------------------------------------------------
    def run(self, upto: int | None = None, close: bool = True) -> Run:
        """Referee the transcript.

        With ``upto``, stop before move number ``upto``: the run's final state is
        then the position in which that move is decided. Without it, the whole
        transcript; with ``close``, the last cycle is closed too (the turns
        nobody wrote down end, the winner is known)."""
        try:
            return self._run(upto, close)
        finally:
            self.engine.flush()  # the judgements made go to the judgement cache

    def _run(self, upto: int | None, close: bool) -> Run:
        initial = self.engine.init(self.rules.static)
        if hasattr(self.rules, "starting_position"):  # a 'position:' header line (Cyclades)
            initial = self.rules.starting_position(initial)
        run = Run(self.transcript, self.rules, initial)
        state = run.initial
        number = 0
        events = self.transcript.events
        if upto is not None:  # guess no further than the moves asked for
            plays = [i for i, e in enumerate(events) if isinstance(e, Play)]
            events = events[:plays[upto - 1] + 1] if upto <= len(plays) else events
        for index, event in enumerate(events):
            if isinstance(event, CycleStart):
                if upto is not None and number + 1 >= upto:
                    break
                state = self._start_cycle(run, state, event)
                continue
            number += 1
            if upto is not None and number >= upto:
                self._prepare(run, state, event)
                return run
            state = self._prepare(run, state, event)
            state = self._judge_written(run, state, event, number, events[index:])
            if run.stopped:
                return run
        if upto is None and close:
            self._close_cycle(run, state, final=True)
        else:
            self._run_automatic(run, state)
        return run

    def _sequence_error(self, message: str, event) -> SequenceError:
        """A SequenceError at ``event``, with its line and a caret under it."""
        line = getattr(event, "line_text", "")
        context = f"{line}\n{' ' * (event.span.column - 1)}^" if line else ""
        return SequenceError(message, Position(self.transcript.source, event.span.line, event.span.column), context)

    # -- automatic steps -----------------------------------------------------------------
    def _apply(self, run: Run, state: frozenset, role: Term, move: Fn, inserted: str) -> frozenset:
        """Apply a move nobody wrote: a bookkeeping step, a forced move, an end of turn."""
        if self.fast_path and self.rules.fast_path_applies(state, role, move):
            after = self.rules.fast_apply(state, role, move)
            run.add(Step(None, None, role, move, (), state, after, "fast", inserted))
            return after
        judgement = self.engine.judge(self.rules.static, state, role, move)
        run.add(Step(None, None, role, move, judgement.violations, state, judgement.next_state,
                     "solver", inserted))
        return judgement.next_state

    def _automatic(self, state: frozenset, written_chance: bool = False) -> tuple[Term, Fn, str] | None:
        """The move that happens by itself now, if any: a bookkeeping step of the
        game, or a chance outcome that can only be one thing (unless the
        transcript writes the chance outcome itself, which is then judged)."""
        step = self.rules.game_step(state)
        if step is not None:
            return GAME, step, "bookkeeping"
        if self.rules.control(state) == Fn("chance") and not written_chance:
            forced = self.rules.forced_chance(state) if self.fast_path else self._forced(state)
            if forced is not None:
                return Fn("chance"), forced, "forced"
        return None

    def _forced(self, state: frozenset) -> Fn | None:
        """The only legal move of the role in control, asking the solver."""
        role = self.rules.control(state)
        if role is None:
            return None
        moves = [m for r, m in self.engine.legal_moves(self.rules.static, state) if r == role]
        if len(moves) == 1 and moves[0] != Fn("pass"):
            return moves[0]
        return None

    def _run_automatic(self, run: Run, state: frozenset, written_chance: bool = False) -> frozenset:
        while (auto := self._automatic(state, written_chance)) is not None:
            state = self._apply(run, state, *auto)
        return state

    def _end_turn(self, run: Run, state: frozenset, end: tuple[Term, Fn]) -> frozenset:
        """End a turn nobody wrote the end of; a pending decision with only one
        answer (a metropolis with one place to go) is taken first."""
        if self.rules.has_pending(state):
            forced = self._forced(state)
            if forced is not None:
                return self._apply(run, state, end[0], forced, "forced")
        return self._apply(run, state, *end, "end of turn" if end[1] == Fn("pass") else "not written")

    def _close_cycle(self, run: Run, state: frozenset, final: bool = False) -> frozenset:
        """End the turns nobody wrote down and the cycle itself.

        At the end of the transcript (``final``) a turn is only ended where ending
        it is legal: a record that stops before a player's compulsory decision
        (Apollo's marker, a metropolis) simply stops there."""
        for _ in range(1000):
            state = self._run_automatic(run, state)
            end = self.rules.end_of_turn(state)
            if end is None:
                break
            if final and self.engine.judge(self.rules.static, state, *end).violations:
                break
            state = self._end_turn(run, state, end)
        return state

    def _start_cycle(self, run: Run, state: frozenset, event: CycleStart) -> frozenset:
        period = getattr(self.rules, "period", "cycle")  # Luna has rounds
        state = self._close_cycle(run, state)
        if self.rules.is_over(state):
            raise self._sequence_error(f"the game ended before {period} {event.number}: "
                                       f"{self.rules.describe_outcome(state)}", event)
        current = self.rules.cycle(state)
        if current != event.number:
            raise self._sequence_error(f"this is {period} {current}, not {period} {event.number}: "
                                       f"the moves of the previous {period} are not finished", event)
        return state

    def _prepare(self, run: Run, state: frozenset, play: Play) -> frozenset:
        """Bring the game to the point where the written move is the next decision."""
        role = role_term(play)
        for _ in range(1000):
            auto = self._automatic(state, written_chance=role == Fn("chance"))
            if auto is not None:
                state = self._apply(run, state, *auto)
                continue
            end = self.rules.turn_gap(state, play)
            if end is not None:
                state = self._end_turn(run, state, end)
                continue
            if self.rules.control(state) == Fn("chance") and role != Fn("chance"):
                raise self._sequence_error(self.rules.missing_chance(state), play)
            return state
        raise self._sequence_error("the referee could not reach this move", play)

    def _speculate(self, state: frozenset, role: Term, move: Fn, coming) -> None:
        """Guess the coming moves and the states they will be made in, and have the
        solver judge them all in one call (only exact matches are ever used)."""
        guess = self.rules.predict(state, list(coming[:BATCH]))
        if not guess or (guess[0][0], self.rules.resolve_move(state, guess[0][1])) != (role, move):
            return
        items = []
        for guessed_role, guessed_move in guess:
            guessed_move = self.rules.resolve_move(state, guessed_move)
            if not (self.fast_path and guessed_role == GAME
                    and self.rules.fast_path_applies(state, guessed_role, guessed_move)):
                items.append((state, guessed_role, guessed_move))  # (bookkeeping on the fast path is not judged)
            state = self.rules.speculate(state, guessed_role, guessed_move)
            if state is None:
                break
        else:
            if len(coming) <= BATCH and (end := self.rules.end_of_turn(state)) is not None:
                items.append((state, *end))  # the record ends: the last turn ends (_close_cycle)
        self.engine.prefetch(self.rules.static, items)

    def _judge_written(self, run: Run, state: frozenset, play: Play, number: int, coming=()) -> frozenset:
        role = role_term(play)
        move = self.rules.resolve(state, play)
        if not self.engine.knows(state, role, move):
            self._speculate(state, role, move, coming)
        judgement = self.engine.judge(self.rules.static, state, role, move)
        if judgement.violations and self.rules.has_pending(state):
            # A pending decision the transcript skipped (it goes on with another kind
            # of move) is taken for the player when only one answer exists; a written
            # answer of the same kind is judged as written.
            forced = self._forced(state)
            if forced is not None and forced.name != move.name and role == self.rules.control(state):
                state = self._apply(run, state, role, forced, "forced")
                judgement = self.engine.judge(self.rules.static, state, role, move)
        run.add(Step(number, play, role, move, judgement.violations, state, judgement.next_state, "solver"))
        if judgement.violations and self.strict:
            run.stopped = True
        return judgement.next_state

    # -- questions about a position ----------------------------------------------------------
    def legal_moves(self, state: frozenset) -> list[tuple[Term, Fn]]:
        return list(self.engine.legal_moves(self.rules.static, state))
