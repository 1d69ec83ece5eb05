"""``referee check PATH... --cluster tcp://HOST:8786``: the records checked on a
running Dask distributed cluster (docs/archives.md): the optional extra ``cluster``,
installed from a clone of the repository or a wheel built from it.

Each record is one task: ``worker.bounded_check`` with the record's bytes (the
workers need not see this machine's files), run on a Dask worker in a worker
process of its own under the record's time bound, exactly as ``--jobs`` runs it
here. Dask was chosen because it is pure Python, installs with pip on every
machine, runs any picklable function without a framework around it, and ships
``LocalCluster`` for tests.
"""

from __future__ import annotations

from referee.base.errors import ClusterError
from referee.run.archive_report import fingerprint
from referee.run.worker import bounded_check

#: How long to wait for the scheduler to answer.
CONNECT_TIMEOUT = 20


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed on this machine: pip install '.[cluster]' "
                           "in a clone of the referee (docs/archives.md)") from None
    return distributed


class ClusterRunner:
    """Tasks on a Dask scheduler's workers: ``submit``, ``wait`` and ``close``."""

    def __init__(self, address: str) -> None:
        distributed = _distributed()
        self._distributed = distributed
        try:
            self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        try:
            threads = sum(self.client.nthreads().values())
            if threads == 0:
                raise ClusterError(f"the Dask scheduler at {address} has no workers: start some "
                                   "(docs/archives.md: dask worker tcp://HOST:8786)")
            self.window = max(8, 4 * threads)
            self._check_workers(address)
        except BaseException:
            self.client.close()
            raise
        self.label = f"the cluster at {address} ({threads} worker thread{'s' if threads != 1 else ''})"

    def _check_workers(self, address: str) -> None:
        """Every worker must run this very referee: another version would give other verdicts."""
        ours = fingerprint()
        try:
            theirs = self.client.run(fingerprint)
        except Exception as error:  # the workers cannot import the referee
            raise ClusterError(f"the workers of {address} cannot run the referee ({type(error).__name__}: "
                               f"{error}); install it on every worker, the same version: pip install '.[cluster]' "
                               "in a clone of the referee, or a wheel (docs/archives.md)") from None
        other = sorted(worker for worker, value in theirs.items() if value != ours)
        if other:
            raise ClusterError(f"the workers {', '.join(other)} run another version of the referee than this "
                               "machine; install the same one everywhere")

    def submit(self, name: str, data: bytes, options: dict, bound: float):
        # pure=False: a record sent twice (resumed, or the same bytes under two names) is checked each time
        return self.client.submit(bounded_check, name, data, options, bound, pure=False)

    def wait(self, pending):
        with self.client.as_current():  # this client, not a process-wide default one
            done, not_done = self._distributed.wait(pending, return_when="FIRST_COMPLETED")
        return set(done), set(not_done)

    def close(self) -> None:
        self.client.close()
