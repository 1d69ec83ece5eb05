"""The referee: a visitor over a transcript's events that judges every move.

For each move it decides who is to move (reading ``control`` from the state),
lets the game's bookkeeping happen (the fast path in Python, or the solver with
``fast_path=False``), judges the written move with the solver, and records a
:class:`Step`. In lenient mode an illegal move is recorded and applied as
played; in strict mode the run stops at the first one.

A problem met on the way (a line that cannot be followed, a bound hit, the
referee's own failure at a step) is not raised out of the visit: like a PGN
reader's visitor with an illegal move, ``handle_error`` records it in the
:class:`Run` (``Run.problem``), which ends there with the steps judged before
it. ``follow`` gives that run; ``run`` raises its problem, for the questions
that need a record followed to the end (or to the move asked about).
"""

from __future__ import annotations

from referee.base.errors import Position, SequenceError
from referee.base.terms import Fn, Term
from referee.game.parts import part
from referee.game.parts.scenarios import Scenarios
from referee.game.parts.speed import Speed
from referee.game.parts.tolerance import Tolerance
from referee.game.parts.words import Words
from referee.game.readings import rule_files
from referee.game.setup import game_rules
from referee.judge.engine import Engine
from referee.judge.kept_runs import keep_run, kept_run
from referee.judge.values import Assumption, Run, Step
from referee.text.parser import MAX_RECORD_MOVES
from referee.text.transcript import CHANCE, PeriodStart, Play, Transcript

GAME = Fn("game")
#: How many written moves ahead the referee asks the solver to judge in one call.
BATCH = 250
#: The most moves a transcript may hold (the reader refuses a record past it while reading,
#: from the moves it counts in each line; here every move is counted).
MAX_MOVES = MAX_RECORD_MOVES


class _OutOfSequence(Exception):
    """A written move that comes before a line the game needs first (the chance
    outcome it follows, the rest of another player's
    turn): ``state`` is where it stands, ``after`` the index of that line."""

    def __init__(self, state: frozenset, after: int):
        super().__init__()
        self.state = state
        self.after = after


def role_term(play: Play) -> Term:
    """The role of a written move as the rule programs name it."""
    return Fn("chance") if play.role == CHANCE else play.role


class Referee:
    """Judges transcripts of one game with one engine."""

    def __init__(self, transcript: Transcript, *, fast_path: bool = True, strict: bool = False,
                 rules: str | None = None, data_file: str | None = None, engine: Engine | None = None,
                 time_limit: float | None = None, cache: bool = True):
        self.transcript = transcript
        plays = transcript.plays
        if len(plays) > MAX_MOVES:
            raise self._sequence_error(f"the transcript holds {len(plays):,} moves; the referee judges at most "
                                       f"{MAX_MOVES:,} (a whole game has a few hundred)", plays[MAX_MOVES])
        self.rules = game_rules(transcript, rules=rules, data_file=data_file)
        self.speed = part(self.rules, Speed)
        self.tolerance = part(self.rules, Tolerance)
        self.words = part(self.rules, Words)
        self.options = (rules, data_file)  # as given: part of what a kept run is kept under (referee/judge/kept_runs.py)
        if engine is None:
            from referee.store.judgements import default_store  # the judgement cache on disk (None when switched off)

            engine = Engine(rule_files(self.rules.name), store=default_store() if cache else None)
        self.engine = engine
        if time_limit is not None:
            self.engine.time_limit = time_limit
        self.fast_path = fast_path
        self.strict = strict

    # -- the visitor ---------------------------------------------------------------
    def run(self, upto: int | None = None, close: bool = True, decided: bool = True) -> Run:
        """The run of ``follow``, or the problem it met raised (a SequenceError,
        a SolverLimitError, or the referee's own failure)."""
        run = self.follow(upto, close, decided)
        if run.problem is not None:
            raise run.problem
        return run

    def follow(self, upto: int | None = None, close: bool = True, decided: bool = True) -> Run:
        """Referee the transcript; a problem met on the way ends the run, recorded in it (``Run.problem``).

        With ``upto``, stop before move number ``upto``: the run's final state is
        then the position in which that move is decided (a period heading written
        before it included); ``decided=False`` stops right after move ``upto - 1``
        instead, before such a heading (all that explaining that move needs).
        Without ``upto``, the whole transcript; with ``close``, the last period is
        closed too (the turns nobody wrote down end, the winner is known). That
        whole run is kept in the judgement cache's file (``remembered``), and the
        whole run without ``close`` is read from it too (``Run.unclosed``)."""
        whole = upto is None and close
        if upto is None and (kept := self.remembered()) is not None:
            if whole:
                return kept
            if (unclosed := kept.unclosed()) is not None:  # the same steps, up to where the record stops
                return unclosed
        try:
            run = self._run(upto, close, decided)
        finally:
            self.engine.flush()  # the judgements made go to the judgement cache
        if whole and run.problem is None:
            keep_run(self, run)
        return run

    def remembered(self) -> Run | None:
        """The whole run (``run()``) of this record made before, by this process or
        another, with the same rules, options and code (referee/judge/kept_runs.py), or None."""
        return kept_run(self)

    def _run(self, upto: int | None, close: bool, decided: bool) -> Run:
        initial = self.engine.init(self.rules.static)
        initial = part(self.rules, Scenarios).starting_position(initial)  # what the header adds (a 'position:' line)
        run = Run(self.transcript, self.rules, initial)
        try:
            return self._visit(run, upto, close, decided)
        except Exception as error:  # noqa: BLE001 - every problem is recorded; run() raises it again
            self.handle_error(run, error)
            return run

    def handle_error(self, run: Run, error: Exception) -> None:
        """A problem met while following the record (a SequenceError, a
        SolverLimitError, a failure of the referee at a step): recorded in the run,
        which ends there with the steps judged before it."""
        run.problem = error

    def _visit(self, run: Run, upto: int | None, close: bool, decided: bool = True) -> Run:
        state = run.initial
        number = 0
        self._announced = 0  # the period the record has said (or the referee assumed) it is in
        self._early: PeriodStart | None = None  # a heading set aside: written before its period began
        events = self.transcript.events
        if upto is not None:  # guess no further than the moves asked for
            plays = [i for i, e in enumerate(events) if isinstance(e, Play)]
            events = events[:plays[upto - 1] + 1] if upto <= len(plays) else events
        self._events = self.transcript.events  # the whole record: a line out of sequence is seen by what follows it
        deferred: dict[int, list[Play]] = {}  # lines written out of sequence, by the index they follow
        for number_of_move, line, column, text in self.tolerance.header_assumptions(self.transcript):
            run.assumptions.append(Assumption(number_of_move, line, column, text))
        for index, event in enumerate(events):
            self._index = index
            if isinstance(event, PeriodStart):
                # A heading before move ``upto`` is part of the position that move is
                # decided in (as when it is judged); one after the last move is not.
                if upto is not None and number + 1 >= upto and (not decided or upto > len(self.transcript.plays)):
                    break
                state = self._start_period(run, state, event, number + 1)
                continue
            number += 1
            state = self._unannounced(run, state, event, number)
            if upto is not None and number >= upto:  # the position move ``upto`` is decided in
                try:
                    self._fill_skipped(run, self._prepare(run, state, event), event)
                except _OutOfSequence:
                    pass
                return run
            try:
                state = self._prepare(run, state, event)
            except _OutOfSequence as misplaced:
                state = misplaced.state
                if self._judge_misplaced(run, state, event, number, misplaced.after):
                    # the lines waiting for this one now wait with it
                    deferred.setdefault(misplaced.after, []).extend([event, *deferred.pop(index, [])])
                    if run.stopped:
                        return run
                    continue
            state = self._begun(run, state, event, number)
            state = self._judge_written(run, state, event, number, events[index:])
            if run.stopped:
                return run
            for late in deferred.pop(index, ()):  # the lines written before this one, in their place
                state = self._prepare(run, state, late, defer=False)
                state = self._judge_written(run, state, late, None, (), inserted=f"taken after line {event.span.line}")
        state = self._run_automatic(run, state)
        if upto is None and close:
            run.record_end = len(run.steps)
            self._close_period(run, state, final=True)
        return run

    def _sequence_error(self, message: str, event) -> SequenceError:
        """A SequenceError at ``event``, with its line and a caret under it."""
        line = getattr(event, "line_text", "")
        context = f"{line}\n{' ' * (event.span.column - 1)}^" if line else ""
        return SequenceError(message, Position(self.transcript.source, event.span.line, event.span.column), context)

    # -- automatic steps -----------------------------------------------------------------
    def _apply(self, run: Run, state: frozenset, role: Term, move: Fn, inserted: str) -> frozenset:
        """Apply a move nobody wrote: a bookkeeping step, a forced move, an end of turn."""
        if self.fast_path and self.speed.fast_path_applies(state, role, move):
            after = self.speed.fast_apply(state, role, move)
            run.add(Step(None, None, role, move, (), state, after, "fast", inserted))
            return after
        judgement = self.engine.judge(self.rules.static, state, role, move)
        run.add(Step(None, None, role, move, judgement.violations, state, judgement.next_state,
                     "solver", inserted))
        return judgement.next_state

    def _automatic(self, state: frozenset, written_chance: bool = False,
                   written: Fn | None = None) -> tuple[Term, Fn, str] | None:
        """The move that happens by itself now, if any: a bookkeeping step of the
        game, or a chance outcome that can only be one thing (unless the
        transcript writes the chance outcome itself, which is then judged)."""
        step = self.rules.game_step(state)
        if step is not None:
            return GAME, step, "bookkeeping"
        if self.rules.control(state) == Fn("chance") and not written_chance:
            forced = self.speed.forced_chance(state) if self.fast_path else self._forced(state)
            if forced is not None:
                return Fn("chance"), forced, "forced"
        if written is not None and self.rules.control(state) == Fn("chance"):
            line = [e.move for e in self._events if isinstance(e, Play) and e.role == CHANCE
                    and e.span.line == self._events[self._index].span.line]
            skipped = self.tolerance.left_out(state, written, line)  # an outcome that can only be one thing, not written
            if skipped is not None:
                if skipped.name == written.name:
                    self.tolerance.skipped(self._events[self._index].span.line, skipped)  # the line's next pieces move on
                return Fn("chance"), skipped, "forced"
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

    def _forced_steps(self, state: frozenset) -> list[Fn]:
        """The decision the role in control has only one answer to: its only legal
        move, or the legal moves the game takes together (``forced_together``)."""
        role = self.rules.control(state)
        if role is None:
            return []
        moves = [m for r, m in self.engine.legal_moves(self.rules.static, state) if r == role]
        if len(moves) == 1 and moves[0] != Fn("pass"):
            return moves
        return list(self.tolerance.forced_together(moves) or []) if moves else []

    def _run_automatic(self, run: Run, state: frozenset, written_chance: bool = False,
                       within: int | None = None) -> frozenset:
        """The moves that happen by themselves. With ``within`` (a period), the
        chance of a later period is left to the lines that follow: once the period
        has closed, its chance lines are the record's to write, and the referee
        lays none of them ahead of the line that writes them (what a line may
        leave out is filled in when that line is read, ``_prepare``)."""
        while (auto := self._automatic(state, written_chance or (
                within is not None and self.rules.period_number(state) > within))) is not None:
            state = self._apply(run, state, *auto)
        return state

    def _end_turn(self, run: Run, state: frozenset, end: tuple[Term, Fn]) -> frozenset:
        """End a turn nobody wrote the end of; a pending decision with only one
        answer (a piece with one place to go) is taken first."""
        if self.tolerance.has_pending(state):
            forced = self._forced_steps(state)
            if forced:
                for step in forced:
                    state = self._apply(run, state, end[0], step, "forced")
                return state
        return self._apply(run, state, *end, "end of turn" if end[1] == Fn("pass") else "not written")

    def _close_period(self, run: Run, state: frozenset, final: bool = False) -> frozenset:
        """End the turns nobody wrote down and the period itself.

        At the end of the transcript (``final``) a turn is only ended where ending
        it is legal: a record that stops before a player's compulsory decision
        (a piece to place) simply stops there."""
        period = None if final else self.rules.period_number(state)
        for _ in range(1000):
            state = self._run_automatic(run, state, within=period)
            end = self.tolerance.end_of_turn(state)
            if end is None:
                break
            if final and self.engine.judge(self.rules.static, state, *end).violations:
                break
            state = self._end_turn(run, state, end)
        return state

    def _start_period(self, run: Run, state: frozenset, event: PeriodStart, number: int) -> frozenset:
        """A heading: the turns not written end and the period closes. A heading
        written before its period can begin (moves of the period before are still
        to come) is set aside, and one written after its period began (a heading
        the referee assumed earlier) closes nothing: either way the report says
        what the referee assumed, and the moves are judged where the game stands."""
        period = self.rules.period
        heading = f"'{period} {event.number}'"
        if event.number <= self._announced:  # its period has begun already
            self._assume(run, number, event, f"{heading} is written after {period} {event.number} began "
                                             f"(line {self._began_at}): the heading closes nothing")
            return state
        following = next((e for _, e in self._coming()), None)
        if following is not None and not self.tolerance.opens_period(following):
            # the next line can only belong to the period that goes on: the heading is early
            self._assume(run, number, event, f"{heading} is written before line {following.span.line}, which "
                                             f"belongs to {period} {self.rules.period_number(state)}; the heading is set "
                                             f"aside, and the moves after it are judged in {period} "
                                             f"{self.rules.period_number(state)}")
            self._early = event
            return state
        scratch = Run(run.transcript, run.rules, state)  # kept only if the period closes
        closed = self._close_period(scratch, state)
        if self.rules.is_over(closed):
            raise self._sequence_error(f"the game ended before {period} {event.number}: "
                                       f"{self.words.describe_outcome(closed)}", event)
        current = self.rules.period_number(closed)
        if current != event.number and current > self.rules.period_number(state):  # a period did close: misnumbered
            self._assume(run, number, event, f"{heading} is read as '{period} {current}': {period} "
                                             f"{current - 1} is over, so {period} {current} begins here")
            event = PeriodStart(current, event.span)
        elif current != event.number:
            who = self.rules.control(closed)
            why = f" ({self.words.role_text(who)} to decide)" if who is not None else ""
            self._assume(run, number, event, f"{heading} is written while {period} {current} goes on{why}; "
                                             f"the heading is set aside, and the moves after it are judged in "
                                             f"{period} {current}")
            self._early = event
            return state
        run.steps.extend(scratch.steps)
        self._announce(run, event.number, event.span.line)
        self._early = None
        return closed

    def _announce(self, run: Run, period: int, line: int) -> None:
        run.periods += 1
        self._announced = period
        self._began_at = line

    _began_at = 0  # the line where the current period began

    def _assume(self, run: Run, number: int | None, where, text: str, column: int | None = None) -> None:
        run.assumptions.append(Assumption(number, where.span.line, column or where.span.column, text))

    def _unannounced(self, run: Run, state: frozenset, play: Play, number: int) -> frozenset:
        """A line only the next period can hold (the chance line that opens a period, written
        while the current one goes on) whose heading is not written: the period closes here,
        as at a heading, and the report says so."""
        if not self.tolerance.begins_period(state, play):
            return state
        scratch = Run(run.transcript, run.rules, state)
        closed = self._close_period(scratch, state)
        if self.rules.period_number(closed) <= self.rules.period_number(state) or self.rules.is_over(closed):
            return state  # nothing closes: the line is judged where it stands
        run.steps.extend(scratch.steps)
        return closed

    def _begun(self, run: Run, state: frozenset, play: Play, number: int) -> frozenset:
        """When a written move is the first of a period whose heading is not
        written (a round that ended with its last decision), say so."""
        current = self.rules.period_number(state)
        if current > self._announced:
            period = self.rules.period
            if self._early is not None and self._early.number == current:
                why = f"its heading, on line {self._early.span.line}, was written too early"
            else:
                why = f"the heading '{period} {current}' is not written"
            self._assume(run, number, play, f"{period} {current} begins here: {why}", column=1)
            self._announce(run, current, play.span.line)
            self._early = None
        return state

    def _prepare(self, run: Run, state: frozenset, play: Play, defer: bool = True) -> frozenset:
        """Bring the game to the point where the written move is the next decision.
        A move written before a line the game needs first (``defer``: the line
        follows soon) raises _OutOfSequence instead."""
        role = role_term(play)
        for _ in range(1000):
            auto = self._automatic(state, written_chance=role == Fn("chance"),
                                   written=play.move if role == Fn("chance") else None)
            if auto is not None:
                state = self._apply(run, state, *auto)
                continue
            end = self.tolerance.turn_gap(state, play)
            if end is not None:
                after = None
                if defer and end[1] == Fn("pass"):
                    after = self._turn_goes_on(state, play, end)
                elif defer:
                    after = self.tolerance.decided_later(state, play, end, list(self._coming()))
                if after is not None:  # the turn it would end is written on after this line
                    raise _OutOfSequence(state, after)
                state = self._end_turn(run, state, end)
                continue
            if self.rules.control(state) == Fn("chance") and role != Fn("chance"):
                after = self._chance_follows() if defer else None
                if after is not None:  # the chance line it needs first is written just after it
                    raise _OutOfSequence(state, after)
                raise self._sequence_error(self.words.missing_chance(state), play)
            return state
        raise self._sequence_error("the referee could not reach this move", play)

    #: How many lines ahead a missing chance line (dice, tiles) is looked for.
    LOOK_AHEAD = 8

    def _coming(self):
        """The plays after the current one, up to the next heading."""
        for index in range(self._index + 1, len(self._events)):
            event = self._events[index]
            if not isinstance(event, Play):
                return
            yield index, event

    def _chance_follows(self) -> int | None:
        """When chance must move first (the dice of a round, the tiles shown)
        and its line is written just after this one (before any line of a group of actions,
        within LOOK_AHEAD lines): the index of the last line of that chance run."""
        last = None
        for count, (index, event) in enumerate(self._coming()):
            if event.role == CHANCE:
                last = index
            elif last is not None or event.group is not None or count >= self.LOOK_AHEAD:
                break
        return last

    def _turn_goes_on(self, state: frozenset, play: Play, end: tuple[Term, Fn]) -> int | None:
        """When this line would end the turn of ``end[0]`` but the lines just after
        it go on with that very turn (the player and group acting now), with only
        lines of this line's own turn between: the two turns' lines were swapped
        (a second player of one group written before the first). The index of the last
        line of the turn that goes on; None when other turns come between (then
        the turn ends here, as the notation says, and its later line is judged
        where it is written)."""
        last = None
        for index, event in self._coming():
            if event.role == end[0] and event.group is not None and self.tolerance.turn_gap(state, event) is None:
                last = index
            elif last is not None or (event.role, event.group) != (play.role, play.group):
                break
        return last

    def _judge_misplaced(self, run: Run, state: frozenset, play: Play, number: int, after: int) -> bool:
        """Judge a move written out of sequence where it stands (not applied); the
        report says where it is taken instead. False when it is legal there after
        all (then it is applied as usual)."""
        role = role_term(play)
        move = self.rules.resolve(state, play)
        judgement = self.engine.judge(self.rules.static, state, role, move)
        if not judgement.violations:
            return False
        run.add(Step(number, play, role, move, judgement.violations, state, state, "solver"))
        if self.strict:
            run.stopped = True
        line = self._events[after].span.line
        text = (f"'{play.line_text.split('#')[0].strip()}' is written before line {line}, which comes first: "
                f"it is judged where it is written (not applied there), then taken after line {line}")
        if not any(a.line == play.span.line and a.text == text for a in run.assumptions):
            self._assume(run, number, play, text, column=1)
        return True

    def _speculate(self, state: frozenset, role: Term, move: Fn, coming) -> None:
        """Guess the coming moves and the states they will be made in, and have the
        solver judge them all in one call (only exact matches are ever used)."""
        guess = self.speed.predict(state, list(coming[:BATCH]))
        if not guess or (guess[0][0], self.tolerance.resolve_move(state, guess[0][1])) != (role, move):
            return
        items = []
        for guessed_role, guessed_move in guess:
            guessed_move = self.tolerance.resolve_move(state, guessed_move)
            if not (self.fast_path and guessed_role == GAME
                    and self.speed.fast_path_applies(state, guessed_role, guessed_move)):
                items.append((state, guessed_role, guessed_move))  # (bookkeeping on the fast path is not judged)
            state = self.speed.speculate(state, guessed_role, guessed_move)
            if state is None:
                break
        else:
            if len(coming) <= BATCH and (end := self.tolerance.end_of_turn(state)) is not None:
                items.append((state, *end))  # the record ends: the last turn ends (_close_period)
        self.engine.prefetch(self.rules.static, items)

    def _fill_skipped(self, run: Run, state: frozenset, play: Play) -> frozenset:
        """A pending decision the transcript skipped (it goes on with another kind
        of move) is taken for the player when only one answer exists (a single
        legal move, or moves the game takes together in any order: the four
        discards of one piece of each type) and the written
        move is illegal without it; a written answer of the same kind is judged as
        written. The state returned is the one the written move is judged in (and
        the one ``run(upto=...)`` ends in, so that its alternatives and the listing
        of the moves after the move before are the same)."""
        role = role_term(play)
        move = self.rules.resolve(state, play)
        for _ in range(20):
            if not self.tolerance.has_pending(state) or role != self.rules.control(state):
                break
            if not self.engine.judge(self.rules.static, state, role, move).violations:
                break
            forced = self._forced_steps(state)
            if not forced or any(step.name == move.name for step in forced):
                break
            for step in forced:
                state = self._apply(run, state, role, step, "forced")
        return state

    def _judge_written(self, run: Run, state: frozenset, play: Play, number: int | None, coming=(),
                       inserted: str | None = None) -> frozenset:
        role = role_term(play)
        move = self.rules.resolve(state, play)
        if not self.engine.knows(state, role, move):
            self._speculate(state, role, move, coming)
        state = self._fill_skipped(run, state, play)
        judgement = self.engine.judge(self.rules.static, state, role, move)
        run.add(Step(number, play, role, move, judgement.violations, state, judgement.next_state, "solver",
                     inserted))
        if judgement.violations and self.strict:
            run.stopped = True
        return judgement.next_state

    # -- questions about a position ----------------------------------------------------------
    def violations(self, state: frozenset, role: Term, move: Fn, listing: bool = False) -> tuple:
        """The rules ``move`` of ``role`` breaks in ``state`` (none: it is legal),
        as a step is judged: the fast path where it applies (a step with one
        answer), else the engine's judgement of that one move, kept as every
        judgement is. ``listing``: a judgement by the engine lists the legal moves
        in ``state`` in the same call (for ``legal_moves`` to answer from)."""
        if self.fast_path and self.speed.fast_path_applies(state, role, move):
            return ()
        known = not listing or self.engine.legal_known(self.rules.static, state)
        return self.engine.judge(self.rules.static, state, role, move, want_legal=not known).violations

    def violations_many(self, items: list[tuple[frozenset, Term, Fn]]) -> list[tuple]:
        """``violations`` of each (state, role, move): those the fast path does not
        decide judged by the engine in one solver call (``Engine.prefetch``)."""
        solved = [i for i in items if not (self.fast_path and self.speed.fast_path_applies(*i))]
        self.engine.prefetch(self.rules.static, solved)
        return [self.violations(*i) for i in items]

    def legal_moves(self, state: frozenset) -> list[tuple[Term, Fn]]:
        return list(self.engine.legal_moves(self.rules.static, state))
