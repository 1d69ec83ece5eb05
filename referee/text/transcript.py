"""A transcript as the project sees it: frozen value types, no parser objects.

:mod:`referee.notation` reads the text (``parse_transcript``, ``read_transcript``)
and gives back a :class:`Transcript`; everything else in the project works on
these types.  The notation itself is described in docs/notation.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn

CHANCE = "chance"
"""The role that makes chance moves: what dice, cards or tiles show."""


@dataclass(frozen=True, order=True)
class Span:
    """Where a piece of text is: 1-based lines and columns.

    ``end_column`` is the column just after the last character, as in lark, so
    ``line_text[column - 1:end_column - 1]`` is the text on a one-line span.
    """

    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        if self.line == self.end_line:
            return f"{self.line}:{self.column}-{self.end_column}"
        return f"{self.line}:{self.column}-{self.end_line}:{self.end_column}"


@dataclass(frozen=True)
class PlayerDecl:
    """One entry of the ``players:`` line: ``Ann red``."""

    name: str
    colour: str
    span: Span


@dataclass(frozen=True)
class PlacementLine:
    """A header line that says where one player's pieces begin: the places it
    names (ids of the game's map)."""

    player: str
    places: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Header:
    """The lines before the first move or period heading."""

    game: str
    players: tuple[PlayerDecl, ...]
    order: tuple[str, ...] | None = None
    rules: str = "en"
    data_file: str | None = None  # the game's data: a built-in name or a file path
    spans: Mapping[str, Span] = FrozenMap()
    placements: tuple[PlacementLine, ...] = ()  # starting placements stated by the transcript
    options: Mapping[str, str] = FrozenMap()
    """Header lines of one game only (a ``layout:`` line, say), by key."""

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)


@dataclass(frozen=True)
class PeriodStart:
    """A period heading (``round N``: the word is the game's ``period``)."""

    number: int
    span: Span


@dataclass(frozen=True)
class Play:
    """One move by one role, with where it was written.

    ``role`` is a player's name as declared in the header, or ``'chance'``.
    ``group`` qualifies the role: the group of actions the line belongs to,
    written after the player (``Cy/X:``); ``None`` for a line without one and
    for chance.  A piece with a count (``3 pawns on c4``) gives that many Plays
    with the same ``text`` and ``span``.
    """

    role: str
    group: str | None
    move: Fn
    text: str
    span: Span
    disputed: bool = False
    line_text: str = ""


Event = Union[PeriodStart, Play]


@dataclass(frozen=True)
class Transcript:
    """A whole transcript: the file it came from, its header and its events."""

    source: str
    header: Header
    events: tuple[Event, ...]
    #: The SHA-256 of the text it was read from ('' for one built otherwise): what
    #: is kept of a record (referee/judge/kept_runs.py) is kept under it.
    digest: str = field(default="", compare=False)

    @property
    def plays(self) -> tuple[Play, ...]:
        return tuple(e for e in self.events if isinstance(e, Play))
