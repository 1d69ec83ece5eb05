"""When a long-lived worker process has grown too large and should give way to
a fresh one: the bounded worker (referee/run/bounded.py), the archive's and the
service's, asks after each answer.

Such a process grows with every transcript it judges (about a megabyte a
record, more for each new data file) and gives nothing back: clingo keeps every
symbol it has made in a global table for the life of the process
(potassco/clingo issue 203), so only a new process frees it."""

from __future__ import annotations

import os

#: A worker gives way once it is larger than this (bytes)...
FLOOR = 100 * 2**20
#: ... and than this many times its size after its first answer.
GROWTH = 1.5


def resident() -> int:
    """This process's resident memory in bytes (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class GrowthBound:
    """The bound of one worker: past the larger of ``floor`` bytes and
    ``growth`` times its size when first asked (after its first answer).
    Where the size cannot be read, never past."""

    def __init__(self, floor: int = FLOOR, growth: float = GROWTH):
        self.floor, self.growth = floor, growth
        self.cap: float | None = None

    def exceeded(self) -> bool:
        size = resident()
        if not size:
            return False
        if self.cap is None:
            self.cap = max(self.floor, self.growth * size)
        return size > self.cap
