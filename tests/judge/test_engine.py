"""The engine: facts reach clingo as data, never as program text, and every
solve is bounded (DESIGN.md: "The rules as answer-set programs")."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from referee.base.errors import SolverLimitError
from referee.base.terms import Fn, fn
from referee.game.notation import parse_transcript
from referee.judge.engine import Engine
from referee.judge.visitor import Referee
from referee.text.transcript import Play, Transcript

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
    "#program base.",
    ":~ a. [1@1]",
    "&sum{ x } = 1",
    "@evil(1)",
    "#minimize{ 1 }.",
    "}. p :- q. {",
    "'",
    "x\n#include <incmode>.",
    "a(X) :- b(X).",
    "-1",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_an_island_id_is_data_and_never_program_text(payload):
    """A move naming an island that is a payload is judged as a move on an unknown island."""
    referee = Referee(parse_transcript(GAME, "game.txt"))
    step = [s for s in referee.run().steps if s.move == fn("build", Fn("temple"), "IS2")][0]
    judgement = referee.engine.judge(referee.rules.static, step.before, "Bob", fn("build", Fn("temple"), payload))
    assert [v.rule for v in judgement.violations] == ["build_island"]
    assert fn("count", Fn("building"), Fn("", (payload, Fn("temple"))), 1) in judgement.next_state


def _rename(term, names):
    """``term`` with every string in ``names`` replaced."""
    if isinstance(term, str):
        return names.get(term, term)
    if isinstance(term, Fn):
        return Fn(term.name, tuple(_rename(a, names) for a in term.args))
    return term


def _verdicts(run, names):
    """The run's steps with the players' names mapped through ``names``."""
    return [(_rename(s.role, names), s.move, tuple((v.rule, _rename(v.role, names), v.args) for v in s.violations),
             frozenset(_rename(f, names) for f in s.after)) for s in run.steps]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_player_name_is_data_and_never_program_text(payload):
    """The same game with a player renamed to an ASP payload gets the same verdicts."""
    expected = _verdicts(Referee(parse_transcript(GAME, "game.txt")).run(), {})
    # The notation only admits plain names; the engine must hold for any string,
    # so the name is changed after reading: in the static facts, the moves and the fast path.
    names = {"Bob": payload}
    referee = Referee(parse_transcript(GAME, "game.txt"))
    t = referee.transcript
    referee.transcript = Transcript(t.source, t.header, tuple(
        replace(e, role=names.get(e.role, e.role)) if isinstance(e, Play) else e for e in t.events))
    referee.rules.static = tuple(_rename(f, names) for f in referee.rules.static)
    facts = referee.rules.setup.facts
    facts.players = [names.get(p, p) for p in facts.players]
    facts.owner = {_rename(m, names): names.get(p, p) for m, p in facts.owner.items()}
    assert _verdicts(referee.run(), {payload: "Bob"}) == expected


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


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux's CPU affinity to share one core")
def test_the_solver_bound_is_cpu_time_so_a_busy_machine_changes_no_verdict(tmp_path):
    """The bound counts the CPU time a call uses, not the wall time it waits: with
    three busy processes sharing its core, a call that needs 0.2 s of CPU takes
    several times that on the clock and is still answered under a bound of twice
    its CPU time (a wall-clock bound refused it: issue 30, a verdict must not
    depend on the machine's load)."""
    hard = tmp_path / "pigeons.lp"
    hard.write_text("pigeon(1..9). hole(1..8).\n"
                    "1 { in(P,H) : hole(H) } 1 :- pigeon(P).\n"
                    ":- in(P,H), in(Q,H), P < Q.\n")
    core = {min(os.sched_getaffinity(0))}
    before = os.sched_getaffinity(0)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        for burner in burners:
            os.sched_setaffinity(burner.pid, core)
        os.sched_setaffinity(0, core)
        cpu = time.process_time()
        with pytest.raises(SolverLimitError):  # no model: the rules "have no answer", after the whole search
            Engine((hard,), time_limit=60).judge((), (), "x", fn("m"))
        needed = time.process_time() - cpu
        bound = max(2 * needed, 0.1)
        start, cpu = time.monotonic(), time.process_time()
        with pytest.raises(SolverLimitError, match="no answer"):  # the search ends: not the bound
            Engine((hard,), time_limit=bound).judge((), (), "x", fn("m"))
        assert time.monotonic() - start > bound > time.process_time() - cpu  # the clock passed it, the CPU did not
    finally:
        os.sched_setaffinity(0, before)
        for burner in burners:
            burner.kill()
            burner.wait()


def test_too_many_facts_are_refused_before_grounding(tmp_path):
    program = tmp_path / "p.lp"
    program.write_text("q(X) :- p(X).\n")
    engine = Engine((program,), max_facts=100)
    with pytest.raises(SolverLimitError, match="more than the bound of 100"):
        engine.judge([fn("p", i) for i in range(200)], (), "x", fn("m"))


def test_numbers_beyond_the_solver_range_are_refused():
    from referee.judge.engine import to_symbol
    with pytest.raises(SolverLimitError, match="too large"):
        to_symbol(10**12)


def test_a_transcript_of_too_many_moves_is_refused_at_once():
    """Judging costs a millisecond or two a move: more than MAX_MOVES is a clear error,
    not a long wait. The reader refuses what it counts while reading (one line of
    2,001 pieces); the referee counts every move again, those a reader counts short
    too (four god tiles on a line, counted as one)."""
    from referee.base.errors import SequenceError
    from referee.judge.visitor import MAX_MOVES
    text = GAME + "Bob/Zeus: " + "; ".join(["priest"] * (MAX_MOVES + 1)) + "\n"
    start = time.monotonic()
    with pytest.raises(SequenceError, match=f"more than {MAX_MOVES:,} moves by line 11"):
        Referee(parse_transcript(text, "long.txt"))
    gods = "gods: Zeus, Ares, Athena / Poseidon\n" * (MAX_MOVES // 4 + 1)
    held = len(parse_transcript(GAME, "game.txt").plays) + 4 * (MAX_MOVES // 4 + 1)
    with pytest.raises(SequenceError, match=f"holds {held:,} moves; the referee judges at most {MAX_MOVES:,}"):
        Referee(parse_transcript(GAME + gods, "gods.txt"))
    assert time.monotonic() - start < 5


def test_legal_moves_of_many_positions_in_one_grounding_are_those_of_each_alone():
    """Engine.legal_moves_many (the indexed program, want(legal,K) per position) lists
    exactly what legal_moves lists position by position, in fewer solver calls; a
    batch over the time bound is split until it fits."""
    transcript = parse_transcript(GAME, "game.txt")
    batched = Referee(transcript)
    states = list(dict.fromkeys(s.before for s in batched.run().steps))
    alone = Referee(transcript)
    expected = [alone.engine.legal_moves(alone.rules.static, s) for s in states]
    calls = batched.engine.calls
    assert batched.engine.legal_moves_many(batched.rules.static, states) == expected
    assert batched.engine.calls - calls == 1 and len(states) > 5
    split = Referee(transcript)
    split.engine.time_limit = 1e-6  # every call over the bound: split down to one position, then the error
    with pytest.raises(SolverLimitError):
        split.engine.legal_moves_many(split.rules.static, states[:4])


def test_a_batch_past_the_time_bound_is_dropped_and_the_moves_judged_alone(monkeypatch):
    """A batch of guessed moves is only a guess: when it does not fit the time
    bound (a busy machine), it is dropped, the next guesses are smaller, and
    every verdict and state is the one of judging the moves one by one."""
    from referee.game.notation import read_transcript
    from referee.judge.engine import Engine
    from referee.judge.visitor import Referee

    path = "transcripts/cyclades/illegal-fleet-not-there.txt"
    expected = [(s.number, s.move, s.violations, s.after) for s in Referee(read_transcript(path)).run().steps]
    judge_many = Engine._judge_many

    def slow_batches(self, static, items):
        if len(items) > 2:
            raise SolverLimitError("grounding took longer than the bound of 10 s")
        return judge_many(self, static, items)

    monkeypatch.setattr(Engine, "_judge_many", slow_batches)
    referee = Referee(read_transcript(path))
    assert [(s.number, s.move, s.violations, s.after) for s in referee.run().steps] == expected
    assert referee.engine._batch_cap is not None and referee.engine.calls > 1


def test_an_engine_asked_with_other_static_facts_never_answers_from_the_first(tmp_path):
    """The judgements an engine keeps belong to the static facts they were made
    with (a reading's variants, the players, the board are static facts): asked
    the same move in the same state under other static facts, it judges again."""
    program = tmp_path / "limit.lp"
    program.write_text("violation(too_many,R,take(N),(N,)) :- does(R,take(N)), limit(L), N > L.\n"
                       "#show violation/4.\n")
    engine = Engine((program,))
    strict, lenient = (fn("limit", 1),), (fn("limit", 3),)
    assert [v.rule for v in engine.judge(strict, (), "a", fn("take", 2)).violations] == ["too_many"]
    assert engine.judge(lenient, (), "a", fn("take", 2)).violations == ()
    assert [v.rule for v in engine.judge(strict, (), "a", fn("take", 2)).violations] == ["too_many"]


# -- carried/1 grounded only in the shapes the rules read (engine._as_read) ----------------

_FRAME = """carried(F) :- true(F), not removed(F), moved.
carried(F) :- added(F), moved.
removed(phase(a)) :- does(p, go).
moved :- does(_,_).
"""


def _carried_rules(program: str) -> list[str]:
    from referee.judge.engine import indexed_program

    return [line for line in indexed_program(program).splitlines() if line.startswith("carried(")]


def test_carried_is_grounded_only_in_the_shapes_the_rules_read():
    rules = _carried_rules(_FRAME + "x(P) :- carried(phase(P)).\ny :- not carried(reveal).\n")
    assert len(rules) == 4 and all(r.startswith(("carried(phase(F__0),", "carried(reveal,")) for r in rules)


def test_carried_is_left_whole_when_a_rule_reads_any_fluent_or_shows_it():
    whole = ["carried(F,K__judgement) :- judgement(K__judgement); true(F,K__judgement); not removed(F,K__judgement); "
             "moved(K__judgement).",
             "carried(F,K__judgement) :- judgement(K__judgement); added(F); moved(K__judgement)."]
    assert _carried_rules(_FRAME + "x(P) :- carried(phase(P)).\nz(F) :- carried(F).\n") == whole
    assert _carried_rules(_FRAME + "x(P) :- carried(phase(P)).\n#show carried/1.\n") == whole


def test_the_frame_read_in_fewer_shapes_gives_the_same_next_state(tmp_path):
    """rules.lp's frame axiom (the next state: what a move adds, what it removes,
    what the game settles from carried/1) is the same whichever of carried/1's
    atoms are grounded: a Cyclades game judged with the shipped programs
    (carried/1 in the shapes Cyclades reads) and with one more rule reading
    every fluent (carried/1 whole)."""
    transcript = parse_transcript(GAME, "frame.txt")
    shipped = Referee(transcript, cache=False)
    files = list(shipped.engine.program_files)
    reads_all = tmp_path / "reads_all.lp"
    reads_all.write_text("every_carried(F) :- carried(F).\n", encoding="utf-8")
    whole = Engine(files + [reads_all])
    assert any(line.startswith("carried(phase(") for line in shipped.engine.indexed.splitlines())
    assert any(line.startswith("carried(F,") for line in whole.indexed.splitlines())
    run, run_whole = shipped.run(), Referee(transcript, cache=False, engine=whole).run()
    assert len(run.steps) > 10
    assert [(s.move, s.violations, s.after) for s in run.steps] == \
           [(s.move, s.violations, s.after) for s in run_whole.steps]
