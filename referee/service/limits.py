"""The bounds of one service (``referee serve`` options): transcript size,
solver time, worker processes, the queue, how long a request's head and its
body may take to arrive."""

from __future__ import annotations

import math
import time

from referee.service.errors import RateLimited, ServiceError

#: Default bounds of one request.
MAX_TRANSCRIPT_BYTES = 256 * 1024
TIME_LIMIT = 20.0
#: The bound of one comparison of two readings (a search over several scenarios).
COMPARE_TIME_LIMIT = 120.0
WORKERS = 2
#: Seconds a request body may take to arrive, from its first byte to its last.
BODY_TIMEOUT = 10.0
#: Seconds a request's line and headers may take to arrive (referee/service/server.py).
HEAD_TIMEOUT = 10.0
#: What one table link may send (lines added, questions asked): this many at once,
#: then one every LINK_INTERVAL seconds. A player writes a line every few seconds at
#: most; a link that sends more is a script filling the table.
LINK_BURST = 60
LINK_INTERVAL = 1.0


class Limits:
    """The bounds of one service: transcript size, solver time, worker processes,
    the queue, how long a request's head and its body may take to arrive."""

    def __init__(self, max_bytes: int = MAX_TRANSCRIPT_BYTES, time_limit: float = TIME_LIMIT, workers: int = WORKERS,
                 compare_time_limit: float = COMPARE_TIME_LIMIT, queue: int | None = None,
                 body_timeout: float = BODY_TIMEOUT, head_timeout: float = HEAD_TIMEOUT):
        self.max_bytes = max_bytes
        self.time_limit = time_limit
        self.workers = workers
        self.compare_time_limit = compare_time_limit
        self.queue = queue
        self.body_timeout = body_timeout
        self.head_timeout = head_timeout

    @property
    def max_body(self) -> int:
        """The most bytes a request body may hold: the transcript, JSON-escaped
        (up to 6 bytes a character), and the other fields."""
        return 6 * self.max_bytes + 16 * 1024

    def check_transcript(self, text: str) -> None:
        """Refuse (413) a transcript over the size bound."""
        size = len(text.encode("utf-8"))
        if size > self.max_bytes:
            raise ServiceError(413, "too-large", f"the transcript is {size} bytes; the service takes transcripts of "
                                                 f"at most {self.max_bytes} bytes (referee serve --max-bytes)")


class LinkRates:
    """A token bucket per table link: ``burst`` requests at once, then one every
    ``interval`` seconds (in this process's memory: a restart forgets them)."""

    def __init__(self, burst: int = LINK_BURST, interval: float = LINK_INTERVAL, clock=time.monotonic):
        self.burst, self.interval, self.clock = burst, interval, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # token -> (requests left, when counted)

    def spend(self, token: str) -> None:
        """Count one request of ``token``'s link, or refuse it (RateLimited)."""
        now = self.clock()
        left, then = self._buckets.get(token, (float(self.burst), now))
        left = min(float(self.burst), left + (now - then) / self.interval)
        if left < 1:
            wait = max(1, math.ceil((1 - left) * self.interval))
            raise RateLimited(f"this link has sent more than {self.burst} requests in a short time; the next is "
                              f"taken in {wait} s (a link may send {self.burst} at once, then one every "
                              f"{self.interval:g} s)", wait)
        self._buckets[token] = (left - 1, now)
        if len(self._buckets) > 100_000:  # links long quiet are full again: forget them
            self._buckets = {t: b for t, b in self._buckets.items() if now - b[1] < self.burst * self.interval}
