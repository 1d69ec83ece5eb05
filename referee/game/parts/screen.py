"""What one player knows of a state while another decides (a session seen by a
player, referee/ask/session.py). The default hides nothing.

A game that hides something gives each player one hidden figure, a whole
number from 0 to ``highest()``, and sets it with ``with_amount``; ``screen``
sets every other player's to ``highest()``, so that what is listed for them is
what the rules permit whatever their figure.

The contract the session relies on: **legality is monotone in the hidden
figure**. More never makes a move illegal: a move legal at an amount is legal
at every larger one, all else alike (the game's part says which of its rules
this rests on, and any exception). So the verdict that a player's move is
illegal, where it would be legal at ``highest()``, tells the other players no
more than that their figure lies below some threshold; the session finds, by
bisection between 0 and ``highest()`` judging only that one move, the largest
amount at which it is still illegal, and lists what the rules permit at that
amount: every move listed is legal at a figure consistent with the verdict,
and none contradicts it (``Session.alternatives``)."""

from __future__ import annotations

from referee.game.parts import Part


class Screen(Part):
    """Nothing hidden."""

    def screen(self, state: frozenset, viewpoint: str) -> frozenset | None:
        """The state as ``viewpoint`` knows it while another player decides (every
        other player's hidden figure at ``highest()``); None when nothing is hidden
        (the default)."""
        return None

    def highest(self) -> int:
        """The amount ``screen`` gives a hidden figure: more than any move of a
        real game asks, so that every move the rules permit at some figure is
        permitted at it (0 by default: nothing is hidden)."""
        return 0

    def with_amount(self, state: frozenset, player: str, amount: int) -> frozenset:
        """``state`` with ``player``'s hidden figure set to ``amount`` (0 to
        ``highest()``); the default hides nothing and changes nothing."""
        return state
