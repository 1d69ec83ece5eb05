"""One bounded worker process: a child that answers named requests one at a
time, each within a wall-clock bound, and is replaced when it hangs, dies or
grows. The archive's record workers (referee/run/worker.py, here and on a Dask
cluster) and the service's workers (referee/service/pool.py) are both this.

The child is a plain ``python -c`` process talking over its standard input and
output (length-prefixed pickles), not a ``multiprocessing`` one: so it can be
started from a Dask worker, which is a daemon process. It is given the name of
a module of jobs: the module's ``JOBS`` maps a request's name to a function of
one argument (the request) that returns the answer; ``warm_up()``, when the
module has one, runs once before the child says it is ready; ``counters()``,
when it has one, is sent with every answer (what the child has done so far).

- **Start**: the child says it is ready once it has loaded its jobs (and warmed
  up), within ``START_TIME_LIMIT``; a request's bound never counts the start.
- **A request**: sent, and its answer read within the request's bound. An
  answer says ``ok`` (the job's answer), ``error`` (a RefereeError of the
  request, as JSON) or ``failed`` (the referee itself failed: a message).
- **A child that hangs** past the bound is killed (:class:`TimedOut`); one that
  dies under a request is reaped and its exit status told (:class:`Ended`);
  one found dead before the request reached it is :class:`NotStarted` (the
  request may be sent again, to a fresh child). Either way the caller starts a
  fresh one (``start`` again, or a new :class:`BoundedWorker`).
- **A child that grows**: after each answer the child asks its memory bound
  (referee/run/growth.py); past it, the answer says so (``Reply.grown``) and
  the child ends; the caller starts a fresh one for the next request (``ensure``
  does so by itself).
- **Signals**: Ctrl-C in the terminal is the parent's to handle (it stops its
  children): a child ignores it from its start. A child whose parent was
  killed ends within a second rather than finish a request for nobody.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from referee.run import growth

#: Bound on a child's start (loading clingo and the referee, the warm-up), not counted in any request's.
START_TIME_LIMIT = 120.0
#: The program of a child (its jobs module and settings follow on its command line).
CHILD = "from referee.run.bounded import serve; serve()"

_FRAME = struct.Struct(">Q")
#: poll(2) where there is one: unlike epoll it wakes on a pipe closed under it, rather than wait out the deadline.
_Selector = getattr(selectors, "PollSelector", selectors.DefaultSelector)
#: Seconds a child is given to end by itself once its input is closed, before it is killed.
STOP_WAIT = 5.0


@dataclass(frozen=True)
class Reply:
    """A child's answer to one request: ``status`` 'ok' (``value`` the job's
    answer), 'error' (``value`` a RefereeError as JSON) or 'failed' (``value``
    a message); ``counters``, the jobs module's ``counters()``; ``grown``, the
    child had grown past its memory bound and has ended."""

    status: str
    value: object
    counters: dict
    grown: bool


class WorkerLost(Exception):
    """The child did not answer; ``status`` is its exit status when known
    (negative: the signal that killed it)."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


def ending(status: int | None) -> str:
    """How a child ended, in words: 'killed by signal 9', 'exit status 1'."""
    if status is not None and status < 0:
        return f"killed by signal {-status}"
    return f"exit status {status}"


class NotStarted(WorkerLost):
    """The child was found dead before the request reached it."""


class TimedOut(WorkerLost):
    """The request outlived its bound; the child was killed."""


class Ended(WorkerLost):
    """The child ended while answering the request."""


# -- the child ----------------------------------------------------------------------


def serve(jobs: str | None = None, settings: dict | None = None) -> None:
    """A child's loop: load the jobs module (``jobs``, else the first argument
    on the command line), say it is ready, then answer requests until its
    input ends or it has grown past its memory bound. ``settings`` (else the
    second argument, as JSON): ``warm``, run the module's ``warm_up`` first;
    ``memory``, the bound's floor and growth. Standard output carries the
    frames only: anything printed goes to standard error."""
    if jobs is None:
        jobs = sys.argv[1]
    if settings is None:
        settings = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops its children
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked from the start (BoundedWorker.start)
    parent = os.getppid()

    def orphaned() -> None:  # the parent was killed: do not finish the request for nobody
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=orphaned, daemon=True).start()
    frames_in = sys.stdin.buffer
    frames_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    from referee.base.errors import RefereeError

    module = importlib.import_module(jobs)
    if settings.get("warm", True) and hasattr(module, "warm_up"):
        module.warm_up()
    counters = getattr(module, "counters", dict)
    try:
        _write(frames_out, ("ready", os.getpid()))
    except (OSError, ValueError):
        return
    bound = growth.GrowthBound(*settings.get("memory", (growth.FLOOR, growth.GROWTH)))
    while True:
        try:
            request = _receive(frames_in)
        except (OSError, EOFError, pickle.UnpicklingError):
            return
        if request is None:
            return
        name, payload = request
        try:
            answer = ("ok", module.JOBS[name](payload))
        except RefereeError as error:
            answer = ("error", error.to_json())
        except RecursionError:
            answer = ("failed", "the request is nested too deeply to be read")
        except MemoryError:
            answer = ("failed", "the worker ran out of memory answering it")
        except Exception as error:  # an error of the referee itself: reported as such; the child goes on
            answer = ("failed", f"{type(error).__name__}: {error}")
        grown = bound.exceeded()
        try:
            _write(frames_out, (*answer, counters(), grown))
        except (OSError, ValueError):
            return
        if grown:  # the parent starts a fresh child for the next request
            return


def _write(out, value) -> None:
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


# -- the parent ---------------------------------------------------------------------


class BoundedWorker:
    """The parent's side of one child serving the jobs of the module named
    ``jobs``: ``start``, ``wait_ready``, ``call`` (blocking: one thread calls
    at a time), ``stop``. Started again after it ended, it is a fresh child.

    ``warm``: the child runs its module's ``warm_up`` before it is ready;
    ``memory``: its memory bound (floor bytes, growth: referee/run/growth.py)."""

    def __init__(self, jobs: str, *, warm: bool = True, memory: tuple[int, float] = (growth.FLOOR, growth.GROWTH),
                 start_limit: float = START_TIME_LIMIT) -> None:
        self.jobs, self.warm, self.memory, self.start_limit = jobs, warm, memory, start_limit
        self.process: subprocess.Popen | None = None
        self.is_ready = False
        self.retired = False  # it answered that it had grown past its memory bound, and is ending
        self._guard = threading.Lock()
        self._calling = False

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        """Running, and not ending after a last answer."""
        return self.process is not None and not self.retired and self.process.poll() is None

    def start(self) -> None:
        """Start the child, without waiting for it to be ready."""
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        settings = json.dumps({"warm": self.warm, "memory": list(self.memory)})
        # Ctrl-C in the terminal reaches the child too: blocked until the child ignores it, so that a
        # child starting just then is not killed by it (the parent stops its children)
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process = subprocess.Popen([sys.executable, "-c", CHILD, self.jobs, settings],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        self.is_ready = self.retired = False
        _LIVE.add(self)

    def wait_ready(self) -> None:
        """Block until the child has loaded its jobs; a WorkerLost (the child
        stopped) when it ends first or takes longer than ``start_limit``."""
        if self.is_ready:
            return
        if self.process is None:
            raise WorkerLost("the worker was not started")
        message = failed = None
        with self._guard:
            self._calling = True  # a stop from another thread meanwhile kills the child: this thread sees its end
        try:
            message = self._read(time.monotonic() + self.start_limit)
        except (WorkerLost, OSError, EOFError, pickle.UnpicklingError) as error:
            failed = error
        finally:
            with self._guard:
                self._calling = False
        if failed is not None:
            status = self.stop(kill=True)
            if isinstance(failed, TimedOut):
                raise WorkerLost(f"the worker did not start within {self.start_limit:g} s", status)
            raise WorkerLost(f"the worker ended as it started ({ending(status)})", status)
        if not (isinstance(message, tuple) and message[:1] == ("ready",)):
            self.stop(kill=True)
            raise WorkerLost(f"the worker said {message!r} instead of being ready")
        self.is_ready = True

    def ensure(self) -> None:
        """A child running and ready: this one, or a fresh one (a WorkerLost when it cannot start)."""
        if not self.alive:
            self.stop()
            self.start()
        self.wait_ready()

    def call(self, name: str, request, bound: float) -> Reply:
        """The child's answer to the request ``name`` within ``bound`` seconds
        of wall-clock time. A child that does not answer is stopped (killed if
        need be) and a WorkerLost raised: NotStarted, TimedOut or Ended."""
        if not self.alive:
            raise NotStarted("the worker had ended before the request reached it", self.stop())
        with self._guard:
            self._calling = True
        lost: WorkerLost | None = None
        try:
            try:
                _write(self.process.stdin, (name, request))
            except (OSError, ValueError):
                lost = NotStarted("the worker had ended before the request reached it")
                raise lost from None
            try:
                status, value, counters, grown = self._read(time.monotonic() + bound)
            except WorkerLost as error:
                lost = error
                raise
            except (OSError, EOFError, pickle.UnpicklingError, ValueError) as error:
                lost = Ended(f"the worker's answer could not be read ({error})")
                raise lost from None
        finally:
            with self._guard:
                self._calling = False
            if lost is not None:
                lost.status = self.stop(kill=True)
        if grown:  # the child ends by itself; stopped (reaped) by whoever starts the next one
            self.retired = True
        return Reply(status, value, counters, grown)

    def _read(self, deadline: float):
        """One frame from the child: TimedOut when the deadline passes, Ended when the child ends."""
        fd = self.process.stdout.fileno()
        buffer = b""
        need = _FRAME.size
        size = None
        with _Selector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while len(buffer) < need:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise TimedOut("the worker did not answer in time")
                chunk = os.read(fd, max(65536, need - len(buffer)))
                if not chunk:
                    raise Ended("the worker ended")
                buffer += chunk
                if size is None and len(buffer) >= _FRAME.size:
                    (size,) = _FRAME.unpack(buffer[:_FRAME.size])
                    need = _FRAME.size + size
        return pickle.loads(buffer[_FRAME.size:need])

    def kill(self) -> None:
        """Kill the child and nothing more: a thread waiting on it sees its end and cleans up."""
        process = self.process
        if process is not None:
            process.kill()

    def stop(self, kill: bool = False) -> int | None:
        """End the child (at once with ``kill``: else its input closes and it
        ends by itself); its exit status. A child under a request in another
        thread is killed, and that thread cleans up after it."""
        with self._guard:
            if self._calling:
                self.kill()
                return None
            process, self.process = self.process, None
        _LIVE.discard(self)
        self.is_ready = False
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
            return process.wait(timeout=STOP_WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()


#: The children this process has started and not stopped.
_LIVE: set[BoundedWorker] = set()


def kill_all() -> None:
    """Kill every child this process started (on Ctrl-C, at the end). Only
    killed: a thread waiting on one then sees its end and cleans up itself
    (closing a pipe under a thread that polls it would leave that thread waiting)."""
    for worker in list(_LIVE):
        worker.kill()


def stop_all() -> None:
    """Stop and reap every child this process started, once no thread uses them."""
    for worker in list(_LIVE):
        worker.stop(kill=True)
