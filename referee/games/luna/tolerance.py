"""Luna's tolerance: an action is one move, but for travel and waves (a move
per group), whose end the notation does not write."""

from __future__ import annotations

from referee.base.terms import fn
from referee.game.parts.tolerance import Tolerance
from referee.text.transcript import Play

from .fluents import Moving


def moving(state: frozenset):
    """(player, kind) of a travel or waves action in progress."""
    f = Moving.one(state)
    return (f.player, f.action.name) if f else None


class LunaTolerance(Tolerance):
    """The unwritten end of a travel or waves action."""

    def end_of_turn(self, state: frozenset):
        """The end of a travel or waves action, which the notation does not write."""
        now = moving(state)
        if now is None or self.game.control(state) != now[0]:
            return None
        return now[0], fn("done")

    def turn_gap(self, state: frozenset, play: Play):
        """A line that is not another group of the same travel ends it."""
        now = moving(state)
        if now is None or (play.role == now[0] and play.move.name == now[1]):
            return None
        return self.end_of_turn(state)
