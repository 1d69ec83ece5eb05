"""Luna's words: its moves, roles and outcome for people (describe.py)."""

from __future__ import annotations

from referee.base.terms import Fn
from referee.game.parts.words import Words, no_line_for

from . import describe, writing
from .fluents import Disc, Score


def scores(state: frozenset) -> dict[str, int]:
    """Each player's influence (the fluents ``score(P,N)``)."""
    return {f.player: f.points for f in Score.of(state)}


class LunaWords(Words):
    """The words of one Luna game (nothing is hidden)."""

    def describe_move(self, move: Fn) -> str:
        return describe.describe_move(move, self.game.data)

    def role_text(self, role) -> str:
        return describe.describe_role(role)

    def term_text(self, term) -> str:
        return describe.name(term)

    def group_moves(self, moves: list, limit: int | None, state: frozenset | None = None, player=None,
                    screened: bool = False) -> list[str]:  # nothing is hidden
        return describe.group_moves(moves, limit, self.game.data, state, player)

    writes_moves = True

    def write_move(self, role, move: Fn, state: frozenset | None = None) -> str:
        """``Ann: favour on 3``: a player's name and the action (reading.py's inverse)."""
        if role not in self.game.players:
            raise no_line_for(f"a move of {self.role_text(role)}")
        return f"{role}: {writing.action(move)}"

    def missing_chance(self, state: frozenset) -> str:  # pragma: no cover - Luna has no chance moves
        return "Luna has no chance moves"

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:  # nothing is hidden
        winners = self.game.winners(state)
        if not winners:
            return "the game is not over"
        points = scores(state)
        # rule end_tie: the most influence, and of those tied the player ahead on the council
        # (the higher seat, then the disc higher in its stack); then by name, so that the line
        # never depends on the order a set is walked in
        council = {disc.player: (disc.seat, disc.height) for disc in Disc.of(state)}
        ranked = sorted(points, key=lambda p: (-points[p], *(-x for x in council.get(p, (0, 0))), p))
        ranking = ", ".join(f"{p} {points[p]}" for p in ranked)
        return f"{winners[0]} wins with {points.get(winners[0], 0)} influence ({ranking})"
