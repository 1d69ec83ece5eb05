"""What one player knows of a state while another decides (a session seen by a
player, referee/ask/session.py). The default hides nothing."""

from __future__ import annotations

from referee.game.parts import Part


class Screen(Part):
    """Nothing hidden."""

    def screen(self, state: frozenset, viewpoint: str) -> frozenset | None:
        """The state as ``viewpoint`` knows it while another player decides; None
        when nothing is hidden (the default)."""
        return None

    def ruled_out(self, move, judged) -> bool:
        """Whether a verdict that ``judged`` is illegal, where the rules permit it
        whatever the player keeps hidden, rules ``move`` (of the same player, in the
        same position) out too: the alternatives shown to another player leave such
        moves out, so that none contradicts the verdict. The default: the judged move
        itself."""
        return move == judged
