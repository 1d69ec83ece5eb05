"""The one bounded worker process (referee/run/bounded.py), driven directly:
ready before the first request, an answer within the bound, a child that
outlives its bound killed, one found dead before a request said so, and a
fresh child after either. The archive's and the service's tests drive it
through their own layers (tests/run/test_archive.py, tests/service/test_pool.py)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from referee.run.bounded import BoundedWorker, NotStarted, TimedOut

LUNA = Path(__file__).resolve().parents[2] / "transcripts" / "luna"
SHORT = LUNA / "illegal-out-of-turn.txt"  # 1 move
LONG = LUNA / "game-4p.txt"  # 175 moves: far longer than a hundredth of a second


def _check(worker: BoundedWorker, path: Path, bound: float):
    return worker.call("check", (path.name, path.read_bytes(), {}), bound)


def test_a_child_answers_then_is_killed_past_its_bound_and_replaced():
    worker = BoundedWorker("referee.run.worker")
    try:
        worker.ensure()
        reply = _check(worker, SHORT, 60)
        assert reply.status == "ok" and reply.value["exit"] == 1 and not reply.grown
        first = worker.pid
        with pytest.raises(TimedOut):
            _check(worker, LONG, 0.01)
        assert not worker.alive and worker.pid is None  # killed, reaped
        worker.ensure()
        assert worker.pid != first and _check(worker, SHORT, 60).value["exit"] == 1
    finally:
        worker.stop()


def test_a_child_found_dead_is_said_so_with_its_end():
    worker = BoundedWorker("referee.run.worker", warm=False)
    try:
        worker.ensure()
        os.kill(worker.pid, signal.SIGKILL)  # while idle (the system's OOM killer, a user's kill)
        deadline = time.monotonic() + 10
        while worker.alive and time.monotonic() < deadline:
            time.sleep(0.05)
        with pytest.raises(NotStarted) as lost:
            _check(worker, SHORT, 60)
        assert lost.value.status == -signal.SIGKILL
    finally:
        worker.stop()


def test_a_child_stopped_while_another_thread_waits_for_it_ends_that_wait_at_once():
    """As the service stops while a worker still loads the referee: the thread
    waiting for it to be ready sees its end, rather than wait out the start's bound."""
    import threading

    from referee.run.bounded import WorkerLost

    worker = BoundedWorker("referee.service.jobs")  # its warm-up takes seconds
    worker.start()
    seen = []
    waiting = threading.Thread(target=lambda: seen.append(pytest.raises(WorkerLost, worker.wait_ready)))
    waiting.start()
    time.sleep(0.02)  # the thread waits; the child is still starting (Python and the referee take 0.2 s or more)
    started = time.monotonic()
    worker.stop()
    waiting.join(30)
    assert not waiting.is_alive() and seen and time.monotonic() - started < 5
    assert worker.process is None
