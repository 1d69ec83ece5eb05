"""The shipped transcripts and their expected reports (transcripts/README.md).

Every ``transcripts/**/X.txt`` with an ``X.report.txt`` beside it is checked as
``referee check transcripts/.../X.txt`` would check it from the repository root:
the printed report must equal ``X.report.txt`` and the exit code ``X.exit``
(regenerate both with ``python tools/update_expected.py``, after reading them).

Beyond the text:

* the complete games (every transcript not named ``illegal-*`` or ``hurried-*``) are legal;
* each ``hurried-*`` transcript (a record as a hurried player writes it: a
  heading forgotten, a line out of sequence, a typo) is read as its header says:
  ``# Illegal where written: line N (rule)``, ``# Assumed: line N`` and
  ``# Cannot be read: line N (words of the message)`` lines name every problem,
  every assumption and the error, and nothing else is reported;
* each ``illegal-*`` transcript ends in the move it was written for: its header
  says ``# Rule broken by the last move: <rule id> (...)``, and the last written
  move is reported illegal for that rule (or, failing that, is disputed with
  ``??``); no other written move is flagged, and nothing the referee inserted
  after it (an unwritten end of turn) is flagged either.

``KNOWN_REFEREE_ISSUES`` lists the transcripts on which the referee is, we
believe, wrong today; those checks are strict xfails, so a fix shows up as an
XPASS to be removed from the list (and the reports regenerated).
"""

from __future__ import annotations

import contextlib
import functools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.replays import replayed

from referee.ask.report import Report
from referee.ask.session import Session
from referee.base.errors import RefereeError
from referee.cli import main as referee_main
from referee.game.catalogue import load_catalogue

REPO = Path(__file__).resolve().parents[2]
TRANSCRIPT_DIR = REPO / "transcripts"


def _transcripts() -> list[str]:
    """Repository-relative paths of the transcripts that have an expected report."""
    found = []
    for path in sorted(TRANSCRIPT_DIR.rglob("*.txt")):
        if path.name.endswith(".report.txt"):
            continue
        if _expected(path)[0].exists():
            found.append(path.relative_to(REPO).as_posix())
    return found


def _expected(path: Path) -> tuple[Path, Path]:
    stem = path.name[: -len(".txt")]
    return path.with_name(stem + ".report.txt"), path.with_name(stem + ".exit")


ALL = _transcripts()
ILLEGAL = [t for t in ALL if Path(t).name.startswith("illegal-")]
HURRIED = [t for t in ALL if Path(t).name.startswith("hurried-")]
GAMES = [t for t in ALL if t not in ILLEGAL and t not in HURRIED]

# -- what we believe the referee gets wrong today (see transcripts/README.md) ----------
KNOWN_REFEREE_ISSUES: dict[tuple[str, str], str] = {}


def _params(transcripts: list[str], check: str) -> list:
    """Parameters, with the known referee issues as strict xfails."""
    out = []
    for t in transcripts:
        reason = KNOWN_REFEREE_ISSUES.get((check, Path(t).name))
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        out.append(pytest.param(t, id=Path(t).name, marks=marks))
    return out


# -- running the referee once per transcript ---------------------------------------------
@functools.lru_cache(maxsize=None)
def cli_check(transcript: str) -> tuple[str, int]:
    """What ``referee check TRANSCRIPT`` prints (standard output) and its exit code."""
    with contextlib.chdir(REPO):
        result = CliRunner().invoke(referee_main, ["check", transcript])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.stdout, result.exit_code


@functools.lru_cache(maxsize=None)
def session_check(transcript: str) -> tuple[Session, Report]:
    """The transcript's report, checked on its shared replay (tests/helpers/replays.py:
    the referee runs it again on the judgements its engine made)."""
    session = replayed(REPO / transcript).session
    return session, session.check()


def last_move(plays) -> set[int]:
    """The numbers of the plays of the last written move: one play, or two for
    Zeus's 'replace X -> Y' (the replacement and chance's card)."""
    last = len(plays)
    numbers = {last}
    if last > 1 and plays[-1].role == "chance" and plays[-2].move.name == "replace" \
            and plays[-1].span.line == plays[-2].span.line:
        numbers.add(last - 1)
    return numbers


def header_also(transcript: str) -> set[str]:
    """Further rules the last move breaks, from '# Also broken by it: <id> (...)' lines."""
    text = (REPO / transcript).read_text(encoding="utf-8")
    return set(re.findall(r"^# Also broken by it: ([a-z0-9_]+)", text, re.MULTILINE))


def header_rule(transcript: str) -> str:
    text = (REPO / transcript).read_text(encoding="utf-8")
    found = re.search(r"^# Rule broken by the last move: ([a-z0-9_]+)", text, re.MULTILINE)
    assert found, f"{transcript}: the header must say '# Rule broken by the last move: <rule id> (...)'"
    return found.group(1)


# -- the tests ----------------------------------------------------------------------------
def game_of(transcript: str) -> str:
    """The game a transcript is of: its folder, transcripts/<game>/."""
    return Path(transcript).parent.name


@pytest.mark.parametrize("game, complete, illegal", [
    ("cyclades", {"game-2p.txt", "game-3p.txt", "game-5p.txt"}, 15),
    ("luna", {"game-2p.txt", "game-3p.txt", "game-4p.txt"}, 12),
])
def test_inventory(game, complete, illegal):
    """Each game's complete games and at least so many illegal transcripts, of different rules."""
    names = {Path(t).name for t in GAMES if game_of(t) == game}
    assert complete <= names
    broken = [t for t in ILLEGAL if game_of(t) == game]
    assert len(broken) >= illegal
    if game == "luna":
        assert len({header_rule(t) for t in broken}) >= illegal
    catalogue = load_catalogue(game)
    for t in broken:  # every header names documented rule ids
        for rule in {header_rule(t)} | header_also(t):
            catalogue.rule(rule)


@pytest.mark.parametrize("transcript", ALL, ids=[Path(t).name for t in ALL])
def test_report_is_the_expected_one(transcript):
    report_file, exit_file = _expected(REPO / transcript)
    text, code = cli_check(transcript)
    assert text == report_file.read_text(encoding="utf-8")
    assert code == int(exit_file.read_text(encoding="utf-8").strip())


@pytest.mark.parametrize("transcript", _params(GAMES, "legal"))
def test_complete_game_is_legal(transcript):
    text, code = cli_check(transcript)
    assert code == 0, text


@pytest.mark.parametrize("transcript", _params(ILLEGAL, "last-move-rule"))
def test_last_move_is_the_illegal_one(transcript):
    session, report = session_check(transcript)
    plays = session.transcript.plays
    last = last_move(plays)
    verdicts = [v for v in report.problems if v.number in last]
    if not verdicts:
        assert plays[-1].disputed, f"{transcript}: the last move ({plays[-1].text!r}) is neither illegal nor disputed"
        return
    rules = {b.rule for v in verdicts for b in v.breaches}
    assert header_rule(transcript) in rules, f"{transcript}: the last move breaks {sorted(rules)}"


@pytest.mark.parametrize("transcript", _params(ILLEGAL, "exact-rules"))
def test_last_move_breaks_only_the_rules_named(transcript):
    """The last move breaks the header's rule (and its '# Also broken by it:' rules), no other."""
    session, report = session_check(transcript)
    last = last_move(session.transcript.plays)
    rules = {b.rule for v in report.problems if v.number in last for b in v.breaches}
    if not rules and session.transcript.plays[-1].disputed:
        return
    assert rules == {header_rule(transcript)} | header_also(transcript)


@pytest.mark.parametrize("transcript", _params(ILLEGAL, "no-other-move"))
def test_no_other_written_move_is_flagged(transcript):
    session, report = session_check(transcript)
    last = last_move(session.transcript.plays)
    others = [(v.number, v.text) for v in report.problems if v.number is not None and v.number not in last]
    assert not others


@pytest.mark.parametrize("transcript", _params(ILLEGAL, "nothing-inserted"))
def test_nothing_inserted_is_flagged(transcript):
    """A transcript that stops at the disputed move has no further problems."""
    session, report = session_check(transcript)
    inserted = [(v.player, v.text, [b.rule for b in v.breaches]) for v in report.problems if v.number is None]
    assert not inserted


# -- records as hurried players write them (issue 14, section 4) ---------------------------
def _hurried_header(transcript: str) -> tuple[set, set, tuple | None]:
    text = (REPO / transcript).read_text(encoding="utf-8")
    illegal = {(int(n), rule) for n, rule in re.findall(r"^# Illegal where written: line (\d+) \((\w+)\)", text, re.M)}
    assumed = {int(n) for n in re.findall(r"^# Assumed: line (\d+)", text, re.M)}
    unread = re.search(r"^# Cannot be read: line (\d+) \((.*)\)$", text, re.M)
    return illegal, assumed, (int(unread.group(1)), unread.group(2)) if unread else None


@pytest.mark.parametrize("transcript", HURRIED, ids=[Path(t).name for t in HURRIED])
def test_hurried_record_is_read_as_its_header_says(transcript):
    illegal, assumed, unread = _hurried_header(transcript)
    if unread is not None:
        with contextlib.chdir(REPO), pytest.raises(RefereeError) as info:
            Session(transcript).check()
        assert info.value.position.line == unread[0] and f"({unread[1]})" in info.value.message
        return
    session, report = session_check(transcript)
    flagged = {(v.line, b.rule) for v in report.problems for b in v.breaches}
    assert {line for line, _ in flagged} == {line for line, _ in illegal}
    assert {(line, rule) for line, rule in illegal} <= flagged
    assert {a.line for a in report.assumptions} == assumed
