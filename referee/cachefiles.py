"""The cache folder: files the referee derives from its own data and can always
rebuild (the indexed rule programs, their outlines, the built parsers, the
parsed TOML data files). Nothing in it is needed: deleting the folder loses
only time. A file is written whole or not at all, and a file that carries a
checksum (:func:`read_checked`) is used only when it matches: a damaged or
foreign file is rebuilt, never trusted. The judgement cache (referee/cache.py)
is a database of its own in the same folder."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def cache_dir() -> Path:
    """Where the referee keeps derived files it can always rebuild."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "referee"


def write_cache_file(path: Path, data: str | bytes) -> None:
    """Write a derived file into the cache folder whole (a temporary file, then
    renamed), or not at all: a cache that cannot be written is simply not used."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temp, path)
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
