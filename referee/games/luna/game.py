"""Luna: how a transcript's header becomes the static facts, and the reading
of the state the generic referee needs (whose turn, which bookkeeping step).
Game-specific glue for the generic referee.  The fast path applies the
game's bookkeeping steps in Python (speculate.bookkeeping); the same model of
the players' moves lets the solver judge the coming moves in batches."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.base.errors import DataError, NotationError, Position
from referee.base.terms import Fn, fn
from referee.game.contract import Game
from referee.game.registry import Imported
from referee.text.transcript import Play, Transcript

from . import data as luna_data
from . import describe, speculate

FIGURES = ("priestess", "builder", "apostate")

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


class LunaRules(Game):
    """The Luna rules for one game, set up from a transcript's header."""

    name = "luna"
    warm_up = "game: luna\nplayers: Ann red, Bob blue\nlayout: intro\n\nround 1\nAnn: council 1 from 4\n"
    period = "round"
    picture = Imported("referee.games.luna.draw:PICTURE")  # referee board, Session.picture (draw.py)
    # no built-in board: a board: line names a data file
    has_fast_path = True  # the bookkeeping steps (speculate.bookkeeping)

    def __init__(self, transcript: Transcript, board_file: str | None = None, rules: str | None = None,
                 variants: tuple[str, ...] = ()):
        header = transcript.header
        self.players = header.player_names
        override = board_file or header.board
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
        self._options = dict(header.options)
        figures = {name: int(header.options[f"figure_{name}"]) for name in FIGURES
                   if f"figure_{name}" in header.options}
        self.static = static_facts(self.players, self.data, self.layout, self.reading, figures, variants)
        self._facts = speculate.Facts(self.static)

    # -- which placeholder values a check relied on -----------------------------------
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
        if self.layout == "intro":
            used |= {"intro_shrines", "intro_figures", "islands"}
        elif any(f"figure_{name}" not in self._options for name in FIGURES):
            used.add("intro_figures")
        last_seat = len(self.data.council) - 1
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
            if name == "council" and len(args) == 3:
                disc = next((f for f in step.before if f.name == "disc" and f.args[0] == step.role), None)
                if disc is not None and isinstance(args[1], int) and disc.args[1] + args[1] >= last_seat:
                    used.add("council")
        return tuple(k for k in VALUE_WORDS if k in used)

    def unverified_values(self, run) -> tuple[str, ...]:
        """The values the rules read in this game (values_read) that data.toml
        marks unverified, in words: what `referee check` says once."""
        return tuple(VALUE_WORDS[k] for k in self.values_read(run) if self.data.unverified(k))

    def _priestess_counted(self, state: frozenset) -> int:
        """How many players the priestess's island counts (active novices, shrines)."""
        figure = next((f.args[1] for f in state if f.name == "figure" and f.args[0] == Fn("priestess")), None)
        return sum(1 for p in self.players
                   if any(f.name == "novices" and f.args[:3] == (p, figure, Fn("active")) and f.args[3] > 0
                          for f in state) or fn("shrine", p, figure) in state)

    # -- reading the state ----------------------------------------------------------
    def cycle(self, state: frozenset) -> int:
        """The round; 0 during the preparation round."""
        if self.phase(state).startswith("prep"):
            return 0
        f = self._one(state, "round")
        return int(f.args[0]) if f else 0

    def has_pending(self, state: frozenset) -> bool:
        return False


    def scores(self, state: frozenset) -> dict[str, int]:
        return {f.args[0]: f.args[1] for f in state if f.name == "score"}

    # -- bookkeeping: every step goes to the solver -------------------------------------
    _GAME_STEPS = {"prep_favours": "prep_favours", "scoring": "score_round", "next_round": "next_round",
                   "final": "final_scoring"}

    def game_step(self, state: frozenset) -> Fn | None:
        if self.control(state) != Fn("game"):
            return None
        step = self._GAME_STEPS.get(self.phase(state))
        return fn(step) if step else None

    def forced_chance(self, state: frozenset) -> Fn | None:
        return None

    def fast_path_applies(self, state: frozenset, role, move: Fn) -> bool:
        return role == Fn("game") and move == self.game_step(state)

    def fast_apply(self, state: frozenset, role, move: Fn) -> frozenset:
        after = speculate.bookkeeping(state, self._facts, move)
        assert after is not None, f"no fast path for {move}"
        return after

    def speculate(self, state: frozenset, role, move: Fn) -> frozenset | None:
        return speculate.next_state(state, self._facts, role, move)

    def predict(self, state: frozenset, plays: list) -> list:
        """The written moves, with the bookkeeping at each round heading and the
        ends of travels."""
        moves: list = []
        moving = self._moving(state)
        for event in plays:
            if not isinstance(event, Play):  # a round heading: the round was scored and the next prepared
                if moving:
                    moves.append((moving[0], fn("done")))
                moves += [(Fn("game"), fn("score_round")), (Fn("game"), fn("next_round"))]
                moving = None
                continue
            if moving and (event.role, event.move.name) != moving:
                moves.append((moving[0], fn("done")))
                moving = None
            moves.append((event.role, event.move))
            if event.move.name in ("travel", "waves"):
                moving = (event.role, event.move.name)
        return moves

    # -- turns: an action is one move, but for travel and waves (a move per group) --------
    def _moving(self, state: frozenset):
        """(player, kind) of a travel or waves action in progress."""
        f = self._one(state, "moving")
        return (f.args[0], f.args[1].name) if f else None

    def end_of_turn(self, state: frozenset):
        """The end of a travel or waves action, which the notation does not write."""
        moving = self._moving(state)
        if moving is None or self.control(state) != moving[0]:
            return None
        return moving[0], fn("done")

    def turn_gap(self, state: frozenset, play: Play):
        """A line that is not another group of the same travel ends it."""
        moving = self._moving(state)
        if moving is None or (play.role == moving[0] and play.move.name == moving[1]):
            return None
        return self.end_of_turn(state)

    def resolve(self, state: frozenset, play: Play) -> Fn:
        return play.move

    def resolve_move(self, state: frozenset, move: Fn) -> Fn:
        return move

    def missing_chance(self, state: frozenset) -> str:  # pragma: no cover - Luna has no chance moves
        return "Luna has no chance moves"

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:  # nothing is hidden
        winners = self.winners(state)
        if not winners:
            return "the game is not over"
        scores = self.scores(state)
        ranking = ", ".join(f"{p} {v}" for p, v in sorted(scores.items(), key=lambda kv: -kv[1]))
        return f"{winners[0]} wins with {scores.get(winners[0], 0)} influence ({ranking})"

    # -- words for people ---------------------------------------------------------------------
    def describe_move(self, move: Fn) -> str:
        return describe.describe_move(move, self.data)

    def role_text(self, role) -> str:
        return describe.describe_role(role)

    def term_text(self, term) -> str:
        return describe.name(term)

    def group_moves(self, moves: list, limit: int | None, state: frozenset | None = None, player=None,
                    screened: bool = False) -> list[str]:  # nothing is hidden
        return describe.group_moves(moves, limit, self.data, state, player)

    def warnings(self, move: Fn) -> tuple[str, ...]:
        return ()
