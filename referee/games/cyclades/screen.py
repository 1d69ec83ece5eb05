"""Rule setup_gold: each player keeps their gold behind a screen."""

from __future__ import annotations

from referee.game.parts.screen import Screen
from referee.game.state import Draft

#: The gold a player behind the screen is taken to hold when another player asks
#: (``CycladesScreen.screen``): more than any one offering, recruit, purchase or
#: movement costs in a real game, so that every move the rules permit is listed.
SCREENED_GOLD = 99


class CycladesScreen(Screen):
    """Gold behind a screen: each player's hidden figure is their gold.

    Legality is monotone in gold (the contract of referee/game/parts/screen.py):
    gold enters the legality of a move only as what it must pay, a violation when
    a price exceeds the gold (rules offering_affordable, under either reading of
    the priests' reduction in the 2-player game, recruit_affordable,
    build_affordable, creature_affordable, replace_affordable, move_affordable,
    kraken_move_affordable), and in the candidate offerings, which run from 1 GP up
    to the gold and the priests; no price depends on the player's own gold (the
    Griffon takes half of another player's gold: an effect, not a price). More gold
    never makes such a move illegal.

    The one exception is rule two_player_two_gods: in the 2-player game the second
    marker may go on Apollo beside the first only when no offering to a god is
    affordable, so that move becomes illegal with more gold. It is never the move
    the session bisects on (one illegal with the true gold and legal with
    ``SCREENED_GOLD``: this Apollo is illegal at both, or legal with the true gold),
    and at the gold found the alternatives may leave it out where a poorer player
    would have it: a move left out, never one that contradicts the verdict."""

    def screen(self, state: frozenset, viewpoint: str) -> frozenset:
        """The state as ``viewpoint`` knows it: every other player holds
        ``SCREENED_GOLD``, so the moves listed for them are those the rules permit
        whatever their gold, and nothing listed depends on it (see
        ``describe.group_moves(screened=True)``)."""
        d = Draft(state)
        for player in self.game.players:
            if player != viewpoint:
                d.change("gold", player, SCREENED_GOLD - d.count("gold", player))
        return d.freeze()

    def highest(self) -> int:
        return SCREENED_GOLD

    def with_amount(self, state: frozenset, player: str, amount: int) -> frozenset:
        """``state`` with ``player`` holding ``amount`` GP."""
        d = Draft(state)
        d.change("gold", player, amount - d.count("gold", player))
        return d.freeze()
