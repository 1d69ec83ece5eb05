"""Viewpoints: a question asked as one player (``--as``, ``"as"`` in the
service) is answered without another player's hidden figures.

Rule setup_gold: "Each player starts with 5 GP, kept hidden behind their
screen." So, on every shipped Cyclades transcript and for every player as the
viewpoint: no rule message depends on a player's gold (a message that stated
it would change when the gold does); what another player may do is listed the
same whatever their gold; no offering range of theirs ends at the most they can
offer (their gold and priests, read from the referee's own state); and the
winner's gold is stated only to the sole winner. Without a viewpoint the
referee states everything, which the first test shows it does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.ask.session import Session
from referee.base.terms import fn
from referee.cli import main
from referee.game.parts import part
from referee.game.parts.screen import Screen
from referee.game.state import Draft

ROOT = Path(__file__).resolve().parents[2]
CYCLADES = sorted(p for p in (ROOT / "transcripts" / "cyclades").glob("*.txt") if not p.name.endswith(".report.txt")
                  and "\n# Cannot be read:" not in p.read_text(encoding="utf-8"))  # a record refused (exit 2)
UNAFFORDABLE = ROOT / "transcripts" / "cyclades" / "illegal-offer-unaffordable.txt"


def _with_gold(state: frozenset, players, gold) -> frozenset:
    """``state`` with each of ``players`` holding ``gold(old)`` GP."""
    d = Draft(state)
    for player in players:
        d.change("gold", player, gold(d.count("gold", player)) - d.count("gold", player))
    return d.freeze()


def _most_offered(state: frozenset, player: str) -> int:
    d = Draft(state)
    return d.count("gold", player) + d.count("priests", player)


def test_without_a_viewpoint_the_alternatives_tell_the_gold_and_with_one_they_do_not():
    """Rule offering_affordable: "No one may offer more than they can pay after their priests' reduction" """
    session = Session(UNAFFORDABLE)
    run = session.referee.run()
    step = run.step_of(23)  # Ivo: 5 on Ares, with 3 GP and a priest
    assert (step.role, _most_offered(step.before, "Ivo")) == ("Ivo", 4)
    everything = session.verdict(run, step, alternatives=True)
    assert everything.alternatives == ("offer 4 GP to Ares", "take Apollo")
    assert everything.alternatives != session.verdict(
        run, _replace_before(step, _with_gold(step.before, ["Ivo"], lambda g: g + 5)), alternatives=True).alternatives
    as_hana = session.seen_by("Hana").verdict(run, step, alternatives=True)
    # what the rules permit at the most gold the verdict leaves Ivo (3 GP: 5 on Ares is 4 GP after his priest)
    assert as_hana.alternatives == ("offer 4 GP to Ares", "take Apollo")
    assert session.seen_by("Hana").alternatives(step.before, everything=True)[1] == [
        "offer 4 GP or more to Ares", "take Apollo"]  # `moves --after 22`: no verdict to keep to
    assert as_hana.alternatives_total is None  # the number of offerings would tell the gold too
    assert [b.message for b in as_hana.breaches] == ["Ivo cannot afford this offering"]
    as_ivo = session.seen_by("Ivo").verdict(run, step, alternatives=True)
    assert as_ivo == everything  # a player sees their own gold


def test_under_a_viewpoint_no_alternative_contradicts_the_verdict():
    """Rule offering_affordable: "No one may offer more than they can pay after their
    priests' reduction" — Hana is told that Ivo cannot afford 5 GP on Ares: what he may
    do instead lists neither that offering nor a range holding it, and is the same
    whatever his gold, as long as the verdict is (at 0 GP as at 3)."""
    session = Session(UNAFFORDABLE)
    run = session.referee.run()
    step = run.step_of(23)
    as_hana = session.seen_by("Hana")
    shown = as_hana.verdict(run, step, alternatives=True)
    assert not step.legal and step.move == fn("offer", fn("ares"), 5)
    assert "offer 5 GP to Ares" not in shown.alternatives
    assert not any("or more to Ares" in a for a in shown.alternatives), shown.alternatives
    poorer = _replace_before(step, _with_gold(step.before, ["Ivo"], lambda g: 0))
    assert as_hana.verdict(run, poorer, alternatives=True).alternatives == shown.alternatives
    # the move itself is ruled out by the verdict; the listing without it is the screened one
    judged = (step.role, step.move)
    for viewer in ("Hana", "Jon"):
        who, groups, total, _ = session.seen_by(viewer).alternatives(step.before, everything=True, judged=judged)
        assert (who, groups, total) == ("Ivo", ["offer 4 GP to Ares", "take Apollo"], None)
    # Ivo himself, and everyone without a viewpoint, see his gold: nothing is cut
    assert session.seen_by("Ivo").verdict(run, step, alternatives=True).alternatives == (
        "offer 4 GP to Ares", "take Apollo")


def test_under_a_viewpoint_a_movement_judged_unpaid_rules_out_every_movement():
    """Rule move_affordable: "Each movement of fleets or troops costs 1 GP, which the
    player must have." — Bob offered his 7 GP: told that he cannot pay for his fleet's
    movement, Ann is not offered another movement of his instead."""
    session = Session(ROOT / "transcripts" / "cyclades" / "illegal-movement-unaffordable.txt")
    run = session.referee.run()
    step = run.step_of(9)
    assert step.rules_broken == ("move_affordable",)
    as_ann = session.seen_by("Ann").verdict(run, step, alternatives=True, everything=True)
    assert as_ann.alternatives and not [a for a in as_ann.alternatives if a.startswith("move ")], as_ann.alternatives
    listed = session.seen_by("Ann").alternatives(step.before, everything=True)[1]
    assert [a for a in listed if a.startswith("move ")]  # `moves --after 8`: no verdict to keep to


def test_a_money_verdict_states_the_gold_and_the_cost_to_whoever_may_see_them():
    """Rule offering_affordable: "No one may offer more than they can pay after their
    priests' reduction" — Ivo offers 5 GP with 3 GP and a priest: to everyone and to Ivo
    the verdict gives both figures, to another player neither."""
    session = Session(UNAFFORDABLE)
    run = session.referee.run()
    step = run.step_of(23)
    stated = "Ivo has 3 GP and cannot pay the 4 GP this offering comes to"
    assert [b.message for b in session.verdict(run, step).breaches] == [stated]
    assert [b.message for b in session.seen_by("Ivo").verdict(run, step).breaches] == [stated]
    as_jon = session.seen_by("Jon").verdict(run, step)
    assert [b.message for b in as_jon.breaches] == ["Ivo cannot afford this offering"]


def _replace_before(step, state):
    from dataclasses import replace
    return replace(step, before=state)


@pytest.mark.parametrize("path", CYCLADES, ids=[p.name for p in CYCLADES])
def test_no_answer_to_a_player_tells_another_players_gold(path, replay):
    """Rule setup_gold: "Each player starts with 5 GP, kept hidden behind their screen." """
    session, run = replay(path).session, replay(path).run  # (shared: tests/helpers/replays.py)
    rules, engine = session.rules, session.referee.engine
    players = rules.players
    # 1. Rule messages never carry gold to another player: each player's move judged again
    # with every player's gold at 0 and at 17 more gives, as every other player reads it, the
    # same message for every rule broken both ways (the moves that break a rule as written: a
    # legal one has no message to compare).
    variants = (lambda g: 0, lambda g: g + 17)
    moves = [s for s in run.written() if s.role in players and s.violations]
    judged = [(_with_gold(s.before, players, v), s.role, s.move) for s in moves for v in variants]
    engine.prefetch(rules.static, judged)
    for step, (state, role, move) in zip([s for s in moves for _ in variants], judged):
        violations = engine.judge(rules.static, state, role, move).violations
        for viewer in (session.seen_by(p) for p in players if p != role):
            again = {v.rule: viewer.breach(v).message for v in violations}
            for violation in step.violations:
                if violation.rule in again:
                    assert viewer.breach(violation).message == again[violation.rule], (step.number, violation.rule)
    # 2. What another player may do, at every explained move and at the end, as each player sees it.
    points = [s.before for s in run.written() if s.violations or s.play.disputed]
    points.append(session.referee.run(close=False).final)
    # The positions each player is shown, listed in a few batched solver calls (a speed-up
    # only: a position not listed here is listed when asked).
    engine.legal_moves_many(rules.static, [
        part(rules, Screen).screen(_with_gold(state, [p for p in players if p != viewer], variant), viewer)
        for viewer in players for state in points
        if rules.control(state) in players and rules.control(state) != viewer
        for variant in (lambda g: g, *variants)])
    for viewer in players:
        seen = session.seen_by(viewer)
        for state in points:
            who = rules.control(state)
            if who not in players or who == viewer:
                continue
            shown = seen.alternatives(state, everything=True)
            others = [p for p in players if p != viewer]
            for variant in variants:
                assert seen.alternatives(_with_gold(state, others, variant), everything=True) == shown
            most = _most_offered(state, who)
            leaks = [g for g in shown[1] if re.search(rf"-{most} GP|(?<![\d-]){most} GP to", g)]
            assert shown[2] is None and not leaks, (viewer, who, most, leaks)
        # 3. The outcome names the winner's gold (the tie-break) only to the sole winner.
        if rules.is_over(run.final):
            outcome = seen.outcome(run.final)
            assert ("GP" in outcome) == (rules.winners(run.final) == [viewer]), outcome


def test_the_command_line_answers_as_a_player():
    runner = CliRunner()
    as_hana = runner.invoke(main, ["explain", str(UNAFFORDABLE), "--move", "23", "--as", "Hana"])
    assert as_hana.exit_code == 1 and "    - offer 4 GP to Ares\n" in as_hana.output
    assert "Ivo cannot afford this offering" in as_hana.output and "Ivo has" not in as_hana.output
    as_ivo = runner.invoke(main, ["explain", str(UNAFFORDABLE), "--move", "23", "--as", "Ivo"])
    assert as_ivo.exit_code == 1 and "    - offer 4 GP to Ares\n" in as_ivo.output
    moves = runner.invoke(main, ["moves", str(UNAFFORDABLE), "--after", "22", "--as", "Jon"])
    assert moves.exit_code == 0 and "Ivo to decide\n" in moves.output and "legal move" not in moves.output
    assert "offer 4 GP or more to Ares" in moves.output
    nobody = runner.invoke(main, ["check", str(UNAFFORDABLE), "--as", "Zed"])
    assert nobody.exit_code == 2 and ":10:1: error[notation]: 'Zed' is not a player" in nobody.output


def test_luna_hides_nothing():
    """Luna has no hidden information (docs/luna.md): every answer is the same from every seat."""
    path = ROOT / "transcripts" / "luna" / "disputed-occupy-tile.txt"
    session = Session(path)
    everything = session.check().to_json()
    for player in session.rules.players:
        assert session.seen_by(player).check().to_json() == everything
