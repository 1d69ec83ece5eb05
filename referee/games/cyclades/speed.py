"""Cyclades's speed: the bookkeeping steps and the forced chance outcomes in
Python (fastpath.py), and the guesses of the coming moves (only ever a guess:
see Engine.prefetch)."""

from __future__ import annotations

from referee.base.terms import Fn
from referee.game.contract import phase
from referee.game.parts.speed import Speed
from referee.text.transcript import Play

from . import fastpath
from .fluents import OfferingMarker
from .tolerance import acting


class CycladesSpeed(Speed):
    """The fast path of one Cyclades game."""

    def forced_chance(self, state: frozenset) -> Fn | None:
        return fastpath.forced_chance(state, self.game.setup.facts)

    def fast_path_applies(self, state: frozenset, role, move: Fn) -> bool:
        if role == Fn("game"):
            return move == self.game.game_step(state)
        return role == Fn("chance") and move == self.forced_chance(state)

    def fast_apply(self, state: frozenset, role, move: Fn) -> frozenset:
        return fastpath.apply(state, self.game.setup.facts, role, move)

    def speculate(self, state: frozenset, role, move: Fn) -> frozenset | None:
        return fastpath.speculate(state, self.game.setup.facts, role, move)

    def predict(self, state: frozenset, plays: list) -> list:
        """The moves the referee will most likely judge from ``state`` on, given the
        events still to come (the first is the move about to be judged): the
        written moves with the bookkeeping steps and ends of turn the notation
        leaves implicit between them. A wrong guess only costs time."""
        moves: list = []
        now = acting(state)
        previous = (OfferingMarker.read(now[0]).player, now[1].name) if now else None
        in_actions = phase(state) == "actions"
        after_chance = False

        def between(*steps) -> None:  # what happens before a move: nothing before the first
            if moves:
                moves.extend(steps)

        for event in plays:
            if not isinstance(event, Play):  # a cycle heading
                if in_actions and previous:
                    between((previous[0], Fn("pass")))
                between((Fn("game"), Fn("end_cycle")), (Fn("game"), Fn("refresh_track")))
                in_actions, previous, after_chance = False, None, False
                continue
            move = event.move
            if event.role == "chance":
                moves.append((Fn("chance"), move))
                after_chance = True
                continue
            if event.group is None and not in_actions:
                if after_chance:
                    between((Fn("game"), Fn("income")))
                moves.append((event.role, move))
                after_chance = False
                continue
            if not in_actions:
                between((Fn("game"), Fn("pay_offerings")))
                in_actions, previous = True, (event.role, event.group) if not moves else None
            turn = (event.role, event.group)
            if previous and previous != turn:
                between((previous[0], Fn("pass")))
            if previous != turn and event.group == "apollo":
                between((Fn("game"), Fn("apollo_income")))
            moves.append((event.role, move))
            previous = None if move.name == "pass" else turn
        return moves
