"""Cyclades's words: its moves, roles and outcomes for people (describe.py),
the rolls that explain a battle round, and what chance has to show first."""

from __future__ import annotations

from referee.base.terms import Fn
from referee.game.contract import one_fluent, phase
from referee.game.parts.words import Words
from referee.game.state import Draft

from . import describe, fastpath


class CycladesWords(Words):
    """The words of one Cyclades game."""

    def describe_move(self, move: Fn) -> str:
        return describe.describe_move(move)

    def role_text(self, role) -> str:
        return describe.describe_role(role)

    def term_text(self, term) -> str:
        return describe.name(term)

    def group_moves(self, moves: list, limit: int | None, state: frozenset | None = None, player=None,
                    screened: bool = False) -> list[str]:
        return describe.group_moves(moves, limit, state, player, screened=screened)

    def notes(self, state: frozenset, move: Fn) -> tuple[str, ...]:
        """For a battle round written without both dice: the rolls that explain it."""
        rolls = fastpath.battle_rolls(state, self.game.setup.facts, move)  # [] unless a round of a battle
        if not rolls or (len(move.args) == 2 and all(side.args[1] != Fn("u") for side in move.args)):
            return ()
        battle = one_fluent(state, "battle")
        attacker, defender = battle.args[2], battle.args[3]
        shown = [f"{attacker} {a}, {defender} {b}" for a, b in rolls]
        more = f" and {len(shown) - 6} more" if len(shown) > 6 else ""
        return (f"explained by the roll{'s' if len(shown) > 1 else ''} {'; '.join(shown[:6])}{more}",)

    def warnings(self, move: Fn) -> tuple[str, ...]:
        """Nothing to warn of: every move of the base game, each creature's effect
        included, is judged by the rules."""
        return ()

    def missing_chance(self, state: frozenset) -> str:
        battle = one_fluent(state, "battle")
        if battle is not None:
            kind, place, attacker, defender = battle.args
            return (f"the battle {'on' if kind == Fn('land') else 'at'} {place} goes on, but its next round is "
                    f"not written: write the dice ('battle: {attacker} 2, {defender} 1') or the losses "
                    f"('battle: {defender} -1')")
        now = phase(state)
        if now == "reveal_track":
            slots = sorted((f.args[0] for f in state if f.name == "reveal"), reverse=True)
            return (f"the creature track is not written: a 'creatures:' line must list the cards on the "
                    f"{', '.join(f'{s}-GP' for s in slots)} slot{'s' if len(slots) > 1 else ''} first")
        if now == "reveal_gods":
            return "the god tiles are not written: a 'gods:' line must say which gods are face up this cycle"
        return "the card that replaced a creature is not written: write 'replace X -> Y'"

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:
        """Who won, with their metropolises and gold (the tie-break); for a
        ``viewpoint``, a winner's gold only when the viewpoint is the sole winner
        (rule setup_gold: gold is behind the screen)."""
        winners = self.game.winners(state)
        if not winners:
            return "the game is not over"
        d = Draft(state)
        held = fastpath.metropolises(d, self.game.setup.facts, winners[0])
        text = (f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {held} metropolis"
                f"{'es' if held != 1 else ''}")
        if viewpoint is None or winners == [viewpoint]:
            gold = d.count('gold', winners[0])
            below_zero = (" (below zero: a payment that could not be made stands, as an illegal move does)"
                          if gold < 0 else "")
            return f"{text} and {gold} GP{below_zero}"
        return text
