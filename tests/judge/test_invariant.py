"""The contract between Python and the rule programs, on every move of every
shipped transcript (DESIGN.md, "The rules as answer-set programs"):

    a move is legal exactly when it yields no violation,
    exactly when it is among legal/2;

(the Sylph's fleet movements, up to 10 spaces, are too many to list: legal/2 holds
one route to each space within reach, so a legal Sylph route written otherwise must
have a listed route from the same space to the same space: rule sylph_move);

and the fast path (Python bookkeeping) and the solver-only path agree state by
state, as do judging moves one by one and in batches, and listing the legal moves
state by state and in batches (the listing here is batched: asked state by state
it costs 10-20 s a game).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.replays import sylph_route

from referee.judge.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
#: The readings' witnesses (transcripts/cyclades/readings/) are checked under both of
#: their readings by tests/game/test_readings.py, every move under the reading whose variant
#: they show; here they would only repeat that under the default reading.
#: The records that cannot be read ('# Cannot be read:', transcripts/README.md) are left out.
TRANSCRIPTS = sorted(p for p in (ROOT / "transcripts").rglob("*.txt")
                     if not p.name.endswith(".report.txt") and p.parent.name != "readings"
                     and "\n# Cannot be read:" not in p.read_text(encoding="utf-8"))


def transcript_ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_legal_iff_no_violation_iff_in_legal_moves(path, replay):
    referee, run = replay(path).referee, replay(path).run
    written = list(run.written())
    referee.engine.legal_moves_many(referee.rules.static, [s.before for s in written])  # few groundings
    # The batched listing is the listing asked state by state (a fresh engine knows none).
    alone = Engine(referee.engine.program_files)
    for step in written[::LISTED_ALONE_EVERY] + written[-1:]:
        assert alone.legal_moves(referee.rules.static, step.before) == tuple(referee.legal_moves(step.before)), (
            f"move {step.number}: the batched listing differs from the listing alone")
    checked = 0
    for step in written:
        legal = set(referee.legal_moves(step.before))
        if not step.violations and sylph_route(step.move) and (step.role, step.move) not in legal:
            assert sylph_route(step.move) in {sylph_route(m) for r, m in legal if r == step.role}, (
                f"move {step.number} ({step.play.text}): no Sylph route listed to the same space")
            checked += 1
            continue
        assert ((step.role, step.move) in legal) == (not step.violations), (
            f"move {step.number} ({step.play.text}): violations {step.violations}, "
            f"in legal/2: {(step.role, step.move) in legal}")
        checked += 1
    assert checked == len(run.transcript.plays) or run.stopped


#: The states whose batched listing of legal moves is compared with a listing asked
#: alone: the first, every 40th and the last (for an illegal-* record, its breach).
LISTED_ALONE_EVERY = 40


#: Judging every step one solver call at a time costs 10-30 s for a whole game; the
#: batching is checked step by step on the shorter records (every illegal-* and
#: witness transcript, each rule's own case), and on every game through the speculation
#: model, which is what a batch relies on.
SINGLE_JUDGEMENTS_UP_TO = 80


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_fast_path_batching_and_speculation_agree_with_the_solver_alone(path, replay):
    """The referee as it runs (bookkeeping on the fast path, guessed moves judged
    in batches) gives exactly the verdicts and states of the solver judging every
    step; judging many guessed moves in one solver call gives exactly the verdicts
    and states of judging them one by one; and the speculation model (a guess,
    used only for speed) predicts the solver's next state of every legal move."""
    fast, solver = replay(path, fast_path=True), replay(path, fast_path=False)
    fast_calls, (solver_referee, solver), fast = fast.calls, (solver.referee, solver.run), fast.run
    if any(s.inserted == "bookkeeping" for s in solver.steps):  # (a Luna preparation alone has none)
        assert [s.path for s in fast.steps].count("fast") > 0
    assert all(s.path == "solver" for s in solver.steps)
    assert len(fast.steps) == len(solver.steps)
    for a, b in zip(fast.steps, solver.steps):
        assert (a.number, a.role, a.move) == (b.number, b.role, b.move)
        assert a.violations == b.violations, f"move {a.number}: {a.move}"
        assert a.after == b.after, (f"states part after {a.move} (move {a.number}): "
                                    f"fast only {sorted(map(str, a.after - b.after))}, "
                                    f"solver only {sorted(map(str, b.after - a.after))}")
    for step in solver.steps:
        if step.legal:
            assert solver_referee.speed.speculate(step.before, step.role, step.move) == step.after, (
                f"move {step.number}: {step.move}")
    if len(solver.steps) >= 40 and all(s.legal for s in solver.steps):
        assert fast_calls < len(solver.steps) // 4
    if len(fast.steps) <= SINGLE_JUDGEMENTS_UP_TO:
        single = replay(path, batching=False).run
        assert [(s.number, s.role, s.move, s.violations, s.after) for s in fast.steps] == \
               [(s.number, s.role, s.move, s.violations, s.after) for s in single.steps]


#: Records up to this many written moves have every move's step compared by
#: test_explain_and_moves_read_the_whole_run; longer ones a sample (and every
#: illegal move, and every move the referee made an assumption at).
EVERY_MOVE_UP_TO = 60
SAMPLED_MOVES = 8


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_explain_and_moves_read_the_whole_run(path, replay):
    """`explain` after a `check` takes the move from the check's whole run (kept:
    referee/judge/kept_runs.py) instead of judging the moves up to it again (``run(upto=N +
    1, decided=False)``): both give the same step (the position it was decided
    in, the move, the violations, the state after) and the same verdict (its
    text, the rules broken, the assumptions made at it). `moves` and `board`
    after a `check` take the whole run's steps up to where the record stops."""
    session, whole = replay(path).session, replay(path).run
    # `moves` and `board` after a check read the whole run up to where the record
    # stops (Run.unclosed): exactly the run without the close (``run(close=False)``)
    unclosed, open_run = whole.unclosed(), session.referee.run(close=False)
    assert unclosed is not None or whole.stopped
    if unclosed is not None:
        assert [_step(s) for s in unclosed.steps] == [_step(s) for s in open_run.steps]
        assert (unclosed.final, unclosed.assumptions, unclosed.periods) == \
               (open_run.final, open_run.assumptions, open_run.periods)
    written = list(whole.written())
    wanted = {s.number for s in written}
    if len(written) > EVERY_MOVE_UP_TO:
        wanted = ({s.number for s in written[::max(1, len(written) // SAMPLED_MOVES)]} | {written[-1].number}
                  | {s.number for s in written if s.violations} | {a.number for a in whole.assumptions})
    for number in sorted(n for n in wanted if n is not None):
        alone = session.referee.run(upto=number + 1, decided=False)
        step, kept = alone.step_of(number), whole.step_of(number)
        assert _step(step) == _step(kept), f"move {number}"
        assert session.verdict(alone, step) == session.verdict(whole, kept), f"move {number}"


def _step(step) -> tuple:
    return step.number, step.role, step.move, step.violations, step.before, step.after, step.inserted
