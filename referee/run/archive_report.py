"""The archive report of ``referee check PATH... -o REPORT``: JSON Lines,
appended to as records finish, read back to resume an interrupted archive.

The file is the referee's own: its first line says so (``referee_archive``) and
each run begins with such a line, naming the referee (a fingerprint of its code
and rules), the check's options and when the run started. Then one line per
record, the report of ``--json`` as the record finished (with the record's
content hash ``sha256``), and, when a run completes, a ``summary`` line.

Rules, each a promise:

- a file that exists and is not an archive report of the referee is refused,
  never written (so ``-o`` never overwrites anything a user wrote, a transcript
  named as the report included: records.find_records leaves it out); a new
  report is created only if nothing is at its name (``O_EXCL``), readable and
  writable by its owner only (as ``-o`` and ``--report`` files are: ``mkstemp``);
- lines are only appended, each written whole and flushed to the disk
  (``fsync``) before the next record is reported: an interruption (Ctrl-C, a
  killed process, a power cut) loses at most the record being written, whose
  incomplete last line (never a complete report) is cut off when the run is resumed;
- a run again with the same ``-o`` reuses a record's report when the same file
  (by the name shown) has the same content hash, and the report was made by the
  same referee with the same options; a record not judged for a reason outside
  it (the time bound, a worker that died) is checked again; the later line for
  a record counts;
- other options than the report's are refused (give another ``-o``): one report
  answers one question; another referee (an upgrade) checks every record again;
- two runs cannot write one report at once (a lock, ``flock``).

JSON Lines rather than SQLite: the report is the ``--json`` output itself,
readable with any text tool while it grows (``tail -f``, ``jq``, ``grep``), and
appending whole lines with ``fsync`` is all the durability a single writer
needs; resuming reads it once, keeping only each record's hash and counts.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timezone
from pathlib import Path

from referee import __version__
from referee.base.errors import FileError, RefereeError
from referee.run.verdicts import NOT_JUDGED, brief

FORMAT = 1


def fingerprint() -> str:
    """What identifies this referee's verdicts: its version, code and rule files."""
    root = Path(__file__).resolve().parents[1]  # the referee package
    h = hashlib.sha256(__version__.encode())
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (
                ".py", ".lp", ".lark", ".toml", ".json"):
            h.update(path.relative_to(root).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
    return h.hexdigest()[:32]


class ArchiveReport:
    """An archive report opened for a run: ``done`` maps each record already
    reported (by name) to its report in brief (``verdicts.brief``: hash, verdict, counts)."""

    def __init__(self, path: Path, options: dict) -> None:
        self.path = path
        self.done: dict[str, dict] = {}
        self.resumed = False
        target = path.resolve() if path.exists() else path.absolute()
        if target.is_dir():
            raise FileError(f"{path} is a folder; give the name of a new file for the archive report")
        if not target.parent.is_dir():
            raise FileError(f"cannot write {path}: there is no folder {path.parent}")
        self.fingerprint = fingerprint()
        head = {"referee_archive": FORMAT, "referee": __version__, "fingerprint": self.fingerprint,
                "options": options, "started": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
            _lock(fd, path)
        except FileExistsError:
            fd = self._resume(target, options)
        except OSError as e:
            raise FileError(f"cannot write {path}: {e.strerror}") from None
        self._file = os.fdopen(fd, "a", encoding="utf-8")
        self.write(head)

    def _resume(self, target: Path, options: dict) -> int:
        try:
            fd = os.open(target, os.O_RDWR | os.O_APPEND)
        except OSError as e:
            raise FileError(f"cannot open {self.path}: {e.strerror}") from None
        try:
            _lock(fd, self.path)
            with open(fd, "rb", closefd=False) as f:
                complete = self._read(f, options)
            if complete is not None:  # the last line was being written when a run was interrupted
                os.ftruncate(fd, complete)
        except BaseException:
            os.close(fd)
            raise
        self.resumed = True
        return fd

    def _read(self, lines, options: dict) -> int | None:
        """Read the report line by line (it may be large); the length of its
        complete lines when the last one is incomplete, else None."""
        current = False
        offset = 0
        for number, raw in enumerate(lines, 1):
            if number == 1:  # checked first: a file of someone else's is never cut, even by a torn line
                try:
                    head = json.loads(raw)
                except ValueError:
                    head = None
                if not isinstance(head, dict) or head.get("referee_archive") != FORMAT:
                    raise FileError(f"{self.path} exists already and is not an archive report of the referee; "
                                       "the referee writes only new files (or resumes its own archive report)")
            if not raw.endswith(b"\n"):
                return offset
            offset += len(raw)
            if not raw.strip():
                continue
            try:
                entry = json.loads(raw)
            except ValueError:
                raise FileError(f"{self.path}:{number}: this line is not JSON: the archive report was changed "
                                   "by hand; give another -o file") from None
            if not isinstance(entry, dict):
                continue
            if "referee_archive" in entry:
                if entry.get("options") != options:
                    theirs = entry.get("options") or {}
                    differ = ", ".join(k for k in sorted(set(options) | set(theirs)) if options.get(k) != theirs.get(k))
                    raise RefereeError(f"{self.path} reports a check with other options ({differ}); "
                                       "resume it with the same options, or give another -o file")
                current = entry.get("fingerprint") == self.fingerprint
            elif "file" in entry and "sha256" in entry:
                if current and (entry.get("error") or {}).get("code") not in NOT_JUDGED:
                    self.done[entry["file"]] = brief(entry)
                else:
                    self.done.pop(entry["file"], None)
        if offset == 0:
            raise FileError(f"{self.path} exists already and is not an archive report of the referee; "
                               "the referee writes only new files (or resumes its own archive report)")
        return None

    def reported(self, name: str, sha256: str) -> dict | None:
        """The report of ``name`` already in the file, if its content is still ``sha256``."""
        entry = self.done.get(name)
        return entry if entry is not None and entry.get("sha256") == sha256 else None

    def write(self, entry: dict) -> None:
        """Append one line, whole, and make it durable before going on."""
        self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def _lock(fd: int, path: Path) -> None:
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise FileError(f"{path} is being written by another referee run; wait for it to end") from None
