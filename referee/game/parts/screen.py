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
