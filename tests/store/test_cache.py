"""The judgement cache on disk (referee/store/judgements.py): a verdict read from it is the
verdict of a cold, solver-only run; ``explain`` after ``check`` judges nothing
again; a damaged, foreign or full cache is ignored or trimmed, never trusted;
two processes may use it at once; ``--no-cache`` and ``REFEREE_CACHE=off`` switch
it off. (Every other test runs with the cache off: tests/conftest.py.)"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.ask.options import CheckOptions
from referee.ask.session import Session
from referee.cli import main as referee_main
from referee.game.notation import read_transcript
from referee.judge.visitor import Referee
from referee.store import codec
from referee.store import judgements as cache

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "transcripts" / "cyclades" / "game-2p.txt"
ILLEGAL = ROOT / "transcripts" / "cyclades" / "illegal-fleet-not-there.txt"
LUNA = ROOT / "transcripts" / "luna" / "illegal-out-of-turn.txt"
WITNESS = ROOT / "transcripts" / "cyclades" / "readings" / "apollo-marker-optional.txt"


def _steps(run):
    return [(s.number, s.role, s.move, s.violations, s.before, s.after, s.inserted) for s in run.steps]


def _forget_runs(store_file):
    """Delete the whole runs kept beside the judgements (referee/judge/kept_runs.py), so that
    a run judges its moves again, from the judgement cache."""
    with sqlite3.connect(store_file) as db:
        db.execute("DELETE FROM memo")


def _cold(path, rules=None):
    """The reference: the solver alone, no fast path, no cache."""
    return _steps(Referee(read_transcript(path), fast_path=False, cache=False, rules=rules).run())


@pytest.mark.parametrize("path", [GAME, ILLEGAL, LUNA], ids=lambda p: p.name)
def test_a_warm_run_gives_the_verdicts_and_states_of_a_cold_solver_only_run(path, store_file):
    cold = _cold(path)
    first = Referee(read_transcript(path))
    assert _steps(first.run()) == cold
    assert store_file.exists()
    _forget_runs(store_file)
    again = Referee(read_transcript(path))  # a new process would start like this: nothing in memory
    assert _steps(again.run()) == cold
    assert again.engine.calls == 0  # every judgement came from the cache


def test_explain_after_check_judges_nothing_again(store_file):
    transcript = read_transcript(GAME)
    last = len(transcript.plays)
    cold = Session(transcript, CheckOptions(fast_path=False), cache=False).explain(move=last)
    Session(transcript).check()
    _forget_runs(store_file)  # the judgements alone (with the check's run: tests/store/test_memo.py)
    session = Session(transcript)
    assert session.explain(move=last) == cold
    assert session.referee.engine.calls <= 1  # the alternatives (legal moves) of that one position
    session = Session(transcript)
    assert session.explain(move=last) == cold
    assert session.referee.engine.calls == 0  # ... and those are kept too


def test_two_readings_never_share_judgements(store_file):
    """The key holds the reading: the witness is illegal under 'en' and legal under
    'zh-000' (variant apollo_marker_optional), whichever was checked first (and
    so does the key of a whole run kept: the third run is the first one's)."""
    for rules in ("zh-000", "en", "zh-000"):
        run = Referee(read_transcript(WITNESS), rules=rules).run()
        assert _steps(run) == _cold(WITNESS, rules)
    assert any(s[3] for s in _cold(WITNESS, "en")) and not any(s[3] for s in _cold(WITNESS, "zh-000"))


def test_a_damaged_row_is_not_trusted(store_file):
    """A row whose value no longer matches its checksum is ignored (the solver
    answers) and written again."""
    cold = _cold(ILLEGAL)
    Referee(read_transcript(ILLEGAL)).run()
    legal = codec.dumps(*codec.Codec(()).encode_all(((), frozenset(), frozenset(), ())))
    with sqlite3.connect(store_file) as db:
        db.execute("UPDATE judgement SET value = ?", (legal,))
    _forget_runs(store_file)
    damaged = Referee(read_transcript(ILLEGAL))
    assert _steps(damaged.run()) == cold
    assert damaged.engine.calls > 0
    _forget_runs(store_file)
    healed = Referee(read_transcript(ILLEGAL))
    assert _steps(healed.run()) == cold and healed.engine.calls == 0


@pytest.mark.parametrize("content", [b"this is not a database" * 100, b""], ids=["garbage", "empty"])
def test_a_corrupt_file_is_ignored_and_left_alone(store_file, content):
    store_file.write_bytes(content)
    referee = Referee(read_transcript(ILLEGAL))
    assert _steps(referee.run()) == _cold(ILLEGAL)
    if content:
        assert store_file.read_bytes() == content


def test_another_programs_database_is_ignored_and_left_alone(store_file):
    with sqlite3.connect(store_file) as db:
        db.execute("CREATE TABLE judgement (key BLOB PRIMARY KEY, value TEXT, checksum BLOB)")
        db.execute("INSERT INTO judgement VALUES (x'00', 'mine', x'00')")
    before = store_file.read_bytes()
    referee = Referee(read_transcript(ILLEGAL))
    assert _steps(referee.run()) == _cold(ILLEGAL)
    assert store_file.read_bytes() == before
    with sqlite3.connect(store_file) as db:
        assert db.execute("SELECT count(*) FROM judgement").fetchone() == (1,)


def test_the_cache_is_bounded(store_file, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ROWS", 40)
    Referee(read_transcript(GAME)).run()
    with sqlite3.connect(store_file) as db:
        (rows,) = db.execute("SELECT count(*) FROM judgement").fetchone()
    assert 0 < rows <= 40


def test_two_processes_at_once(store_file):
    """Two `referee check` processes writing the same cache: both give the expected
    report, and a third, reading it, too."""
    expected = ILLEGAL.with_suffix(".report.txt").read_text(encoding="utf-8")
    command = [sys.executable, "-m", "referee", "check", str(ILLEGAL.relative_to(ROOT))]
    runs = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    third = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True, timeout=300).stdout
    assert outputs == [expected, expected] and third == expected


def test_no_cache_and_the_environment_switch_it_off(store_file, monkeypatch):
    result = CliRunner().invoke(referee_main, ["check", "--no-cache", str(ILLEGAL.relative_to(ROOT))])
    assert result.exit_code == 1, result.output
    assert not store_file.exists()
    monkeypatch.setenv("REFEREE_CACHE", "off")
    assert cache.default_store() is None
    Referee(read_transcript(ILLEGAL)).run()
    assert not store_file.exists()


def test_terms_and_judgements_survive_the_one_codec(tmp_path):
    """The judgement cache keeps its values in the one codec (referee/store/codec.py)."""
    from referee.base.terms import Fn, fn

    terms = (fn("count", Fn("gold"), "Ann", 5), fn("", "a", fn("b")), Fn("x"), "IS1", -3,
             fn("say", 'x. #include "/etc/passwd".'))
    for term in terms:
        assert codec.Codec(()).decode_all(codec.loads(codec.dumps(*codec.Codec(()).encode_all(term)), 2)) == term
    store = cache.JudgementStore(tmp_path / "cache.sqlite")
    store.keep_legal_moves("rules", frozenset(terms[:3]), [("Ann", terms[0]), (Fn("x"), terms[1])])
    assert store.legal_moves("rules", frozenset(terms[:3])) == (("Ann", terms[0]), (Fn("x"), terms[1]))
    assert store.legal_moves("rules", frozenset(terms[:2])) is None
