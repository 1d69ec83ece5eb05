"""A game's positions and scenarios: the items of a 'position:' header line
(docs/notation.md, 'A starting position') added to the initial state, and for
``referee compare``'s search (referee/compare/search.py) the bounded search
spaces, the items of their free parts and the variant modules a search judges
under. The default has no 'position:' line and no scenario (the search says so)."""

from __future__ import annotations

from typing import ClassVar

from referee.base.terms import Fn, fn
from referee.game.contract import lacks
from referee.game.parts import Part


class Scenarios(Part):
    """No scenarios; no 'position:' line."""

    #: The search's scenarios (referee.game.scenario.Scenario), none by default.
    scenarios: ClassVar[tuple] = ()
    #: The order of the translation report's topics (a variant's ``topic`` in
    #: readings.toml); a topic not listed comes after these, by name.
    topics: ClassVar[tuple[str, ...]] = ()

    def starting_position(self, state: frozenset) -> frozenset:
        """The initial state with what the header adds to it (none by default)."""
        return state

    def use_variants(self, variants: tuple[str, ...]) -> None:
        """Judge with exactly these variant modules switched on."""
        game = self.game
        game.static = tuple(f for f in game.static if f.name != "variant_active") + tuple(
            fn("variant_active", Fn(v)) for v in variants)

    def position_item(self, item: str) -> tuple:
        """A 'position:' item read against this game (the search's free parts)."""
        raise lacks(type(self.game), "'position:' line")
