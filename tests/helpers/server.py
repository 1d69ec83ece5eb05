"""The real service, started as a user starts it (``referee serve``) on a free
loopback port, for the API and page tests; and a small JSON client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Answer:
    status: int
    data: dict
    seconds: float
    headers: dict | None = None


class Server:
    """``python -m referee serve`` in a subprocess; ``stop()`` sends Ctrl-C (SIGINT)."""

    def __init__(self, *options: str, startup: float = 60.0, data: Path | None = None, port: int | None = None,
                 cache: bool = True):
        self.interrupted = False
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        if data is None:  # the tables of this server only, removed with it
            self._data = tempfile.TemporaryDirectory(prefix="referee-data-")
            data = Path(self._data.name)
        self.data = data
        # a judgement cache of this server's own (referee/store/judgements.py), as on a fresh machine: what a test
        # measures (a slow check, a worker busy with it) does not depend on what earlier runs left
        # behind; cache=False: none at all, so that the same game is as slow to judge every time
        env = {**os.environ, "REFEREE_CACHE": str(Path(data) / "judgements.sqlite") if cache else "off"}
        self.process = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--port", str(self.port),
                                         "--data", str(data), *options],
                                        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env=env, start_new_session=True)  # its own process group, as in a terminal
        deadline = time.monotonic() + startup
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"referee serve ended at start:\n{self.process.stdout.read()}")
            try:
                if self.get("/api/games").status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("referee serve did not answer within a minute")

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 60) -> Answer:
        request = urllib.request.Request(self.url + path, data=body, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw, headers = response.status, response.read(), {k.lower(): v for k, v in response.headers.items()}
        except urllib.error.HTTPError as error:
            status, raw, headers = error.code, error.read(), {k.lower(): v for k, v in error.headers.items()}
        return Answer(status, json.loads(raw) if raw else {}, time.monotonic() - started, headers)

    def get(self, path: str) -> Answer:
        return self.request("GET", path, timeout=10)

    def post(self, path: str, data: dict, **options) -> Answer:
        return self.request("POST", path, json.dumps(data).encode("utf-8"), **options)

    def interrupt(self) -> None:
        """Ctrl-C in its terminal: SIGINT to the server and its workers (its process
        group), once (a second Ctrl-C would force the server to quit at once)."""
        if self.process.poll() is None and not self.interrupted:
            self.interrupted = True
            os.killpg(self.process.pid, signal.SIGINT)

    def stop(self, timeout: float = 30) -> tuple[int, str]:
        """Ctrl-C, as a user stops it: the exit code and what it printed."""
        self.interrupt()
        try:
            output, _ = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            output, _ = self.process.communicate()
            return -1, output
        return self.process.returncode, output


def transcript(name: str) -> str:
    return (ROOT / "transcripts" / name).read_text(encoding="utf-8")
