"""Rule setup_gold: each player keeps their gold behind a screen."""

from __future__ import annotations

from referee.game.parts.screen import Screen
from referee.game.state import Draft
from referee.games.cyclades.fluents import OfferMove

#: The gold a player behind the screen is taken to hold when another player asks
#: (``CycladesScreen.screen``): more than any one offering, recruit, purchase or
#: movement costs in a real game, so that every move the rules permit is listed.
SCREENED_GOLD = 99

#: The kinds of move whose every move costs the same, whatever it builds or moves.
PRICED_ALIKE = ({"build"}, {"sail", "march"}, {"replace"})


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

    def ruled_out(self, move, judged) -> bool:
        """An offering the player cannot afford rules out every offering as high to
        the same god, and with more than 2 players to any god (the price is the
        amount less the priests, whatever the god; in the 2-player game the other
        marker's offering counts unless it stands on the god bid on). A building, a
        movement or a replacement the player cannot pay for rules out every other
        of its kind: they cost the same (rules build_cost, move_affordable,
        replace_affordable)."""
        offered, refused = OfferMove.match(move), OfferMove.match(judged)
        if offered is None or refused is None:
            return move == judged or any({move.name, judged.name} <= kind for kind in PRICED_ALIKE)
        same_price = offered.god == refused.god or len(self.game.players) > 2
        return same_price and offered.amount >= refused.amount
