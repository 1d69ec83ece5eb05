"""One exception hierarchy for every user-facing error.

Every error has a ``code``, its kind (stable; the table of kinds, with when each
is raised and its exit code, is in docs/report.md, "Errors"), a message a person
can act on, and where it applies a position in the transcript.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Position:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class RefereeError(Exception):
    """Base class of every error the referee reports to a user; raised itself, an
    option or argument the command cannot use (no move N, a game without a board
    picture, two readings needed)."""

    code = "option"

    def __init__(self, message: str, position: Position | None = None, context: str = ""):
        super().__init__(message)
        self.message = message
        self.position = position
        self.context = context  # the source line with a caret under the column, if known

    def __str__(self) -> str:
        where = f"{self.position}: " if self.position else ""
        text = f"{where}error[{self.code}]: {self.message}"
        if self.context:
            text += "\n" + self.context
        return text

    def to_json(self) -> dict:
        data: dict = {"code": self.code, "message": self.message}
        if self.position:
            data.update(file=self.position.file, line=self.position.line, column=self.position.column)
        return data


class FileError(RefereeError):
    """A file or folder cannot be read or written: missing, a folder, not allowed,
    already there (the referee writes only new files), or a folder without records."""

    code = "file"


class ReadingError(RefereeError):
    """An unknown rules reading, wherever it is named (--rules, a 'rules:' line, a request)."""

    code = "reading"


class ClusterError(RefereeError):
    """--cluster: Dask is missing, the scheduler cannot be reached, or its workers cannot run this referee."""

    code = "cluster"


class NotationError(RefereeError):
    """The transcript cannot be read: a syntax error or an unknown name."""

    code = "notation"


class BoardError(RefereeError):
    """A board file is not well formed."""

    code = "board"


class DataError(RefereeError):
    """A game data file (rule catalogue, card list...) is missing or malformed."""

    code = "data"


class SequenceError(RefereeError):
    """The transcript cannot be followed: a move arrives where the game expects another kind."""

    code = "sequence"


class SolverLimitError(RefereeError):
    """The solver's time or grounding bound was hit."""

    code = "solver-limit"


class IllegalMoveError(RefereeError):
    """Strict mode: a move broke a rule."""

    code = "illegal"
