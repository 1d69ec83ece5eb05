"""The bounds of one service (``referee serve`` options): transcript size,
solver time, worker processes, the queue, how long a request's head and its
body may take to arrive."""

from __future__ import annotations

from referee.service.errors import ServiceError

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
