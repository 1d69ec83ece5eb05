"""Load: a club night against `referee serve` on 127.0.0.1 (issue 17).

Starts the service itself (on loopback only, with a fresh data folder), then:

1. A club: --tables tables (default 10), each a 5-player game replayed from a
   shipped transcript by 5 phones — the phone of the player who wrote each line
   adds it (with the revision it saw; a 409 is retried after reading the table
   again), waits a few seconds of thinking, and asks `explain` of the line it
   added, on its own player link. Every other phone follows the table (asks its
   revision every 2 s, as the page does). Half way through, the service is
   stopped (Ctrl-C) and started again on the same data folder; phones that find
   it down wait and go on.
2. Checks, afterwards: every line a phone was told was stored is in its table,
   in order (none lost by the restart); every explain answer is the command
   line's (`referee explain --line L --as P --json` on that revision's text: the
   library's answer for all of them, the CLI itself for a sample); no answer
   to a player's link is another viewpoint's, none states another player's
   most possible offering (their gold plus priests, read from the referee's
   state), and asking as another player is refused — asserted: 0 leaks.
3. A flood: --flood concurrent requests (default 500; table explains and
   anonymous checks) at once: the statuses (429 is fine; a 500 is a failure)
   and the resident memory of the server and its workers before and after.

Bounded: the club runs --seconds (default 60) in all, each request has a
timeout, the flood is one burst. Prints the figures as a table.

    python bench/club_load.py                   # the defaults: 10 tables x 5 phones, 60 s, flood of 500
    python bench/club_load.py --seconds 30 --tables 4 --flood 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.ask.report import verdict_json  # noqa: E402
from referee.ask.session import Session  # noqa: E402
from referee.game.state import Draft  # noqa: E402
from referee.service.jobs import read  # noqa: E402

HOST = "127.0.0.1"  # never anything else
GAMES = ["cyclades/game-5p.txt", "cyclades/creatures-game-5p.txt", "cyclades/battles-5p.txt"]
MOVE_LINE = re.compile(r"^\s*([^#\s:/][^:/#]*)[/:]")  # the player of "Ann: ..." and "Ann/Zeus: ..."


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


class Service:
    """`python -m referee serve` on loopback, restartable on the same port and data."""

    def __init__(self, data: Path, workers: int):
        self.data, self.workers = data, workers
        with socket.socket() as s:
            s.bind((HOST, 0))
            self.port = s.getsockname()[1]
        self.url = f"http://{HOST}:{self.port}"
        self.process = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--host", HOST, "--port",
                                         str(self.port), "--data", str(self.data), "--workers", str(self.workers)],
                                        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True, env=self.environment())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if call("GET", self.url + "/api/status")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the service did not start within a minute")

    def environment(self) -> dict:
        """The service's environment: its judgement cache in the fresh data folder
        (the user's cache holds the shipped games' judgements from earlier checks,
        which would answer the club's questions without the solver), kept across
        the restart as a club's service keeps it."""
        return dict(os.environ, REFEREE_CACHE=str(self.data / "judgements.sqlite"))

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def rss(self) -> dict:
        """Resident memory (MB) of the server and of each worker."""
        status = call("GET", self.url + "/api/status")[1]
        return {"server": _rss(self.process.pid), "workers": [_rss(p) for p in status["pids"]]}


def _rss(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def call(method: str, url: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict, float]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        answer = json.loads(raw) if raw else {}
    except ValueError:
        answer = {"raw": raw[:200].decode("latin-1")}
    return status, answer, time.monotonic() - started


class Club:
    def __init__(self, service: Service, tables: int, seconds: float, think: tuple[float, float]):
        self.service, self.seconds, self.think = service, seconds, think
        self.lock = threading.Lock()
        self.explains: list[dict] = []      # every explain answered to a player's link
        self.latency = {"add": [], "explain": []}
        self.errors: list[str] = []
        self.refused_as_other = 0
        self.conflicts = 0
        self.down = 0                        # requests that found the service restarting
        self.polls = 0
        self.stored: dict[str, list[str]] = {}
        self.tables = []
        for k in range(tables):
            text = (ROOT / "transcripts" / GAMES[k % len(GAMES)]).read_text(encoding="utf-8")
            lines = text.splitlines()
            start = next(i for i, l in enumerate(lines) if l.strip().startswith("cycle 1")) + 1
            start += (k // len(GAMES)) * 3  # tables at different points of their games
            head = "\n".join(lines[:start]) + "\n"
            rest = [l for l in lines[start:] if l.strip() and not l.lstrip().startswith("#")]
            status, table, _ = call("POST", service.url + "/api/tables", {"transcript": head, "name": f"table-{k}"})
            assert status == 201, table
            links = {p["player"]: p["token"] for p in table["players"]}
            self.tables.append({"head": head, "id": table["table"], "host": table["host"]["token"], "links": links,
                                "rest": rest, "next": 0, "players": table["players"]})
            self.stored[table["table"]] = []

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, float]:
        while True:
            try:
                status, answer, seconds = call(method, self.service.url + path, body, timeout=60)
            except OSError:  # the service is restarting
                with self.lock:
                    self.down += 1
                time.sleep(0.5)
                continue
            if status == 503 or (status == 429 and answer.get("error", {}).get("code") == "busy"):
                time.sleep(float(answer.get("error", {}).get("retry_after", 1)))
                continue
            return status, answer, seconds

    def phone(self, table: dict, player: str, deadline: float) -> None:
        token = table["links"][player]
        seen = -1
        while time.monotonic() < deadline:
            with self.lock:
                index = table["next"]
                line = table["rest"][index] if index < len(table["rest"]) else None
            if line is None:
                return
            match = MOVE_LINE.match(line)
            writer = match.group(1).strip() if match and match.group(1).strip() in table["links"] else None
            if writer is None:  # 'cycle 2', 'creatures: ...': the first player's phone writes it
                writer = table["players"][0]["player"]
            if writer != player:
                status, now, _ = self.request("GET", f"/api/tables/{token}/revision")  # following, as the page does
                with self.lock:
                    self.polls += 1
                time.sleep(min(2.0, max(0.0, deadline - time.monotonic())))
                continue
            time.sleep(random.uniform(*self.think))
            status, view, _ = self.request("GET", f"/api/tables/{token}")
            seen = view["revision"]
            status, added, seconds = self.request("POST", f"/api/tables/{token}/lines",
                                                  {"line": line, "revision": seen})
            if status == 409:
                with self.lock:
                    self.conflicts += 1
                continue
            if status != 201:
                with self.lock:
                    self.errors.append(f"add {status}: {added}")
                return
            with self.lock:
                self.latency["add"].append(seconds)
                self.stored[table["id"]].append(line)
                table["next"] += 1
            if not MOVE_LINE.match(line):
                continue
            if random.random() < 0.1:  # now and then a phone asks as another player: refused
                other = next(p for p in table["links"] if p != player)
                status, refused, _ = self.request("POST", f"/api/tables/{token}/explain",
                                                  {"line": added["line"], "as": other})
                with self.lock:
                    if status == 403 and refused["error"]["code"] == "private":
                        self.refused_as_other += 1
                    else:
                        self.errors.append(f"asking as {other} on {player}'s link: {status}")
            status, verdict, seconds = self.request("POST", f"/api/tables/{token}/explain",
                                                    {"line": added["line"], "revision": added["revision"]})
            with self.lock:
                if status != 200:
                    self.errors.append(f"explain {status}: {verdict}")
                    continue
                self.latency["explain"].append(seconds)
                self.explains.append({"table": table, "player": player, "line": added["line"],
                                      "revision": added["revision"], "answer": verdict})

    def run(self, restart: bool) -> float:
        """The club's phones for --seconds, with a restart half way; the restart's length."""
        deadline = time.monotonic() + self.seconds
        threads = [threading.Thread(target=self.phone, args=(t, p, deadline), daemon=True)
                   for t in self.tables for p in t["links"]]
        for thread in threads:
            thread.start()
        restarted = 0.0
        if restart:
            time.sleep(self.seconds / 2)
            began = time.monotonic()
            self.service.stop()
            self.service.start()
            restarted = time.monotonic() - began
        for thread in threads:
            thread.join(self.seconds + 120)
        return restarted


# -- the checks afterwards -----------------------------------------------------------------------


def lost_lines(club: Club) -> int:
    """Lines a phone was told were stored, missing from their table or out of order."""
    lost = 0
    for table in club.tables:
        status, view, _ = call("GET", club.service.url + f"/api/tables/{table['host']}")
        assert view["transcript"].startswith(table["head"])
        stored = iter(view["transcript"][len(table["head"]):].splitlines())
        lost += sum(1 for line in club.stored[table["id"]] if line not in stored)  # in order: consumes the iterator
    return lost


def compare_with_the_cli(club: Club, cli_sample: int) -> tuple[int, int, int]:
    """(answers compared, wrong answers, leaks) — the library for every answer, the CLI for a sample."""
    wrong = leaks = 0
    sessions: dict = {}
    engines: dict = {}
    for item in club.explains:
        table, player, answer = item["table"], item["player"], dict(item["answer"])
        request = answer.pop("request")
        if request != {"rules": None, "as": player, "revision": item["revision"]} or answer.get("viewpoint") != player:
            leaks += 1  # an answer to this link that is not this player's view
        status, revision, _ = call("GET", club.service.url + f"/api/tables/{table['host']}/revisions/{item['revision']}")
        key = (table["id"], item["revision"])
        if key not in sessions:
            transcript, _ = read(revision["transcript"], f"table-{club.tables.index(table)}", True)
            session = Session(transcript)
            if table["id"] in engines:
                session.referee.engine = engines[table["id"]]
            engines[table["id"]] = session.referee.engine
            sessions[key] = session
        session = sessions[key].seen_by(player)
        verdict = session.explain(line=item["line"])
        expected = {**verdict_json(verdict), "period": verdict.period, "viewpoint": player}
        if answer != expected:
            wrong += 1
            print(f"  differs: table {table['id'][:6]} revision {item['revision']} line {item['line']} as {player}",
                  file=sys.stderr)
        # no alternative of another player states the most they can offer (their gold + priests)
        run = session.referee.run(upto=verdict.number + 1)
        step = run.step_of(verdict.number)
        who = answer.get("alternatives_for")
        if who != player and who in table["links"]:
            d = Draft(step.before)
            most = d.count("gold", who) + d.count("priests", who)
            leaks += sum(1 for g in answer["alternatives"] if re.search(rf"-{most} GP|(?<![\d-]){most} GP to", g))
    sample = random.sample(club.explains, min(cli_sample, len(club.explains)))
    for item in sample:  # the command line itself, on that revision's text
        status, revision, _ = call("GET", club.service.url +
                                   f"/api/tables/{item['table']['host']}/revisions/{item['revision']}")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"table-{club.tables.index(item['table'])}"
            path.write_text(revision["transcript"], encoding="utf-8")
            done = subprocess.run([sys.executable, "-m", "referee", "explain", str(path), "--line", str(item["line"]),
                                   "--as", item["player"], "--json"], cwd=ROOT, capture_output=True, text=True,
                                  timeout=300)
        cli = json.loads(done.stdout)
        answer = {k: v for k, v in item["answer"].items() if k not in ("request", "period", "viewpoint")}
        cli.pop("file", None), answer.pop("file", None)
        if cli != answer:
            wrong += 1
            print(f"  differs from the CLI: line {item['line']} as {item['player']}", file=sys.stderr)
    return len(club.explains) + len(sample), wrong, leaks


def flood(club: Club, size: int) -> dict:
    """``size`` requests at once: table explains on players' links and anonymous checks."""
    service = club.service
    anonymous = (ROOT / "transcripts" / "cyclades" / "illegal-outbid-too-low.txt").read_text(encoding="utf-8")
    jobs = []
    for n in range(size):
        table = club.tables[n % len(club.tables)]
        player = list(table["links"])[n % 5]
        if n % 3 == 2:
            jobs.append(("/api/check", {"transcript": anonymous, "name": f"flood-{n}.txt"}))
        else:
            jobs.append((f"/api/tables/{table['links'][player]}/check", {}))
    before = service.rss()
    barrier = threading.Barrier(size)

    def one(job):
        barrier.wait(60)
        try:
            return call("POST", service.url + job[0], job[1], timeout=120)[0]
        except OSError as error:
            return f"connection: {type(error).__name__}"

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=size) as pool:
        statuses = list(pool.map(one, jobs))
    seconds = time.monotonic() - started
    time.sleep(2)
    after = service.rss()
    counts: dict = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return {"statuses": counts, "seconds": seconds, "before": before, "after": after}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60, help="How long the club plays (the restart is half way).")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN", "MAX"),
                        help="Seconds a player thinks before adding their line (default 2 to 5).")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--flood", type=int, default=500)
    parser.add_argument("--cli-sample", type=int, default=3, help="Answers also compared with the CLI itself.")
    parser.add_argument("--no-restart", action="store_true")
    options = parser.parse_args()
    random.seed(17)
    with tempfile.TemporaryDirectory(prefix="club-load-") as data:
        service = Service(Path(data), options.workers)
        try:
            club = Club(service, options.tables, options.seconds, tuple(options.think))
            restarted = club.run(not options.no_restart)
            lost = lost_lines(club)
            compared, wrong, leaks = compare_with_the_cli(club, options.cli_sample)
            flooded = flood(club, options.flood)
        finally:
            service.stop()
    explain, add = club.latency["explain"], club.latency["add"]
    lines = sum(len(v) for v in club.stored.values())
    print(f"club: {options.tables} tables x 5 phones, {options.seconds:g} s, {options.workers} workers, "
          f"thinking {options.think[0]:g}-{options.think[1]:g} s (a shared 2-core machine: figures are noisy)")
    print(f"  lines added {lines}; explain answers {len(explain)}; follow-polls {club.polls}; "
          f"409 conflicts retried {club.conflicts}")
    print(f"  explain latency p50 {percentile(explain, .5):.3f} s, p95 {percentile(explain, .95):.3f} s, "
          f"max {max(explain, default=float('nan')):.3f} s")
    print(f"  add latency     p50 {percentile(add, .5):.3f} s, p95 {percentile(add, .95):.3f} s")
    print(f"  errors {len(club.errors)}; answers compared {compared}, wrong {wrong}; "
          f"hidden figures leaked to a player's link {leaks}; asking as another player refused "
          f"{club.refused_as_other} times")
    print(f"  restart half way: {restarted:.1f} s down, {club.down} requests found it down and waited; "
          f"stored lines lost {lost}")
    for error in club.errors[:5]:
        print(f"    {error}")
    b, a = flooded["before"], flooded["after"]
    print(f"flood: {options.flood} requests at once in {flooded['seconds']:.1f} s: statuses {flooded['statuses']}")
    print(f"  RSS server {b['server']:.0f} -> {a['server']:.0f} MB; workers "
          f"{', '.join(f'{x:.0f}' for x in b['workers'])} -> {', '.join(f'{x:.0f}' for x in a['workers'])} MB")
    assert leaks == 0, "a hidden figure reached a player's link"
    assert lost == 0, "a stored line was lost"
    assert not any(s == 500 for s in flooded["statuses"]), "the flood got a 500"


if __name__ == "__main__":
    main()
