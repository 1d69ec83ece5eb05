"""Nim for the referee: the static facts of one game and its words.

Everything else has the default of :class:`referee.game.Game`: no bookkeeping,
no chance, no board picture, the moves read as written.
"""

from __future__ import annotations

from referee.base.terms import Fn, fn
from referee.game.contract import Game


class NimRules(Game):
    name = "nim"  # the 'game:' line, and the entry point's name
    period = ""  # no numbered turns of play: the reports name none

    def static_facts(self, transcript):
        """The default facts (players, seats), and heap_size(H,N) for the 'heaps:' line."""
        sizes = transcript.header.options["heaps"].split()
        return super().static_facts(transcript) + tuple(
            fn("heap_size", h, int(n)) for h, n in enumerate(sizes, start=1))

    def describe_move(self, move: Fn) -> str:
        heap, count = move.args
        return f"take {count} from heap {heap}"
