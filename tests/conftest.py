"""Shared test setup: tests run from the repository root; whole games are
replayed once per test process (``replay``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch):
    """Reports name transcripts relative to the repository root."""
    monkeypatch.chdir(ROOT)


@dataclass(frozen=True)
class Replay:
    """A transcript run through the referee: the referee (its engine keeps what it
    judged), the run, and the solver calls the run itself took (counted before any
    test asked the same engine more)."""

    referee: object
    run: object
    calls: int


_REPLAYS: dict = {}


def replayed(path: Path, *, fast_path: bool = True, batching: bool = True) -> Replay:
    """The run of the transcript at ``path`` (lenient), made once per test process
    for the same path and mode: the whole games are the suite's dearest inputs, and
    several tests read the same run. A test that needs a fresh referee makes its own."""
    from referee.notation import read_transcript
    from referee.referee import Referee

    key = (str(Path(path).resolve()), fast_path, batching)
    if key not in _REPLAYS:
        referee = Referee(read_transcript(path), fast_path=fast_path)
        referee.engine.batching = batching
        run = referee.run()
        _REPLAYS[key] = Replay(referee, run, referee.engine.calls)
    return _REPLAYS[key]


@pytest.fixture(scope="session")
def replay():
    """``replayed`` as a fixture: ``replay(path, fast_path=..., batching=...)``."""
    return replayed


def _replayed_transcript(item) -> str | None:
    """The shipped transcript a test runs whole: its ``path`` (a test that takes
    ``replay``) or its ``transcript`` (tests/test_transcripts.py) parameter."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "replay" in getattr(item, "fixturenames", ()) and isinstance(params.get("path"), Path):
        return str(params["path"])
    if isinstance(params.get("transcript"), str) and params["transcript"].endswith(".txt"):
        return params["transcript"]
    return None


def pytest_collection_modifyitems(config, items):
    """The tests of one file that run the same transcript whole (through ``replay``,
    or tests/test_transcripts.py's cached check) run next to each other, each after
    the first of its transcript: xdist hands tests out in runs of neighbours, so one
    worker mostly replays a game once for all of them. Only the order changes;
    every test runs."""
    runs, by_key = [], {}
    for item in items:
        transcript = _replayed_transcript(item)
        key = (item.nodeid.split("::")[0], transcript)
        if transcript is None:
            runs.append([item])
        elif key in by_key:
            by_key[key].append(item)
        else:
            by_key[key] = [item]
            runs.append(by_key[key])
    items[:] = [item for run in runs for item in run]
