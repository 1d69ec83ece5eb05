"""Where the service listens and who may reach it: loopback or a network, and
the names a request may give in its Host header."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import urllib.parse

from referee.service.errors import ServiceError


class Network:
    """Where the service listens and who may reach it. On loopback (the
    default) the API answers anyone on this computer, as the command line
    does. Beyond loopback (``network``), a transcript is answered only through
    a table's links — no anonymous view that sees every player's hidden
    figures — and tables are created only from this computer. Either way a
    request must name one of ``names`` in its Host header (a page of another
    site cannot reach the service through a name it controls)."""

    def __init__(self, host: str = "127.0.0.1", names: tuple[str, ...] = (), port: int = 8000,
                 public_url: str | None = None):
        self.host = host
        self.network = not is_loopback(host)
        self.public_url = public_url.rstrip("/") if public_url else None
        public_name = urllib.parse.urlsplit(self.public_url).hostname if self.public_url else None
        self.names = served_names(host, (*names, *([public_name] if public_name else [])))
        self.port = port

    def link_base(self) -> str:
        """Where the phones at a table reach the service: ``--public-url``, else
        this computer's address on the network it listens on (a wildcard
        address: the address it reaches the network by), else loopback's (a
        link that opens on this computer only)."""
        if self.public_url:
            return self.public_url
        host = self.host
        if self.network and host in ("0.0.0.0", "::", ""):
            host = outgoing_address() or socket.gethostname()
        elif not self.network:
            host = "127.0.0.1"
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def refuse_anonymous(self) -> None:
        """On a network, refuse (403) a question asked without a table's link."""
        if self.network:
            raise ServiceError(403, "table-links-only",
                               "on a network the referee answers through a table's links only: the host creates "
                               "a table on the computer that runs the service and gives each player their link "
                               "(docs/service.md)")

    def refuse_remote_host(self, client: str) -> None:
        """On a network, refuse (403) to create a table for a client beyond this computer."""
        self.refuse_remote(client, "tables are created")

    def refuse_remote(self, client: str, what: str) -> None:
        """On a network, refuse (403) what only the computer running the service
        may ask for (creating a table, a comparison of readings, the workers'
        status) to a client beyond it."""
        if self.network and not is_loopback(client):
            raise ServiceError(403, "table-links-only", f"on a network, {what} on the computer that runs the "
                                                        "service (http://127.0.0.1:PORT/)")


def is_loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_names(host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a request may give in its Host header: loopback's, the
    address served, ``extra`` (``--name``), and for a wildcard address this
    computer's name and addresses."""
    names = {"127.0.0.1", "localhost", "::1", host.strip("[]").casefold()}
    names.update(n.strip("[]").casefold() for n in extra)
    if host in ("0.0.0.0", "::", ""):
        hostname = socket.gethostname()
        names.update({hostname.casefold(), f"{hostname}.local".casefold()})
        with contextlib.suppress(OSError):
            names.update(info[4][0] for info in socket.getaddrinfo(hostname, None))
        names.add(outgoing_address() or "")
    names.discard("")
    return frozenset(names)


def outgoing_address() -> str | None:
    """The address this computer reaches the network by (None: none)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing address
        return probe.getsockname()[0]
    return None
