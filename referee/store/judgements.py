"""The judgement cache: the solver's judgements kept on disk, so that a new
process (``referee explain`` after ``referee check``) does not judge the whole
game again.

A judgement is stored under the rules (the rule programs' text and the static
data: the reading, the data file, the players), the state and the move, hashed
together: it is only ever used for exactly the position it was computed for,
so a verdict read from the cache is the verdict the solver gives.

The cache is one SQLite file (stdlib ``sqlite3``) in the user's cache folder
(``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``), or the file named by
the environment variable ``REFEREE_CACHE``; ``REFEREE_CACHE=off`` (or the
command line's ``--no-cache``) switches it off. Two processes may use it at
once (SQLite's write-ahead log and a busy timeout); it holds at most
``MAX_ROWS`` judgements (the oldest go first). Each row carries a checksum of
its key and value; a row that does not match, a file that is not this cache
(another program's database, a newer or older format) or a damaged file is
ignored, never trusted, and never written over: the referee then simply asks
the solver. Nothing in it is needed: deleting the file loses only time.

The same file keeps, in its table ``memo``, what a finished read and a whole
run gave (referee/judge/kept_runs.py), compressed, with the same checksums and a bound of
its own (``MAX_MEMOS``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import zlib
from pathlib import Path

from referee.base.terms import Fn, Term, fn, term_text

#: The format of the rows; a file of another format is not used.
FORMAT = 1
#: SQLite's application_id of this cache ("RFRE"): a database without it is not ours.
APPLICATION_ID = 0x52465245
#: The most judgements kept (about 1.5 KB each on disk: some 150 MB at most).
MAX_ROWS = 100_000
#: How long a process waits for another one writing (seconds).
BUSY_TIMEOUT = 2.0

#: The most memos kept (a record read or a whole run, referee/judge/kept_runs.py: 2-15 KB each
#: compressed, some 50 MB at most).
MAX_MEMOS = 10_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS judgement (
    key BLOB PRIMARY KEY,
    value TEXT NOT NULL,
    checksum BLOB NOT NULL
)
"""
_MEMO_SCHEMA = """
CREATE TABLE IF NOT EXISTS memo (
    key BLOB PRIMARY KEY,
    value BLOB NOT NULL,
    checksum BLOB NOT NULL
)
"""


def default_path() -> Path | None:
    """The cache file, or None when the cache is switched off (``REFEREE_CACHE=off``)."""
    setting = os.environ.get("REFEREE_CACHE", "").strip()
    if setting.lower() in ("off", "0", "no", "false", "none"):
        return None
    if setting:
        return Path(setting)
    from referee.store.files import cache_dir

    return cache_dir() / f"judgements-{FORMAT}.sqlite"


def default_store() -> "JudgementStore | None":
    """The user's judgement cache (None when switched off)."""
    path = default_path()
    return JudgementStore(path) if path is not None else None


class JudgementStore:
    """Judgements on disk, keyed by (rules, state, move); see the module's text.

    Every failure to open, read or write the file switches the store off for
    the rest of the process: a cache never stops the referee."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._digests: dict = {}  # state -> its digest (states repeat across calls)

    # -- judgements ------------------------------------------------------------------
    def judgement(self, rules: str, state: frozenset, role: Term, move: Fn):
        """The stored judgement of ``move`` by ``role`` in ``state`` as plain values,
        (violations as (rule, role, move, args), gains, loses, goals), or None."""
        value = self._get(self._key(rules, state, ("judge", encode(role), encode(move))))
        if value is None:
            return None
        try:
            violations = tuple((rule, decode(r), decode(m), tuple(decode(a) for a in args))
                               for rule, r, m, args in value["violations"])
            gains = frozenset(decode(f) for f in value["gains"])
            loses = frozenset(decode(f) for f in value["loses"])
            goals = tuple((decode(p), decode(n)) for p, n in value["goals"])
            if not all(isinstance(rule, str) and isinstance(move, Fn) for rule, _, move, _ in violations):
                return None
            return violations, gains, loses, goals
        except (KeyError, TypeError, ValueError):
            return None

    def keep(self, rows: list) -> None:
        """Store judgements: each row (rules, (state, role, move), Judgement)."""
        encoded = []
        for rules, (state, role, move), j in rows:
            value = {"violations": [[v.rule, encode(v.role), encode(v.move), [encode(a) for a in v.args]]
                                    for v in j.violations],
                     "gains": [encode(f) for f in j.gains], "loses": [encode(f) for f in j.loses],
                     "goals": [[encode(p), encode(n)] for p, n in j.goals]}
            encoded.append((self._key(rules, state, ("judge", encode(role), encode(move))), value))
        self._put(encoded)

    def legal_moves(self, rules: str, state: frozenset):
        """The stored legal moves of ``state``, or None."""
        value = self._get(self._key(rules, state, ("legal",)))
        if value is None:
            return None
        try:
            return tuple((decode(r), decode(m)) for r, m in value)
        except (TypeError, ValueError):
            return None

    def keep_legal_moves(self, rules: str, state: frozenset, moves) -> None:
        self._put([(self._key(rules, state, ("legal",)), [[encode(r), encode(m)] for r, m in moves])])

    def initial_state(self, rules: str) -> frozenset | None:
        """The stored initial state of these rules and static data, or None."""
        value = self._get(self._key(rules, frozenset(), ("init",)))
        try:
            return frozenset(decode(f) for f in value) if value is not None else None
        except (TypeError, ValueError):
            return None

    def keep_initial_state(self, rules: str, state: frozenset) -> None:
        self._put([(self._key(rules, frozenset(), ("init",)), [encode(f) for f in state])])

    # -- memos (referee/judge/kept_runs.py) ----------------------------------------------------------
    def memo(self, key: bytes) -> bytes | None:
        """The memo kept under ``key`` (its checksum checked), or None."""
        value = self._read("memo", key, bytes)
        try:
            return zlib.decompress(value) if value is not None else None
        except zlib.error:
            return None

    def keep_memo(self, key: bytes, value: bytes) -> None:
        packed = zlib.compress(value, 1)
        self._write("INSERT OR REPLACE INTO memo (key, value, checksum) VALUES (?, ?, ?)",
                    [(key, packed, _checksum(key, packed))], "memo", MAX_MEMOS)

    # -- keys ------------------------------------------------------------------------
    def _key(self, rules: str, state: frozenset, what: tuple) -> bytes:
        digest = hashlib.sha256(f"{FORMAT}\0{rules}\0{self._state_digest(state)}\0".encode("utf-8"))
        digest.update(json.dumps(what, separators=(",", ":")).encode("utf-8"))
        return digest.digest()

    def _state_digest(self, state: frozenset) -> str:
        found = self._digests.get(state)
        if found is None:

            found = hashlib.sha256("\n".join(sorted(map(term_text, state))).encode("utf-8")).hexdigest()
            if len(self._digests) > 20_000:
                self._digests.clear()
            self._digests[state] = found
        return found

    # -- the file ----------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._db is not None:
            return self._db
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            try:
                (app,) = db.execute("PRAGMA application_id").fetchone()
                (version,) = db.execute("PRAGMA user_version").fetchone()
                tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                if app == 0 and version == 0 and not tables:  # a new, empty file: make it ours
                    db.execute("BEGIN IMMEDIATE")
                    (app,) = db.execute("PRAGMA application_id").fetchone()
                    if app == 0:
                        db.execute(_SCHEMA)
                        db.execute(_MEMO_SCHEMA)
                        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                        db.execute(f"PRAGMA user_version = {FORMAT}")
                    db.execute("COMMIT")
                    (app,) = db.execute("PRAGMA application_id").fetchone()
                    (version,) = db.execute("PRAGMA user_version").fetchone()
                if app != APPLICATION_ID or version != FORMAT:  # another program's file, or another format
                    raise sqlite3.DatabaseError("not this cache")
                if "memo" not in tables and tables:  # a file from before the memos
                    db.execute(_MEMO_SCHEMA)
                try:
                    db.execute("PRAGMA journal_mode = WAL")
                    db.execute("PRAGMA synchronous = NORMAL")
                except sqlite3.DatabaseError:
                    pass  # a file system without shared memory: the default journal works too
            except BaseException:
                db.close()
                raise
        except (sqlite3.Error, OSError):
            self._broken = True
            return None
        self._db = db
        return db

    def _get(self, key: bytes):
        value = self._read("judgement", key, str)
        try:
            return json.loads(value) if value is not None else None
        except ValueError:
            return None

    def _read(self, table: str, key: bytes, kind: type):
        """The value of ``table`` under ``key``, or None: no such row, or a damaged
        one (its checksum does not match: the solver answers, and the row is
        written again)."""
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute(f"SELECT value, checksum FROM {table} WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            self._close()
            return None
        if row is None or not isinstance(row[0], kind) or row[1] != _checksum(key, row[0]):
            return None
        return row[0]

    def _put(self, rows: list[tuple[bytes, object]]) -> None:
        db = self._connect()
        if db is None or not rows:
            return
        values = []
        for key, value in rows:
            text = json.dumps(value, separators=(",", ":"))
            values.append((key, text, _checksum(key, text)))
        self._write("INSERT OR REPLACE INTO judgement (key, value, checksum) VALUES (?, ?, ?)", values,
                    "judgement", MAX_ROWS)

    def _write(self, insert: str, values: list, table: str, most: int) -> None:
        """Insert rows into ``table`` in one transaction, keeping at most ``most``
        of them (past it, the oldest tenth goes)."""
        db = self._connect()
        if db is None:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(insert, values)
            newest, oldest = db.execute(f"SELECT max(rowid), min(rowid) FROM {table}").fetchone()
            if newest is not None and newest - oldest + 1 > most:
                db.execute(f"DELETE FROM {table} WHERE rowid < ?", (newest - most * 9 // 10,))
            db.execute("COMMIT")
        except sqlite3.Error:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            # busy past the timeout, or the disk is full: these judgements are simply not kept

    def _close(self) -> None:
        self._broken = True
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
        self._db = None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _checksum(key: bytes, value: str | bytes) -> bytes:
    return hashlib.sha256(key + (value if isinstance(value, bytes) else value.encode("utf-8"))).digest()[:16]


def encode(term: Term):
    """A term as JSON: a number, a string, or [name, args...] for a function term."""
    if isinstance(term, bool):
        raise TypeError("bool is not a term")
    if isinstance(term, (int, str)):
        return term
    return [term.name, *(encode(a) for a in term.args)]


def decode(value) -> Term:
    if isinstance(value, bool):
        raise ValueError("not a term")
    if isinstance(value, (int, str)):
        return value
    if isinstance(value, list) and value and isinstance(value[0], str):
        return fn(value[0], *(decode(a) for a in value[1:]))
    raise ValueError("not a term")
