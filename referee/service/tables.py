"""Tables: games in progress kept by the service (``referee serve``) in one
SQLite file, ``tables.sqlite3`` under the data folder (``--data DIR``; by
default the user's data folder, platformdirs' ``user_data_dir("referee")``).

A table is a transcript that grows: each change is a new *revision* (the
text as it then stood, who made it and why), so nothing a player wrote is
ever changed or lost — a correction is a new revision the host makes, and
every old one stays readable to the host. The host may withdraw a line from the
players' view (a comment that tells one's gold, say): a new revision without it,
after which a player's link reads no earlier revision whose text holds it. A table has links: one for its host (who sees
everything and may correct) and one per player (who sees the game as that
player does). A link is an unguessable token (``secrets.token_urlsafe``).

Writes are transactions (``BEGIN IMMEDIATE``) in WAL mode with
``synchronous=FULL``: a revision the service has answered for is on disk, and
two appends at once are kept both, in order — or, when the writer named the
revision it expected (optimistic concurrency), the later one is refused with a
:class:`Conflict` that names the revision now current. This module knows
nothing of HTTP or of games; referee/service/routes/tables.py uses it."""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

#: The database file in the data folder.
FILE_NAME = "tables.sqlite3"
#: The schema's version (PRAGMA user_version). 2: seats (a player link follows its seat);
#: 3: a revision that adds a line keeps the line, not the whole text again (``whole``);
#: 4: lines withdrawn from the players' view (``withdrawals``).
SCHEMA = 4
#: Every this many revisions the whole text is kept again, so that reading a
#: revision joins at most this many lines added.
WHOLE_EVERY = 256
#: The longest line a player may add, in characters.
MAX_LINE = 500

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,            -- the players line's names, tab-separated, in order
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    player TEXT,                      -- NULL: the host's link; else the player's name now (or when removed)
    removed INTEGER                   -- the revision that took the player off the players line (NULL: playing)
);
CREATE TABLE IF NOT EXISTS seats (    -- the name a player's link answers as, from a revision on
    token TEXT NOT NULL REFERENCES links(token),
    revision INTEGER NOT NULL,
    player TEXT,                      -- NULL: no longer a player of the table
    PRIMARY KEY (token, revision)
);
CREATE TABLE IF NOT EXISTS revisions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,          -- 0 when the table was created, then 1, 2, ...
    text TEXT NOT NULL,               -- whole = 1: the whole transcript; 0: what it added to the one before
    rules TEXT,                       -- the rules reading (NULL: the transcript's own)
    kind TEXT NOT NULL,               -- 'created', 'added', 'corrected', 'reading', 'withdrawn'
    author TEXT NOT NULL,             -- 'host' or a player's name
    line INTEGER,                     -- the line added or the first line changed
    created REAL NOT NULL,
    whole INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS withdrawals (  -- a line the host withdrew from the players' view
    table_id TEXT NOT NULL REFERENCES tables(id),
    revision INTEGER NOT NULL,        -- the revision that withdrew it (kind 'withdrawn')
    line INTEGER NOT NULL,            -- its number in the revision before
    text TEXT NOT NULL,               -- the line as it stood: no earlier revision holding it is shown to a player
    PRIMARY KEY (table_id, revision)
);
"""


class TableError(Exception):
    """A request about a table that cannot be done; ``status`` is its HTTP status."""

    def __init__(self, status: int, code: str, message: str, **extra):
        super().__init__(message)
        self.status, self.code, self.extra = status, code, extra


class Conflict(TableError):
    """The table moved on since the revision the writer expected."""

    def __init__(self, expected: int, current: "Revision"):
        who = "the host" if current.author == "host" else current.author
        super().__init__(409, "conflict",
                         f"the table is at revision {current.number}, not {expected}: {who} changed it meanwhile "
                         f"({current.kind} line {current.line}); nothing was written — read the table again "
                         "and add your line after theirs", revision=current.number)


@dataclass(frozen=True)
class Link:
    token: str
    table: str
    player: str | None  # None: the host
    removed: int | None = None  # the revision that took this player off the table

    @property
    def host(self) -> bool:
        return self.player is None


@dataclass(frozen=True)
class Reseating:
    """What a change of the players line did to the players' links (:func:`reseat`)."""

    renamed: tuple[tuple[str, str], ...] = ()  # (old name, new name): the link follows its seat
    removed: tuple[str, ...] = ()  # these links answer no more
    added: tuple[str, ...] = ()  # each gets a new link

    def __bool__(self) -> bool:
        return bool(self.renamed or self.removed or self.added)


def reseat(old: tuple[str, ...] | list[str], new: tuple[str, ...] | list[str]) -> Reseating:
    """The links' rule when the host corrects the players line from ``old`` to
    ``new``: a link belongs to a seat, not to a name.

    - A name in both lines keeps its link (wherever it now stands).
    - A name gone from a place of the line where a name new to the line now
      stands is *renamed*: its link follows the seat and answers as the new name.
    - Any other name gone is *removed*: its link answers no more.
    - Any other new name is *added*: it gets a new link.

    To seat a different person where someone sat, the host removes the one and
    adds the other in two corrections (a rename would hand the new player's
    view to the old one's phone)."""
    before, after = set(old), set(new)
    renamed = tuple((a, b) for a, b in zip(old, new) if a not in after and b not in before)
    moved_from, moved_to = {a for a, _ in renamed}, {b for _, b in renamed}
    return Reseating(renamed, tuple(a for a in old if a not in after and a not in moved_from),
                     tuple(b for b in new if b not in before and b not in moved_to))


@dataclass(frozen=True)
class Revision:
    table: str
    number: int
    text: str
    rules: str | None
    kind: str
    author: str
    line: int | None
    created: float

    def summary(self) -> dict:
        return {"revision": self.number, "kind": self.kind, "author": self.author, "line": self.line,
                "rules": self.rules, "created": self.created}


@dataclass(frozen=True)
class Withdrawal:
    """A line the host withdrew from the players' view, by revision ``revision``."""

    table: str
    revision: int
    line: int  # its number in the revision before
    text: str


@dataclass(frozen=True)
class Table:
    id: str
    name: str
    game: str
    players: tuple[str, ...]
    created: float


def token() -> str:
    """An unguessable link token: 144 random bits, URL-safe."""
    return secrets.token_urlsafe(18)


class TableStore:
    """The tables in one SQLite file. Safe to use from several threads (one
    connection, one lock); the service calls it off its event loop."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / FILE_NAME
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a revision answered for survives a power cut
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA:
            raise TableError(500, "data", f"{self.path} was written by a newer referee (schema {version}; "
                                          f"this one reads {SCHEMA})")
        with self._lock:
            if version == 1:  # before seats: every link answered as its name, for ever
                with self._transaction():
                    self._db.execute("ALTER TABLE links ADD COLUMN removed INTEGER")
                    self._db.execute(_SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS seats"):].split(";")[0])
                    self._db.execute("INSERT INTO seats SELECT token, 0, player FROM links "
                                     "WHERE player IS NOT NULL")
                    self._db.execute("PRAGMA user_version=2")
                version = 2
            if version == 2:  # every revision kept the whole text: keep what each added instead
                with self._transaction():
                    self._db.execute("ALTER TABLE revisions ADD COLUMN whole INTEGER NOT NULL DEFAULT 1")
                    self._keep_what_was_added()
                    self._db.execute("PRAGMA user_version=3")
                self._db.execute("VACUUM")  # give the room the old texts took back to the disk
                version = 3
            if version == 3:  # before withdrawals: every revision was readable by every link
                with self._transaction():
                    self._db.execute(_SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS withdrawals"):].split(";")[0])
                    self._db.execute("PRAGMA user_version=4")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- creating --------------------------------------------------------------------------
    def create(self, name: str, game: str, players: list[str], text: str, rules: str | None) -> tuple[Table, list[Link]]:
        """A new table at revision 0 with ``text``; its links, the host's first."""
        table = Table(token(), name, game, tuple(players), time.time())
        links = [Link(token(), table.id, None)] + [Link(token(), table.id, p) for p in players]
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?)",
                             (table.id, name, game, "\t".join(players), table.created))
            self._db.executemany("INSERT INTO links VALUES (?, ?, ?, NULL)",
                                 [(l.token, l.table, l.player) for l in links])
            self._db.executemany("INSERT INTO seats VALUES (?, 0, ?)", [(l.token, l.player) for l in links[1:]])
            self._insert(Revision(table.id, 0, text, rules, "created", "host", None, table.created))
        return table, links

    # -- reading ---------------------------------------------------------------------------
    def link(self, token: str) -> Link | None:
        with self._lock:
            row = self._db.execute("SELECT token, table_id, player, removed FROM links WHERE token = ?",
                                   (token,)).fetchone()
        return Link(*row) if row else None

    def links(self, table: str) -> list[Link]:
        """The table's links that answer: the host's first, then the players' in
        the order of the players line."""
        with self._lock:
            rows = self._db.execute("SELECT token, table_id, player, removed FROM links WHERE table_id = ? "
                                    "AND removed IS NULL ORDER BY player IS NOT NULL, rowid", (table,)).fetchall()
            players = self._table(table).players
        order = {name: place for place, name in enumerate(players)}
        return sorted((Link(*row) for row in rows), key=lambda l: -1 if l.host else order.get(l.player, len(order)))

    def player_at(self, token: str, number: int) -> str | None:
        """The name a player's link answered as at revision ``number`` (None: the
        player had no seat then — added later, or removed by then)."""
        with self._lock:
            row = self._db.execute("SELECT player FROM seats WHERE token = ? AND revision <= ? "
                                   "ORDER BY revision DESC LIMIT 1", (token, number)).fetchone()
        return row[0] if row else None

    def seated_since(self, token: str) -> int | None:
        """The first revision at which a player's link had a seat."""
        with self._lock:
            row = self._db.execute("SELECT MIN(revision) FROM seats WHERE token = ? AND player IS NOT NULL",
                                   (token,)).fetchone()
        return row[0] if row else None

    def table(self, table: str) -> Table:
        with self._lock:
            return self._table(table)

    def _table(self, table: str) -> Table:
        row = self._db.execute("SELECT id, name, game, players, created FROM tables WHERE id = ?",
                               (table,)).fetchone()
        if row is None:
            raise TableError(404, "unknown-table", "no such table")
        return Table(row[0], row[1], row[2], tuple(row[3].split("\t")) if row[3] else (), row[4])

    def revision(self, table: str, number: int | None = None) -> Revision:
        """Revision ``number`` of the table (default: the current one)."""
        with self._lock:
            return self._revision(table, number)

    def seen_by(self, link: Link, number: int | None = None) -> Revision:
        """Revision ``number`` (default: the current one) as ``link`` may read it.
        The host reads every revision; a player's link reads none whose text holds
        a line the host withdrew at a later revision: 403 ``withdrawn``, naming the
        revision to read instead (the one that withdrew the line, or a later
        withdrawal's when that one too holds a line withdrawn since)."""
        with self._lock:
            revision = self._revision(link.table, number)
            if link.host:
                return revision
            hiding = self._hiding(revision)
            if hiding is None:
                return revision
            instead = hiding
            while (later := self._hiding(self._revision(link.table, instead.revision))) is not None:
                instead = later
        raise TableError(403, "withdrawn", f"revision {revision.number} holds line {hiding.line} of revision "
                                           f"{hiding.revision - 1}, which the host withdrew from the players' view "
                                           f"at revision {hiding.revision}: read revision {instead.revision} "
                                           "instead", revision=instead.revision)

    def withdrawals(self, table: str) -> list[Withdrawal]:
        """The lines withdrawn from the players' view, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT table_id, revision, line, text FROM withdrawals WHERE table_id = ? "
                                    "ORDER BY revision", (table,)).fetchall()
        return [Withdrawal(*row) for row in rows]

    def _hiding(self, revision: Revision) -> Withdrawal | None:
        """The last withdrawal, after ``revision``, of a line its text holds."""
        rows = self._db.execute("SELECT table_id, revision, line, text FROM withdrawals WHERE table_id = ? "
                                "AND revision > ? ORDER BY revision DESC", (revision.table, revision.number)).fetchall()
        if not rows:
            return None
        held = set(revision.text.split("\n"))
        return next((Withdrawal(*row) for row in rows if row[3] in held), None)

    def revisions(self, table: str) -> list[Revision]:
        """Every revision of the table, oldest first, without their texts."""
        with self._lock:
            rows = self._db.execute("SELECT table_id, number, '', rules, kind, author, line, created FROM revisions "
                                    "WHERE table_id = ? ORDER BY number", (table,)).fetchall()
        return [Revision(*row) for row in rows]

    def current_number(self, table: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT MAX(number) FROM revisions WHERE table_id = ?", (table,)).fetchone()
        return row[0]

    # -- writing ---------------------------------------------------------------------------
    def append(self, table: str, line: str, author: str, expected: int | None = None) -> Revision:
        """Add ``line`` at the end of the transcript: a new revision, written
        before anything judges it. With ``expected``, refused (Conflict) unless
        the table is still at that revision; without it, appended after
        whatever came meanwhile."""
        line = check_line(line)
        with self._lock, self._transaction():
            current = self._revision(table, None)
            if expected is not None and expected != current.number:
                raise Conflict(expected, current)
            text = current.text if current.text.endswith("\n") or not current.text else current.text + "\n"
            number_of_line = text.count("\n") + 1
            revision = Revision(table, current.number + 1, text + line + "\n", current.rules, "added", author,
                                number_of_line, time.time())
            self._insert(revision, current)
        return revision

    def correct(self, table: str, text: str, expected: int, rules: str | None = None, keep_rules: bool = True,
                players: tuple[str, ...] | list[str] | None = None,
                game: str | None = None) -> tuple[Revision, Reseating, list[Link]]:
        """The host's correction: the whole text as it should now stand (a line
        edited or removed), as a new revision; ``expected`` is required. The
        reading changes with ``keep_rules=False``. ``players`` (and ``game``):
        the corrected text's players line as read (None: unread, the seats stay
        as they are); the links follow it by :func:`reseat`, in the same
        transaction. Answers the revision, what the links did, and the new links."""
        with self._lock, self._transaction():
            current = self._revision(table, None)
            if expected != current.number:
                raise Conflict(expected, current)
            new_rules = current.rules if keep_rules else rules
            if text == current.text and new_rules == current.rules:
                return current, Reseating(), []
            kind = "reading" if text == current.text else "corrected"
            revision = Revision(table, current.number + 1, text, new_rules, kind, "host",
                                first_difference(current.text, text), time.time())
            self._insert(revision, current)
            seated = self._table(table)
            change, added = Reseating(), []
            if players is not None and tuple(players) != seated.players:
                change = reseat(seated.players, tuple(players))
                added = self._reseat(seated, change, revision.number)
                self._db.execute("UPDATE tables SET players = ? WHERE id = ?", ("\t".join(players), table))
            if game is not None and game != seated.game:
                self._db.execute("UPDATE tables SET game = ? WHERE id = ?", (game, table))
        return revision, change, added

    def withdraw(self, table: str, number: int, expected: int) -> Revision:
        """The host withdraws line ``number`` from the players' view: a new revision
        whose text no longer holds it (kind ``withdrawn``, at that line), and the
        withdrawal kept, in the same transaction; ``expected`` is required (Conflict).
        From then on a player's link reads no earlier revision whose text holds the
        line (:meth:`seen_by`); the host's reads them all."""
        with self._lock, self._transaction():
            current = self._revision(table, None)
            if expected != current.number:
                raise Conflict(expected, current)
            lines = current.text.split("\n")
            count = len(lines) - 1 if lines[-1] == "" else len(lines)
            if not 1 <= number <= count:
                raise TableError(422, "request", f"revision {current.number} has lines 1 to {count}, "
                                                 f"not line {number}")
            withdrawn = lines.pop(number - 1)
            if not withdrawn.strip():
                raise TableError(422, "request", f"line {number} is empty: there is nothing to withdraw")
            revision = Revision(table, current.number + 1, "\n".join(lines), current.rules, "withdrawn", "host",
                                number, time.time())
            self._insert(revision, current)
            self._db.execute("INSERT INTO withdrawals VALUES (?, ?, ?, ?)",
                             (table, revision.number, number, withdrawn))
        return revision

    def _reseat(self, table: Table, change: Reseating, number: int) -> list[Link]:
        """The links follow a changed players line (in the caller's transaction)."""
        def token_of(name: str) -> str:
            return self._db.execute("SELECT token FROM links WHERE table_id = ? AND player = ? AND removed IS NULL",
                                    (table.id, name)).fetchone()[0]

        for old, new in change.renamed:
            found = token_of(old)
            self._db.execute("UPDATE links SET player = ? WHERE token = ?", (new, found))
            self._db.execute("INSERT INTO seats VALUES (?, ?, ?)", (found, number, new))
        for name in change.removed:
            found = token_of(name)
            self._db.execute("UPDATE links SET removed = ? WHERE token = ?", (number, found))
            self._db.execute("INSERT INTO seats VALUES (?, ?, NULL)", (found, number))
        added = [Link(token(), table.id, name) for name in change.added]
        for link in added:
            self._db.execute("INSERT INTO links VALUES (?, ?, ?, NULL)", (link.token, link.table, link.player))
            self._db.execute("INSERT INTO seats VALUES (?, ?, ?)", (link.token, number, link.player))
        return added

    # -- the database ----------------------------------------------------------------------
    _COLUMNS = "table_id, number, text, rules, kind, author, line, created"

    def _revision(self, table: str, number: int | None) -> Revision:
        if number is None:
            row = self._db.execute(f"SELECT {self._COLUMNS}, whole FROM revisions WHERE table_id = ? "
                                   "ORDER BY number DESC LIMIT 1", (table,)).fetchone()
        else:
            row = self._db.execute(f"SELECT {self._COLUMNS}, whole FROM revisions WHERE table_id = ? AND number = ?",
                                   (table, number)).fetchone()
        if row is None:
            if number is None:
                raise TableError(404, "unknown-table", "no such table")
            last = self._db.execute("SELECT MAX(number) FROM revisions WHERE table_id = ?", (table,)).fetchone()[0]
            raise TableError(404, "unknown-revision", f"the table has no revision {number}; its revisions are "
                                                      f"0 to {last}")
        *fields, whole = row
        revision = Revision(*fields)
        if whole:
            return revision
        # the whole text kept last, and what each revision since added to it
        parts = self._db.execute(
            "SELECT text FROM revisions WHERE table_id = ? AND number <= ? AND number >= (SELECT MAX(number) FROM "
            "revisions WHERE table_id = ? AND number <= ? AND whole = 1) ORDER BY number",
            (table, revision.number, table, revision.number)).fetchall()
        return replace(revision, text="".join(part for (part,) in parts))

    def _insert(self, revision: Revision, before: Revision | None = None) -> None:
        """Keep ``revision``: what it added to ``before`` when it only adds to it
        (a line; a change of reading adds nothing), else its whole text (and every
        WHOLE_EVERY revisions, so that reading one joins a bounded number of lines)."""
        text, whole = revision.text, 1
        if (before is not None and revision.number % WHOLE_EVERY and revision.text.startswith(before.text)):
            text, whole = revision.text[len(before.text):], 0
        self._db.execute(f"INSERT INTO revisions ({self._COLUMNS}, whole) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (revision.table, revision.number, text, revision.rules, revision.kind,
                          revision.author, revision.line, revision.created, whole))

    def _keep_what_was_added(self) -> None:
        """Schema 2 to 3: each revision that only added to the one before keeps what
        it added (in the caller's transaction)."""
        previous: dict[str, str] = {}
        rows = self._db.execute("SELECT table_id, number, text FROM revisions ORDER BY table_id, number").fetchall()
        for table, number, text in rows:
            before = previous.get(table)
            if before is not None and number % WHOLE_EVERY and text.startswith(before):
                self._db.execute("UPDATE revisions SET text = ?, whole = 0 WHERE table_id = ? AND number = ?",
                                 (text[len(before):], table, number))
            previous[table] = text

    class _Tx:
        def __init__(self, db: sqlite3.Connection):
            self.db = db

        def __enter__(self):
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind, value, traceback):
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
            return False

    def _transaction(self) -> "_Tx":
        return self._Tx(self._db)


def check_line(line: str) -> str:
    """A line a player may add: one line of text, bounded, no control characters."""
    if not isinstance(line, str) or not line.strip():
        raise TableError(422, "request", "the line is empty")
    if "\n" in line or "\r" in line:
        raise TableError(422, "request", "add one line at a time: the text holds a line break")
    if len(line) > MAX_LINE:
        raise TableError(422, "request", f"the line has {len(line)} characters; a line has at most {MAX_LINE}")
    bad = next((c for c in line if ord(c) < 32 and c != "\t" or ord(c) == 127), None)
    if bad is not None:
        raise TableError(422, "request", f"the line holds a control character (U+{ord(bad):04X})")
    return line.rstrip()


def first_difference(old: str, new: str) -> int:
    """The number of the first line where two texts differ."""
    for number, (a, b) in enumerate(zip(old.split("\n"), new.split("\n")), start=1):
        if a != b:
            return number
    return min(old.count("\n"), new.count("\n")) + 1


def default_folder() -> Path:
    """The user's data folder for the referee (~/.local/share/referee on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("referee", appauthor=False))
