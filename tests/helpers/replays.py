"""The shipped transcripts, replayed once per test process and shared by the tests
that walk their positions (tests/ask/test_answers.py, tests/judge/test_listing.py, and
through the ``replay`` fixture of tests/conftest.py tests/judge/test_invariant.py)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from referee.ask.options import CheckOptions
from referee.ask.session import Session
from referee.base.terms import Fn
from referee.games.cyclades.fluents import Sail, Use, Via

ROOT = Path(__file__).resolve().parents[2]
#: Every shipped transcript (transcripts/**, the readings' witnesses included:
#: each is judged under the reading its header names), but the records that are
#: refused whole (exit 2, '# Cannot be read:' in their header): they have no positions.
TRANSCRIPTS = sorted(p for p in (ROOT / "transcripts").rglob("*.txt")
                     if not p.name.endswith(".report.txt") and p.name != "README.txt"
                     and "\n# Cannot be read:" not in p.read_text(encoding="utf-8"))


def transcript_ids(paths) -> list[str]:
    return [str(Path(p).relative_to(ROOT)) for p in paths]


@dataclass(frozen=True)
class Replay:
    """A transcript run through the referee: its session (the referee's engine
    keeps what it judged), the run, and the solver calls the run itself took
    (counted before any test asked the same engine more)."""

    session: Session
    run: object
    calls: int

    @property
    def referee(self):
        return self.session.referee


@functools.lru_cache(maxsize=6)  # a game's replay holds its judgements: keep a few (three modes of one game)
def _replayed(path: str, fast_path: bool, batching: bool) -> Replay:
    session = Session(path, CheckOptions(fast_path=fast_path))
    session.referee.engine.batching = batching
    run = session.referee.run()
    return Replay(session, run, session.referee.engine.calls)


def replayed(path: Path, *, fast_path: bool = True, batching: bool = True) -> Replay:
    """The run of the transcript at ``path`` (lenient), made once per test process
    for the same path and mode (the tests that read it are run next to each other:
    tests/conftest.py). A test that needs a fresh referee makes its own."""
    return _replayed(str(Path(path).resolve()), fast_path, batching)


def replay(path: Path) -> tuple[Session, object]:
    """A session of the transcript and its whole run (the engine keeps what it judged)."""
    found = replayed(path)
    return found.session, found.run


def positions(path: Path) -> list[frozenset]:
    """Every position the game passed through, in order, each once."""
    _, run = replay(path)
    return list(dict.fromkeys([run.initial] + [s.after for s in run.steps]))


def legal_moves(path: Path, states: list[frozenset]) -> list[tuple]:
    """The legal moves of many positions, grounded together (engine.legal_moves_many)."""
    session, _ = replay(path)
    return session.referee.engine.legal_moves_many(session.rules.static, states)


def sylph_route(move):
    """(start, count, last space) of a Sylph movement use(sylph,sail(S0,N,Path)), else None."""
    use = Use.match(move)
    if use is None or use.card != Fn("sylph") or getattr(use.target, "name", None) != "sail":
        return None
    sail = Sail.read(use.target)
    step = Via.match(sail.path)
    while step is not None and Via.match(step.rest) is not None:
        step = Via.read(step.rest)
    return sail.start, sail.count, step.space if step is not None else None
