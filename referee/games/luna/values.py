"""The values of Luna's data file (data.toml) that a check relied on, and
those of them the file marks unverified: what `referee check` says once."""

from __future__ import annotations

from referee.base.terms import Fn
from referee.game.parts.values import Values

from .fluents import Council, Disc, Figure, Novices, Shrine
from .game import FIGURES

#: The values of data.toml a rule reads, in the file's order, as a report words them.
VALUE_WORDS = {
    "islands": "which island carries which favour kind (islands)",
    "tile_symbols": "the temple tiles' symbols (tile_symbols)",
    "temple_parts": "the temple parts' tiles, their order and neighbours (temple_parts)",
    "guard_tiles": "the guard tiles (guard_tiles)",
    "priestess": "the priestess's values by rank (priestess)",
    "builder": "how far the Builder moves (builder)",
    "council": "the council seats' values (council)",
    "novices_per_player": "the novices of a colour (novices_per_player)",
    "shrines_per_player": "the shrines of a colour (shrines_per_player)",
    "intro_figures": "the introductory layout's figures (intro_figures)",
    "intro_shrines": "the introductory layout's shrines and novices (intro_shrines)",
}
#: Moves that take, use or hand back a favour token, whose island is its kind's.
_FAVOUR_MOVES = ("favour", "herbs", "waves", "sailboat", "shrine", "book", "prep_favours")


class LunaValues(Values):
    """Which placeholder values a check relied on."""

    def values_read(self, run) -> tuple[str, ...]:
        """The values of data.toml that the rules read in this game, in the file's
        order: those of the start position (the introductory layout: rules
        setup_intro, setup_figures, and the favours it hands out by kind), and
        for each step of the run those of the rules that act on a step of its
        kind: a favour taken, used or handed out (islands: favour_take,
        favour_returns, prep_favours), a temple tile occupied (tile_symbols,
        temple_parts: tile_take, tile_available), entered or a book moved
        (temple_parts: temple_enter, temple_expel, book), a round scored with at
        least two players counted by the priestess (priestess: score_priestess;
        her largest value alone is seed 002's), the next round prepared
        (builder: next_figures), a council move to the last seat or beyond
        (council: council_end) and the final scoring (council: end_scoring)."""
        used: set[str] = set()
        if self.game.layout == "intro":
            used |= {"intro_shrines", "intro_figures", "islands"}
        elif any(f"figure_{name}" not in self.game.options for name in FIGURES):
            used.add("intro_figures")
        last_seat = len(self.game.data.council) - 1
        for step in run.steps:
            name, args = step.move.name, step.move.args
            substitute = name in ("favour", "recruit", "shrine", "council", "banish") and args and args[-1] == 1
            bribe = (name == "occupy" and len(args) == 4 and args[2] == 1) or (name == "enter" and len(args) == 2
                                                                             and args[1] == 1)
            if name in _FAVOUR_MOVES or substitute or bribe:
                used.add("islands")
            if name == "occupy":
                used |= {"tile_symbols", "temple_parts"}
            if name in ("enter", "book"):
                used.add("temple_parts")
            if name == "score_round" and self._priestess_counted(step.before) >= 2:
                used.add("priestess")
            if name == "next_round":
                used.add("builder")
            if name == "final_scoring":
                used.add("council")
            if name == "council" and (council := Council.match(step.move)) is not None:
                disc = Disc.find(step.before, step.role)
                if disc is not None and isinstance(council.seats, int) and disc.seat + council.seats >= last_seat:
                    used.add("council")
        return tuple(k for k in VALUE_WORDS if k in used)

    def unverified_values(self, run) -> tuple[str, ...]:
        """The values the rules read in this game (values_read) that data.toml
        marks unverified, in words: what `referee check` says once."""
        return tuple(VALUE_WORDS[k] for k in self.values_read(run) if self.game.data.unverified(k))

    def _priestess_counted(self, state: frozenset) -> int:
        """How many players the priestess's island counts (active novices, shrines)."""
        priestess = Figure.find(state, Fn("priestess"))
        figure = priestess.island if priestess else None
        active = {f.player for f in Novices.of(state)
                  if f.place == figure and f.status == Fn("active") and f.amount > 0}
        return sum(1 for p in self.game.players if p in active or Shrine.make(p, figure) in state)
