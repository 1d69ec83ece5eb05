"""What a game with a picture provides: the interface behind the command
that draws a game, :meth:`referee.ask.session.Session.picture` and the
service's page: an optional part of a game (referee.game.parts). A game
without one says so (``lacks``).

The drawing itself is the game's (``draw.py`` in its package); this module
only states what the generic side asks of it.
"""

from __future__ import annotations

import re
from typing import Sequence

from referee.game.parts import Part

#: The ink of an SVG picture's text and lines.
INK = "#222222"
#: Characters XML cannot hold (a transcript may contain them): drawn as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: XML's five escapes (xml.sax.saxutils would do the same, but importing it costs
#: a fresh process 9 ms: it imports urllib and http).
_XML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def svg_escape(value) -> str:
    """Text for SVG content or a double-quoted attribute: nothing a transcript
    says reaches the SVG unescaped."""
    return _NOT_XML.sub("\ufffd", str(value)).translate(_XML_ESCAPES)


def svg_number(value: float) -> str:
    """A coordinate to one decimal, without a trailing '.0'."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Svg:
    """An SVG drawing's parts, added in order (each game's draw.py writes its elements)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, content, size: float = 11, *, fill: str = INK, weight: str = "normal",
             anchor: str = "middle", cls: str = "", extra: str = "") -> None:
        attrs = f' class="{cls}"' if cls else ""
        bold = ' font-weight="bold"' if weight == "bold" else ""
        self.add(f'<text x="{svg_number(x)}" y="{svg_number(y)}" font-size="{svg_number(size)}" fill="{fill}"{bold} '
                 f'text-anchor="{anchor}" dominant-baseline="central"{attrs}{extra}>{svg_escape(content)}</text>')


class Picture(Part):
    """A game's map, and a position on it, drawn for a person: SVG or plain text.
    The default, a game without a picture, is never asked to draw."""

    def blank(self, players: int | None, data_file: str | None, svg: bool) -> str:
        """The map for ``players`` players, or the one of the data file ``data_file``,
        with nothing on it. A RefereeError when the map cannot be told or read."""
        raise NotImplementedError

    def position(self, rules, state: frozenset, players: Sequence[tuple[str, str]], title: str, svg: bool) -> str:
        """The position ``state`` of a game set up as ``rules`` (the game's rules
        object), the players as (name, colour) pairs in seat order, under ``title``.
        Hidden information (a player's gold) is never drawn."""
        raise NotImplementedError
