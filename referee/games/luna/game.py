"""Luna: how a transcript's header becomes the static facts, and the reading
of the state the generic referee needs (whose turn, which bookkeeping step).
Game-specific glue for the generic referee.  The fast path applies the
game's bookkeeping steps in Python (speculate.bookkeeping); the same model of
the players' moves lets the solver judge the coming moves in batches."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.base.errors import DataError, NotationError, Position
from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn, fn
from referee.game.contract import Game, phase
from referee.game.parts.service import Service
from referee.game.parts.speed import Speed
from referee.game.parts.tolerance import Tolerance
from referee.game.parts.values import Values
from referee.game.parts.words import Words
from referee.game.picture import Picture
from referee.text.transcript import Transcript

from . import data as luna_data
from . import speculate
from .fluents import Round
from .speed import LunaSpeed
from .tolerance import LunaTolerance
from .words import LunaWords

FIGURES = ("priestess", "builder", "apostate")

@dataclass(frozen=True)
class Layout:
    """Where the temple tiles are for a number of players: the tiles each
    player starts with in the temple, the path groups, the neighbours."""

    start_tiles: tuple[int, ...]              # by seat
    path: tuple[tuple[int, int], ...]         # (tile, group)
    neighbours: tuple[tuple[int, int], ...]   # both directions


def temple_layout(values: luna_data.LunaData, players: int) -> Layout:
    """Rule setup_temple and setup_path: one temple part per player; the parts'
    tiles 1-4 go to the players (seat order), the others along the path in
    groups of as many tiles as players, group 1 nearest the jetty."""
    parts = [values.temple_parts[k - 1] for k in values.parts_used[:players]]
    if len(parts) < players:
        raise ValueError("parts_used names fewer parts than there are players")
    tiles = sorted(t for part in parts for t in part)
    start = tuple(t for t in tiles if t <= 4)
    if values.start_tiles:  # the deal at the table, by seat
        if sorted(values.start_tiles[:players]) != list(start):
            raise ValueError(f"start_tiles must deal the tiles {list(start)} of the temple parts in use")
        start = tuple(values.start_tiles[:players])
    on_path = [t for t in tiles if t > 4]
    path = tuple((t, index // players + 1) for index, t in enumerate(on_path))
    pairs = set()
    for part in parts:
        for a, b in zip(part, part[1:]):
            pairs |= {(a, b), (b, a)}
    for left, right in zip(parts, parts[1:]):
        for a, b in zip(left, right):
            pairs |= {(a, b), (b, a)}
    return Layout(start, path, tuple(sorted(pairs)))


def static_facts(players: tuple[str, ...], values: luna_data.LunaData, layout: str, reading: str,
                 figures: dict[str, int] | None = None, variants: tuple[str, ...] = ()) -> tuple[Fn, ...]:
    n = len(players)
    facts: list[Fn] = [fn("player_count", n), fn("variant", fn(reading) if reading.isidentifier() else reading),
                       fn("layout", fn(layout)), fn("start_player", players[0])]
    facts += [fn("variant_active", Fn(v)) for v in variants]
    for seat, p in enumerate(players, start=1):
        facts += [fn("player", p), fn("role", p), fn("seat", p, seat)]
    facts.append(fn("role", fn("game")))
    for island, kind in enumerate(values.islands, start=1):
        facts += [fn("island", island), fn("island_kind", island, fn(kind))]
    temple = temple_layout(values, n)
    for p, tile in zip(players, temple.start_tiles):
        facts.append(fn("start_tile", p, tile))
    for tile, group in temple.path:
        facts.append(fn("path_tile", tile, group))
    for tile in [t for t, _ in temple.path] + list(temple.start_tiles):
        facts.append(fn("tile_symbol", tile, values.tile_symbols[tile - 1]))
    facts += [fn("neighbour", a, b) for a, b in temple.neighbours]
    facts += [fn("guard_value", r, v) for r, v in enumerate(values.guard_tiles, start=1)]
    priestess = values.priestess_values(n)
    facts += [fn("priestess_value", k, v) for k, v in enumerate(priestess, start=1)]
    facts += [fn("priestess_step", max(priestess)), fn("builder_step", values.builder)]
    facts += [fn("council_value", s, v) for s, v in enumerate(values.council)]
    facts += [fn("last_seat", len(values.council) - 1), fn("novices_per_player", values.novices_per_player),
              fn("shrines_per_player", values.shrines_per_player)]
    # Rule setup_figures: where the transcript places them (normal layout), else the intro layout's islands
    facts += [fn("figure_start", fn(f), (figures or {}).get(f, i)) for f, i in values.intro_figures]
    for seat, p in enumerate(players):
        shrine = values.intro_shrines[seat]
        facts.append(fn("intro_shrine", p, shrine))
        facts += [fn("intro_pair", p, (shrine - 1 + d) % 7 + 1) for d in range(1, 5)]
    return tuple(facts)


class LunaService(Service):
    """A warm-up transcript (no built-in file: a board: line names a data file)."""

    warm_up = "game: luna\nplayers: Ann red, Bob blue\nlayout: intro\n\nround 1\nAnn: council 1 from 4\n"


class LunaRules(Game):
    """The Luna rules for one game, set up from a transcript's header."""

    name = "luna"
    period = "round"
    parts = FrozenMap({Words: LunaWords, Speed: LunaSpeed, Tolerance: LunaTolerance, Service: LunaService,
                       Values: "referee.games.luna.values:LunaValues",
                       Picture: "referee.games.luna.draw:LunaPicture"})  # referee board, Session.picture (draw.py)

    def __init__(self, transcript: Transcript, data_file: str | None = None, rules: str | None = None,
                 variants: tuple[str, ...] = ()):
        board_file = data_file  # --board: a data file instead of the header's
        header = transcript.header
        self.players = header.player_names
        override = board_file or header.data_file
        where = None
        if override and not board_file:
            span = header.spans.get("board")
            where = Position(transcript.source, span.line, span.column) if span else None
            path = Path(override)
            if not path.is_absolute():  # a header's path is relative to the transcript
                override = str(Path(transcript.source).parent / path)
        self.data = luna_data.load(override, where)
        if len(self.data.parts_used) < len(self.players):
            raise NotationError(f"the data file uses {len(self.data.parts_used)} temple parts for "
                                f"{len(self.players)} players", where)
        try:
            temple_layout(self.data, len(self.players))
        except ValueError as error:
            raise DataError(f"the data file does not fit {len(self.players)} players: {error}", where) from None
        self.layout = header.options.get("layout", "intro")
        self.reading = rules or header.rules
        self.options = dict(header.options)
        figures = {name: int(header.options[f"figure_{name}"]) for name in FIGURES
                   if f"figure_{name}" in header.options}
        self.static = static_facts(self.players, self.data, self.layout, self.reading, figures, variants)
        self.facts = speculate.Facts(self.static)

    # -- reading the state ----------------------------------------------------------
    def period_number(self, state: frozenset) -> int:
        """The round; 0 during the preparation round."""
        if phase(state).startswith("prep"):
            return 0
        f = Round.one(state)
        return int(f.number) if f else 0

    # -- bookkeeping: the game role's steps (the fast path: LunaSpeed) -------------------
    _GAME_STEPS = {"prep_favours": "prep_favours", "scoring": "score_round", "next_round": "next_round",
                   "final": "final_scoring"}

    def game_step(self, state: frozenset) -> Fn | None:
        if self.control(state) != Fn("game"):
            return None
        step = self._GAME_STEPS.get(phase(state))
        return fn(step) if step else None
