"""The engine: facts reach clingo as data, never as program text, and every
solve is bounded (DESIGN.md: "The rules as answer-set programs")."""

from __future__ import annotations

import time

import pytest

from referee.engine import Engine
from referee.errors import SolverLimitError
from referee.notation import parse_transcript
from referee.referee import Referee
from referee.terms import Fn, fn

GAME = """\
game: cyclades
players: Ann red, Bob blue, Cy green
cycle 1
creatures: Pegasus
gods: Zeus, Ares / Athena, Poseidon
Ann: 3 on Zeus
Bob: 3 on Zeus
Ann: 2 on Ares
Cy: Apollo
Bob/Zeus: priest; temple on IS2
"""

PAYLOADS = [
    'x. #include "/etc/passwd".',
    "a :- b.",
    "#script (python) import os #end.",
    "#const n = 1000000000.",
    ":- .",
    "X",
    "_",
    '"',
    "p(",
    ")",
    "1..1000000000",
    "#show.",
    "not a",
    "% comment",
    "a;b",
]


def _renamed(run, names):
    """A run's steps with the players' names mapped back to Ann, Bob, Cy."""
    back = {new: old for old, new in names.items()}

    def rename(term):
        if isinstance(term, str):
            return back.get(term, term)
        if isinstance(term, Fn):
            return Fn(term.name, tuple(rename(a) for a in term.args))
        return term

    return [(rename(s.role), s.move, tuple((v.rule, rename(v.role), v.args) for v in s.violations),
             frozenset(rename(f) for f in s.after)) for s in run.steps]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_player_name_is_data_and_never_program_text(payload):
    """The same game with a player renamed to an ASP payload gets the same verdicts."""
    plain = Referee(parse_transcript(GAME, "game.txt"))
    expected = _renamed(plain.run(), {"Ann": "Ann", "Bob": "Bob", "Cy": "Cy"})
    transcript = parse_transcript(GAME, "game.txt")
    # The notation only admits plain names; the engine must hold for any string.
    names = {"Ann": "Ann", "Bob": payload, "Cy": "Cy"}
    referee = Referee(transcript)
    referee.rules.static = tuple(_rename_static(referee.rules.static, names))
    referee.rules.players = tuple(names.get(p, p) for p in referee.rules.players)
    run = _run_renamed(referee, names)
    assert _renamed(run, names) == expected


def _rename_static(static, names):
    def rename(term):
        if isinstance(term, str):
            return names.get(term, term)
        if isinstance(term, Fn):
            return Fn(term.name, tuple(rename(a) for a in term.args))
        return term
    return [rename(f) for f in static]


def _run_renamed(referee, names):
    """Referee the game with the written moves' roles renamed too."""
    from dataclasses import replace as dc_replace
    from referee.transcript import Play, Transcript
    t = referee.transcript
    events = tuple(dc_replace(e, role=names.get(e.role, e.role)) if isinstance(e, Play) else e for e in t.events)
    referee.transcript = Transcript(t.source, t.header, events)
    referee.rules.setup.facts.players = [names.get(p, p) for p in referee.rules.setup.facts.players]
    referee.rules.setup.facts.owner = {
        Fn("m", (names.get(m.args[0], m.args[0]), m.args[1])): names.get(p, p)
        for m, p in referee.rules.setup.facts.owner.items()}
    return referee.run()


def test_solver_time_limit_gives_a_clear_error(tmp_path):
    """A search that cannot finish in time stops at the bound with a SolverLimitError."""
    hard = tmp_path / "pigeons.lp"
    hard.write_text("pigeon(1..14). hole(1..13).\n"
                    "1 { in(P,H) : hole(H) } 1 :- pigeon(P).\n"
                    ":- in(P,H), in(Q,H), P < Q.\n")
    engine = Engine((hard,), time_limit=0.5)
    start = time.monotonic()
    with pytest.raises(SolverLimitError, match="longer than the bound of 0.5 s"):
        engine.judge((), (), "x", fn("m"))
    assert time.monotonic() - start < 5


def test_too_many_facts_are_refused_before_grounding(tmp_path):
    program = tmp_path / "p.lp"
    program.write_text("q(X) :- p(X).\n")
    engine = Engine((program,), max_facts=100)
    with pytest.raises(SolverLimitError, match="more than the bound of 100"):
        engine.judge([fn("p", i) for i in range(200)], (), "x", fn("m"))


def test_numbers_beyond_the_solver_range_are_refused():
    from referee.engine import to_symbol
    with pytest.raises(SolverLimitError, match="too large"):
        to_symbol(10**12)
