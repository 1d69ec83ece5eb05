"""A parse tree as plain values, for games that read their own lines.

:mod:`referee.notation` parses a transcript with the game's grammar and hands
a game's reading module (``referee/games/<game>/reading.py``) the tree as
:class:`Node` and :class:`Leaf` values: the reading module never sees a lark
object, and :mod:`referee.notation` stays the only module importing lark.

A reading module defines::

    def read(tree: Node, source: SourceText) -> Transcript
    def expected(terms: set[str]) -> str     # words for a syntax error

and raises :class:`referee.errors.NotationError` through ``source.error``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Union

from .errors import NotationError
from .transcript import Span


@dataclass(frozen=True)
class Leaf:
    """A token: its terminal's name (``INT``, ``PLAYER``...), its text, where it is."""

    kind: str
    text: str
    span: Span

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column


@dataclass(frozen=True)
class Node:
    """A grammar rule's match: its name, where it is, its children (``None`` for
    an optional part that is absent)."""

    kind: str
    span: Span
    children: tuple[Union["Node", Leaf, None], ...]

    def leaves(self, kind: str) -> tuple[Leaf, ...]:
        """The direct children that are tokens of one terminal."""
        return tuple(c for c in self.children if isinstance(c, Leaf) and c.kind == kind)

    def nodes(self, kind: str | None = None) -> tuple["Node", ...]:
        return tuple(c for c in self.children if isinstance(c, Node) and (kind is None or c.kind == kind))


class SourceText(Protocol):
    """The transcript's text as the reading module sees it."""

    name: str

    def line(self, number: int) -> str: ...
    def error(self, message: str, line: int, column: int) -> NotationError: ...
    def end(self) -> tuple[int, int]: ...
