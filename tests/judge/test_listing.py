"""Listing <=> judging, as a property (hypothesis): in a position drawn from a shipped
game, a move drawn from the listed moves, the written one and their neighbours (one
GP more or less, another island or space, another god or card, a route through
another space) is judged legal exactly when the legal-move listing holds it, or a
listed move covers it where the listing is deliberately bounded (docs/report.md,
"What may be done instead"):

* a fleet movement that turns back over a space, or picks up or leaves fleets on
  the way (rule fleet_move): the listing has the routes that do neither (for one
  with pick-ups, the same spaces from the same space);
* a Sylph movement (rule sylph_move, up to 10 spaces): the listing has one route to
  each space within reach, from the same space, with the same fleets;

and the grouped answer says so for those two. The judgements of one example are
grounded together (Engine.prefetch), the listings of a game's positions too
(Engine.legal_moves_many).
"""

from __future__ import annotations

import os
import re

import pytest
from helpers.replays import ROOT, legal_moves, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.base.terms import Fn
from referee.games.cyclades.fluents import OfferMove, Sail, Use, Via

#: Games whose positions are drawn: the 2-player auction (self-outbids), fleets,
#: troops and battles, the creatures (Sylph, Pegasus, ...), and Luna.
GAMES = [ROOT / "transcripts" / p for p in ("cyclades/game-2p.txt", "cyclades/battles-2p.txt",
                                           "cyclades/creatures-game-5p.txt", "luna/game-2p.txt")]


def _decisions(path):
    """(state, role, written move, listed moves of that role) of every written
    move not of the game role: the positions drawn from."""
    session, run = replay(path)
    steps = [s for s in run.written() if s.role != Fn("game")]
    listings = legal_moves(path, [s.before for s in steps])
    return [(s.before, s.role, s.move, [m for r, m in legal if r == s.role]) for s, legal in zip(steps, listings)]


_DECISIONS: dict = {}


def decisions(path):
    if path not in _DECISIONS:
        _DECISIONS[path] = _decisions(path)
    return _DECISIONS[path]


def _kind(text: str) -> str:
    if re.fullmatch(r"IS\d+", text):
        return "island"
    if re.fullmatch(r"[A-Z]\d+", text):
        return "space"
    return "name"


def _leaves(term, path=()):
    """(path, leaf) of every number, string and constant inside a move."""
    if isinstance(term, Fn) and term.args:
        for i, a in enumerate(term.args):
            yield from _leaves(a, path + (i,))
    else:
        yield path, term


def _replace(term, path, value):
    if not path:
        return value
    args = list(term.args)
    args[path[0]] = _replace(args[path[0]], path[1:], value)
    return Fn(term.name, tuple(args))


def _pools(session, state, path):
    """The strings of the position by kind (islands, spaces, names), and the
    constants (gods, cards, buildings, ...) each place of each kind of move holds
    in the moves listed or written in the game: a neighbour is a move a person
    could write (the reader refuses a god that is not one)."""
    strings: dict[str, set] = {}

    def collect(term):
        if isinstance(term, str):
            strings.setdefault(_kind(term), set()).add(term)
        elif isinstance(term, Fn):
            for a in term.args:
                collect(a)

    for fact in list(session.rules.static) + list(state):
        collect(fact)
    return {k: sorted(v) for k, v in strings.items()}, constants(path)


_CONSTANTS: dict = {}


def constants(path) -> dict:
    """(move name, place) -> the constants, and ('#', move name, place) -> the
    numbers, found there in the game's listed and written moves."""
    if path not in _CONSTANTS:
        found: dict = {}
        for _, _, written, listed in decisions(path):
            for move in listed + [written]:
                for place, leaf in _leaves(move):
                    if isinstance(leaf, Fn) and not leaf.args and leaf.name:
                        found.setdefault((move.name, place), set()).add(leaf)
                    elif isinstance(leaf, int) and not isinstance(leaf, bool):
                        found.setdefault(("#", move.name, place), set()).add(leaf)
        _CONSTANTS[path] = {k: sorted(v, key=str) for k, v in found.items()}
    return _CONSTANTS[path]


def _numbers(seen: list, value: int) -> list[int]:
    """One more and one less, as a person could write them: a flag (a place that
    only ever holds 0 or 1, e.g. Luna's substitute novice) flips; nothing goes
    below 0 where no negative number is ever written."""
    if seen and set(seen) <= {0, 1}:
        return [1 - value]
    return [v for v in (value + 1, value - 1) if v >= min([0] + seen)]


def neighbours(move: Fn, strings: dict, constants: dict) -> list[Fn]:
    """The moves one step from ``move``: a number one more or less, a string of the
    same kind (island, space, name) or another constant in one place (numbers and
    constants as the game's moves hold them there: what the reader could give)."""
    found = []
    for path, leaf in _leaves(move):
        if not path:
            continue
        if isinstance(leaf, bool):
            continue
        if isinstance(leaf, int):
            found += [_replace(move, path, v) for v in _numbers(constants.get(("#", move.name, path), []), leaf)]
        elif isinstance(leaf, str):
            found += [_replace(move, path, s) for s in strings.get(_kind(leaf), ()) if s != leaf]
        elif isinstance(leaf, Fn) and not leaf.args and leaf.name:
            found += [_replace(move, path, c) for c in constants.get((move.name, path), ()) if c != leaf]
    return found


def _route(move: Fn):
    """(card, start, count, spaces) of a fleet or Sylph movement, else None."""
    card = None
    use = Use.match(move)
    if use is not None and use.card == Fn("sylph") and isinstance(use.target, Fn) and use.target.name == "sail":
        card, move = "sylph", use.target
    sail = Sail.match(move)
    if sail is None:
        return None
    spaces, picked = [], False
    step = Via.match(sail.path)
    while step is not None:
        spaces.append(step.space)
        picked = picked or step.delta != 0
        step = Via.match(step.rest)
    return card, sail.start, sail.count, tuple(spaces), picked


def covered(move: Fn, listed: list[Fn]) -> bool:
    """A legal move the listing leaves out on purpose, covered by a listed one."""
    mine = _route(move)
    if mine is None:
        return False
    card, start, count, spaces, picked = mine
    for other in map(_route, listed):
        if other is None or other[0] != card or other[1] != start:
            continue
        if card == "sylph" and (other[2], other[3][-1:]) == (count, spaces[-1:]):
            return True
        if card is None and picked and other[3] == spaces:
            return True
    # Poseidon's listing leaves out the routes that turn back over a space
    # (G5 -> H4 -> G5 can pick up a fleet on H4): legal, and the answer says so.
    return card is None and len(set((start,) + spaces)) <= len(spaces)


#: Examples per run: 40, the same ones each time (a bounded cost in the suite);
#: LISTING_EXAMPLES=500 explores further, drawing new ones.
EXAMPLES = int(os.environ.get("LISTING_EXAMPLES", "40"))


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize="LISTING_EXAMPLES" not in os.environ, database=None)
@given(st.data())
def test_listing_and_judging_agree(data):
    path = data.draw(st.sampled_from(GAMES), label="game")
    session, _ = replay(path)
    state, role, written, listed = data.draw(st.sampled_from(decisions(path)), label="position")
    strings, places = _pools(session, state, path)
    base = data.draw(st.sampled_from(listed + [written]), label="move")
    near = neighbours(base, strings, places)
    moves = [base, written] + data.draw(st.lists(st.sampled_from(near), max_size=6, unique=True) if near
                                        else st.just([]), label="neighbours")
    engine = session.referee.engine
    engine.prefetch(session.rules.static, [(state, role, m) for m in moves])
    for move in moves:
        legal = engine.judge(session.rules.static, state, role, move).is_legal
        is_listed = move in listed
        assert legal == is_listed or (legal and covered(move, listed)), (
            f"{path.name}: {move} for {role}: judged {'legal' if legal else 'illegal'}, "
            f"{'listed' if is_listed else 'not listed'}")


def test_a_two_player_self_outbid_is_listed_up_to_what_the_player_can_pay():
    """Rule two_player_two_gods ("a player may outbid their own offering") and rule
    offering_affordable: outbidding one's own offering pays only the new one, so
    Quinn (3 GP, 3 priests, his other marker on Ares at 1) may offer up to 6 GP on
    Ares; the listing holds every offer the judging accepts (game-2p, cycle 4)."""
    session, run = replay(ROOT / "transcripts" / "cyclades" / "game-2p.txt")
    step = next(s for s in run.written() if s.play.span.line == 52)  # Quinn: 2 on Ares
    offers = [OfferMove.match(m) for r, m in session.referee.legal_moves(step.before) if r == step.role]
    listed = {o.amount for o in offers if o is not None and o.god == Fn("ares")}
    judged = {n for n in range(1, 10)
              if session.referee.engine.judge(session.rules.static, step.before, step.role,
                                              Fn("offer", (Fn("ares"), n))).is_legal}
    assert listed == judged == set(range(2, 7))


def test_a_bounded_listing_says_so():
    """The fleet movements listed have no pick-ups, and the Sylph's one route per
    space: the grouped answer says that other routes are legal too."""
    from referee.games.cyclades.describe import group_moves

    sail = Fn("sail", ("D4", 1, Fn("via", ("E4", 0, Fn("end")))))
    sylph = Fn("use", (Fn("sylph"), sail))
    lines = group_moves([sail, sylph], None)
    assert any("turn back or pick up" in line and "D4" in line for line in lines), lines
    assert any("Sylph" in line and "any route" in line for line in lines), lines
