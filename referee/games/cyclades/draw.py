"""Drawing a Cyclades board, and a position on it, for a person: SVG and plain text.

Pure functions, no I/O: :func:`render_svg` and :func:`render_text` take a
:class:`~referee.games.cyclades.board.Board`, optionally a :class:`Position` (read from a
referee state with :func:`position_from_state`) and the players as
``(name, colour)`` pairs, and return a string.  The geometry follows the hex
grid of docs/boards.md: pointy-topped hexes in horizontal rows, the rows
centred on one another, so that a hex touches two hexes in each neighbouring
row exactly as :func:`referee.games.cyclades.board.hex_neighbours` says.

The SVG is built as text, every piece of user text escaped, and is
deterministic: the same board and position always give the same bytes (hexes
row by row, islands and seas in natural order, players in seat order).
Players' gold is hidden information and is never drawn.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from referee.base.errors import RefereeError
from referee.base.terms import Fn
from referee.game.fluents import Count
from referee.game.picture import INK as _INK
from referee.game.picture import Picture
from referee.game.picture import Svg as _Svg
from referee.game.picture import svg_escape as _esc
from referee.game.picture import svg_number as _n
from referee.games.cyclades.fluents import Battle, Figure, Marker, Metropolis

from .board import Board, Island, builtin_board, load_board, parse_hex

__all__ = [
    "Position",
    "position_from_state",
    "render_svg",
    "render_text",
    "COLOURS",
    "BUILDING_TYPES",
    "CycladesPicture",
]

_ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: Fill colours of the players' colours (the idents of names.toml).
COLOURS = {
    "red": "#d62728",
    "blue": "#1f63c6",
    "green": "#2e9e3a",
    "yellow": "#f2c80f",
    "black": "#262626",
}
_UNKNOWN_COLOUR = "#8c8c8c"
#: One letter per colour in the text grid (k for black: b is blue).
_COLOUR_LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "black": "K"}

#: Building types in the order they are drawn, with the letter shown in a slot.
BUILDING_TYPES = ("temple", "university", "port", "fortress")
_BUILDING_LETTER = {"temple": "T", "university": "U", "port": "P", "fortress": "F"}

_LAND = "#eadcb4"
_LAND_EDGE = "#7d6a43"
_SEA = "#a8d2ee"
_SEA_EDGE = "#eef7fd"
_GOLD = "#f0b429"
_MARKER = "#e8740c"
_SEA_INK = "#1d4f7a"
_FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


# ---------------------------------------------------------------------------
# A position, read from the referee's state
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What is on the board: pieces, buildings and markers (never gold).

    ``troops`` and ``fleets`` map (player, place) to a count; ``buildings``
    maps (island, type) to a count; ``prosperity`` maps a place to the number
    of prosperity markers (Apollo's) on it; ``markers`` maps an island to the
    players whose territory marker lies there; ``battles`` holds
    (kind, place, attacker, defender) as strings; ``figures`` maps a creature
    whose figure stands on the board to (place, the player who put it there)."""

    troops: dict[tuple[str, str], int] = field(default_factory=dict)
    fleets: dict[tuple[str, str], int] = field(default_factory=dict)
    buildings: dict[tuple[str, str], int] = field(default_factory=dict)
    prosperity: dict[str, int] = field(default_factory=dict)
    metropolises: frozenset[str] = frozenset()
    markers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    battles: tuple[tuple[str, str, str, str], ...] = ()
    figures: dict[str, tuple[str, str]] = field(default_factory=dict)

    def figures_on(self, place: str) -> list[tuple[str, str]]:
        """(creature, who put it there) of the figures standing on a place, sorted."""
        return sorted((c, who) for c, (p, who) in self.figures.items() if p == place)

    def troops_on(self, island: str) -> list[tuple[str, int]]:
        """(player, troops) on an island, players sorted."""
        return sorted((p, n) for (p, i), n in self.troops.items() if i == island and n > 0)

    def fleets_on(self, sea: str) -> list[tuple[str, int]]:
        """(player, fleets) on a sea space, players sorted."""
        return sorted((p, n) for (p, s), n in self.fleets.items() if s == sea and n > 0)

    def buildings_on(self, island: str) -> list[tuple[str, int]]:
        """(type, count) on an island, in the order of BUILDING_TYPES (others after)."""
        found = {t: n for (i, t), n in self.buildings.items() if i == island and n > 0}
        order = list(BUILDING_TYPES) + sorted(t for t in found if t not in BUILDING_TYPES)
        return [(t, found[t]) for t in order if t in found]

    def controllers(self, island: str) -> list[str]:
        """Who controls the island: the players with troops there, else the
        owner(s) of the territory marker (rule island_control)."""
        with_troops = [p for p, _ in self.troops_on(island)]
        return with_troops or sorted(self.markers.get(island, ()))


def _text(term) -> str:
    """A term as plain text: a string datum as it is, a constant by its name."""
    if isinstance(term, Fn):
        if not term.args:
            return term.name
        return f"{term.name}({','.join(_text(a) for a in term.args)})"
    return str(term)


def _pair(key) -> tuple | None:
    """The two parts of a tuple key ``(A,B)`` (an Fn named '' with two arguments)."""
    if isinstance(key, Fn) and key.name == "" and len(key.args) == 2:
        return key.args
    return None


def position_from_state(state: Iterable[Fn]) -> Position:
    """Read the pieces on the board from a state's fluents: ``count(troops,(P,I),N)``,
    ``count(fleets,(P,S),N)``, ``count(building,(I,T),N)``, ``count(prosperity,I,N)``,
    ``metropolis(I)``, ``marker(I,P)``, ``battle(Kind,Place,Attacker,Defender)`` and
    ``figure(Creature,Place,Player,Cycle)``."""
    troops: dict = {}
    fleets: dict = {}
    buildings: dict = {}
    prosperity: dict = {}
    metropolises: set = set()
    markers: dict = {}
    battles: list = []
    figures: dict = {}
    for f in state:
        if not isinstance(f, Fn):
            continue
        count = Count.match(f)
        if count is not None and isinstance(count.counter, Fn) and isinstance(count.amount, int):
            kind, key, n = count.counter.name, count.key, count.amount
            pair = _pair(key)
            if kind in ("troops", "fleets", "building") and pair is not None:
                target = {"troops": troops, "fleets": fleets, "building": buildings}[kind]
                target[(_text(pair[0]), _text(pair[1]))] = n
            elif kind == "prosperity" and not isinstance(key, Fn):
                prosperity[_text(key)] = n
        elif (metropolis := Metropolis.match(f)) is not None:
            metropolises.add(_text(metropolis.island))
        elif (marker := Marker.match(f)) is not None:
            island, player = _text(marker.island), _text(marker.player)
            markers[island] = tuple(sorted(set(markers.get(island, ())) | {player}))
        elif (battle := Battle.match(f)) is not None:
            battles.append((_text(battle.kind), _text(battle.place), _text(battle.attacker), _text(battle.defender)))
        elif (figure := Figure.match(f)) is not None:
            figures[_text(figure.card)] = (_text(figure.place), _text(figure.player))
    return Position(troops, fleets, buildings, prosperity, frozenset(metropolises), markers,
                    tuple(sorted(battles)), figures)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _natural(key: str) -> tuple:
    """Sort key that puts IS2 before IS10 and B9 before B10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"([0-9]+)", key) if p)


# Characters XML 1.0 does not allow, even escaped.



def _hex_name(r: int, c: int) -> str:
    return f"{_ROW_LETTERS[r]}{c + 1}"


def _colour_of(players: dict[str, str], player: str) -> str:
    return COLOURS.get(players.get(player, ""), _UNKNOWN_COLOUR)


def _ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return _INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"



# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------

_SIZE = 40.0                      # centre to corner of a hex
_WIDTH = math.sqrt(3) * _SIZE     # flat side to flat side
_MARGIN = 20.0
_LEGEND_WIDTH = 300.0


class _Grid:
    """Pixel positions of the hexes of a board (pointy-topped, rows centred)."""

    def __init__(self, rows: Sequence[int]):
        self.rows = tuple(rows)
        self.widest = max(self.rows)
        self.width = self.widest * _WIDTH + 2 * _MARGIN
        self.height = (2 + 1.5 * (len(self.rows) - 1)) * _SIZE + 2 * _MARGIN

    def centre(self, r: int, c: int) -> tuple[float, float]:
        x = _MARGIN + _WIDTH / 2 + (c + (self.widest - self.rows[r]) / 2) * _WIDTH
        y = _MARGIN + _SIZE + r * 1.5 * _SIZE
        return x, y

    @staticmethod
    def corners(x: float, y: float) -> list[tuple[float, float]]:
        """Corner k lies at angle 60k - 30 degrees (y down): edge k, from corner k
        to corner k+1, faces the neighbour in direction 60k (E, SE, SW, W, NW, NE)."""
        return [(x + _SIZE * math.cos(math.radians(60 * k - 30)), y + _SIZE * math.sin(math.radians(60 * k - 30)))
                for k in range(6)]

    def across(self, r: int, c: int, k: int) -> tuple[int, int] | None:
        """The hex across edge k of hex (r, c), or None at the rim (the neighbour rule)."""
        if k == 0:
            nb = (r, c + 1)
        elif k == 3:
            nb = (r, c - 1)
        else:
            other = r + 1 if k in (1, 2) else r - 1
            if not 0 <= other < len(self.rows):
                return None
            right = k in (1, 5)
            if self.rows[other] > self.rows[r]:
                nb = (other, c + 1 if right else c)
            else:
                nb = (other, c if right else c - 1)
        rr, cc = nb
        if 0 <= rr < len(self.rows) and 0 <= cc < self.rows[rr]:
            return nb
        return None

    def hexes(self) -> list[tuple[int, int]]:
        return [(r, c) for r, n in enumerate(self.rows) for c in range(n)]


def _anchor(grid: _Grid, island: Island) -> tuple[float, float]:
    """Where an island's label goes: the mean of its hex centres when that point
    is well inside the island (so a two-hex island is labelled across both),
    else the centre of the island hex nearest to it."""
    cells = [parse_hex(h, grid.rows) for h in island.hexes]
    centres = [grid.centre(*cell) for cell in cells if cell is not None]
    mx = sum(x for x, _ in centres) / len(centres)
    my = sum(y for _, y in centres) / len(centres)
    nearest = min(centres, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p[1], p[0]))
    if math.dist(nearest, (mx, my)) <= _WIDTH / 2 + 0.01:
        return mx, my
    return nearest


# ---------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------




def _badge(svg: _Svg, x: float, y: float, colour: str, count: int, cls: str, player: str, place: str) -> None:
    """A player's troops: a disc in the player's colour with the count."""
    svg.add(f'<g class="{cls}" data-player="{_esc(player)}" data-place="{_esc(place)}" data-count="{count}">')
    svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{colour}" stroke="#ffffff" stroke-width="1.2"/>')
    svg.text(x, y + 0.5, count, 10, fill=_ink_on(colour), weight="bold")
    svg.add("</g>")


def _boat(svg: _Svg, x: float, y: float, colour: str, label, cls: str, player: str, place: str,
          count: int | None = None, outline: bool = False) -> None:
    """A fleet: a hull in the player's colour with the count (or a seat letter)."""
    fill = "#ffffff" if outline else colour
    stroke = colour if outline else "#ffffff"
    data = f' data-count="{count}"' if count is not None else ""
    svg.add(f'<g class="{cls}" data-player="{_esc(player)}" data-place="{_esc(place)}"{data}>')
    svg.add(f'<path d="M{_n(x - 13)},{_n(y - 6)} H{_n(x + 13)} L{_n(x + 8)},{_n(y + 7)} H{_n(x - 8)} Z" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>')
    svg.text(x, y + 0.5, label, 10, fill=colour if outline else _ink_on(colour), weight="bold")
    svg.add("</g>")


def _prosperity(svg: _Svg, x: float, y: float, n: int, cls: str, place: str, colour: str = _GOLD,
                label: str | None = None) -> None:
    """Prosperity: a gold disc (printed symbols) or an orange one (markers) with the number."""
    svg.add(f'<g class="{cls}" data-place="{_esc(place)}" data-count="{n}">')
    svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8" fill="{colour}" stroke="#8a5a00" stroke-width="0.8"/>')
    svg.text(x, y + 0.5, label if label is not None else n, 10, fill=_INK, weight="bold")
    svg.add("</g>")


#: The creatures with a figure, as drawn: two letters on a dark disc.
FIGURE_LETTERS = {"kraken": "Kr", "minotaur": "Mi", "chiron": "Ch", "medusa": "Me", "polyphemus": "Po"}
_FIGURE = "#3b2f2f"


def _figure(svg: _Svg, x: float, y: float, creature: str, player: str, place: str) -> None:
    """A creature's figure: a dark disc with the creature's letters, ringed in
    the colour of the player who put it there."""
    svg.add(f'<g class="figure" data-creature="{_esc(creature)}" data-player="{_esc(player)}" '
            f'data-place="{_esc(place)}">')
    svg.add(f"<title>{_esc(creature.capitalize())} (put there by {_esc(player)})</title>")
    svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="9.5" fill="{_FIGURE}" stroke="{_INK}" stroke-width="1"/>')
    svg.text(x, y + 0.5, FIGURE_LETTERS.get(creature, creature[:2].capitalize()), 9, fill="#ffffff", weight="bold")
    svg.add("</g>")


def _flag(svg: _Svg, x: float, y: float, colour: str, player: str, island: str) -> None:
    """A territory marker: a small flag in the owner's colour."""
    svg.add(f'<g class="marker" data-player="{_esc(player)}" data-place="{_esc(island)}">')
    svg.add(f'<path d="M{_n(x)},{_n(y + 7)} V{_n(y - 7)} L{_n(x + 10)},{_n(y - 3.5)} L{_n(x)},{_n(y)}" '
            f'fill="{colour}" stroke="{_INK}" stroke-width="1"/>')
    svg.add("</g>")


def _island_slots(svg: _Svg, x: float, y: float, island: Island, position: Position | None) -> None:
    """The building slots as small squares; in a position, a metropolis covers the
    slots it occupies and each building fills a slot with its letter."""
    fills: list[tuple[str, str]] = []  # (kind, letter) per occupied slot, in order
    metropolis = position is not None and island.id in position.metropolises
    if position is not None:
        for kind, n in position.buildings_on(island.id):
            fills += [(kind, _BUILDING_LETTER.get(kind, kind[:1].upper()))] * n
    used = (island.metropolis_slots if metropolis else 0) + len(fills)
    total = max(island.slots, used)
    side, gap = 10.0, 2.0
    left = x - (total * side + (total - 1) * gap) / 2
    for k in range(total):
        sx = left + k * (side + gap)
        over = " overflow" if k >= island.slots else ""
        svg.add(f'<rect class="slot{over}" data-island="{_esc(island.id)}" x="{_n(sx)}" y="{_n(y - side / 2)}" '
                f'width="{_n(side)}" height="{_n(side)}" fill="#ffffff" '
                f'stroke="{"#c0392b" if over else _LAND_EDGE}" stroke-width="1"/>')
    k = 0
    if metropolis:
        m = island.metropolis_slots
        width = m * side + (m - 1) * gap
        svg.add(f'<g class="metropolis" data-place="{_esc(island.id)}">')
        svg.add(f'<rect x="{_n(left - 1)}" y="{_n(y - side / 2 - 1)}" width="{_n(width + 2)}" height="{_n(side + 2)}" '
                f'fill="#6b4fa0" stroke="{_INK}" stroke-width="0.8"/>')
        svg.text(left + width / 2, y + 0.5, "M", 9, fill="#ffffff", weight="bold")
        svg.add("</g>")
        k = m
    for kind, letter in fills:
        sx = left + k * (side + gap)
        svg.add(f'<g class="building" data-place="{_esc(island.id)}" data-type="{_esc(kind)}">')
        svg.add(f'<rect x="{_n(sx)}" y="{_n(y - side / 2)}" width="{_n(side)}" height="{_n(side)}" '
                f'fill="#5a4632" stroke="{_INK}" stroke-width="0.8"/>')
        svg.text(sx + side / 2, y + 0.5, letter, 8, fill="#ffffff", weight="bold")
        svg.add("</g>")
        k += 1


def _row(items: int, x: float, step: float) -> list[float]:
    """x positions of ``items`` things centred on x."""
    return [x + (k - (items - 1) / 2) * step for k in range(items)]


def render_svg(board: Board, position: Position | None = None, players: Sequence[tuple[str, str]] = (),
               title: str = "", seats: int | None = None) -> str:
    """The board (and the position, if given) as an SVG document.

    ``players`` are (name, colour) pairs in seat order; ``title`` is a line shown
    above the legend (e.g. which move the position follows); ``seats`` is how
    many seats' starting placements to mark when no position is given (None:
    all the board has, 0: none)."""
    grid = _Grid(board.rows)
    colour = {name: col for name, col in players}
    island_of = {h: i for i in board.islands for h in i.hexes}
    islands = sorted(board.islands, key=lambda i: _natural(i.id))
    seas = sorted(board.seas, key=lambda s: _natural(s.id))
    show_start = position is None and seats != 0
    start = board.start[:seats] if seats is not None else board.start
    lines = _legend_lines(board, position, players, title, start if show_start else ())
    legend_height = 24 + 19 * len(lines)
    width = grid.width + max(_LEGEND_WIDTH, max(_text_width(entry) for entry in lines) + 20)
    height = max(grid.height, legend_height + 2 * _MARGIN)

    svg = _Svg()
    svg.add('<?xml version="1.0" encoding="UTF-8"?>')
    svg.add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{_FONT}">')
    svg.add(f"<title>{_esc(board.name)}</title>")
    svg.add(f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>')

    # 1. The hexes: sea first, then land, one polygon each.
    owner_fill: dict[str, str] = {}
    if position is not None:
        for island in islands:
            who = position.controllers(island.id)
            if len(who) == 1:
                owner_fill[island.id] = _colour_of(colour, who[0])
    svg.add('<g class="hexes">')
    for r, c in grid.hexes():
        name = _hex_name(r, c)
        x, y = grid.centre(r, c)
        points = " ".join(f"{_n(px)},{_n(py)}" for px, py in grid.corners(x, y))
        island = island_of.get(name)
        if island is None:
            svg.add(f'<polygon class="hex sea" data-hex="{name}" points="{points}" fill="{_SEA}" '
                    f'stroke="{_SEA_EDGE}" stroke-width="1.5"><title>sea {name}</title></polygon>')
        else:
            svg.add(f'<polygon class="hex island" data-hex="{name}" data-island="{_esc(island.id)}" '
                    f'points="{points}" fill="{_LAND}" stroke="{_LAND}" stroke-width="1">'
                    f'<title>island {_esc(island.id)} ({name})</title></polygon>')
    svg.add("</g>")

    # 2. Coastlines: the edges of island hexes that do not face the same island.
    svg.add('<g class="coasts" fill="none" stroke-linecap="round">')
    for r, c in grid.hexes():
        name = _hex_name(r, c)
        island = island_of.get(name)
        if island is None:
            continue
        edge_colour, edge_width = (owner_fill[island.id], 4.5) if island.id in owner_fill else (_LAND_EDGE, 2)
        corners = grid.corners(*grid.centre(r, c))
        for k in range(6):
            nb = grid.across(r, c, k)
            if nb is not None and island_of.get(_hex_name(*nb)) is island:
                continue
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 6]
            svg.add(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                    f'stroke="{edge_colour}" stroke-width="{edge_width}"/>')
    svg.add("</g>")

    # 3. Battles: the place outlined.
    if position is not None and position.battles:
        svg.add('<g class="battles" fill="none">')
        for kind, place, attacker, defender in position.battles:
            hexes = board.island(place).hexes if place in {i.id for i in islands} else (place,)
            for h in hexes:
                cell = parse_hex(h, board.rows)
                if cell is None:
                    continue
                pts = " ".join(f"{_n(px)},{_n(py)}" for px, py in grid.corners(*grid.centre(*cell)))
                svg.add(f'<path class="battle" data-place="{_esc(place)}" data-kind="{_esc(kind)}" '
                        f'd="M{pts} Z" stroke="#c0392b" stroke-width="3" stroke-dasharray="6 4"/>')
        svg.add("</g>")

    # 4. Sea spaces: id, prosperity symbols, fleets (or the seats' starting fleets).
    start_fleets: dict[str, list[str]] = {}
    start_islands: dict[str, list[str]] = {}
    for seat in start if show_start else ():
        for s in seat.fleets:
            start_fleets.setdefault(s, []).append(seat.letter)
        for i in seat.islands:
            start_islands.setdefault(i, []).append(seat.letter)
    svg.add('<g class="seas">')
    for sea in seas:
        cell = parse_hex(sea.hex, board.rows)
        if cell is None:
            continue
        x, y = grid.centre(*cell)
        svg.text(x, y - 22, sea.id, 11, fill=_SEA_INK, weight="bold", cls="label sea-label",
                 extra=f' data-place="{_esc(sea.id)}"')
        marks = position.prosperity.get(sea.id, 0) if position is not None else 0
        discs = ([("prosperity", sea.prosperity, _GOLD, None)] if sea.prosperity > 0 else []) + \
                ([("prosperity-marker", marks, _MARKER, f"+{marks}")] if marks > 0 else [])
        for (cls, n, col, label), dx in zip(discs, _row(len(discs), x, 19)):
            _prosperity(svg, dx, y - 4, n, cls, sea.id, col, label)
        if position is not None:
            fleets = position.fleets_on(sea.id)
            for (player, n), dx in zip(fleets, _row(len(fleets), x, 28)):
                _boat(svg, dx, y + 15, _colour_of(colour, player), n, "fleet", player, sea.id, n)
            for k, (creature, player) in enumerate(position.figures_on(sea.id)):
                _figure(svg, x + 18 + 20 * k, y - 6, creature, player, sea.id)
        else:
            letters = start_fleets.get(sea.id, [])
            for letter, dx in zip(letters, _row(len(letters), x, 28)):
                _boat(svg, dx, y + 15, _INK, letter, "start-fleet", letter, sea.id, outline=True)
    svg.add("</g>")

    # 5. Islands: id, building slots (and buildings), prosperity, troops, markers.
    svg.add('<g class="islands">')
    for island in islands:
        x, y = _anchor(grid, island)
        svg.text(x, y - 21, island.id, 12, weight="bold", cls="label island-label",
                 extra=f' data-place="{_esc(island.id)}"')
        if position is not None:
            for k, player in enumerate(position.markers.get(island.id, ())):
                _flag(svg, x + 20 + 11 * k, y - 23, _colour_of(colour, player), player, island.id)
            for k, (creature, player) in enumerate(position.figures_on(island.id)):
                _figure(svg, x - 26 - 20 * k, y - 25, creature, player, island.id)
        _island_slots(svg, x, y - 5, island, position)
        things: list[tuple] = []
        if island.prosperity > 0:
            things.append(("prosperity", island.prosperity))
        marks = position.prosperity.get(island.id, 0) if position is not None else 0
        if marks > 0:
            things.append(("prosperity-marker", marks))
        if position is not None:
            things += [("troops", p, n) for p, n in position.troops_on(island.id)]
        else:
            things += [("start", letter) for letter in start_islands.get(island.id, [])]
        for thing, dx in zip(things, _row(len(things), x, 19)):
            if thing[0] == "prosperity":
                _prosperity(svg, dx, y + 13, thing[1], "prosperity", island.id)
            elif thing[0] == "prosperity-marker":
                _prosperity(svg, dx, y + 13, thing[1], "prosperity-marker", island.id, _MARKER, f"+{thing[1]}")
            elif thing[0] == "troops":
                _badge(svg, dx, y + 13, _colour_of(colour, thing[1]), thing[2], "troops", thing[1], island.id)
            else:
                svg.add(f'<g class="start-island" data-player="{thing[1]}" data-place="{_esc(island.id)}">')
                svg.add(f'<circle cx="{_n(dx)}" cy="{_n(y + 13)}" r="8.5" fill="#ffffff" stroke="{_INK}" '
                        f'stroke-width="1.2"/>')
                svg.text(dx, y + 13.5, thing[1], 10, weight="bold")
                svg.add("</g>")
    svg.add("</g>")

    # 6. The legend, right of the board.
    _legend(svg, grid.width + 10, _MARGIN, lines, colour)
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"


def _legend_lines(board: Board, position: Position | None, players: Sequence[tuple[str, str]], title: str,
                  start) -> list[tuple]:
    """The legend as (kind, ...) entries; drawn by :func:`_legend`."""
    lines: list[tuple] = [("title", board.name)]
    if title:
        head, sep, rest = title.partition(" (")
        lines.append(("text", head))
        if sep:
            lines.append(("text", sep.strip() + rest))
    hexes = sum(board.rows)
    lines.append(("text", f"{hexes} hexes: {len(board.islands)} islands, {len(board.seas)} sea spaces"))
    if players:
        lines.append(("head", "Players"))
        for name, col in players:
            lines.append(("player", name, col))
    lines.append(("head", "Key"))
    lines.append(("key-prosperity", "prosperity symbols printed"))
    if position is not None:
        lines.append(("key-marker", "prosperity markers (Apollo)"))
    lines.append(("key-slot", "building slots (empty)"))
    if position is not None:
        lines.append(("key-building", "T temple  U university  P port  F fortress"))
        lines.append(("key-metropolis", "metropolis (covers its slots)"))
        lines.append(("key-troops", "troops, in the owner's colour"))
        lines.append(("key-fleet", "fleets, in the owner's colour"))
        lines.append(("key-flag", "territory marker"))
        if position.battles:
            lines.append(("key-battle", "battle"))
        if position.figures:
            lines.append(("key-figure", "figure: " + ", ".join(
                f"{FIGURE_LETTERS.get(c, c[:2].capitalize())} {c.capitalize()}" for c in sorted(position.figures))))
        lines.append(("key-coast", "coast: who controls the island"))
    if start:
        lines.append(("key-start", "starting troop of seat A"))
        lines.append(("key-startfleet", "starting fleet of seat A"))
        lines.append(("text", "Seats " + ", ".join(s.letter for s in start) + ": the players in the order"))
        lines.append(("text", "of a transcript's players: line"))
    return lines


def _text_width(entry: tuple) -> float:
    """About how wide a legend line is drawn, in pixels (wide scripts count double)."""
    text = entry[1] + (f" ({entry[2]})" if entry[0] == "player" else "") if len(entry) > 1 else ""
    size = {"title": 15, "head": 12, "player": 12}.get(entry[0], 11)
    units = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    indent = 0 if entry[0] in ("title", "head", "text") else 30
    return indent + units * size * 0.62


def _legend(svg: _Svg, x: float, y: float, lines: list[tuple], colour: dict[str, str]) -> None:
    svg.add('<g class="legend">')
    y += 14
    for entry in lines:
        kind = entry[0]
        if kind == "title":
            svg.text(x, y, entry[1], 15, weight="bold", anchor="start", cls="legend-title")
        elif kind == "head":
            svg.text(x, y, entry[1], 12, weight="bold", anchor="start")
        elif kind == "text":
            svg.text(x, y, entry[1], 11, anchor="start")
        elif kind == "player":
            name, col = entry[1], entry[2]
            fill = COLOURS.get(col, _UNKNOWN_COLOUR)
            svg.add(f'<g class="legend-player" data-player="{_esc(name)}" data-colour="{_esc(col)}">')
            svg.add(f'<rect x="{_n(x)}" y="{_n(y - 7)}" width="22" height="14" fill="{fill}" '
                    f'stroke="{_INK}" stroke-width="0.8"/>')
            svg.text(x + 30, y, f"{name} ({col})", 12, anchor="start")
            svg.add("</g>")
        else:
            cx = x + 11
            if kind == "key-prosperity":
                _prosperity(svg, cx, y, 1, "key", "")
            elif kind == "key-marker":
                _prosperity(svg, cx, y, 1, "key", "", _MARKER, "+1")
            elif kind == "key-slot":
                svg.add(f'<rect x="{_n(cx - 5)}" y="{_n(y - 5)}" width="10" height="10" fill="#ffffff" '
                        f'stroke="{_LAND_EDGE}" stroke-width="1"/>')
            elif kind == "key-building":
                svg.add(f'<rect x="{_n(cx - 5)}" y="{_n(y - 5)}" width="10" height="10" fill="#5a4632"/>')
                svg.text(cx, y + 0.5, "T", 8, fill="#ffffff", weight="bold")
            elif kind == "key-metropolis":
                svg.add(f'<rect x="{_n(cx - 11)}" y="{_n(y - 6)}" width="22" height="12" fill="#6b4fa0"/>')
                svg.text(cx, y + 0.5, "M", 9, fill="#ffffff", weight="bold")
            elif kind == "key-troops":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="8.5" fill="{_UNKNOWN_COLOUR}"/>')
                svg.text(cx, y + 0.5, "2", 10, fill="#ffffff", weight="bold")
            elif kind == "key-fleet":
                svg.add(f'<path d="M{_n(cx - 13)},{_n(y - 6)} H{_n(cx + 13)} L{_n(cx + 8)},{_n(y + 7)} '
                        f'H{_n(cx - 8)} Z" fill="{_UNKNOWN_COLOUR}"/>')
                svg.text(cx, y + 0.5, "1", 10, fill="#ffffff", weight="bold")
            elif kind == "key-flag":
                svg.add(f'<path d="M{_n(cx - 4)},{_n(y + 7)} V{_n(y - 7)} L{_n(cx + 6)},{_n(y - 3.5)} '
                        f'L{_n(cx - 4)},{_n(y)}" fill="{_UNKNOWN_COLOUR}" stroke="{_INK}" stroke-width="1"/>')
            elif kind == "key-coast":
                svg.add(f'<rect x="{_n(cx - 11)}" y="{_n(y - 6)}" width="22" height="12" fill="{_LAND}" '
                        f'stroke="{_UNKNOWN_COLOUR}" stroke-width="3"/>')
            elif kind == "key-figure":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="8.5" fill="{_FIGURE}"/>')
                svg.text(cx, y + 0.5, "Kr", 8, fill="#ffffff", weight="bold")
            elif kind == "key-battle":
                svg.add(f'<path d="M{_n(cx - 11)},{_n(y - 6)} h22 v12 h-22 Z" fill="none" stroke="#c0392b" '
                        f'stroke-width="2" stroke-dasharray="4 3"/>')
            elif kind == "key-start":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="8.5" fill="#ffffff" stroke="{_INK}" '
                        f'stroke-width="1.2"/>')
                svg.text(cx, y + 0.5, "A", 10, weight="bold")
            elif kind == "key-startfleet":
                svg.add(f'<path d="M{_n(cx - 13)},{_n(y - 6)} H{_n(cx + 13)} L{_n(cx + 8)},{_n(y + 7)} '
                        f'H{_n(cx - 8)} Z" fill="#ffffff" stroke="{_INK}" stroke-width="1.2"/>')
                svg.text(cx, y + 0.5, "A", 10, weight="bold")
            svg.text(x + 30, y, entry[-1], 11, anchor="start")
        y += 19
    svg.add("</g>")


# ---------------------------------------------------------------------------
# Plain text
# ---------------------------------------------------------------------------

_CELL = 6  # characters per hex in the text grid; rows are offset by half a cell


def _cell(text: str) -> str:
    return text[:_CELL].center(_CELL)


def _count_text(items: list[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {n}" for name, n in items)


def render_text(board: Board, position: Position | None = None, players: Sequence[tuple[str, str]] = (),
                title: str = "", seats: int | None = None) -> str:
    """The board (and the position, if given) as plain text: a hex grid with
    each hex's id and, under it, the island it belongs to ([IS4]) or what lies
    on the sea space (prosperity $1, fleets R2 = 2 fleets of the red player),
    then a legend of the islands and the sea spaces."""
    colour = {name: col for name, col in players}
    island_of = {h: i for i in board.islands for h in i.hexes}
    widest = max(board.rows)
    out: list[str] = [board.name]
    if title:
        out.append(title)
    out.append(f"{sum(board.rows)} hexes: {len(board.islands)} islands, {len(board.seas)} sea spaces")
    if players:
        out.append("Players: " + ", ".join(
            f"{name} ({col}, {_COLOUR_LETTER.get(col, '?')})" for name, col in players))
    out.append("")
    for r, length in enumerate(board.rows):
        pad = " " * ((widest - length) * _CELL // 2)
        ids, under = [], []
        for c in range(length):
            name = _hex_name(r, c)
            island = island_of.get(name)
            ids.append(_cell(name))
            if island is not None:
                under.append(_cell(f"[{island.id}]" if len(island.id) <= _CELL - 2 else island.id))
            else:
                sea = board.sea(name)
                bits = []
                if position is not None:
                    bits += [FIGURE_LETTERS.get(c, c[:2]) for c, _ in position.figures_on(name)]
                    bits += [f"{_COLOUR_LETTER.get(colour.get(p, ''), '?')}{n}" for p, n in position.fleets_on(name)]
                if sea.prosperity:
                    bits.append(f"${sea.prosperity}")
                under.append(_cell(" ".join(bits) if bits else "~"))
        out.append((pad + "".join(ids)).rstrip())
        out.append((pad + "".join(under)).rstrip())
    out.append("")
    out.append("Legend: [IS4] island hex, ~ sea space, $N prosperity symbols"
               + (", R2 fleets (colour letter and count)" if position is not None else "")
               + (", Kr the Kraken" if position is not None and "kraken" in position.figures else ""))
    out.append("")
    show_start = position is None and seats != 0
    start = (board.start[:seats] if seats is not None else board.start) if show_start else ()
    seat_of: dict[str, list[str]] = {}
    for seat in start:
        for i in seat.islands:
            seat_of.setdefault(i, []).append(seat.letter)
    out.append("Islands:")
    for island in sorted(board.islands, key=lambda i: _natural(i.id)):
        line = (f"  {island.id:<5} hexes {' '.join(island.hexes):<12} slots {island.slots}"
                f" (metropolis {island.metropolis_slots})  prosperity {island.prosperity}")
        if position is not None:
            extra = []
            marks = position.prosperity.get(island.id, 0)
            if marks:
                line += f" + {marks} marker{'s' if marks != 1 else ''}"
            who = position.controllers(island.id)
            extra.append("owner " + (", ".join(who) if who else "none"))
            troops = position.troops_on(island.id)
            if troops:
                extra.append("troops " + _count_text(troops))
            markers = position.markers.get(island.id, ())
            if markers:
                extra.append("territory marker " + ", ".join(markers))
            for creature, player in position.figures_on(island.id):
                extra.append(f"figure {creature.capitalize()} (put there by {player})")
            built = position.buildings_on(island.id)
            if island.id in position.metropolises:
                built = [("metropolis", 1)] + built
            if built:
                extra.append("buildings " + ", ".join(t if n == 1 else f"{t} x{n}" for t, n in built))
            line += "  " + "; ".join(extra)
        elif island.id in seat_of:
            line += "  start: seat " + ", ".join(seat_of[island.id])
        out.append(line.rstrip())
    rich = [s for s in sorted(board.seas, key=lambda s: _natural(s.id)) if s.prosperity > 0]
    out.append("Sea spaces with prosperity symbols: "
               + (", ".join(f"{s.id} {s.prosperity}" for s in rich) if rich else "none"))
    if position is not None:
        out.append("Fleets:")
        fleets = sorted({s for (_, s), n in position.fleets.items() if n > 0}, key=_natural)
        for sea in fleets:
            out.append(f"  {sea:<4} {_count_text(position.fleets_on(sea))}")
        if not fleets:
            out.append("  none")
        sea_marks = sorted((s.id, position.prosperity[s.id]) for s in board.seas if position.prosperity.get(s.id))
        if sea_marks:
            out.append("Prosperity markers on sea spaces: " + ", ".join(f"{s} +{n}" for s, n in sea_marks))
        for kind, place, attacker, defender in position.battles:
            out.append(f"Battle ({kind}) at {place}: {attacker} against {defender}".rstrip())
        if position.figures:
            out.append("Figures: " + ", ".join(f"{c.capitalize()} on {place} (put there by {who})"
                                               for c, (place, who) in sorted(position.figures.items())))
    elif start:
        out.append("Starting placement (one troop on each island, one fleet on each sea space):")
        for seat in start:
            out.append(f"  seat {seat.letter}: islands {', '.join(seat.islands)}; fleets {', '.join(seat.fleets)}"
                       + ("" if seat.verified else "  (unverified)"))
    return "\n".join(out) + "\n"


class CycladesPicture(Picture):
    """The Cyclades board and its positions (referee.picture's interface)."""

    def blank(self, players: int | None, board_file: str | None, svg: bool) -> str:
        render = render_svg if svg else render_text
        if board_file is not None:
            board = load_board(board_file)
            if players is not None and players not in board.player_counts:
                counts = ", ".join(map(str, board.player_counts))
                raise RefereeError(f"the board '{board.name}' is for {counts} players, not {players}")
        elif players is not None:
            board = builtin_board(players)
        else:
            raise RefereeError("say which board: --players N (2 to 5), --board FILE or --transcript T")
        return render(board, seats=players if players is not None else max(board.player_counts))

    def position(self, rules, state: frozenset, players: Sequence[tuple[str, str]], title: str, svg: bool) -> str:
        render = render_svg if svg else render_text
        return render(rules.board, position_from_state(state), players, title=title)
