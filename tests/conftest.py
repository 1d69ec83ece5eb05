"""Shared test setup: tests run from the repository root; whole games are
replayed once per test process (``replay``); a test module does no solver work
while it is imported (tests/helpers/import_guard.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.import_guard import no_solving

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch):
    """Reports name transcripts relative to the repository root; the judgement
    cache on disk is off (the tests never depend on a user's cache: the ones
    about the cache give it a file of their own)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("REFEREE_CACHE", "off")


@pytest.fixture
def store_file(tmp_path, monkeypatch):
    """The judgement cache on, in a file of the test's own (tests/store/test_cache.py,
    tests/store/test_memo.py)."""
    path = tmp_path / "judgements.sqlite"
    monkeypatch.setenv("REFEREE_CACHE", str(path))
    return path


@pytest.fixture(scope="session")
def replay():
    """``replayed`` (tests/helpers/replays.py, the one cache of whole-game replays) as a
    fixture: ``replay(path, fast_path=..., batching=...)``."""
    from helpers.replays import replayed

    return replayed


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """A test module is imported (collected) with solving refused: solver work at
    import time is a collection error that says so."""
    if not isinstance(collector, pytest.Module):
        return (yield)
    with no_solving(collector.nodeid):
        return (yield)


#: The modules whose tests of a transcript read the one replay of it (tests/helpers/replays.py)
#: and what its engine judged and listed since: a transcript's tests of all of them run
#: together, so that one worker replays it, and lists its positions' legal moves, once.
SHARING_A_REPLAY = {"test_answers.py", "test_invariant.py", "test_transcripts.py", "test_viewpoints.py"}


def _replayed_transcript(item) -> str | None:
    """The shipped transcript a test runs whole: its ``path`` (a test that takes
    ``replay`` or reads tests/helpers/replays.py) or its ``transcript`` (tests/ask/test_transcripts.py)
    parameter."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    path = params.get("path")
    if isinstance(path, Path) and ("replay" in getattr(item, "fixturenames", ())
                                   or item.path.name in SHARING_A_REPLAY):
        return str(path.resolve())
    if isinstance(params.get("transcript"), str) and params["transcript"].endswith(".txt"):
        return str((ROOT / params["transcript"]).resolve())
    return None


def pytest_collection_modifyitems(config, items):
    """The tests that run the same transcript whole (through ``replay``, or
    tests/ask/test_transcripts.py's cached check) run next to each other, each after
    the first of its transcript (those of SHARING_A_REPLAY's modules together,
    the others file by file): xdist hands tests out in runs of neighbours, so one
    worker mostly replays a game once for all of them. The runs with a test
    marked ``slow`` go first (a sort that keeps the order otherwise), so that under
    xdist the longest tests start at once rather than last, when they would keep
    one worker busy while the others have nothing left to do. Only the order
    changes; every test runs."""
    runs, by_key = [], {}
    for item in items:
        transcript = _replayed_transcript(item)
        shared = item.path.name in SHARING_A_REPLAY
        key = (None if shared else item.nodeid.split("::")[0], transcript)
        if transcript is None:
            runs.append([item])
        elif key in by_key:
            by_key[key].append(item)
        else:
            by_key[key] = [item]
            runs.append(by_key[key])
    runs.sort(key=lambda run: not any(item.get_closest_marker("slow") for item in run))
    items[:] = [item for run in runs for item in run]
