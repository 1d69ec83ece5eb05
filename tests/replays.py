"""The shipped transcripts, replayed once per test process and shared by the tests
that walk their positions (tests/test_answers.py, tests/test_listing.py)."""

from __future__ import annotations

import functools
from pathlib import Path

from referee.api import Session

ROOT = Path(__file__).resolve().parents[1]
#: Every shipped transcript (transcripts/**, the readings' witnesses included:
#: each is judged under the reading its header names), but the records that are
#: refused whole (exit 2, '# Cannot be read:' in their header): they have no positions.
TRANSCRIPTS = sorted(p for p in (ROOT / "transcripts").rglob("*.txt")
                     if not p.name.endswith(".report.txt") and p.name != "README.txt"
                     and "\n# Cannot be read:" not in p.read_text(encoding="utf-8"))


def transcript_ids(paths) -> list[str]:
    return [str(Path(p).relative_to(ROOT)) for p in paths]


@functools.lru_cache(maxsize=4)  # a game's replay holds its judgements: keep a few
def replay(path: Path) -> tuple[Session, object]:
    """A session of the transcript and its whole run (the engine keeps what it judged)."""
    session = Session(path)
    return session, session.referee.run()


def positions(path: Path) -> list[frozenset]:
    """Every position the game passed through, in order, each once."""
    _, run = replay(path)
    return list(dict.fromkeys([run.initial] + [s.after for s in run.steps]))


def legal_moves(path: Path, states: list[frozenset]) -> list[tuple]:
    """The legal moves of many positions, grounded together (engine.legal_moves_many)."""
    session, _ = replay(path)
    return session.referee.engine.legal_moves_many(session.rules.static, states)
