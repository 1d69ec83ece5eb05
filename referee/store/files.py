"""The cache folder: files the referee derives from its own data and can always
rebuild (the indexed rule programs, their outlines, the built parsers, the
parsed TOML data files). Nothing in it is needed: deleting the folder loses
only time, and it keeps at most KEEP_PER_KIND files of each kind (the
oldest written go first). A file is written whole or not at all, and a file that carries a
checksum (:func:`read_checked`) is used only when it matches: a damaged or
foreign file is rebuilt, never trusted. The judgement cache (referee/store/judgements.py)
is a database of its own in the same folder."""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from pathlib import Path


def cache_dir() -> Path:
    """Where the referee keeps derived files it can always rebuild."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "referee"


#: Files of one kind (the first word of their name: ``toml``, ``outlines``...)
#: the folder keeps; past it, the oldest written go (each version of the rules,
#: each data file, each test's data adds one).
KEEP_PER_KIND = 64


def write_cache_file(path: Path, data: str | bytes) -> None:
    """Write a derived file into the cache folder whole (a temporary file, then
    renamed), or not at all: a cache that cannot be written is simply not used.
    The folder keeps at most KEEP_PER_KIND files of its kind."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temp, path)
    except OSError:
        return
    _prune(path)


def _prune(path: Path) -> None:
    """Delete the oldest files of ``path``'s kind past KEEP_PER_KIND (another
    process may be deleting them too: a file already gone is no error)."""
    def written(file: Path) -> float:
        try:
            return file.stat().st_mtime
        except OSError:
            return 0.0

    kind = path.name.split("-", 1)[0]
    try:
        files = [f for f in path.parent.glob(f"{kind}-*") if not f.name.endswith(".tmp")]
    except OSError:
        return
    if len(files) <= KEEP_PER_KIND:
        return
    for old in sorted(files, key=written)[:-KEEP_PER_KIND]:
        try:
            old.unlink()
        except OSError:
            pass


def write_checked(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text, or bytes) under a first line holding its checksum
    (:func:`read_checked`)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    write_cache_file(path, hashlib.sha256(raw).hexdigest().encode("ascii") + b"\n" + raw)


def read_checked(path: Path, binary: bool = False) -> str | bytes | None:
    """The data of a file :func:`write_checked` wrote (text, or bytes with
    ``binary``), or None: no such file, or one that cannot be read or whose
    checksum does not match."""
    try:
        checksum, raw = path.read_bytes().split(b"\n", 1)
        if checksum != hashlib.sha256(raw).hexdigest().encode("ascii"):
            return None
        return raw if binary else raw.decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


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
