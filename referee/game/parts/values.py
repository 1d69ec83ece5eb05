"""The printed values a game's data file marks unverified, and which of them a
check relied on. The default has no such values."""

from __future__ import annotations

from referee.game.parts import Part


class Values(Part):
    """No unverified values."""

    def unverified_values(self, run) -> tuple[str, ...] | None:
        """The printed values the game's data file marks unverified that the rules
        read in this run, in words; None for a game without such values (the default)."""
        return None
