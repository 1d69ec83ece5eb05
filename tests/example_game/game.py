"""Nim for the referee: its set-up (the 'heaps:' line) and its words; everything
else is the default of the contract and of the parts (docs/adding-a-game.md)."""

from __future__ import annotations

from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn, fn
from referee.game.contract import Game
from referee.game.parts.words import Words


class NimWords(Words):
    def describe_move(self, move: Fn) -> str:
        heap, count = move.args
        return f"take {count} from heap {heap}"

    writes_moves = True

    def write_move(self, role, move: Fn, state: frozenset | None = None) -> str:
        """The line of the notation: 'Ann: take 2 from 1' (reading.py's inverse)."""
        heap, count = move.args
        return f"{role}: take {count} from {heap}"


class NimRules(Game):
    name = "nim"  # the 'game:' line, and the entry point's name
    parts = FrozenMap({Words: NimWords})

    def __init__(self, transcript, **setup):
        """The default facts (players, seats), and heap_size(H,N) for the 'heaps:' line."""
        super().__init__(transcript, **setup)
        sizes = transcript.header.options["heaps"].split()
        self.static += tuple(fn("heap_size", h, int(n)) for h, n in enumerate(sizes, start=1))
