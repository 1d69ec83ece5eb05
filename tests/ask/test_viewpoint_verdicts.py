"""Viewpoints and verdicts: what another player may do instead of a move judged
illegal for want of gold, as a player who may not see that gold is told.

Rule setup_gold: "Each player starts with 5 GP, kept hidden behind their
screen." Under a viewpoint the alternatives of a screened player are the
solver's legal moves with that player's gold at the most the verdict leaves
possible: the largest amount at which the move judged is still illegal
(``Session._consistent``, by bisection, legality being monotone in gold:
referee/game/parts/screen.py, referee/games/cyclades/screen.py). So no
alternative costs as much as the move the verdict refused, whatever the
pricing, and the listing does not depend on the gold itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cyclades import gold, opening, play

from referee.ask.session import Session
from referee.base.terms import fn
from referee.game.parts import part
from referee.game.parts.screen import Screen
from referee.games.cyclades.fluents import OfferMove
from referee.games.cyclades.screen import SCREENED_GOLD

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "transcripts" / "cyclades"

GODS_2P = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares / Poseidon
"""

#: 2 players, 7 GP each: Ann's first marker offers 4 on Zeus; her second offers 5 on
#: Ares, 4 + 5 = 9 GP together, refused.
REFUSED_2P = GODS_2P + """
    Ann: 4 on Zeus
    Bob: 1 on Athena
    Ann: 5 on Ares
"""

#: 5 players, 7 GP each: Ann offers 8 on Zeus, refused.
REFUSED_5P = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: 8 on Zeus
"""


def _refused(session: Session, run):
    """The first step of ``run`` judged illegal, and its (role, move)."""
    step = next(s for s in run.written() if s.violations)
    return step, (step.role, step.move)


def _listed_moves(seen: Session, step, judged) -> list:
    """The moves behind ``seen``'s alternatives to ``judged``, and the position they are legal in."""
    state = seen._listed(step.before, judged)
    return state, [m for r, m in seen.referee.legal_moves(state) if r == step.role and m != judged[1]]


def test_two_player_a_refused_offering_cuts_the_offerings_to_the_other_gods_at_their_2p_price():
    """Rule offering_affordable: "... in the 2-player game a player must be able to pay
    both their offerings together" — Bob is told that Ann cannot afford 5 on Ares beside
    her 4 on Zeus (9 GP). Her other offerings cost what they offer plus the 4 GP standing
    on Zeus, but an offering on Zeus (outbidding her own) only what it offers (rule
    two_player_two_gods): none listed costs her 9 GP or more, so no range is open-ended
    ("offer 2 GP or more to Athena" contradicted the verdict: 5 on Athena costs 9 too)."""
    g = play(REFUSED_2P, players=2)
    assert g.problems == [("Ann: 5 on Ares", ("offering_affordable",))]
    step, judged = _refused(g.session, g.run)
    as_bob = g.session.seen_by("Bob")
    shown = as_bob.verdict(g.run, step, alternatives=True, everything=True)
    assert shown.alternatives == ("offer 5-8 GP to Zeus", "offer 2-4 GP to Athena", "offer 1-4 GP to Ares",
                                  "take Apollo")
    assert shown.alternatives_total is None  # a count would tell the gold
    # the 2-player price of each listed offering, recomputed here: below the 9 GP refused
    standing = 4  # Ann's first marker, on Zeus
    state, moves = _listed_moves(as_bob, step, judged)
    prices = [o.amount + (0 if o.god == fn("zeus") else standing)
              for o in (OfferMove.match(m) for m in moves) if o is not None]
    assert prices and max(prices) == 8 < 5 + standing
    assert gold(state, "Ann") == 8  # the most the verdict leaves possible (Ann has 7)
    # Ann herself, and everyone without a viewpoint, see her 7 GP
    truth = ("offer 5-7 GP to Zeus", "offer 2-3 GP to Athena", "offer 1-3 GP to Ares", "take Apollo")
    assert g.session.seen_by("Ann").verdict(g.run, step, alternatives=True, everything=True).alternatives == truth


def test_more_than_two_players_a_refused_offering_cuts_every_god_at_its_amount():
    """Rule offering_affordable: "No one may offer more than they can pay after their
    priests' reduction" — with more than 2 players an offering costs its amount less
    the priests, whatever the god: told that Ann cannot afford 8 on Zeus, Bob is offered
    nothing of 8 GP or more to any god."""
    g = play(REFUSED_5P)
    assert g.problems == [("Ann: 8 on Zeus", ("offering_affordable",))]
    step, judged = _refused(g.session, g.run)
    for viewer in ("Bob", "Eve"):
        shown = g.session.seen_by(viewer).verdict(g.run, step, alternatives=True, everything=True)
        assert shown.alternatives == ("offer 1-7 GP to Zeus", "offer 1-7 GP to Athena", "offer 1-7 GP to Poseidon",
                                      "offer 1-7 GP to Ares", "take Apollo")
    # without the verdict (`moves` before it), the same position is listed whatever her gold
    assert g.session.seen_by("Bob").alternatives(step.before, everything=True)[1][0] == "offer 1 GP or more to Zeus"


def test_a_building_refused_for_want_of_gold_cuts_what_costs_as_much():
    """Rule build_affordable: "A player cannot build without the GP to pay for it." —
    Ann had 4 GP for three temples (2 GP each): told that she cannot pay the third, Bob
    may read that she has 1 GP at most. The 1 GP replacement of a creature is listed;
    the creature bought at 2 GP and more is not (rule creature_affordable), nor any
    building."""
    g = play(opening("Ann/Zeus: 3 temples on IS12"))
    assert g.problems == [("Ann/Zeus: 3 temples on IS12", ("build_affordable",))]
    step, judged = _refused(g.session, g.run)
    shown = g.session.seen_by("Bob").verdict(g.run, step, alternatives=True, everything=True)
    assert shown.alternatives == ("replace Pegasus (Zeus, 1 GP)", "end the turn", "recruit a priest")
    assert not [a for a in shown.alternatives if a.startswith(("build", "buy"))]
    assert [b.message for b in shown.breaches] == ["Ann cannot pay the 2 GP for a building"]  # not her gold


def test_a_movement_refused_for_want_of_gold_cuts_everything_that_costs():
    """Rule move_affordable: "Each movement of fleets or troops costs 1 GP, which the
    player must have." — told that Bob cannot pay for his fleet's movement, Ann may read
    that he has no gold: no movement, building or creature is offered instead (a
    building and Pegasus were, a listing whatever his gold less the movements); the
    free first fleet and the end of the turn are."""
    session = Session(RECORDS / "illegal-movement-unaffordable.txt")
    run = session.referee.run()
    step = run.step_of(9)
    assert step.rules_broken == ("move_affordable",)
    shown = session.seen_by("Ann").verdict(run, step, alternatives=True, everything=True)
    assert shown.alternatives[0].startswith("recruit a fleet on ") and shown.alternatives[1:] == ("end the turn",)
    state, _ = _listed_moves(session.seen_by("Ann"), step, (step.role, step.move))
    assert gold(state, "Bob") == 0


#: The shipped records with a move refused for want of gold: (record, move number).
MONEY_BREACHES = [("illegal-offer-unaffordable", 23), ("hurried-offering-beyond-gold", 6),
                  ("illegal-movement-unaffordable", 9), ("illegal-creature-too-expensive", 13),
                  ("illegal-fates-paid-by-its-income", 11), ("illegal-kraken-unpaid-move", 15)]
#: The positions built here: (transcript body, players).
BUILT = [(REFUSED_2P, 2), (REFUSED_5P, 5), (opening("Ann/Zeus: 3 temples on IS12"), 5)]


def _position(which: int):
    """The record's name, its session and run, and the step refused."""
    if which < len(MONEY_BREACHES):
        name, number = MONEY_BREACHES[which]
        session = Session(RECORDS / f"{name}.txt")
        run = session.referee.run()
        return name, session, run, run.step_of(number)
    body, players = BUILT[which - len(MONEY_BREACHES)]
    g = play(body, players=players)
    return f"built position {which - len(MONEY_BREACHES)}", g.session, g.run, _refused(g.session, g.run)[0]


@pytest.mark.parametrize("which", range(len(MONEY_BREACHES) + len(BUILT)),
                         ids=[n for n, _ in MONEY_BREACHES] + ["2p-offering", "5p-offering", "building"])
def test_every_alternative_under_a_viewpoint_is_legal_at_the_gold_the_verdict_leaves_possible(which):
    """Rules setup_gold and offering_affordable, recruit_affordable, build_affordable,
    creature_affordable, move_affordable, kraken_move_affordable: for each move refused
    for want of gold and each other player as the viewpoint, the judged move is illegal
    at every amount up to a threshold and legal above it (monotone: judged here at every
    amount from 0 to SCREENED_GOLD); the alternatives are listed at the threshold, where
    each of them is legal and the judged move is not; and they are the same whatever the
    player's gold, as long as the verdict stands."""
    name, session, run, step = _position(which)
    role, move = step.role, step.move
    assert step.violations and role in session.rules.players, name
    screen, engine, static = part(session.rules, Screen), session.referee.engine, session.rules.static
    for viewer in (p for p in session.rules.players if p != role):
        seen = session.seen_by(viewer)
        screened = seen._screened(step.before, role)
        at = [screen.with_amount(screened, role, amount) for amount in range(SCREENED_GOLD + 1)]
        engine.prefetch(static, [(state, role, move) for state in at])
        illegal = [bool(engine.judge(static, state, role, move).violations) for state in at]
        threshold = illegal.index(False) - 1  # the move is legal at SCREENED_GOLD: the verdict rests on the gold
        assert threshold >= 0 and all(illegal[:threshold + 1]) and not any(illegal[threshold + 1:]), (name, viewer)
        listed, moves = _listed_moves(seen, step, (role, move))
        assert listed == at[threshold], (name, viewer)
        # each alternative judged on its own at that gold: legal; the judged move: not
        engine.prefetch(static, [(listed, role, m) for m in [move, *moves]])
        assert moves and not any(engine.judge(static, listed, role, m).violations for m in moves), (name, viewer)
        assert engine.judge(static, listed, role, move).violations, (name, viewer)
        shown = seen.verdict(run, step, alternatives=True, everything=True)
        assert shown.alternatives_total is None
        assert list(shown.alternatives) == session.words.group_moves(moves, None, state=screened, player=role,
                                                                     screened=True)
        for amount in {0, gold(step.before, role), threshold}:  # any gold the verdict leaves possible
            poorer = screen.with_amount(step.before, role, amount)
            assert seen.alternatives(poorer, everything=True, judged=(role, move))[1] == list(shown.alternatives)


def test_the_probes_judge_one_move_on_the_fast_path_first_and_in_one_call_when_many():
    """Rule offering_affordable, as the bisection's probes see it (``Referee.violations``):
    a bookkeeping step the fast path computes is legal without the solver; a player's
    move is the engine's judgement, and ten amounts of gold are judged in one call."""
    g = play(REFUSED_5P)
    step, (role, move) = _refused(g.session, g.run)
    referee, engine = g.session.referee, g.session.referee.engine
    bookkeeping = next(s for s in g.run.steps if s.path == "fast")
    calls = engine.calls
    assert referee.violations(bookkeeping.before, bookkeeping.role, bookkeeping.move) == ()
    assert engine.calls == calls
    screen = part(g.session.rules, Screen)
    states = [screen.with_amount(step.before, role, amount) for amount in range(5, 15)]
    broken = referee.violations_many([(state, role, move) for state in states])
    assert engine.calls == calls + 1
    assert [bool(b) for b in broken] == [True] * 3 + [False] * 7  # 8 GP is affordable from 8 GP on
    assert [v.rule for v in broken[0]] == ["offering_affordable"]
    assert referee.violations(step.before, role, move) == step.violations


def test_a_move_illegal_whatever_the_gold_costs_no_more_solver_calls_under_a_viewpoint():
    """Rule offering_outbid: "An offering to a god that already has one must be higher
    than it" — a verdict that does not rest on the gold: under a viewpoint the move is
    judged at SCREENED_GOLD and the legal moves there listed in one solver call, which
    are the alternatives (nothing is looked for)."""
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 3 on Zeus
        Bob: 3 on Zeus
    """)
    assert g.problems == [("Bob: 3 on Zeus", ("offering_outbid",))]
    step, judged = _refused(g.session, g.run)
    fresh = Session(g.session.transcript, cache=False).seen_by("Ann")
    engine = fresh.referee.engine
    engine.init(fresh.rules.static)
    calls = engine.calls
    shown = fresh.verdict(g.run, step, alternatives=True, everything=True)
    assert engine.calls == calls + 1
    assert list(shown.alternatives) == fresh.alternatives(step.before, everything=True)[1] and shown.alternatives


def test_the_second_marker_on_apollo_is_listed_as_the_screen_has_it():
    """Rule two_player_two_gods: "A player who can pay for no offering to any god has no
    other option: their second marker goes to Apollo too." The one rule that more gold can break (referee/games/cyclades/screen.py): Pat's
    second marker on Apollo is illegal with her gold and with SCREENED_GOLD alike, so the
    verdict does not rest on her gold, no amount is looked for, and Quinn is shown what
    the rules permit whatever her gold (every offering open-ended)."""
    session = Session(RECORDS / "illegal-2p-both-markers-on-apollo.txt")
    run = session.referee.run()
    step = run.step_of(10)
    assert step.rules_broken == ("two_player_two_gods",)
    as_quinn = session.seen_by("Quinn")
    judged = (step.role, step.move)
    assert as_quinn._listed(step.before, judged) == as_quinn._screened(step.before, step.role)
    shown = as_quinn.verdict(run, step, alternatives=True, everything=True)
    assert shown.alternatives and "take Apollo" not in shown.alternatives
    assert all(" or more to " in a for a in shown.alternatives), shown.alternatives
