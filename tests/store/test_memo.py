"""What a finished read and a finished run gave, kept for the next process
(referee/game/notation.py, referee/judge/kept_runs.py): a record read again, checked again or explained after a
check gives exactly what reading and judging it again gives; a memo is only
used for the same text, name, options, rules and code; a damaged or foreign
memo is ignored. (That a move's step in the whole run is its step judged up to
it, which `explain` relies on: tests/judge/test_invariant.py.)"""

from __future__ import annotations

import marshal
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from referee.ask.session import Session
from referee.game import notation
from referee.game.notation import parse_transcript, read_transcript
from referee.judge import kept_runs
from referee.judge.visitor import Referee
from referee.store import codec, memos
from referee.store import files as cachefiles
from referee.store import judgements as cache
from referee.text import parser

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "transcripts" / "cyclades" / "game-2p.txt"
HURRIED = ROOT / "transcripts" / "cyclades" / "hurried-retreat-before-round.txt"
ILLEGAL = ROOT / "transcripts" / "cyclades" / "illegal-fleet-not-there.txt"
LUNA = ROOT / "transcripts" / "luna" / "hurried-early-round.txt"
WITNESS = ROOT / "transcripts" / "cyclades" / "readings" / "apollo-marker-optional.txt"


def _steps(run):
    return [(s.number, s.play, s.role, s.move, s.violations, s.before, s.after, s.path, s.inserted)
            for s in run.steps]


def _no_judging(monkeypatch):
    """From here on, following a record (the visitor) fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the record was followed again")
    monkeypatch.setattr(Referee, "_run", refuse)


def _no_parsing(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the text was parsed again")
    monkeypatch.setattr(parser, "parse", refuse)


@pytest.mark.parametrize("path", [GAME, HURRIED, ILLEGAL, LUNA], ids=lambda p: p.name)
def test_a_record_read_again_comes_back_whole(path, store_file, monkeypatch):
    text = path.read_text(encoding="utf-8")
    first = parse_transcript(text, "record.txt")
    _no_parsing(monkeypatch)
    again = parse_transcript(text, "record.txt")
    assert again == first and again.digest == first.digest
    assert [(e.span, getattr(e, "line_text", None)) for e in again.events] == \
           [(e.span, getattr(e, "line_text", None)) for e in first.events]
    assert again.header.spans == first.header.spans


def test_another_text_or_name_is_read_again(store_file):
    text = GAME.read_text(encoding="utf-8")
    first = parse_transcript(text, "record.txt")
    assert parse_transcript(text, "other.txt").source == "other.txt"  # reports and messages name the file
    changed = parse_transcript(text.replace("\ncycle 1", "\n# a remark\ncycle 1", 1), "record.txt")
    assert changed.events[0].span.line == first.events[0].span.line + 1
    with sqlite3.connect(store_file) as db:
        assert db.execute("SELECT count(*) FROM memo").fetchone() == (3,)


@pytest.mark.parametrize("path", [GAME, HURRIED, ILLEGAL, LUNA], ids=lambda p: p.name)
def test_check_again_and_explain_after_check_judge_nothing_again(path, store_file, monkeypatch):
    cold = Session(path, cache=False)
    cold_report, cold_run = cold.check(), cold.referee.run()
    moves = [s.number for s in cold_run.written()]
    explained = [moves[0], moves[len(moves) // 2], moves[-1]] + [s.number for s in cold_run.written() if s.violations]
    cold_verdicts = [cold.explain(move=n) for n in explained]
    cold_now = cold.moves(), cold.picture(svg=False)  # where the record stops (run(close=False))
    Session(path).check()
    _no_judging(monkeypatch)
    again = Session(path)
    assert again.check() == cold_report
    assert _steps(again.referee.run()) == _steps(cold_run)
    assert [again.explain(move=n) for n in explained] == cold_verdicts
    assert (again.moves(), again.picture(svg=False)) == cold_now


@pytest.mark.parametrize("path, which", [(HURRIED, "an illegal move"), (GAME, "the last move"), (GAME, "moves")],
                         ids=["illegal", "last", "moves"])
def test_explain_or_moves_after_check_in_a_new_process_loads_no_parser_solver_or_drawing(path, which, store_file):
    """What makes `explain` of an illegal move or of the last one, and `moves`
    where the record stops, answer at once after a `check` (issue 16): the new
    process takes the record and the run from the memo, and the moves listed
    from the judgement cache (`referee check` of one record lists the
    alternatives of its illegal moves and of its last move, and the moves that
    may be made where it stops), so it imports neither lark, clingo, the
    grammar's plain values (referee.syntax), the relevance analysis, the drawing
    code nor tomllib, difflib or importlib.resources; and its answer is the cold one."""
    record = os.path.relpath(path, ROOT)
    written = list(Session(path, cache=False).referee.run().written())
    number = next(s.number for s in written if s.violations) if which == "an illegal move" else written[-1].number
    assert number < written[-1].number or which != "an illegal move"  # an illegal move before the last
    question = ["moves", record] if which == "moves" else ["explain", record, "--move", str(number)]
    env = dict(os.environ, REFEREE_CACHE=str(store_file))
    subprocess.run([sys.executable, "-m", "referee", "check", record], env=env, cwd=ROOT, capture_output=True)
    heavy = ["lark", "clingo", "referee.text.syntax", "referee.judge.relevance", "referee.games.cyclades.draw", "tomllib",
             "difflib", "importlib.resources"]
    code = ("import sys, runpy\n"
            f"sys.argv = ['referee', *{question!r}]\n"
            "try:\n    runpy.run_module('referee', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            f"print('loaded:', [m for m in {heavy!r} if m in sys.modules], file=sys.stderr)\n")
    warm = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    assert "loaded: []" in warm.stderr, warm.stderr
    cold = subprocess.run([sys.executable, "-m", "referee", *question],
                          env=dict(env, REFEREE_CACHE="off"), cwd=ROOT, capture_output=True, text=True)
    assert warm.stdout == cold.stdout and ("may be done" in cold.stdout or "to decide" in cold.stdout)


def test_alternatives_listed_for_later_never_fail_the_check(store_file, monkeypatch):
    """What `referee check` lists for a later explain (the illegal and the last
    moves' alternatives) is a convenience: over the solver's time bound it is
    left to the explain, and the check gives its report as without it."""
    from referee.base.errors import SolverLimitError
    from referee.judge.engine import Engine

    cold = Session(ILLEGAL, cache=False).check()
    assert cold.problems and not cold.disputes  # (a disputed move's alternatives are the report's own)

    def over_the_bound(self, static, states):
        raise SolverLimitError("the solver took longer than the bound of 1 s")

    monkeypatch.setattr(Engine, "legal_moves_many", over_the_bound)
    assert Session(ILLEGAL).check(alternatives=True) == cold


def test_options_and_readings_never_share_a_run(store_file):
    """The witness is illegal under 'en' and legal under 'zh-000'; strict stops at
    the first illegal move, lenient goes on."""
    for rules in ("zh-000", "en", "zh-000", "en"):
        run = Referee(read_transcript(WITNESS), rules=rules).run()
        assert any(s.violations for s in run.steps) == (rules == "en")
    lenient = Referee(read_transcript(ILLEGAL)).run()
    strict = Referee(read_transcript(ILLEGAL), strict=True).run()
    assert strict.stopped and not lenient.stopped and len(strict.steps) < len(lenient.steps)
    assert Referee(read_transcript(ILLEGAL), strict=True).run().stopped
    assert len(Referee(read_transcript(ILLEGAL), fast_path=False).run().steps) == len(lenient.steps)
    with sqlite3.connect(store_file) as db:
        (runs,) = db.execute("SELECT count(*) FROM memo").fetchone()
    assert runs == 2 + 3 + 2  # two readings, three modes; the two records read


def test_edited_code_is_never_met_by_an_old_memo(store_file, tmp_path):
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "rules.lp").write_text("a.\n")
    before = cachefiles.code_stamp(folder)
    cachefiles._stamps.clear()
    (folder / "rules.lp").write_text("a. b.\n")
    assert cachefiles.code_stamp(folder) != before
    cachefiles._stamps.clear()
    os.utime(folder / "rules.lp", ns=(1, 1))
    assert cachefiles.code_stamp(folder) not in (before, cachefiles.code_stamp(folder, tmp_path))


def test_the_referees_code_is_part_of_every_key(store_file, monkeypatch):
    transcript = read_transcript(GAME)
    Referee(transcript).run()
    assert Referee(transcript).remembered() is not None
    monkeypatch.setattr(memos, "referee_stamp", lambda: "another version")
    assert Referee(transcript).remembered() is None
    assert notation.kept_transcript(transcript.digest, transcript.source) is None


def _packed(key: bytes, data: bytes) -> tuple[bytes, bytes]:
    """A memo row's value and checksum, as the store writes them."""
    value = zlib.compress(data)
    return value, cache._checksum(key, value)


@pytest.mark.parametrize("damage", ["checksum", "format", "garbage", "foreign class", "not a run"])
def test_a_damaged_or_foreign_memo_is_ignored(store_file, damage):
    transcript = read_transcript(ILLEGAL)
    cold = _steps(Referee(transcript, cache=False).run())
    Referee(transcript).run()
    with sqlite3.connect(store_file) as db:
        for key, value in db.execute("SELECT key, value FROM memo").fetchall():
            if damage == "checksum":
                db.execute("UPDATE memo SET value = ? WHERE key = ?", (value[:-1] + b"x", key))
                continue
            data = {"format": marshal.dumps((codec.FORMAT + 1, (), ())),
                    "garbage": b"\x00 not marshal data",
                    "foreign class": marshal.dumps((codec.FORMAT, (), (codec._OBJECT, "Popen", "rm -rf /"))),
                    "not a run": marshal.dumps((codec.FORMAT, (), (codec._TUPLE, 1, 2)))}[damage]
            db.execute("UPDATE memo SET value = ?, checksum = ? WHERE key = ?", (*_packed(key, data), key))
    again = Referee(read_transcript(ILLEGAL))
    assert again.remembered() is None
    assert _steps(again.run()) == cold
    assert Referee(read_transcript(ILLEGAL)).remembered() is not None  # written again


def test_a_cache_from_before_the_memos_gains_their_table(store_file):
    with sqlite3.connect(store_file) as db:
        db.execute("CREATE TABLE judgement (key BLOB PRIMARY KEY, value TEXT NOT NULL, checksum BLOB NOT NULL)")
        db.execute(f"PRAGMA application_id = {cache.APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {cache.FORMAT}")
    Referee(read_transcript(ILLEGAL)).run()
    assert Referee(read_transcript(ILLEGAL)).remembered() is not None


def test_a_value_the_codec_cannot_hold_is_not_kept_and_the_check_goes_on(store_file, monkeypatch):
    transcript = read_transcript(ILLEGAL)
    cold = _steps(Referee(transcript, cache=False).run())
    monkeypatch.setattr(kept_runs, "CLASSES", ())  # no class it may build or keep
    assert _steps(Referee(transcript).run()) == cold
    assert Referee(transcript).remembered() is None
