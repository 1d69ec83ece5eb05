"""One record of an archive, checked: the per-record function of
``referee check PATH...`` and the worker process that runs it under a time bound.

The same function runs on this machine (``--jobs N``) and on a Dask cluster
(``--cluster``, referee/run/cluster.py): ``check_record`` takes plain values (the
record's name, its bytes, the check's options) and returns the record's report
as JSON values, so it can be sent anywhere. ``bounded_check`` runs it in a
worker process of its own (``WorkerProcess``): a record that takes longer than
the bound has its process killed and replaced, and gets a report saying it was
not judged; a record that crashes the process (a bug, memory) gets a report
saying so. Either way the other records go on. A worker that has grown past
its memory bound ends after answering, and the next record gets a fresh one.

The worker process is a plain ``python -c`` child talking over its standard
input and output (length-prefixed pickles), not a ``multiprocessing`` process:
so it can be started from a Dask worker, which is a daemon process.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import selectors
import struct
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from referee.run import growth

#: Default bound on one record, whole (reading, every solver call, the report).
RECORD_TIME_LIMIT = 120.0
#: Bound on a worker process's start (loading clingo and the referee), not counted in any record's.
START_TIME_LIMIT = 120.0
#: A worker is replaced, after the record it has checked, once its memory grows past the larger of
#: WORKER_MEMORY bytes and WORKER_GROWTH times its size after its first record (referee/run/growth.py):
#: an archive of 10^5 records must not run out of memory. 100 MB is 1.3 times one check of a 5-player
#: game (76 MB): every shipped record with --jobs 2 took 9.1-9.4 s with it and 9.6-10.4 s with 160 MB
#: (a smaller process is no slower to start than a large one is to run), the largest process 102 MB
#: against 132. Lower, 70 MB and 1.0 times, takes a quarter off the summed memory of a 2-job run but
#: makes archives of 5-player games 5-15% slower (README, Speed).
WORKER_MEMORY = growth.FLOOR
WORKER_GROWTH = growth.GROWTH

_FRAME = struct.Struct(">Q")
#: The worker process: this Python, serving records (the package found as this one is, see WorkerProcess._start).
WORKER_COMMAND = [sys.executable, "-c", "from referee.run.worker import serve; serve()"]


@dataclass(frozen=True)
class Options:
    """The check's options, the same for every record of an archive."""

    rules: str | None = None
    board: str | None = None
    fast_path: bool = True
    strict: bool = False
    time_limit: float | None = None
    viewpoint: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


def digest(data: bytes) -> str:
    """A record's content hash (what tells a resumed archive that a record changed)."""
    return hashlib.sha256(data).hexdigest()


def check_record(name: str, data: bytes, options: Options | dict) -> dict:
    """Check one record: ``name`` is the file as shown in the report (and what its
    board file is found beside), ``data`` the file's bytes. Returns the record's
    report as JSON values: the report of ``referee check --json`` (docs/report.md)
    with ``sha256``, ``exit`` (0, 1 or 2) and ``seconds``; or, for a record that
    cannot be checked, ``file``, ``sha256``, ``exit`` 2 and ``error`` (its code,
    message and position). Never raises for anything in the record."""
    from referee.ask.session import Session
    from referee.base.errors import RefereeError
    from referee.game.notation import transcript_from_bytes

    if isinstance(options, dict):
        options = Options(**options)
    started = time.perf_counter()
    head = {"file": name, "sha256": digest(data)}
    try:
        transcript = transcript_from_bytes(data, name)
        session = Session(transcript, rules=options.rules, board=options.board, fast_path=options.fast_path,
                          strict=options.strict, time_limit=options.time_limit).seen_by(options.viewpoint)
        report = session.check()
    except RefereeError as error:
        return {**head, "exit": 2, "error": error.to_json(), "seconds": round(time.perf_counter() - started, 3)}
    except Exception as error:  # a bug in the referee: reported for this record, the others go on
        return {**head, "exit": 2, "error": {"code": "internal", "message": (
            f"the referee failed on this record (a bug, please report it): {type(error).__name__}: {error}")},
            "seconds": round(time.perf_counter() - started, 3)}
    return {**head, **report.to_json(), "exit": report.exit_code, "seconds": round(time.perf_counter() - started, 3)}


def _not_judged(name: str, data: bytes, code: str, message: str, seconds: float) -> dict:
    return {"file": name, "sha256": digest(data), "exit": 2, "error": {"code": code, "message": message},
            "seconds": round(seconds, 3)}


# -- the worker process --------------------------------------------------------------


def serve() -> None:
    """A worker process's loop: read a record, answer its report, until the input ends.
    Standard output carries the frames only: anything printed goes to standard error."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills its workers
    parent = os.getppid()

    def orphaned() -> None:  # the parent was killed: do not finish the record for nobody
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=orphaned, daemon=True).start()
    frames_in = sys.stdin.buffer
    frames_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    from referee.ask import session as api  # noqa: F401  (clingo and the referee load here, before any record's clock)

    _send(frames_out, ("ready", os.getpid()))
    bound = growth.GrowthBound(WORKER_MEMORY, WORKER_GROWTH)
    while True:
        request = _receive(frames_in)
        if request is None:
            return
        name, data, options = request
        report = check_record(name, data, options)
        retire = bound.exceeded()
        _send(frames_out, (report, retire))
        if retire:  # grown past its bound: the parent starts a fresh worker for the next record
            return


def _send(out, value) -> None:
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_FRAME.pack(len(body)) + body)
    out.flush()


def _receive(stream):
    head = stream.read(_FRAME.size)
    if len(head) < _FRAME.size:
        return None
    (size,) = _FRAME.unpack(head)
    body = stream.read(size)
    return pickle.loads(body) if len(body) == size else None


class WorkerDied(Exception):
    """The worker process ended or did not answer in time."""


class WorkerProcess:
    """A child process that checks one record at a time; killed and started again
    when a record outlives its bound. Not shared between threads."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None

    def _start(self) -> None:
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            WORKER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=False)
        _LIVE.add(self)
        try:
            self._read(time.monotonic() + START_TIME_LIMIT)
        except WorkerDied:
            self.stop()
            raise

    def _read(self, deadline: float):
        """One frame from the worker, or WorkerDied when it ends or the deadline passes."""
        fd = self.process.stdout.fileno()
        buffer = b""
        need = _FRAME.size
        size = None
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while len(buffer) < need:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise WorkerDied("time")
                chunk = os.read(fd, max(65536, need - len(buffer)))
                if not chunk:
                    raise WorkerDied("ended")
                buffer += chunk
                if size is None and len(buffer) >= _FRAME.size:
                    (size,) = _FRAME.unpack(buffer[:_FRAME.size])
                    need = _FRAME.size + size
        return pickle.loads(buffer[_FRAME.size:need])

    def check(self, name: str, data: bytes, options: dict, bound: float) -> dict:
        """The record's report from ``check_record``, run in this worker within ``bound`` seconds."""
        if self.process is None or self.process.poll() is not None:
            try:
                self._start()
            except (WorkerDied, OSError) as error:
                return _not_judged(name, data, "worker", f"a worker process could not be started ({error})", 0.0)
        started = time.monotonic()
        try:
            _send(self.process.stdin, (name, data, options))
            report, retire = self._read(started + bound)
            if retire:
                self.stop()
            return report
        except (WorkerDied, OSError, EOFError, pickle.UnpicklingError) as error:
            seconds = time.monotonic() - started
            timed_out = isinstance(error, WorkerDied) and str(error) == "time"
            status = self.stop(kill=True)
            if timed_out:
                return _not_judged(name, data, "record-time-limit",
                                   f"not judged: the record took longer than the bound of {bound:g} s "
                                   "(--record-time-limit)", seconds)
            how = f"killed by signal {-status}" if status is not None and status < 0 else f"exit status {status}"
            return _not_judged(name, data, "worker", f"not judged: the worker process ended ({how}) while "
                               "checking this record (out of memory, or a bug; please report it)", seconds)

    def stop(self, kill: bool = False) -> int | None:
        """End the worker (at once with ``kill``); its exit status."""
        process, self.process = self.process, None
        _LIVE.discard(self)
        if process is None:
            return None
        if kill:
            process.kill()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            return process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()


_LIVE: set[WorkerProcess] = set()
_local = threading.local()


def bounded_check(name: str, data: bytes, options: dict, bound: float = RECORD_TIME_LIMIT) -> dict:
    """``check_record`` in this thread's worker process, within ``bound`` seconds:
    the task that a local thread or a Dask worker runs for each record."""
    worker = getattr(_local, "worker", None)
    if worker is None:
        worker = _local.worker = WorkerProcess()
    return worker.check(name, data, options, bound)


def stop_workers() -> None:
    """Kill every worker process this process started (on Ctrl-C, at the end).
    Only killed: a thread waiting on one then sees its end and cleans up itself
    (closing a pipe under a thread that polls it would leave that thread waiting)."""
    for worker in list(_LIVE):
        process = worker.process
        if process is not None:
            process.kill()


def reap_workers() -> None:
    """Close and wait for every worker process, once no thread uses them."""
    for worker in list(_LIVE):
        worker.stop(kill=True)
