"""One record of an archive, checked: the per-record function of
``referee check PATH...`` and the worker process that runs it under a time bound.

The same function runs on this machine (``--jobs N``) and on a Dask cluster
(``--cluster``, referee/run/cluster.py): ``check_record`` takes plain values (the
record's name, its bytes, the check's options) and returns the record's report
as JSON values, so it can be sent anywhere. ``bounded_check`` runs it in a
worker process of its own, one per thread (referee/run/bounded.py, the one
bounded worker of the archive and the service; this module is its jobs): a
record that takes longer than the bound has its process killed and replaced,
and gets a report saying it was not judged; a record that crashes the process
(a bug, memory) gets a report saying so. Either way the other records go on. A
worker that has grown past its memory bound ends after answering, and the next
record gets a fresh one.
"""

from __future__ import annotations

import hashlib
import threading
import time

from referee.ask.options import CheckOptions
from referee.run import growth
from referee.run.bounded import START_TIME_LIMIT, BoundedWorker, TimedOut, WorkerLost, ending, kill_all, stop_all

#: Default bound on one record, whole (reading, every solver call, the report).
RECORD_TIME_LIMIT = 120.0
#: A worker is replaced, after the record it has checked, once its memory grows past the larger of
#: WORKER_MEMORY bytes and WORKER_GROWTH times its size after its first record (referee/run/growth.py):
#: an archive of 10^5 records must not run out of memory. 100 MB is 1.3 times one check of a 5-player
#: game (76 MB): every shipped record with --jobs 2 took 9.1-9.4 s with it and 9.6-10.4 s with 160 MB
#: (a smaller process is no slower to start than a large one is to run), the largest process 102 MB
#: against 132. Lower, 70 MB and 1.0 times, takes a quarter off the summed memory of a 2-job run but
#: makes archives of 5-player games 5-15% slower (README, Speed).
WORKER_MEMORY = growth.FLOOR
WORKER_GROWTH = growth.GROWTH


def digest(data: bytes) -> str:
    """A record's content hash (what tells a resumed archive that a record changed)."""
    return hashlib.sha256(data).hexdigest()


def check_record(name: str, data: bytes, options: CheckOptions | dict) -> dict:
    """Check one record: ``name`` is the file as shown in the report (and what its
    board file is found beside), ``data`` the file's bytes. Returns the record's
    report as JSON values: the report of ``referee check --json`` (docs/report.md)
    with ``sha256``, ``exit`` (0, 1 or 2) and ``seconds``; or, for a record that
    cannot be checked, ``file``, ``sha256``, ``exit`` 2 and ``error`` (its code,
    message and position). ``options``: the check's, or their JSON (as sent to a
    worker). Never raises for anything in the record."""
    from referee.ask.session import Session
    from referee.base.errors import RefereeError
    from referee.game.notation import transcript_from_bytes

    if isinstance(options, dict):
        options = CheckOptions.from_json(options)
    started = time.perf_counter()
    head = {"file": name, "sha256": digest(data)}
    try:
        transcript = transcript_from_bytes(data, name)
        report = Session(transcript, options).check()
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

#: The jobs of an archive's worker process (referee/run/bounded.py): one record checked.
JOBS = {"check": lambda request: check_record(*request)}


def warm_up() -> None:
    """Before a worker says it is ready: the referee loads, before any record's clock."""
    from referee.ask import session  # noqa: F401


_local = threading.local()


def _worker() -> BoundedWorker:
    """This thread's worker process (one record at a time), made on first use."""
    worker = getattr(_local, "worker", None)
    if worker is None:
        worker = _local.worker = BoundedWorker(__name__, memory=(WORKER_MEMORY, WORKER_GROWTH),
                                               start_limit=START_TIME_LIMIT)
    return worker


def bounded_check(name: str, data: bytes, options: dict, bound: float = RECORD_TIME_LIMIT) -> dict:
    """``check_record`` in this thread's worker process, within ``bound`` seconds:
    the task that a local thread or a Dask worker runs for each record. A record
    whose worker hangs, dies or cannot start gets a report saying it was not judged."""
    worker = _worker()
    try:
        worker.ensure()
    except (WorkerLost, OSError) as error:
        return _not_judged(name, data, "worker", f"a worker process could not be started ({error})", 0.0)
    started = time.monotonic()
    try:
        reply = worker.call("check", (name, data, options), bound)
    except TimedOut:
        return _not_judged(name, data, "record-time-limit",
                           f"not judged: the record took longer than the bound of {bound:g} s "
                           "(--record-time-limit)", time.monotonic() - started)
    except WorkerLost as lost:
        return _not_judged(name, data, "worker", f"not judged: the worker process ended ({ending(lost.status)}) "
                           "while checking this record (out of memory, or a bug; please report it)",
                           time.monotonic() - started)
    if reply.status != "ok":  # check_record answers every record: this is the referee failing outside it
        return _not_judged(name, data, "worker", f"not judged: the worker failed on this record ({reply.value})",
                           time.monotonic() - started)
    return reply.value


def stop_workers() -> None:
    """Kill every worker process this process started (on Ctrl-C, at the end);
    the threads waiting on them clean up (referee/run/bounded.py: kill_all)."""
    kill_all()


def reap_workers() -> None:
    """Close and wait for every worker process, once no thread uses them."""
    stop_all()
