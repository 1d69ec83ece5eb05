"""A game's words: its moves, roles and outcomes said for people, the
alternatives grouped, the notes and warnings of a move."""

from __future__ import annotations

from typing import ClassVar

from referee.base.errors import RefereeError
from referee.base.terms import Fn, Term
from referee.game.contract import lacks
from referee.game.parts import Part


class Words(Part):
    """The default words: a move as its term, a role as written, a group of
    alternatives per kind of move, the winners named."""

    def describe_move(self, move: Fn) -> str:
        """A move in the player's words (the term as written, by default)."""
        return str(move)

    #: Whether ``write_move`` writes moves back as lines of the notation (a game
    #: with a writer sets it; the answers then carry each alternative's line).
    writes_moves: ClassVar[bool] = False

    def write_move(self, role: Term, move: Fn, state: frozenset | None = None) -> str:
        """The line of the notation that means ``move`` of ``role``, made in
        ``state`` (the inverse of the game's reader and ``resolve``: the line,
        read back in that position, is the same move). A RefereeError for a move
        the notation has no line for; by default, for every move: the game has
        no move writer yet."""
        raise lacks(type(self.game), "move writer")

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:
        """Who won; for a ``viewpoint``, without what is hidden from it."""
        winners = self.game.winners(state)
        if not winners:
            return "the game is not over"
        return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"

    def role_text(self, role: Term) -> str:
        """A role in words: a player's name as written (the default)."""
        return str(role)

    def term_text(self, term: Term) -> str:
        """A term of a violation's details in words (a report message's {0}, {1}...)."""
        return str(term)

    def group_moves(self, moves: list[Fn], limit: int | None, state: frozenset | None = None, player=None,
                    screened: bool = False) -> list[str]:
        """The moves in words, grouped (at most ``limit`` per group); ``state`` and
        ``player`` are the position and the role deciding; ``screened``: the moves
        of a player whose hidden figures the reader does not know. By default a
        group per kind of move (its name): 'take 1 from heap 1, take 2 from heap 1'."""
        groups: dict[str, list[str]] = {}
        for move in sorted(moves, key=str):
            groups.setdefault(move.name, []).append(self.describe_move(move))
        out = []
        for words in groups.values():
            shown = words if limit is None else words[:limit]
            more = f" and {len(words) - len(shown)} more" if len(shown) < len(words) else ""
            out.append(", ".join(shown) + more)
        return out

    def notes(self, state: frozenset, move: Fn) -> tuple[str, ...]:
        """What the referee worked out about a move (none by default)."""
        return ()

    def warnings(self, move: Fn) -> tuple[str, ...]:
        """Why a move's verdict may not be the whole story (none by default)."""
        return ()

    def missing_chance(self, state: frozenset) -> str:
        """Why a player's line cannot come yet: chance has to show something first."""
        return "a chance outcome must be written before this move"


def no_line_for(what: str) -> RefereeError:
    """The error for a move the notation has no line of its own for."""
    return RefereeError(f"the notation has no line of its own for {what}")
