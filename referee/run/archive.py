"""``referee check PATH...`` on many records: the records found (records.py)
are sent to worker processes, here (``--jobs N``) or on a Dask cluster
(``--cluster``), each checked by ``worker.check_record`` under a time bound;
their reports come back as they finish, and are printed in the records' order
(one line each, or JSON Lines), then a summary. With ``-o REPORT`` they go to
an archive report that an interrupted run resumes (archive_report.py).

This process stays light: it reads the records and writes the reports, and
never loads the solver (its workers do).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import click

from referee.ask.options import CheckOptions
from referee.base.errors import FileError, NotationError
from referee.judge.values import Verdict
from referee.run.records import Found, find_records
from referee.run.verdicts import brief, record_line
from referee.run.worker import bounded_check, digest, reap_workers, stop_workers
from referee.text.parser import read_record_file

#: The order of the verdicts in a summary (and of the exit codes: the worst wins).
VERDICTS = tuple(Verdict)
#: The summary's lines are shorter than this: its count by rule goes on as many lines as it takes.
SUMMARY_WIDTH = 99


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class LocalRunner:
    """``jobs`` worker processes on this machine, each driven by a thread."""

    def __init__(self, jobs: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="referee-record")
        self.window = 2 * jobs
        self.label = f"{jobs} job{'s' if jobs != 1 else ''}"

    def submit(self, name: str, data: bytes, options: dict, bound: float):
        return self.pool.submit(bounded_check, name, data, options, bound)

    def wait(self, pending):
        done, not_done = wait(pending, return_when=FIRST_COMPLETED)
        return set(done), set(not_done)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        stop_workers()
        self.pool.shutdown(wait=True)
        reap_workers()


@dataclass
class Tally:
    """The archive's counts, record by record."""

    records: int = 0
    reused: int = 0
    moves: int = 0
    illegal_moves: int = 0
    verdicts: dict = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    by_rule: dict = field(default_factory=dict)
    worst: int = 0

    def add(self, short: dict) -> None:
        self.records += 1
        self.moves += short["moves"]
        self.illegal_moves += short["illegal_moves"]
        self.verdicts[short["verdict"]] += 1
        for rule, count in short["by_rule"].items():
            self.by_rule[rule] = self.by_rule.get(rule, 0) + count
        self.worst = max(self.worst, short["exit"])


def _summary_json(tally: Tally, found: Found, seconds: float, label: str, output: Path | None) -> dict:
    expected = sum(1 for _, why in found.skipped if why == "an expected report")
    return {"summary": {
        "records": tally.records, "moves": tally.moves,
        **{verdict.replace(" ", "_"): count for verdict, count in tally.verdicts.items()},
        "illegal_moves": tally.illegal_moves,
        "illegal_moves_by_rule": dict(sorted(tally.by_rule.items(), key=lambda kv: (-kv[1], kv[0]))),
        "skipped": {"expected_reports": expected,
                    "not_transcripts": [name for name, why in found.skipped if why != "an expected report"]},
        "already_reported": tally.reused, "report": str(output) if output else None,
        "seconds": round(seconds, 2), "workers": label, "exit": tally.worst}}


def summary_text(summary: dict) -> str:
    s = summary["summary"]
    again = f"; {s['already_reported']} already in {s['report']}" if s["already_reported"] else ""
    lines = [f"checked {s['records']} record{'s' if s['records'] != 1 else ''}, "
             f"{s['moves']} move{'s' if s['moves'] != 1 else ''}, "
             f"in {s['seconds']:.1f} s with {s['workers']}{again}"]
    counts = [f"{s[v.replace(' ', '_')]} {v if v != 'illegal' else 'with illegal moves'}"
              for v in VERDICTS if s[v.replace(' ', '_')] or v == "legal"]
    lines.append("  " + ", ".join(counts))
    if s["illegal_moves"]:
        rules = ", ".join(f"{rule} {count}" for rule, count in s["illegal_moves_by_rule"].items())
        head = f"  {s['illegal_moves']} illegal move{'s' if s['illegal_moves'] != 1 else ''} by rule: "
        lines += textwrap.wrap(rules, width=SUMMARY_WIDTH, initial_indent=head, subsequent_indent="    ",
                               break_long_words=False, break_on_hyphens=False)
    skipped, others = s["skipped"]["expected_reports"], s["skipped"]["not_transcripts"]
    if skipped or others:
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        parts = ([f"{skipped} expected report{'s' if skipped != 1 else ''}"] if skipped else []) + (
            [f"{len(others)} not transcript{'s' if len(others) != 1 else ''} ({shown})"] if others else [])
        lines.append(f"  skipped .txt files: {', '.join(parts)}")
    return "\n".join(lines) + "\n"


class _Progress:
    """Records done, rate and time left, on standard error when it is a terminal; nothing otherwise."""

    def __init__(self, total: int) -> None:
        self.bar = None
        self.started = time.monotonic()
        self.checked = 0
        if sys.stderr.isatty() and total:
            self.bar = click.progressbar(length=total, label="checking", file=sys.stderr, show_pos=True,
                                         show_eta=True, item_show_func=self._rate)
            self.bar.__enter__()

    def _rate(self, _item) -> str:
        seconds = time.monotonic() - self.started
        return f"{self.checked / seconds:.1f} records/s" if seconds > 0 and self.checked else ""

    def advance(self, checked: bool) -> None:
        self.checked += checked
        if self.bar is not None:
            self.bar.update(1, True)

    def echo(self, text: str) -> None:
        """A line on standard output without tearing the bar (both may be the terminal)."""
        if self.bar is not None and sys.stdout.isatty():
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            click.echo(text, nl=False)
            self.bar.render_progress()
        else:
            click.echo(text, nl=False)

    def warn(self, text: str) -> None:
        """A line on standard error without tearing the bar."""
        if self.bar is not None:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        click.echo(text, nl=False, err=True)
        if self.bar is not None:
            self.bar.render_progress()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def run_archive(paths: list[str], options: CheckOptions, *, jobs: int | None = None, cluster: str | None = None,
                bound: float, as_json: bool = False, output: Path | None = None) -> int:
    """Check every record under ``paths``; print the reports and the summary; the worst exit code."""
    started = time.monotonic()
    found = find_records(paths, exclude=output)
    if not found.records:
        skipped = f" ({len(found.skipped)} .txt files that are not records skipped)" if found.skipped else ""
        raise FileError(f"no transcripts found in {', '.join(paths)}{skipped}")
    opts = options.to_json()
    report = None
    runner = None
    progress = None
    tally = Tally()
    waiting: dict[int, dict] = {}  # finished reports waiting for the records before them (printed in order)
    printed = 0
    try:
        if cluster is not None:
            from referee.run.cluster import ClusterRunner
            runner = ClusterRunner(cluster)  # first: a cluster that cannot be used leaves no report behind
        else:
            runner = LocalRunner(jobs or default_jobs())
        label = runner.label
        if output is not None:
            from referee.run.archive_report import ArchiveReport
            report = ArchiveReport(output, opts)
        progress = _Progress(len(found.records))

        def finished(index: int, result: dict) -> None:
            nonlocal printed
            if report is not None:
                report.write(result)
                if result.get("exit") == 2:  # the report holds it; the screen names it too
                    progress.warn(record_line(result) + "\n")
            tally.add(brief(result))
            progress.advance(True)
            if report is None:
                waiting[index] = result
                while printed in waiting:
                    line = waiting.pop(printed)
                    progress.echo(json.dumps(line, ensure_ascii=False) + "\n" if as_json else record_line(line) + "\n")
                    printed += 1

        pending: dict = {}

        def collect(block_until: int) -> None:
            nonlocal pending
            while len(pending) > block_until:
                done, _ = runner.wait(set(pending))
                for future in done:
                    index, name, data = pending.pop(future)
                    finished(index, _result(future, name, data))

        for index, name in enumerate(found.records):
            try:
                data = read_record_file(name)
            except NotationError as e:  # past the size bound: refused without being read
                finished(index, {"file": name, "sha256": None, "exit": 2, "error": e.to_json(), "seconds": 0.0})
                continue
            except OSError as e:
                finished(index, {"file": name, "sha256": None, "exit": 2, "error": {
                    "code": FileError.code, "message": f"cannot read the transcript {name}: {e.strerror or e}"},
                    "seconds": 0.0})
                continue
            known = report.reported(name, digest(data)) if report is not None else None
            if known is not None:
                tally.add(known)
                tally.reused += 1
                progress.advance(False)
                continue
            pending[runner.submit(name, data, opts, bound)] = (index, name, data)
            collect(runner.window - 1)
        collect(0)
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
        if runner is not None:
            runner.close()
            runner = None
        kept = (f"; {tally.records - tally.reused} reports written to {output}, the run again resumes there"
                if report is not None else "")
        if report is not None:
            report.close()
        click.echo(f"interrupted after {tally.records} of {len(found.records)} records{kept}", err=True)
        raise SystemExit(130)
    finally:
        if progress is not None:
            progress.close()
        if runner is not None:
            runner.close()
    summary = _summary_json(tally, found, time.monotonic() - started, label, output)
    if report is not None:
        report.write(summary)
        report.close()
    click.echo(json.dumps(summary, ensure_ascii=False) + "\n" if as_json else summary_text(summary), nl=False)
    return tally.worst


def _result(future, name: str, data: bytes) -> dict:
    """A finished task's report; a task that failed outside the record (a cluster
    that lost it, a worker that cannot run the referee) is reported as not judged."""
    try:
        return future.result()
    except Exception as error:
        return {"file": name, "sha256": digest(data), "exit": 2, "error": {"code": "worker", "message": (
            f"not judged: the worker could not check this record ({type(error).__name__}: {error})")},
            "seconds": 0.0}
