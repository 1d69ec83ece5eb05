"""Answers a person can trust (docs/report.md, "What may be done instead"), on every
shipped transcript:

* the alternatives of an illegal or disputed move N are the legal moves of the
  position before it, for the role in control there: ``referee explain --move N``
  and ``referee moves --after N-1`` say the same, word for word (an out-of-turn
  move that is legal for the player in control is among them; the intruder's
  offering is not counted);
* no dead end: while the game is not over, the role in control has at least one
  legal move (rule two_player_two_gods: a 2-player player who can pay no offering
  puts the second marker on Apollo too; transcripts/cyclades/apollo-no-other-option-2p.txt).

The replays are shared (tests/helpers/replays.py); a position its role in control left
by a legal move has a legal move, and the others' legal moves are listed, grounded
together (Engine.legal_moves_many).
"""

from __future__ import annotations

import pytest
from helpers.replays import TRANSCRIPTS, legal_moves, positions, replay, transcript_ids

from referee.game.parts import part
from referee.game.parts.words import Words


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=transcript_ids(TRANSCRIPTS))
def test_alternatives_and_no_dead_end(path):
    """Both walks of a transcript on one replay."""
    _alternatives_are_the_moves_of_the_position_before(path)
    _no_position_is_a_dead_end(path)


def _alternatives_are_the_moves_of_the_position_before(path):
    session, run = replay(path)
    for step in (s for s in run.written() if s.violations or s.play.disputed):
        n = step.number
        assert session.referee.run(upto=n).final == step.before, f"move {n}: not the position after move {n - 1}"
        verdict = session.explain(move=n, everything=True)
        who, groups, total, after, complete = session.moves(after=n - 1, everything=True)
        assert after == n - 1 and complete and verdict.alternatives_complete
        assert (verdict.alternatives_for, list(verdict.alternatives), verdict.alternatives_total) == \
               (who, groups, total), f"move {n} ({step.play.text}): explain and moves --after {n - 1} differ"
        role = session.rules.control(step.before)
        if role is not None and step.role != role:  # written out of turn: judged for the player in control
            legal_for_them = session.referee.engine.judge(session.rules.static, step.before, role, step.move)
            listed = (role, step.move) in session.referee.legal_moves(step.before)
            assert listed == legal_for_them.is_legal, f"move {n}: {step.move} for {role}"


def _no_position_is_a_dead_end(path):
    """A position the role in control left by a legal move of theirs has one, by
    that move (the solver found it breaks no rule; a bookkeeping step on the fast
    path is the solver's verdict too: tests/judge/test_invariant.py); every other
    position's legal moves are listed."""
    session, run = replay(path)
    rules = session.rules
    states = positions(path)
    left_legally = {(s.before, s.role) for s in run.steps if not s.violations}
    unproven = [s for s in states if (s, rules.control(s)) not in left_legally]
    listed = dict(zip(unproven, legal_moves(path, unproven)))
    for index, state in enumerate(states):
        role = rules.control(state)
        if role is None:
            assert rules.is_over(state), f"position {index}: nobody decides, yet the game is not over"
            continue
        assert (state, role) in left_legally or any(r == role for r, _ in listed[state]), (
            f"position {index} of {len(states)}: {part(rules, Words).role_text(role)} is to decide and has no legal move")


def test_the_out_of_turn_offering_is_among_the_alternatives():
    """transcripts/cyclades/illegal-offer-out-of-turn-disputed.txt: Cy offers 3 GP
    to Zeus while Bob is to offer (rule offering_order). Bob's alternatives are
    those of the position before Cy's line: Cy's offering is one of them, and Cy's
    bid is not counted (Bob may offer 3 GP, over Ann's 2)."""
    path = next(p for p in TRANSCRIPTS if p.name == "illegal-offer-out-of-turn-disputed.txt")
    session, run = replay(path)
    step = list(run.written())[-1]
    verdict = session.explain(move=step.number)
    assert [b.rule for b in verdict.breaches] == ["offering_order", "not_in_control"]
    assert verdict.alternatives_for == "Bob"
    assert "offer 3-7 GP to Zeus" in verdict.alternatives


def test_two_player_second_marker_on_apollo_when_nothing_else_is_affordable():
    """Rule two_player_two_gods: "A player who can pay for no offering to any god has
    no other option: their second marker goes to Apollo too." Quinn has 0 GP and his
    first marker on Apollo: his second goes there too, and it is the one move listed; Pat, with gold, may not do the same (illegal-2p-both-markers-on-apollo)."""
    path = next(p for p in TRANSCRIPTS if p.name == "apollo-no-other-option-2p.txt")
    session, run = replay(path)
    step = list(run.written())[-1]
    assert step.legal and step.move.name == "apollo"
    assert [m for r, m in session.referee.legal_moves(step.before) if r == step.role] == [step.move]
    other = next(p for p in TRANSCRIPTS if p.name == "illegal-2p-both-markers-on-apollo.txt")
    _, run = replay(other)
    assert [v.rule for v in list(run.written())[-1].violations] == ["two_player_two_gods"]
