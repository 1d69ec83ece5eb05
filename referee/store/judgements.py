"""The judgement cache: the solver's judgements kept on disk, so that a new
process (``referee explain`` after ``referee check``) does not judge the whole
game again.

A judgement is stored under the rules (the rule programs' text and the static
data: the reading, the data file, the players), the state and the move, hashed
together: it is only ever used for exactly the position it was computed for,
so a verdict read from the cache is the verdict the solver gives.

The cache is one SQLite file (stdlib ``sqlite3``), a derived file of the
store (referee/store/files.py: its path, format check and opening), in the
user's cache folder (``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``), or the file named by
the environment variable ``REFEREE_CACHE``; ``REFEREE_CACHE=off`` (or the
command line's ``--no-cache``) switches it off. Two processes may use it at
once (SQLite's write-ahead log and a busy timeout); it holds at most
``MAX_ROWS`` judgements (the oldest go first). Each row carries a checksum of
its key and value; a row that does not match, a file that is not this cache
(another program's database, a newer or older format) or a damaged file is
ignored, never trusted, and never written over: the referee then simply asks
the solver. Nothing in it is needed: deleting the file loses only time. The
values are in the one codec (referee/store/codec.py).

The same file keeps, in its table ``memo``, what a finished read and a whole
run gave (referee/judge/kept_runs.py), compressed, with the same checksums and a bound of
its own (``MAX_MEMOS``).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import zlib
from pathlib import Path

from referee.base.terms import Fn, Term, term_text
from referee.store import codec
from referee.store.files import Kind, open_database

#: The format of the rows; a file of another format is not used.
FORMAT = 2
#: The judgement cache in the store of derived files (a database of its own, of this format).
JUDGEMENTS = Kind("judgements", FORMAT)
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
    value BLOB NOT NULL,
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
    return JUDGEMENTS.database_path()


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
        value = self._get(self._key(rules, state, ("judge", term_text(role), term_text(move))))
        try:
            violations, gains, loses, goals = value
            if not (all(type(rule) is str and isinstance(move, Fn) and type(args) is tuple
                        for rule, _, move, args in violations)
                    and type(gains) is frozenset and type(loses) is frozenset and type(goals) is tuple):
                return None
            return violations, gains, loses, goals
        except (TypeError, ValueError):
            return None

    def keep(self, rows: list) -> None:
        """Store judgements: each row (rules, (state, role, move), Judgement)."""
        self._put([(self._key(rules, state, ("judge", term_text(role), term_text(move))),
                    (tuple((v.rule, v.role, v.move, tuple(v.args)) for v in j.violations),
                     frozenset(j.gains), frozenset(j.loses), tuple(j.goals)))
                   for rules, (state, role, move), j in rows])

    def legal_moves(self, rules: str, state: frozenset):
        """The stored legal moves of ``state``, or None."""
        value = self._get(self._key(rules, state, ("legal",)))
        if type(value) is not tuple or not all(type(pair) is tuple and len(pair) == 2 for pair in value):
            return None
        return value

    def keep_legal_moves(self, rules: str, state: frozenset, moves) -> None:
        self._put([(self._key(rules, state, ("legal",)), tuple((r, m) for r, m in moves))])

    def initial_state(self, rules: str) -> frozenset | None:
        """The stored initial state of these rules and static data, or None."""
        value = self._get(self._key(rules, frozenset(), ("init",)))
        return value if type(value) is frozenset else None

    def keep_initial_state(self, rules: str, state: frozenset) -> None:
        self._put([(self._key(rules, frozenset(), ("init",)), frozenset(state))])

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
    def _key(self, rules: str, state: frozenset, what: tuple[str, ...]) -> bytes:
        """The digest of the rules, the state and what is asked (its terms as text)."""
        return hashlib.sha256("\0".join((str(FORMAT), rules, self._state_digest(state), *what)).encode(
            "utf-8", "surrogatepass")).digest()

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
        if self._db is None:
            self._db = open_database(self.path, APPLICATION_ID, FORMAT, (_SCHEMA, _MEMO_SCHEMA), BUSY_TIMEOUT)
            self._broken = self._db is None
        return self._db

    def _get(self, key: bytes):
        """The value kept under ``key`` (the one codec, referee/store/codec.py), or None."""
        data = self._read("judgement", key, bytes)
        if data is None:
            return None
        try:
            return codec.Codec(()).decode_all(codec.loads(data, 2))
        except (ValueError, TypeError, IndexError, KeyError):
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
            try:
                data = codec.dumps(*codec.Codec(()).encode_all(value))
            except (TypeError, AttributeError, ValueError):  # a value the codec cannot hold is not kept
                continue
            values.append((key, data, _checksum(key, data)))
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


def _checksum(key: bytes, value: bytes) -> bytes:
    return hashlib.sha256(key + value).digest()[:16]
