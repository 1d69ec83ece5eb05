"""Rule setup_gold: each player keeps their gold behind a screen."""

from __future__ import annotations

from referee.game.parts.screen import Screen
from referee.game.state import Draft

#: The gold a player behind the screen is taken to hold when another player asks
#: (``CycladesScreen.screen``): more than any one offering, recruit, purchase or
#: movement costs in a real game, so that every move the rules permit is listed.
SCREENED_GOLD = 99


class CycladesScreen(Screen):
    """Gold behind a screen."""

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
