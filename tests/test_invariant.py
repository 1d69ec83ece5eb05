"""The contract between Python and the rule programs, on every move of every
shipped transcript (DESIGN.md, "The rules as answer-set programs"):

    a move is legal exactly when it yields no violation,
    exactly when it is among legal/2;

and the fast path (Python bookkeeping) and the solver-only path agree state by
state, as do judging moves one by one and in batches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.referee import Referee
from referee.notation import read_transcript

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = sorted(p for p in (ROOT / "transcripts").rglob("*.txt"))


def transcript_ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


def _steps(path, **options):
    referee = Referee(read_transcript(path), **{k: v for k, v in options.items() if k != "batching"})
    if "batching" in options:
        referee.engine.batching = options["batching"]
    return referee, referee.run()


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_legal_iff_no_violation_iff_in_legal_moves(path):
    referee, run = _steps(path)
    checked = 0
    for step in run.written():
        legal = set(referee.legal_moves(step.before))
        assert ((step.role, step.move) in legal) == (not step.violations), (
            f"move {step.number} ({step.play.text}): violations {step.violations}, "
            f"in legal/2: {(step.role, step.move) in legal}")
        checked += 1
    assert checked == len(run.transcript.plays) or run.stopped


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_fast_path_and_solver_agree_move_by_move(path):
    _, fast = _steps(path, fast_path=True)
    _, solver = _steps(path, fast_path=False)
    assert [s.path for s in fast.steps].count("fast") > 0
    assert all(s.path == "solver" for s in solver.steps)
    assert len(fast.steps) == len(solver.steps)
    for a, b in zip(fast.steps, solver.steps):
        assert (a.number, a.role, a.move) == (b.number, b.role, b.move)
        assert a.violations == b.violations, f"move {a.number}: {a.move}"
        assert a.after == b.after, (f"states part after {a.move} (move {a.number}): "
                                    f"fast only {sorted(map(str, a.after - b.after))}, "
                                    f"solver only {sorted(map(str, b.after - a.after))}")


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_batched_and_single_judgements_agree(path):
    _, batched = _steps(path, batching=True)
    _, single = _steps(path, batching=False)
    assert [(s.number, s.role, s.move, s.violations, s.after) for s in batched.steps] == \
           [(s.number, s.role, s.move, s.violations, s.after) for s in single.steps]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_speculated_states_match_the_solver_on_legal_moves(path):
    """The speculation model (a guess used only for speed) predicts the solver's next
    state for every legal move; a miss would cost time, not correctness."""
    referee, run = _steps(path, batching=False)
    for step in run.steps:
        if step.legal:
            assert referee.rules.speculate(step.before, step.role, step.move) == step.after, (
                f"move {step.number}: {step.move}")
    batched, _ = _steps(path)
    assert batched.engine.calls < max(3, len(run.steps) // 4)
