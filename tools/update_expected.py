#!/usr/bin/env python3
"""Regenerate (or verify) the expected reports of the shipped transcripts.

For every transcript ``transcripts/**/X.txt`` (every ``.txt`` that is not itself
a ``.report.txt``) this writes, beside it:

* ``X.report.txt``: exactly what ``referee check transcripts/.../X.txt`` prints
  on standard output when run from the repository root (so the file name in the
  report is the repository-relative path);
* ``X.exit``: the command's exit code, on one line (0 legal, 1 some move
  illegal, 2 unreadable).

A transcript whose header names readings (``# Readings: en, zh-001``: the
witnesses of transcripts/cyclades/readings/, docs/translations.md) is checked
under each of them instead (``referee check --rules R``), into
``X.<R>.report.txt`` and ``X.<R>.exit``.

Usage (from anywhere; the paths are taken relative to the repository root):

    python tools/update_expected.py            # rewrite every expected report
    python tools/update_expected.py --check    # exit 1 if any would change
    python tools/update_expected.py transcripts/cyclades/game-3p.txt   # only these

The check runs in-process through ``referee.cli.main`` with click's CliRunner,
which is what the ``referee`` command runs. Do not accept a regenerated report
blindly: read it, and make sure it flags exactly the moves the transcript's
header says are illegal (tests/ask/test_transcripts.py checks that too).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from click.testing import CliRunner

os.environ["REFEREE_CACHE"] = "off"  # expected reports are the solver's, made afresh
from referee.cli import main as referee_main  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = REPO / "transcripts"


def transcripts(paths: list[str] | None = None) -> list[Path]:
    """The transcripts to handle, as paths relative to the repository root."""
    if paths:
        found = [Path(p).resolve().relative_to(REPO) for p in paths]
    else:
        found = [p.relative_to(REPO) for p in TRANSCRIPTS.rglob("*.txt")]
    return sorted(p for p in found if not p.name.endswith(".report.txt"))


def expected_paths(transcript: Path, reading: str | None = None) -> tuple[Path, Path]:
    stem = transcript.name[: -len(".txt")] + (f".{reading}" if reading else "")
    return transcript.with_name(stem + ".report.txt"), transcript.with_name(stem + ".exit")


def header_readings(transcript: Path) -> list[str]:
    """The readings a witness transcript names on its '# Readings: A, B' line."""
    for line in transcript.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if line.startswith("# Readings:"):
            return [r.strip() for r in line.split(":", 1)[1].split(",") if r.strip()]
    return []


def run_check(transcript: Path, reading: str | None = None) -> tuple[str, int]:
    """What ``referee check [--rules R] TRANSCRIPT`` prints and its exit code, run from the root."""
    previous = os.getcwd()
    os.chdir(REPO)
    try:
        args = ["check"] + (["--rules", reading] if reading else []) + [transcript.as_posix()]
        result = CliRunner().invoke(referee_main, args)
    finally:
        os.chdir(previous)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise RuntimeError(f"referee check {transcript} crashed") from result.exception
    return result.stdout, result.exit_code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if an expected report or exit code differs")
    parser.add_argument("paths", nargs="*", help="transcripts to handle (default: all under transcripts/)")
    args = parser.parse_args(argv)
    missing = [p for p in args.paths if not (REPO / p).is_file()]
    if missing:
        parser.error("no such transcript: " + ", ".join(missing) + " (an expected report belongs to its record: "
                     "name the record's .txt, e.g. transcripts/cyclades/readings/loser-decides-first.txt)")

    stale = 0
    for transcript in transcripts(args.paths):
        started = time.perf_counter()
        want = {}
        codes = []
        for reading in header_readings(REPO / transcript) or [None]:
            text, code = run_check(transcript, reading)
            report, exit_file = expected_paths(REPO / transcript, reading)
            want.update({report: text, exit_file: f"{code}\n"})
            codes.append(str(code))
        code = "/".join(codes)
        seconds = time.perf_counter() - started
        differs = [p for p, content in want.items()
                   if not p.exists() or p.read_text(encoding="utf-8") != content]
        if args.check:
            status = "ok" if not differs else "DIFFERS: " + ", ".join(p.name for p in differs)
            stale += bool(differs)
        else:
            for p in differs:
                p.write_text(want[p], encoding="utf-8")
            status = "unchanged" if not differs else "written: " + ", ".join(p.name for p in differs)
        print(f"{transcript.as_posix()}: exit {code} ({seconds:.1f} s) {status}")
    if args.check and stale:
        print(f"{stale} transcript(s) differ from their expected reports; "
              "run tools/update_expected.py after reading the new reports", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
