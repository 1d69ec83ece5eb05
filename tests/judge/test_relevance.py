"""Grounding only the statements a call needs (referee/judge/relevance.py): what is
left out can neither fire nor reach a shown atom, so every judgement, every
next state and every list of legal moves is the whole program's, on the
shipped records of both games (DESIGN.md: a verdict never depends on how it
was computed)."""

from __future__ import annotations

import hashlib
import marshal

import pytest

from referee.judge import engine, relevance
from referee.judge import relevance_store as keptfile
from referee.judge.engine import Engine
from referee.judge.relevance import MAX_BINDINGS, Relevance
from referee.store import codec

real_merge = relevance._merged
from helpers.replays import ROOT, replayed

from referee.base.terms import Fn, fn

PROGRAM = """\
considered(R,M) :- does(R,M).
violation(no_gold,R,M,()) :- considered(R,M), M = buy(_), gold(R,0).
violation(too_far,R,sail(A,B),()) :- considered(R,sail(A,B)), not adjacent(A,B).
violation(wrong_god,R,M,(G,)) :- considered(R,M), M = buy(_), true(god(R,G)), G != ares.
gold(R,N) :- true(gold(R,N)).
unread(R) :- true(gold(R,_)).
:- does(R,buy(_)), does(R,sail(_,_)).
:- does(R,sail(A,A)).
#show violation/4.
"""


def kept_rules(facts: list[Fn]) -> list[str]:
    program = engine._parsed(PROGRAM)
    analysis = Relevance([engine._outline(s) for s in program])
    kept = analysis.kept([analysis.atom(f.name, f.args) for f in facts])
    return [str(program[i]) for i in kept if program[i].ast_type == engine.ast.ASTType.Rule]


def test_a_move_grounds_only_the_rules_of_its_kind_and_what_they_read():
    """Judging a voyage leaves out the rules about buying (their equality or
    their pattern cannot match ``sail``), and a predicate no shown atom depends
    on (``unread``) is never derived; the constraint stays (it is not dropped
    just because it shows nothing)."""
    facts = [fn("does", "ann", fn("sail", fn("s1"), fn("s2"))), fn("true", fn("gold", "ann", 3))]
    kept = kept_rules(facts)
    assert any(r.startswith("violation(too_far") for r in kept)
    assert any(r.startswith("considered(") for r in kept)
    assert not any(r.startswith(("violation(no_gold", "violation(wrong_god", "gold(", "unread(")) for r in kept)
    assert [r for r in kept if r.startswith("#false")] == ["#false :- does(R,sail(A,A))."]


def test_a_purchase_keeps_the_rules_that_read_its_state():
    """Judging a purchase keeps the equality-guarded rules and what their bodies
    read (``gold/2`` from the state), and leaves out the voyage's rule."""
    facts = [fn("does", "ann", fn("buy", fn("pegasus"))), fn("true", fn("gold", "ann", 0)),
             fn("true", fn("god", "ann", fn("zeus")))]
    kept = kept_rules(facts)
    assert any(r.startswith("violation(no_gold") for r in kept)
    assert any(r.startswith("violation(wrong_god") for r in kept)
    assert any(r.startswith("gold(") for r in kept)
    assert not any(r.startswith(("violation(too_far", "unread(")) for r in kept)


def test_a_rule_whose_literals_need_different_values_of_one_variable_is_left_out():
    """Variables shared between literals must agree: ``p(X), q(X)`` cannot fire
    when p only has ``a`` and q only ``b`` (constants the program spells: one
    it never spells is only "some other value" to the analysis)."""
    program = engine._parsed("r(X) :- p(X), q(X). s(X) :- p(X), q(Y). w :- p(a), q(b). #show r/1. #show s/1.")
    analysis = Relevance([engine._outline(s) for s in program])
    kept = analysis.kept([analysis.atom("p", (Fn("a"),)), analysis.atom("q", (Fn("b"),))])
    assert [str(program[i]).split(" :-")[0] for i in kept if program[i].ast_type == engine.ast.ASTType.Rule] \
        == ["s(X)"]


def test_too_many_bindings_are_merged_and_nothing_that_can_fire_is_lost(monkeypatch):
    """Past MAX_BINDINGS the bindings of a rule are merged into a coarser one:
    the analysis may then keep more, never less. (The constants are spelled by
    the program, so each is its own value to the analysis.)"""
    n = int(MAX_BINDINGS ** 0.5) + 2  # n * n bindings of r/2: past the bound
    spelled = " ".join(f"known(a{i}). known(b{i})." for i in range(n))
    program = engine._parsed(f"r(X,Y) :- p(X), q(Y). t :- r(a0,b0). #show t/0. {spelled}")
    analysis = Relevance([engine._outline(s) for s in program])
    atoms = [analysis.atom("p", (Fn(f"a{i}"),)) for i in range(n)]
    atoms += [analysis.atom("q", (Fn(f"b{i}"),)) for i in range(n)]
    merged = []
    monkeypatch.setattr(relevance, "_merged", lambda bindings: merged.append(len(bindings)) or real_merge(bindings))
    kept = [str(program[i]).split(" :-")[0] for i in analysis.kept(atoms)]
    assert merged and merged[0] > MAX_BINDINGS
    assert "t" in kept and "r(X,Y)" in kept
    assert not any(k.startswith("known(") for k in kept)  # read by nothing shown


PRUNING_RECORDS = ["transcripts/cyclades/game-5p.txt", "transcripts/cyclades/creatures-game-5p.txt",
                   "transcripts/cyclades/figures-5p.txt", "transcripts/cyclades/battles-5p.txt",
                   "transcripts/luna/game-4p.txt"]


@pytest.mark.slow
@pytest.mark.parametrize("record", PRUNING_RECORDS)
def test_every_judgement_is_the_whole_programs(record):
    """Moves the solver judged in a shipped record (about 12, spread over the
    game), judged again one by one with and without pruning: the same
    violations, gains, losses and next state; so are the legal moves of a
    sample of its positions; and so is every move of the record judged in one
    batch. (Every shipped record's expected report, made with the whole
    program, is checked with pruning by tests/ask/test_transcripts.py.)"""
    replay = replayed(ROOT / record)
    static = replay.referee.rules.static
    steps = [s for s in replay.run.steps if s.path == "solver"]
    assert steps
    files = replay.referee.engine.program_files
    whole, pruned = Engine(files, pruning=False), Engine(files)
    sample = steps[::max(1, len(steps) // 12)]
    for step in sample:
        assert pruned.judge(static, step.before, step.role, step.move) == \
            whole.judge(static, step.before, step.role, step.move), (record, step.number)
    positions = [s.before for s in sample[::3]]
    assert pruned.legal_moves_many(static, positions) == whole.legal_moves_many(static, positions)
    # the whole game in one batch, each statement guarded to the judgements that need it
    batch = [(s.before, (s.role, s.move), False) for s in steps]
    guarded = Engine(files)
    assert guarded._judge_many(static, batch) == Engine(files, pruning=False)._judge_many(static, batch)
    part = guarded._grounded(guarded._part(static))
    program, guards = guarded._needed(part, batch)
    assert guards and len(program) < len(part.program)  # the pruning and the guards did happen
    chain = [str(st) for st in program if str(st).startswith("true(")]
    assert chain and not any("needs__" in st for st in chain)  # a state is never cut short


def _signed(good: bytes, content: bytes) -> bytes:
    """``content`` under the first line of the derived file ``good`` (its kind,
    version and key), with a checksum that matches it (referee/store/files.py)."""
    kind = good.split(b"\n", 1)[0].rsplit(b" ", 1)[0]
    return kind + b" " + hashlib.sha256(content).hexdigest().encode() + b"\n" + content


def test_a_corrupt_outline_cache_is_rebuilt_never_trusted(tmp_path, monkeypatch):
    """The outlines are kept on disk (reading clingo's statements is slow) with
    a checksum: a file that is damaged, not ours, or not this program's, is read
    again from the rules."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = "p(X) :- q(X).\n#show p/1.\n"
    program = engine._parsed(text)
    engine._RELEVANCE.clear()  # (kept in this process too)
    first = engine._relevance(text, program)
    [path] = (tmp_path / "referee").glob("outlines-*")
    good = path.read_bytes()
    checked = [marshal.dumps(x) for x in ((1, 2), (("x",),), (), [o.to_tuple() for o in first.outlines],
                                          tuple(o.to_tuple()[:6] for o in first.outlines),
                                          tuple((o.to_tuple()[0], "x", *o.to_tuple()[2:]) for o in first.outlines))]
    for junk in [b"not marshal", good[:-5], good.replace(b"p", b"q"), good.split(b"\n", 1)[1],
                 good.split(b"\n", 1)[0] + b"\n" + marshal.dumps(())] + [
                 _signed(good, c) for c in checked] + [_signed(good, b"\x00")]:  # checksums that match
        path.write_bytes(junk)
        engine._RELEVANCE.clear()
        assert engine._relevance(text, program).outlines == first.outlines
    engine._RELEVANCE.clear()
    assert engine._relevance(text, program).outlines == first.outlines  # the rebuilt file, read back


# -- what the analysis keeps, in the cache folder ----------------------------------------

KEPT_RECORD = "transcripts/luna/game-4p.txt"


def _fresh_process():
    """Forget what this process analysed (as a new process would start)."""
    keptfile.write_all()  # (nothing left to write from earlier tests into another folder)
    engine._RELEVANCE.clear()
    engine._STATIC_PARTS.clear()


def _counted(monkeypatch) -> list:
    """Every analysis made from now on (Relevance.kept and .prepared)."""
    calls = []
    kept, prepared = Relevance.kept, Relevance.prepared
    monkeypatch.setattr(Relevance, "kept", lambda self, *a, **k: calls.append("kept") or kept(self, *a, **k))
    monkeypatch.setattr(Relevance, "prepared", lambda self, *a: calls.append("prepared") or prepared(self, *a))
    return calls


def _asked(record: str = KEPT_RECORD):
    """A record's static facts, some moves the solver judged in it (state, role,
    move), and a few of its positions."""
    replay = replayed(ROOT / record)
    steps = [s for s in replay.run.steps if s.path == "solver"]
    sample = steps[::max(1, len(steps) // 8)]
    return (replay.referee.rules.static, replay.referee.engine.program_files,
            [(s.before, s.role, s.move) for s in sample], [s.before for s in sample[::3]])


def _answers(judge: Engine, static, moves, positions) -> tuple:
    return ([judge.judge(static, *m) for m in moves], judge.legal_moves_many(static, positions),
            judge._judge_many(static, [(state, (role, move), False) for state, role, move in moves]))


def test_a_new_process_reads_what_the_analysis_kept_and_analyses_nothing(tmp_path, monkeypatch):
    """What the analysis keeps for each kind of call is written to the cache
    folder at the engine's flush: a new process (nothing analysed in memory)
    reads it back, makes no analysis at all, and judges every move, listing
    and batch as the whole program does."""
    static, files, moves, positions = _asked()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _fresh_process()
    calls = _counted(monkeypatch)
    first = Engine(files)
    answers = _answers(first, static, moves, positions)
    assert calls  # this process analysed...
    assert not list((tmp_path / "referee").glob("kept-*"))  # ...and writes only at the flush
    first.flush()
    [path] = (tmp_path / "referee").glob("kept-*")
    written = path.read_bytes()
    _fresh_process()
    calls.clear()
    second = Engine(files)
    assert _answers(second, static, moves, positions) == answers == \
        _answers(Engine(files, pruning=False), static, moves, positions)
    assert calls == []
    second.flush()
    assert path.read_bytes() == written  # nothing new: not written again


@pytest.mark.slow
def test_a_damaged_or_foreign_kept_file_is_ignored_and_rebuilt(tmp_path, monkeypatch):
    """A kept-statements file that does not match its checksum, is not JSON of
    the right shape, belongs to another key, or names statements this program
    does not have (or leaves out one that is always kept) is not used: the
    analysis is made again, the judgements are the whole program's, and the
    flush writes the file anew."""
    static, files, moves, positions = _asked()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _fresh_process()
    first = Engine(files)
    answers = _answers(first, static, moves[:3], positions[:1])
    first.flush()
    [path] = (tmp_path / "referee").glob("kept-*")
    good = path.read_bytes()
    key, *encoded = codec.loads(good.split(b"\n", 1)[1], 3)
    entries = codec.Codec(()).decode_all(encoded)
    size = len(first._grounded(first._part(static)).program)
    always = min(first._grounded(first._part(static)).relevance.always)

    def signed(key, entries) -> bytes:
        return _signed(good, codec.dumps(key, *codec.Codec(()).encode_all(entries)))

    def each_kept(change) -> tuple:
        return tuple((text, change(kept)) for text, kept in entries)

    damaged = {
        "bad checksum": good[:-1] + bytes([good[-1] ^ 1]),
        "cut short": good[:-7],
        "not the codec's": _signed(good, b"not marshal data"),
        "no checksum": good.split(b"\n", 1)[1],
        "another key": signed("0" * 64, entries),
        "kept not pairs": signed(key, (1, 2)),
        "numbers as text": signed(key, each_kept(lambda kept: tuple(str(i) for i in kept))),
        "a number past the program": signed(key, each_kept(lambda kept: (*kept, size))),
        "a negative number": signed(key, each_kept(lambda kept: (-1, *kept))),
        "out of order": signed(key, each_kept(lambda kept: kept[::-1])),
        "an always-kept statement left out": signed(key, each_kept(lambda kept: tuple(i for i in kept if i != always))),
        "truth values": signed(key, each_kept(lambda kept: (True,) * len(kept))),
    }
    calls = _counted(monkeypatch)
    for why, junk in damaged.items():
        path.write_bytes(junk)
        _fresh_process()
        calls.clear()
        again = Engine(files)
        assert _answers(again, static, moves[:3], positions[:1]) == answers, why
        assert calls, why  # analysed again: the file was not trusted
        again.flush()
        assert path.read_bytes() == good, why  # and written anew


def test_a_kept_file_past_its_bound_starts_again(tmp_path, monkeypatch):
    """The file holds at most keptfile.LIMIT inputs: past it, only the newest
    process's analyses stay (it never grows without bound)."""
    static, files, moves, positions = _asked()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(keptfile, "LIMIT", 3)
    _fresh_process()
    first = Engine(files)
    _answers(first, static, moves, positions)
    first.flush()
    [path] = (tmp_path / "referee").glob("kept-*")
    kept = codec.Codec(()).decode_all(codec.loads(path.read_bytes().split(b"\n", 1)[1], 3)[1:])
    assert 0 < len(kept) <= 3


CANONICAL = """\
import sys
from referee.judge import relevance_store as keptfile
from referee.judge.relevance import OTHER
names = ["n%d" % i for i in range(24)]
moves = frozenset({(OTHER, ("march", (OTHER, ("island", (OTHER,)), None)))} |
                  {(("p", ()), (name, (OTHER, None))) for name in names})
shapes = frozenset({None} | {(name, ((name, ()),)) for name in names})
static = frozenset((("holds", 2), ((name, ()), OTHER)) for name in names)
print(keptfile.input_text(moves, True, shapes))
print(keptfile.static_text(static))
print(repr(list(shapes)))
"""


def test_the_kept_files_keys_are_the_same_text_in_every_process():
    """A call's input and the static facts are frozensets of abstract terms;
    their text (the key in the file, and the file's name) is canonical: the
    same under two string-hash seeds, where the sets' own order differs."""
    import os
    import subprocess
    import sys

    printed = []
    for seed in ("1", "2", "3"):
        out = subprocess.run([sys.executable, "-c", CANONICAL], capture_output=True, text=True, check=True,
                             cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}).stdout.split("\n")
        printed.append(out)
    assert len({tuple(p[:2]) for p in printed}) == 1
    assert len({p[2] for p in printed}) > 1  # the sets' iteration order did differ
    # in this process: the same key built in two orders
    from referee.judge.relevance import OTHER

    a = frozenset([(OTHER, ("x", ())), (("p", ()), ("y", (None,)))])
    b = frozenset(reversed(list(a)))
    assert keptfile.input_text(a, False, frozenset({None})) == keptfile.input_text(b, False, frozenset({None}))
    assert keptfile.input_text(a, False, frozenset({None})) != keptfile.input_text(a, True, frozenset({None}))
