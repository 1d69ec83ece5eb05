"""What a game with a board picture provides: the interface behind
``referee board GAME``, :meth:`referee.api.Session.picture` and the service's
page.  A game without one (``Game.picture`` None) says so: "X has no board
picture yet".

The drawing itself is the game's (``draw.py`` in its package); this module
only states what the generic side asks of it.
"""

from __future__ import annotations

from typing import Sequence


class Picture:
    """A game's board, and a position on it, drawn for a person: SVG or plain text."""

    def blank(self, players: int | None, board_file: str | None, svg: bool) -> str:
        """The board for ``players`` players, or the board file ``board_file``,
        with nothing on it. A RefereeError when the board cannot be told or read."""
        raise NotImplementedError

    def position(self, rules, state: frozenset, players: Sequence[tuple[str, str]], title: str, svg: bool) -> str:
        """The position ``state`` of a game set up as ``rules`` (the game's rules
        object), the players as (name, colour) pairs in seat order, under ``title``.
        Hidden information (a player's gold) is never drawn."""
        raise NotImplementedError
