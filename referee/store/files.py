"""The cache folder and its one store of derived files: what the referee
computes once from its own data and keeps for the next process. Nothing in it
is needed: deleting the folder loses only time.

Every derived file is of a :class:`Kind` (its name and its format version) and
has a key, a digest of what it is derived from (:func:`key_of`): it is named
``<kind>-<version>-<key>`` in the folder. A file starts with a line naming its
kind, version and key and holding a checksum of its content; one whose line
does not match (damaged, cut short, another version's, renamed) is rebuilt,
never trusted (:meth:`Kind.fetch`). A file is written whole or not at all (a
temporary file of the owner's only, then renamed), and the folder keeps at most
``Kind.keep`` files of each kind (the oldest written go first). The kinds
(each declared by the module that builds its files): the parsed TOML data
files (referee/text/toml_source.py), the built parsers (referee/text/parser.py),
the games' entry points (referee/game/registry.py), the indexed programs and
their outlines (referee/judge/engine.py), what the relevance analysis keeps
(referee/judge/relevance_store.py), and the judgement cache, a SQLite
database (referee/store/judgements.py) whose path, format check and policy
(a file that is not this version's is left alone, never used) are the
store's too (:meth:`Kind.database_path`, :func:`open_database`)."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def cache_dir() -> Path:
    """Where the referee keeps derived files it can always rebuild."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "referee"


#: Files of one kind (the first word of their name: ``toml``, ``outlines``...)
#: the folder keeps; past it, the oldest written go (each version of the rules,
#: each data file, each test's data adds one).
KEEP_PER_KIND = 64

#: What a decoder raises for data it refuses (the file is then rebuilt).
REFUSED = (ValueError, TypeError, EOFError, KeyError, IndexError)


def key_of(*parts: str | bytes) -> str:
    """The key of a derived file: a digest (hex) of what it is derived from."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class Kind:
    """One kind of derived file: its name, its format ``version`` (bump it when
    the bytes its builder writes change: the files of the old one are then
    ignored, never misread) and the most files of it the folder keeps."""

    name: str
    version: int
    keep: int | None = None  # None: KEEP_PER_KIND

    def path(self, key: str) -> Path:
        """The file of ``key`` (a :func:`key_of` digest)."""
        return cache_dir() / f"{self.name}-{self.version}-{key[:32]}"

    def database_path(self) -> Path:
        """The one database file of a kind written by a database (the judgement cache)."""
        return cache_dir() / f"{self.name}-{self.version}.sqlite"

    def file(self, key: str) -> DerivedFile:
        """The file of ``key``, in the cache folder as it is now (a later change
        of the folder does not move it)."""
        return DerivedFile(self, key, self.path(key))

    def read(self, key: str) -> bytes | None:
        """The content of ``key``'s file, or None (:meth:`DerivedFile.read`)."""
        return self.file(key).read()

    def write(self, key: str, content: bytes) -> None:
        """Write ``key``'s file (:meth:`DerivedFile.write`)."""
        self.file(key).write(content)

    def fetch(self, key: str, build: Callable[[], T], encode: Callable[[T], bytes],
              decode: Callable[[bytes], T]) -> T:
        """``decode`` of ``key``'s file; or, when there is none or it is refused
        (damaged, another version's, or ``decode`` raises one of REFUSED),
        ``build()``, kept as ``encode`` of it (a value ``encode`` refuses with
        TypeError or ValueError is simply not kept)."""
        content = self.read(key)
        if content is not None:
            try:
                return decode(content)
            except REFUSED:
                pass
        value = build()
        try:
            content = encode(value)
        except (TypeError, ValueError):
            return value
        self.write(key, content)
        return value


@dataclass(frozen=True)
class DerivedFile:
    """The file of one key of a kind."""

    kind: Kind
    key: str
    path: Path

    def _header(self, content: bytes) -> bytes:
        kind = self.kind
        return f"referee {kind.name} {kind.version} {self.key[:32]} {hashlib.sha256(content).hexdigest()}\n".encode()

    def read(self) -> bytes | None:
        """The file's content, or None: no such file, or one that cannot be
        read or whose first line (kind, version, key, checksum) does not match
        its content."""
        try:
            header, content = self.path.read_bytes().split(b"\n", 1)
        except (OSError, ValueError):
            return None
        return content if header + b"\n" == self._header(content) else None

    def write(self, content: bytes) -> None:
        """Write the file whole, or not at all (a cache that cannot be written
        is simply not used); past the kind's bound, the oldest of it go."""
        if write_whole(self.path, self._header(content) + content):
            _prune(self.path.parent, self.kind.name, self.kind.keep or KEEP_PER_KIND)


def write_whole(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` whole (a temporary file readable by its owner
    only, then renamed over it), in a folder of the owner's; False when it
    cannot be written."""
    import tempfile  # here: a process that only reads derived files does not import it (6 ms)

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        return False
    return True


def _prune(folder: Path, name: str, keep: int) -> None:
    """Delete the oldest files of kind ``name`` past ``keep`` (another process
    may be deleting them too: a file already gone is no error)."""
    def written(file: Path) -> float:
        try:
            return file.stat().st_mtime
        except OSError:
            return 0.0

    try:
        files = list(folder.glob(f"{name}-*"))
    except OSError:
        return
    if len(files) <= keep:
        return
    for old in sorted(files, key=written)[:-keep]:
        try:
            old.unlink()
        except OSError:
            pass


def open_database(path: Path, application_id: int, version: int, schema: tuple[str, ...], busy_timeout: float):
    """A connection to the derived database at ``path`` (sqlite3), or None.

    A new or empty file is made ours (``schema``, its ``application_id`` and
    format ``version``, owner-only); a file that is another program's, another
    version's or damaged is not used, and left alone (the path may be the
    user's own choice). Tables of ``schema`` missing from a file of this
    version are added. Write-ahead logging lets two processes use it at once."""
    import sqlite3

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_RDONLY | os.O_CREAT, 0o600))  # (a new file: the owner's only)
        db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
        try:
            (found_id,) = db.execute("PRAGMA application_id").fetchone()
            (found_version,) = db.execute("PRAGMA user_version").fetchone()
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            if found_id == 0 and found_version == 0 and not tables:  # a new, empty file: make it ours
                db.execute("BEGIN IMMEDIATE")
                (found_id,) = db.execute("PRAGMA application_id").fetchone()
                if found_id == 0:
                    for statement in schema:
                        db.execute(statement)
                    db.execute(f"PRAGMA application_id = {application_id}")
                    db.execute(f"PRAGMA user_version = {version}")
                db.execute("COMMIT")
                (found_id,) = db.execute("PRAGMA application_id").fetchone()
                (found_version,) = db.execute("PRAGMA user_version").fetchone()
            elif found_id == application_id and found_version == version:
                for statement in schema:  # (CREATE TABLE IF NOT EXISTS: a table added since)
                    db.execute(statement)
            if found_id != application_id or found_version != version:
                raise sqlite3.DatabaseError("not this derived file")
            try:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.DatabaseError:
                pass  # a file system without shared memory: the default journal works too
        except BaseException:
            db.close()
            raise
    except (sqlite3.Error, OSError):
        return None
    return db


# -- stamps of code ---------------------------------------------------------------------
#: The files that make up a package's code for code_stamp.
_SOURCE_SUFFIXES = (".py", ".lark", ".lp", ".toml", ".json", ".so", ".pyd", ".dylib")
_stamps: dict[str, str] = {}


def code_stamp(*folders: str | Path) -> str:
    """A digest of the code under ``folders`` (every file named ``*.py``,
    ``*.lark``, ``*.lp``, ``*.toml``, ``*.json``, and compiled libraries), by
    relative name, size and modification time, and of the Python it runs on:
    it changes whenever one of them is edited or installed again. Computed
    once per process."""
    key = "\0".join(map(str, folders))
    found = _stamps.get(key)
    if found is None:
        digest = hashlib.sha256(f"{sys.version_info[:2]}\0{marshal.version}".encode())
        for folder in folders:
            for path, size, mtime in sorted(_sources(str(folder))):
                digest.update(f"{os.path.relpath(path, folder)}\0{size}\0{mtime}\n".encode("utf-8", "replace"))
        found = _stamps[key] = digest.hexdigest()
    return found


def _sources(folder: str):
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                yield from _sources(entry.path)
        elif entry.name.endswith(_SOURCE_SUFFIXES):
            info = entry.stat()
            yield entry.path, info.st_size, info.st_mtime_ns


def referee_stamp() -> str:
    """The stamp (code_stamp) of the referee package's own code."""
    return code_stamp(Path(__file__).resolve().parent.parent)


def solver_stamp() -> str:
    """The stamp (code_stamp) of the installed solver, clingo, found without
    importing it (15 ms): what is derived from the solver's answers is kept
    under it."""
    spec = importlib.util.find_spec("clingo")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("clingo is not installed")
    return code_stamp(spec.submodule_search_locations[0])[:16]
