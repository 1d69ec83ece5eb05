"""The Python model of Luna (referee/games/luna/speculate.py: the fast path's
bookkeeping and the speculation that batches judgements) against the solver,
the reference: on every legal move of sampled positions of the shipped 4- and
3-player games, not only on the moves the transcripts happen to make."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.game.notation import read_transcript
from referee.judge.visitor import Referee

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["game-4p.txt", "game-3p.txt"])
def test_model_foresees_the_solver_on_every_legal_move(game):
    referee = Referee(read_transcript(REPO / "transcripts" / "luna" / game))
    run = referee.run()
    engine, rules = referee.engine, referee.rules
    positions = [s.before for s in run.steps[::12]]
    checked = 0
    for state in positions:
        moves = referee.legal_moves(state)
        engine.prefetch(rules.static, [(state, role, move) for role, move in moves])
        for role, move in moves:
            judgement = engine.judge(rules.static, state, role, move)
            assert not judgement.violations
            assert referee.speed.speculate(state, role, move) == judgement.next_state, (role, move)
            checked += 1
    assert checked > 300
