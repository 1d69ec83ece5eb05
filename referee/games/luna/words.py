"""Luna's words: its moves, roles and outcome for people (describe.py)."""

from __future__ import annotations

from referee.base.terms import Fn
from referee.game.parts.words import Words

from . import describe


def scores(state: frozenset) -> dict[str, int]:
    """Each player's influence (the fluents ``score(P,N)``)."""
    return {f.args[0]: f.args[1] for f in state if f.name == "score"}


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

    def missing_chance(self, state: frozenset) -> str:  # pragma: no cover - Luna has no chance moves
        return "Luna has no chance moves"

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:  # nothing is hidden
        winners = self.game.winners(state)
        if not winners:
            return "the game is not over"
        points = scores(state)
        ranking = ", ".join(f"{p} {v}" for p, v in sorted(points.items(), key=lambda kv: -kv[1]))
        return f"{winners[0]} wins with {points.get(winners[0], 0)} influence ({ranking})"
