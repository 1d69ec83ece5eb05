"""The HTTP server around the service's app (``referee serve``, :func:`serve`):
uvicorn with its pure-Python HTTP/1.1 protocol (h11), plus two things uvicorn
leaves to its user.

- **A bound on a request's head.** uvicorn bounds an idle keep-alive
  connection (``timeout_keep_alive``) and the head's size, not the time its
  request line and headers take to arrive: a client that sends half a header
  line and waits would hold its connection for ever. :class:`HeadBound` closes
  a connection whose request head is not complete ``head_timeout`` seconds
  after the connection opened (or after the previous response on it): with a
  408 answer when part of a head had come, silently when nothing had (a
  browser's spare connection). The body's own time is bounded in the app
  (``BodyLimit`` in referee/service/middleware.py).
- **An access log without secrets.** The paths of a table's requests hold its
  link tokens (``/t/TOKEN``, ``/api/tables/TOKEN/...``), and a token is a key.
  :class:`RedactLinks` writes them as ``/t/<link>`` in the access log.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import re
import sys
from pathlib import Path

import h11
import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.service.app import create_app
from referee.service.limits import HEAD_TIMEOUT, Limits
from referee.service.network import Network
from referee.service.tables import default_folder

#: A table's link token in a path, after the prefixes that carry one.
_LINK_PATH = re.compile(r"(/t/|/api/tables/)[^/?#\s\"]+")
#: What a token is written as in the log.
REDACTED = "<link>"


def redact(text: str) -> str:
    """``text`` with every link token of a path in it replaced by ``<link>``."""
    return _LINK_PATH.sub(lambda found: found.group(1) + REDACTED, text)


class RedactLinks(logging.Filter):
    """A filter for uvicorn's access log: the request's path (its third
    argument: client, method, path, HTTP version, status) without tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def log_config() -> dict:
    """uvicorn's logging configuration with :class:`RedactLinks` on the access log."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_links"] = {"()": RedactLinks}
    config["handlers"]["access"]["filters"] = ["redact_links"]
    return config


class HeadBound(H11Protocol):
    """uvicorn's h11 protocol, with a bound on the time a request's head takes
    to arrive (the class attribute ``head_timeout``; see :func:`bounded`)."""

    head_timeout = HEAD_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm_head()

    def _arm_head(self) -> None:
        self._disarm_head()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_expired)

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # the head is in (or the connection is done)
            self._disarm_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_head()  # the next request's head, on a connection kept alive

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head()
        super().connection_lost(exc)

    def _head_expired(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        partial = bool(self.conn.trailing_data[0])
        if partial:  # h11 cannot answer a request it has not read: the 408 is written as bytes
            self.logger.info("A request's head did not arrive within %g s: connection closed", self.head_timeout)
            body = json.dumps({"error": {"code": "timeout", "message": f"the request's line and headers did not "
                                                                      f"arrive within {self.head_timeout:g} s"}})
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                                 b"content-length: %d\r\nconnection: close\r\n\r\n%s"
                                 % (len(body), body.encode("ascii")))
        self.transport.close()


def bounded(head_timeout: float) -> type[HeadBound]:
    """The protocol class for uvicorn (``http=``) with this bound on a request's head."""
    return type("HeadBound", (HeadBound,), {"head_timeout": head_timeout})


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None, names: tuple[str, ...] = (),
          data: str | Path | None = None, public_url: str | None = None) -> None:
    """Run the service until interrupted (Ctrl-C or SIGTERM: requests in flight
    are finished, then the workers stop). ``public_url``: where the phones reach
    it, for the links a table hands out (docs/service.md)."""
    limits = limits or Limits()
    network = Network(host, names, port, public_url)
    folder = Path(data) if data is not None else default_folder()
    print(f"referee: tables are kept in {folder / 'tables.sqlite3'}", file=sys.stderr)
    if network.network:
        print(f"referee: WARNING: listening on {host}, beyond this computer: anyone on the network can reach "
              "the service. A transcript is answered only through a table's links, and tables are created "
              f"only at http://127.0.0.1:{port}/ on this computer; the links it hands out start "
              f"{network.link_base()}/ (--public-url sets another). Names accepted in the Host header: "
              f"{', '.join(sorted(network.names))} (referee serve --name adds one).", file=sys.stderr)
    uvicorn.run(create_app(limits, network, folder), host=host, port=port, log_level="info",
                timeout_graceful_shutdown=30, http=bounded(limits.head_timeout), log_config=log_config())
