"""Which files of the paths given to ``referee check PATH...`` are records.

A file named on the command line is a record, whatever its name. In a folder
(searched recursively, in sorted order, hidden folders such as ``.git`` left
out) a record is a ``*.txt`` file that is a transcript: its first line that is
neither blank nor a comment is a ``game:`` line (docs/notation.md). Skipped, and
listed in the summary: the expected reports that lie beside shipped transcripts
(``X.report.txt``, ``X.<reading>.report.txt``) and any other ``.txt`` file that
is not a transcript (a README, notes). Reading stays light here: this runs in
the parent process, which never loads the solver.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

#: A transcript's first meaningful line (the notation's own test, docs/notation.md: 'game: NAME').
_GAME_LINE = re.compile(r"^[ \t\f\v\u3000\ufeff]*game[ \t]*[:：]", re.IGNORECASE)
#: How much of a file is read to tell whether it is a transcript.
_SNIFF_BYTES = 65536


@dataclass
class Found:
    records: list[str] = field(default_factory=list)  # as shown in reports: the paths as given, joined
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why)


def is_transcript(path: Path) -> tuple[bool, str]:
    """Whether a ``.txt`` file found in a folder is a transcript, and if not why."""
    if path.name.endswith(".report.txt"):
        return False, "an expected report"
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF_BYTES)
    except OSError as e:
        return True, f"cannot be read: {e.strerror}"  # a record: its report says it cannot be read
    for line in head.decode("utf-8", errors="replace").splitlines():
        stripped = line.strip(" \t\f\v\u3000\ufeff")
        if not stripped or stripped.startswith("#"):
            continue
        return (True, "") if _GAME_LINE.match(line) else (False, "not a transcript (no 'game:' line first)")
    return False, "not a transcript (no 'game:' line first)"


def find_records(paths: list[str], exclude: Path | None = None) -> Found:
    """The records among ``paths`` (files and folders), each once, in order:
    the paths in the order given, a folder's records sorted by path."""
    found = Found()
    seen: set[str] = set()
    excluded = os.path.realpath(exclude) if exclude is not None else None

    def add(name: str) -> None:
        real = os.path.realpath(name)
        if real in seen or real == excluded:
            return
        seen.add(real)
        found.records.append(name)

    for given in paths:
        if not os.path.isdir(given):
            add(given)  # named by the user: a record (one that cannot be read is reported so)
            continue
        names = []
        for folder, dirs, files in os.walk(given):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            names += [os.path.join(folder, f) for f in files if f.endswith(".txt")]
        for name in sorted(names, key=lambda n: Path(n).parts):
            ok, why = is_transcript(Path(name))
            if ok:
                add(name)
            elif os.path.realpath(name) != excluded:
                found.skipped.append((name, why))
    return found
