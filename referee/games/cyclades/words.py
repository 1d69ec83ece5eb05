"""Cyclades's words: its moves, roles and outcomes for people (describe.py),
the rolls that explain a battle round, and what chance has to show first."""

from __future__ import annotations

from referee.base.terms import Fn
from referee.game.contract import phase
from referee.game.parts.words import Words, no_line_for
from referee.game.state import Draft
from referee.text.transcript import CHANCE

from . import describe, fastpath, writing
from .fluents import Act, Acting, Battle, GodTile, Reveal, Side, Track, Use


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

    writes_moves = True

    def write_move(self, role, move: Fn, state: frozenset | None = None) -> str:
        """The line of the notation that means ``move`` in ``state``: 'Ann: 3 on
        Zeus', 'Ann/Zeus: temple on IS2', 'Ann/Zeus: use Harpy: troop on IS3',
        'creatures: -, Harpy' (the 3-GP slot), 'gods: Zeus', 'battle: Ann 2, Bob 1'."""
        if str(role) == CHANCE:  # the engine's term chance, or a record's role
            return self._chance_line(move, state)
        if role not in self.game.players:
            raise no_line_for(f"a move of {self.role_text(role)}")
        if (text := writing.offering(move)) is not None:
            return f"{role}: {text}"
        god = _acting_god(state) if state is not None else None
        if god is None:
            raise no_line_for(f"'{self.describe_move(move)}' outside a god's turn")
        if move.name == "use":
            use = Use.read(move)
            card = use.card
            text = writing.creature_use(use.target, True, card.name)
            if text is None:
                raise no_line_for(f"'{self.describe_move(move)}' after the card's first use")
            return f"{role}/{writing.card(god)}: use {writing.card(card)}{text}"
        text = writing.piece(move)
        if text is None or move.name == "replace":  # a replacement is written with the card drawn
            raise no_line_for(f"'{self.describe_move(move)}' on its own")
        return f"{role}/{writing.card(god)}: {text}"

    def _chance_line(self, move: Fn, state: frozenset | None) -> str:
        if (track := Track.match(move)) is not None and track.slot in (2, 3, 4):
            return "creatures: " + "-, " * (4 - track.slot) + writing.track_card(move)
        if (tile := GodTile.match(move)) is not None and tile.position == 1 and tile.face == Fn("up"):
            return writing.gods_line([writing.god_tile(move)])
        if move.name == "round" and (line := writing.battle_line(move)) is not None:
            return line
        raise no_line_for(f"'{self.describe_move(move)}' on its own")

    def notes(self, state: frozenset, move: Fn) -> tuple[str, ...]:
        """For a battle round written without both dice: the rolls that explain it."""
        rolls = fastpath.battle_rolls(state, self.game.setup.facts, move)  # [] unless a round of a battle
        if not rolls or (len(move.args) == 2 and all(Side.read(side).face != Fn("u") for side in move.args)):
            return ()
        battle = Battle.one(state)
        attacker, defender = battle.attacker, battle.defender
        shown = [f"{attacker} {a}, {defender} {b}" for a, b in rolls]
        more = f" and {len(shown) - 6} more" if len(shown) > 6 else ""
        return (f"explained by the roll{'s' if len(shown) > 1 else ''} {'; '.join(shown[:6])}{more}",)

    def warnings(self, move: Fn) -> tuple[str, ...]:
        """Nothing to warn of: every move of the base game, each creature's effect
        included, is judged by the rules."""
        return ()

    def missing_chance(self, state: frozenset) -> str:
        battle = Battle.one(state)
        if battle is not None:
            return (f"the battle {'on' if battle.kind == Fn('land') else 'at'} {battle.place} goes on, but its next "
                    f"round is not written: write the dice ('battle: {battle.attacker} 2, {battle.defender} 1') or "
                    f"the losses ('battle: {battle.defender} -1')")
        now = phase(state)
        if now == "reveal_track":
            slots = sorted((f.slot for f in Reveal.of(state)), reverse=True)
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


def _acting_god(state: frozenset) -> Fn | None:
    """The god whose actions are being taken in ``state``, or None."""
    acting = Acting.one(state)
    if acting is None:
        return None
    act = next((a for a in Act.of(state) if a.marker == acting.marker), None)
    return None if act is None else act.god
