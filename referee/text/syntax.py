"""A parse tree as plain values, for games that read their own lines.

:mod:`referee.notation` parses a transcript with the game's grammar and hands
a game's reading module (``referee/games/<game>/reading.py``) the tree as
:class:`Node` and :class:`Leaf` values: the reading module never sees a lark
object, and :mod:`referee.notation` stays the only module importing lark.

A reading module defines::

    def read(tree: Node, source: SourceText) -> Transcript
    def expected(terms: set[str]) -> str     # words for a syntax error
    def hint(line_text: str, terms: set[str]) -> str   # advice added to it, or ""
    def rephrasings(line_text: str) -> list[str]   # the line as the notation may have meant it, best first
    START_RULES: tuple[str, ...]             # start rules besides 'start'
    def known(word: str) -> bool             # optional: a name of the game (a piece, a unit...)
    def moves_in(line: Node) -> int          # optional: at least how many moves a line holds

(``known`` keeps a name of the game from being taken for a misspelt keyword
when a syntax error offers "did you mean 'buy'?"; of the ``rephrasings`` of a
line that does not parse, such as 'take away 2 from heap 1' for 'take 2 from 1',
the error offers the first that the grammar reads; ``moves_in`` lets a record past
the bound on its moves be refused while it is read, and must never count more
moves than the line holds) and raises :class:`referee.errors.NotationError` through ``source.error``.
A part of a line may be parsed again from one of the ``START_RULES`` with
``source.parse`` (a part with a grammar rule of its own); a text the grammar does
not parse is a :class:`ParseProblem`.  :func:`quote`, :func:`and_list` and
:func:`lexeme` word the messages alike for every game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, Union

from referee.base.errors import NotationError
from referee.text.transcript import Span


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
    def error_at(self, message: str, where: Span | Leaf) -> NotationError: ...
    def parse(self, text: str, start: str, line: int) -> Node:
        """``text`` (one line, at the columns of the transcript's line) parsed
        from the start rule ``start``, its spans on line ``line``; raises
        :class:`ParseProblem`."""
        ...


@dataclass
class ParseProblem(Exception):
    """A text that the grammar does not parse, as plain values.

    ``at_end`` when the text ended too soon (``line`` and ``column`` are then
    those of the end); ``accepts`` the terminals the parser would take there
    after looking ahead, ``expected`` all those of its state.
    """

    line: int
    column: int
    at_end: bool
    found: str
    accepts: frozenset[str]
    expected: frozenset[str]


def quote(text: str, limit: int = 40) -> str:
    """A written text quoted for a message, shortened to ``limit`` characters."""
    text = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'"


def and_list(words: list[str], last: str = "and") -> str:
    """'a, b and c' (or with ``last`` 'or')."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


_LEXEME = re.compile(r"[\w'’]+(?:-[\w'’]+)*|->|\?\?|？？|\S")


def lexeme(text: str) -> str:
    """The first word or sign of a token (error-mode tokens can run to the line's end)."""
    m = _LEXEME.match(text.lstrip())
    return m.group(0) if m else text
