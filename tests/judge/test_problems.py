"""The visitor records the problem that ends a run in the run (``Run.problem``,
``Referee.handle_error``): a line that cannot be followed, a bound hit, the
referee's own failure at a step. The report of a record that cannot be read
is built from that run, or from the parse error when there is no run
(``unreadable_report``); no exception carries a report or a run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.ask.session import Session, unreadable_report
from referee.base.errors import NotationError, SequenceError, SolverLimitError
from referee.game.notation import parse_transcript, read_transcript
from referee.judge.values import Verdict

REPO = Path(__file__).resolve().parents[2]
GAME_5P = (REPO / "transcripts" / "cyclades" / "game-5p.txt").read_text(encoding="utf-8").splitlines()
#: game-5p's first cycle with its 'gods:' line left out: the offerings cannot be followed.
NO_GODS = GAME_5P[:11] + GAME_5P[12:26]


def _session(lines: list[str]) -> Session:
    return Session(parse_transcript("\n".join(lines) + "\n", "t.txt"), cache=False)


def _failing_at(session: Session, calls: int, error: Exception) -> None:
    """The session's solver raises ``error`` from its ``calls``-th judgement on."""
    engine = session.referee.engine
    judge, made = engine.judge, []

    def failing(*args, **kwargs):
        made.append(1)
        if len(made) >= calls:
            raise error
        return judge(*args, **kwargs)

    engine.judge = failing


def test_a_line_that_cannot_be_followed_is_recorded_in_the_run():
    session = _session(NO_GODS)
    run = session.referee.follow()
    assert isinstance(run.problem, SequenceError) and "the god tiles are not written" in run.problem.message
    assert run.verdict is Verdict.UNREADABLE and run.steps  # the steps judged before it stay
    with pytest.raises(SequenceError) as raised:
        session.referee.run()
    assert not hasattr(raised.value, "run") and not hasattr(raised.value, "report")


def test_a_tolerant_check_reports_the_moves_before_the_problem():
    session = _session(NO_GODS)
    with pytest.raises(SequenceError):
        session.check()
    report = session.check(tolerant=True)
    assert isinstance(report.error, SequenceError) and report.verdict is Verdict.UNREADABLE
    assert report.exit_code == 2 and report.moves_checked > 0 and report.game == "cyclades"
    assert report.to_json()["error"]["line"] == report.error.position.line
    assert [m.number for m in session.marks()] == list(range(1, report.moves_checked + 1))


def test_a_bound_hit_at_a_step_is_recorded_and_not_judged():
    session = _session(GAME_5P[:26])
    _failing_at(session, 3, SolverLimitError("the solver took longer than 10 s"))
    run = session.referee.follow()
    assert isinstance(run.problem, SolverLimitError) and run.verdict is Verdict.NOT_JUDGED
    with pytest.raises(SolverLimitError):  # not the record's fault: raised, tolerant or not
        session.check(tolerant=True)


def test_a_failure_of_the_referee_at_a_step_is_recorded_and_raised_again():
    session = _session(GAME_5P[:26])
    _failing_at(session, 3, RuntimeError("a bug"))
    run = session.referee.follow()
    assert isinstance(run.problem, RuntimeError) and run.verdict is Verdict.FAILED
    with pytest.raises(RuntimeError, match="a bug"):
        session.referee.run()


def test_text_that_cannot_be_read_is_reported_with_the_lines_before_it(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("\n".join(GAME_5P[:26] + ["Ann: 5 on on Zeus"]) + "\n", encoding="utf-8")
    with pytest.raises(NotationError) as raised:
        read_transcript(path)
    report = unreadable_report(raised.value, path=path)
    assert report.error is raised.value and report.verdict is Verdict.UNREADABLE
    assert report.game == "cyclades" and report.moves_checked == _session(GAME_5P[:26]).check().moves_checked > 0
    assert unreadable_report(NotationError("no game: line"), path=path).moves_checked == 0


def test_no_exception_carries_a_report_or_a_run():
    """A problem lives in the run (Run.problem), never in attributes set on an exception afterwards."""
    attached = re.compile(r"\.(report|run)\s*=[^=]|getattr\([^)]*[\"'](report|run)[\"']")
    found = [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
             for path in sorted((REPO / "referee").rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if attached.search(line)]
    assert found == []
