"""Luna's speed: the bookkeeping steps in Python (speculate.bookkeeping), and
the same model of the players' moves guessing the coming states, so that the
solver judges the coming moves in batches."""

from __future__ import annotations

from referee.base.terms import Fn, fn
from referee.game.parts.speed import Speed
from referee.text.transcript import Play

from . import speculate
from .tolerance import moving


class LunaSpeed(Speed):
    """The fast path of one Luna game: the game role's steps."""

    def fast_path_applies(self, state: frozenset, role, move: Fn) -> bool:
        return role == Fn("game") and move == self.game.game_step(state)

    def fast_apply(self, state: frozenset, role, move: Fn) -> frozenset:
        after = speculate.bookkeeping(state, self.game.facts, move)
        assert after is not None, f"no fast path for {move}"
        return after

    def speculate(self, state: frozenset, role, move: Fn) -> frozenset | None:
        return speculate.next_state(state, self.game.facts, role, move)

    def predict(self, state: frozenset, plays: list) -> list:
        """The written moves, with the bookkeeping at each round heading and the
        ends of travels."""
        moves: list = []
        now = moving(state)
        for event in plays:
            if not isinstance(event, Play):  # a round heading: the round was scored and the next prepared
                if now:
                    moves.append((now[0], fn("done")))
                moves += [(Fn("game"), fn("score_round")), (Fn("game"), fn("next_round"))]
                now = None
                continue
            if now and (event.role, event.move.name) != now:
                moves.append((now[0], fn("done")))
                now = None
            moves.append((event.role, event.move))
            if event.move.name in ("travel", "waves"):
                now = (event.role, event.move.name)
        return moves
