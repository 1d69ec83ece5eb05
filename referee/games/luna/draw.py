"""Drawing Luna's islands, temple and council, and a position on them, for a
person: SVG and plain text (referee.picture's interface, as Cyclades's draw.py).

Pure functions, no I/O: :func:`position_from_state` reads a referee state
(the fluents of rules/state.lp) into a :class:`LunaPosition`;
:func:`render_svg` and :func:`render_text` draw it with the game's printed
values (:class:`~referee.games.luna.data.LunaData`) and the players as
``(name, colour)`` pairs.  What is drawn: the ring of the seven islands
(clockwise, island 1 at the top) with their favour kind and the favour tokens
left on them, each player's novices on them (active: a filled disc; inactive,
beside the island: a ring) and on the jetty, the shrines, the Moon Priestess,
the Builder and the Apostate; the temple path in its groups between the guard
tiles (the Temple Guard on the guard tile of the round), the tiles on it and
the novices on them; the temple's parts with the tiles entered, their novices
and the Books of Wisdom; the council track with its seats' values and the
discs; the time markers; and per player the influence, the supply and the
favours held.  Nothing in Luna is hidden.

The SVG is built as text, every name from a transcript escaped, and is
deterministic (islands in order, players in seat order).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from referee.base.errors import RefereeError
from referee.base.terms import Fn
from referee.game.fluents import Control, Phase, Winner
from referee.game.picture import INK as _INK
from referee.game.picture import Picture
from referee.game.picture import Svg as _Svg
from referee.game.picture import svg_escape as _esc
from referee.game.picture import svg_number as _n
from referee.games.luna import fluents

from . import data as luna_data

__all__ = ["LunaPosition", "position_from_state", "render_svg", "render_text", "LunaPicture", "COLOURS"]

#: Fill colours of the players' colours (the idents of names.toml).
COLOURS = {
    "red": "#d62728",
    "blue": "#1f63c6",
    "green": "#2e9e3a",
    "yellow": "#f2c80f",
    "white": "#f4f4f4",
    "black": "#262626",
}
_UNKNOWN_COLOUR = "#8c8c8c"
#: The figures, as drawn: a letter on a dark disc.
FIGURES = ("priestess", "builder", "apostate")
FIGURE_NAMES = {"priestess": "Moon Priestess", "builder": "Builder", "apostate": "Apostate"}
FIGURE_LETTERS = {"priestess": "P", "builder": "B", "apostate": "A"}

_LAND = "#eadcb4"
_LAND_EDGE = "#7d6a43"
_SEA = "#1c2a4a"
_STONE = "#d9d4c7"
_FIGURE = "#3b2f2f"
_MOON = "#f0d878"
_FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


# ---------------------------------------------------------------------------
# A position, read from the referee's state
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LunaPosition:
    """What is on the table.  Places are the strings '1'..'7' and 'jetty'.

    ``novices`` maps (player, place, 'active'|'inactive') to a count;
    ``shrines`` holds (player, island); ``figures`` maps a figure to its island;
    ``pool`` maps an island to the favour tokens left on it; ``holds`` maps a
    player to the favour kinds held; ``path`` holds the tiles still on the
    temple path, ``on_tile`` maps a tile to the player whose novice is on it,
    ``temple`` a tile entered into the temple to its novice's player,
    ``vacant`` the temple tiles whose novice was expelled, ``books`` the tiles
    with a Book of Wisdom; ``discs`` maps a player to (seat, height) on the
    council track; ``markers`` is the number of time markers still to flip."""

    novices: dict[tuple[str, str, str], int] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)
    shrines: frozenset[tuple[str, str]] = frozenset()
    figures: dict[str, str] = field(default_factory=dict)
    pool: dict[str, int] = field(default_factory=dict)
    holds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    path: frozenset[int] = frozenset()
    on_tile: dict[int, str] = field(default_factory=dict)
    temple: dict[int, str] = field(default_factory=dict)
    vacant: frozenset[int] = frozenset()
    books: frozenset[int] = frozenset()
    scores: dict[str, int] = field(default_factory=dict)
    discs: dict[str, tuple[int, int]] = field(default_factory=dict)
    markers: int | None = None
    round: int | None = None
    phase: str = ""
    start: str | None = None
    control: str | None = None
    winners: tuple[str, ...] = ()

    def novices_on(self, place: str, status: str) -> list[tuple[str, int]]:
        """(player, count) of the novices with ``status`` at ``place``, players sorted."""
        return sorted((p, n) for (p, l, s), n in self.novices.items() if l == place and s == status and n > 0)

    def shrines_on(self, island: str) -> list[str]:
        return sorted(p for p, i in self.shrines if i == island)

    def figures_on(self, island: str) -> list[str]:
        return [f for f in FIGURES if self.figures.get(f) == island]


def _text(term) -> str:
    """A term as plain text: a string datum as it is, a constant by its name."""
    if isinstance(term, Fn):
        return term.name if not term.args else f"{term.name}({','.join(_text(a) for a in term.args)})"
    return str(term)


#: The fluents a position shows, by name.
_DRAWN = {drawn.NAME: drawn for drawn in (
    fluents.Novices, fluents.Supply, fluents.Shrine, fluents.Figure, fluents.Pool, fluents.Holds, fluents.Path,
    fluents.OnTile, fluents.Temple, fluents.Vacant, fluents.Book, fluents.Score, fluents.Disc, fluents.Markers,
    fluents.Round, Phase, fluents.Start, Control, Winner)}


def position_from_state(state: Iterable[Fn]) -> LunaPosition:
    """Read the table from a state's fluents (rules/state.lp): ``novices(P,L,S,C)``,
    ``supply(P,C)``, ``shrine(P,I)``, ``figure(F,I)``, ``pool(I,C)``,
    ``holds(P,K)``, ``path(T)``, ``on_tile(T,P)``, ``temple(T,P)``, ``vacant(T)``,
    ``book(T)``, ``score(P,V)``, ``disc(P,Seat,Height)``, ``markers(K)``,
    ``round(R)``, ``phase(Ph)``, ``start(P)``, ``control(R)``, ``winner(P)``."""
    novices: dict = {}
    supply: dict = {}
    shrines: set = set()
    figures: dict = {}
    pool: dict = {}
    holds: dict = {}
    path: set = set()
    on_tile: dict = {}
    temple: dict = {}
    vacant: set = set()
    books: set = set()
    scores: dict = {}
    discs: dict = {}
    single: dict = {}
    winners: list = []
    for f in state:
        if not isinstance(f, Fn):
            continue
        drawn = _DRAWN.get(f.name)
        view = drawn.match(f) if drawn is not None else None
        if isinstance(view, fluents.Novices) and isinstance(view.amount, int):
            key = (_text(view.player), _text(view.place), _text(view.status))
            novices[key] = novices.get(key, 0) + view.amount
        elif isinstance(view, fluents.Supply):
            supply[_text(view.player)] = view.amount
        elif isinstance(view, fluents.Shrine):
            shrines.add((_text(view.player), _text(view.island)))
        elif isinstance(view, fluents.Figure):
            figures[_text(view.name)] = _text(view.island)
        elif isinstance(view, fluents.Pool):
            pool[_text(view.island)] = view.amount
        elif isinstance(view, fluents.Holds):
            holds.setdefault(_text(view.player), set()).add(_text(view.kind))
        elif isinstance(view, fluents.Path) and isinstance(view.tile, int):
            path.add(view.tile)
        elif isinstance(view, fluents.OnTile) and isinstance(view.tile, int):
            on_tile[view.tile] = _text(view.player)
        elif isinstance(view, fluents.Temple) and isinstance(view.tile, int):
            temple[view.tile] = _text(view.player)
        elif isinstance(view, fluents.Vacant) and isinstance(view.tile, int):
            vacant.add(view.tile)
        elif isinstance(view, fluents.Book) and isinstance(view.tile, int):
            books.add(view.tile)
        elif isinstance(view, fluents.Score):
            scores[_text(view.player)] = view.points
        elif isinstance(view, fluents.Disc):
            discs[_text(view.player)] = (view.seat, view.height)
        elif isinstance(view, fluents.Markers):
            single["markers"] = view.left
        elif isinstance(view, fluents.Round):
            single["round"] = view.number
        elif isinstance(view, Phase):
            single["phase"] = view.name
        elif isinstance(view, fluents.Start):
            single["start"] = view.player
        elif isinstance(view, Control):
            single["control"] = view.role
        elif isinstance(view, Winner):
            winners.append(_text(view.player))
    return LunaPosition(
        novices, supply, frozenset(shrines), figures, pool, {p: tuple(sorted(k)) for p, k in holds.items()},
        frozenset(path), on_tile, temple, frozenset(vacant), books=frozenset(books), scores=scores, discs=discs,
        markers=single.get("markers"), round=single.get("round"),
        phase=_text(single["phase"]) if "phase" in single else "",
        start=_text(single["start"]) if "start" in single else None,
        control=_text(single["control"]) if "control" in single else None, winners=tuple(sorted(winners)))


# ---------------------------------------------------------------------------
# The table's layout, from the printed values
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The printed values a picture needs for a number of players."""

    players: int
    kinds: tuple[str, ...]                    # by island 1-7
    tile_symbols: tuple[int, ...]             # by tile 1-28
    parts: tuple[tuple[int, ...], ...]        # the temple parts in use, gate inwards
    groups: tuple[tuple[int, ...], ...]       # the path's tiles by group (group 1 nearest the jetty)
    guard_tiles: tuple[int, ...]
    council: tuple[int, ...]
    markers: int
    start_tiles: tuple[int, ...]


def table_of(values: luna_data.LunaData, players: int) -> Table:
    """The table for ``players`` players (rules setup_temple, setup_path,
    setup_time_markers, two_player_markers)."""
    from .game import temple_layout  # the rules' own layout: one source of truth

    try:
        layout = temple_layout(values, players)
    except ValueError as error:
        raise RefereeError(f"the data does not fit {players} players: {error}") from None
    groups: dict[int, list[int]] = {}
    for tile, group in layout.path:
        groups.setdefault(group, []).append(tile)
    return Table(players, tuple(values.islands), tuple(values.tile_symbols),
                 tuple(values.temple_parts[k - 1] for k in values.parts_used[:players]),
                 tuple(tuple(groups[g]) for g in sorted(groups)), tuple(values.guard_tiles), tuple(values.council),
                 3 if players == 2 else 4, layout.start_tiles)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------





def _fill(colour: str) -> str:
    return COLOURS.get(colour, _UNKNOWN_COLOUR)


def _ink_on(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return _INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"




def _row(count: int, centre: float, step: float) -> list[float]:
    return [centre + (k - (count - 1) / 2) * step for k in range(count)]


def _novice(svg: _Svg, x: float, y: float, player: str, colour: str, place: str, status: str, count: int) -> None:
    """Novices: a disc in the player's colour (active) or a ring (inactive) with the count."""
    fill = _fill(colour)
    svg.add(f'<g class="novices" data-player="{_esc(player)}" data-place="{place}" data-status="{status}" '
            f'data-count="{count}">')
    svg.add(f"<title>{_esc(player)}: {count} {status} novice{'s' if count != 1 else ''}</title>")
    if status == "active":
        svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{fill}" stroke="{_INK}" stroke-width="0.8"/>')
        svg.text(x, y + 0.5, count, 10, fill=_ink_on(fill), weight="bold")
    else:
        svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7.5" fill="#ffffff" stroke="{fill}" stroke-width="3"/>')
        svg.text(x, y + 0.5, count, 9, weight="bold")
    svg.add("</g>")


def _shrine(svg: _Svg, x: float, y: float, player: str, colour: str, place: str) -> None:
    fill = _fill(colour)
    svg.add(f'<g class="shrine" data-player="{_esc(player)}" data-place="{place}">')
    svg.add(f"<title>{_esc(player)}'s shrine</title>")
    svg.add(f'<path d="M{_n(x - 7)},{_n(y + 6)} V{_n(y - 2)} L{_n(x)},{_n(y - 8)} L{_n(x + 7)},{_n(y - 2)} '
            f'V{_n(y + 6)} Z" fill="{fill}" stroke="{_INK}" stroke-width="0.8"/>')
    svg.add("</g>")


def _figure(svg: _Svg, x: float, y: float, figure: str, place: str) -> None:
    svg.add(f'<g class="figure" data-figure="{figure}" data-place="{place}">')
    svg.add(f"<title>{_esc(FIGURE_NAMES.get(figure, figure))}</title>")
    svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{_FIGURE}" stroke="{_MOON}" stroke-width="1.2"/>')
    svg.text(x, y + 0.5, FIGURE_LETTERS.get(figure, figure[:1].upper()), 10, fill="#ffffff", weight="bold")
    svg.add("</g>")


def _disc(svg: _Svg, x: float, y: float, player: str, colour: str, seat: int, height: int) -> None:
    fill = _fill(colour)
    svg.add(f'<g class="disc" data-player="{_esc(player)}" data-seat="{seat}" data-height="{height}">')
    svg.add(f"<title>{_esc(player)}: council seat {seat}</title>")
    svg.add(f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="11" ry="5" fill="{fill}" stroke="{_INK}" stroke-width="0.8"/>')
    svg.add("</g>")


def _tile(svg: _Svg, x: float, y: float, tile: int, symbol: int, cls: str, who: str | None, colour: str | None,
          book: bool = False, vacant: bool = False, empty: bool = False) -> None:
    """A temple tile (30 x 30): its number, the island whose symbol it shows,
    the novice on it in the player's colour, a Book of Wisdom under it."""
    data = f' data-player="{_esc(who)}"' if who is not None else ""
    data += ' data-book="1"' if book else ""
    data += ' data-vacant="1"' if vacant else ""
    svg.add(f'<g class="{cls}" data-tile="{tile}"{data}>')
    dash = ' stroke-dasharray="3 2"' if empty or vacant else ""
    svg.add(f'<rect x="{_n(x - 15)}" y="{_n(y - 15)}" width="30" height="30" rx="3" '
            f'fill="{"none" if empty else _STONE}" stroke="{_LAND_EDGE}" stroke-width="1"{dash}/>')
    svg.text(x - 8, y - 8, tile, 8, weight="bold")
    if not empty:
        svg.text(x + 9, y - 8, symbol, 7, fill="#6b5a3a")
    if who is not None and colour is not None:
        fill = _fill(colour)
        svg.add(f'<circle cx="{_n(x)}" cy="{_n(y + 3)}" r="7" fill="{fill}" stroke="{_INK}" stroke-width="0.8"/>')
    if book:
        svg.add(f'<rect x="{_n(x + 4)}" y="{_n(y + 6)}" width="9" height="7" fill="#7a2e1f" stroke="#ffffff" '
                f'stroke-width="0.6"/>')
    svg.add("</g>")


# ---------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------

_RING_X, _RING_Y, _RING_R, _ISLAND_R = 250.0, 270.0, 175.0, 64.0
_TEMPLE_X = 520.0
_WIDTH = 900.0
_LEGEND_X = 920.0


def island_centre(island: int) -> tuple[float, float]:
    """Island 1 at the top of the ring, the others clockwise."""
    angle = math.radians(-90 + (island - 1) * 360 / 7)
    return _RING_X + _RING_R * math.cos(angle), _RING_Y + _RING_R * math.sin(angle)


def render_svg(table: Table, position: LunaPosition | None = None, players: Sequence[tuple[str, str]] = (),
               title: str = "") -> str:
    """The table (and the position, if given) as an SVG document."""
    colour = {name: col for name, col in players}
    name = f"Luna, {table.players} players"
    svg = _Svg()
    height = 720.0
    width = _LEGEND_X + 360
    svg.add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{_FONT}">')
    svg.add(f"<title>{_esc(name)}</title>")
    if title:
        svg.add(f"<desc>{_esc(title)}</desc>")
    svg.add(f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>')

    # 1. The lake and the ring of islands.
    svg.add('<g class="islands">')
    svg.add(f'<circle cx="{_n(_RING_X)}" cy="{_n(_RING_Y)}" r="{_n(_RING_R + _ISLAND_R + 12)}" fill="{_SEA}"/>')
    for i in range(1, 8):
        place = str(i)
        x, y = island_centre(i)
        kind = table.kinds[i - 1]
        tokens = position.pool.get(place, 0) if position is not None else table.players
        svg.add(f'<g class="island" data-island="{i}" data-kind="{_esc(kind)}" data-favours="{tokens}">')
        svg.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(_ISLAND_R)}" fill="{_LAND}" stroke="{_LAND_EDGE}" '
                f'stroke-width="1.5"/>')
        svg.text(x - 22, y - 46, i, 14, weight="bold")
        svg.text(x + 8, y - 46, kind, 9)
        # the favour tokens left: one small square each
        for k, tx in enumerate(_row(tokens, x, 9)):
            svg.add(f'<rect class="favour" x="{_n(tx - 3.5)}" y="{_n(y - 35)}" width="7" height="7" '
                    f'fill="{_MOON}" stroke="#8a6d00" stroke-width="0.6"/>')
        if position is not None:
            things = [("figure", f) for f in position.figures_on(place)]
            things += [("shrine", p) for p in position.shrines_on(place)]
            for (kind_, what), tx in zip(things, _row(len(things), x, 19)):
                if kind_ == "figure":
                    _figure(svg, tx, y - 17, what, place)
                else:
                    _shrine(svg, tx, y - 17, what, colour.get(what, ""), place)
            active = position.novices_on(place, "active")
            for (p, n), tx in zip(active, _row(len(active), x, 20)):
                _novice(svg, tx, y + 4, p, colour.get(p, ""), place, "active", n)
            inactive = position.novices_on(place, "inactive")
            for (p, n), tx in zip(inactive, _row(len(inactive), x, 20)):
                _novice(svg, tx, y + 26, p, colour.get(p, ""), place, "inactive", n)
        svg.add("</g>")
    # the jetty, in the middle of the lake
    svg.add('<g class="jetty" data-place="jetty">')
    svg.add(f'<rect x="{_n(_RING_X - 45)}" y="{_n(_RING_Y - 22)}" width="90" height="44" rx="4" fill="#8b6b43" '
            f'stroke="{_LAND_EDGE}"/>')
    svg.text(_RING_X, _RING_Y - 12, "jetty", 10, fill="#ffffff", weight="bold")
    if position is not None:
        on_jetty = position.novices_on("jetty", "inactive") + position.novices_on("jetty", "active")
        for (p, n), tx in zip(on_jetty, _row(len(on_jetty), _RING_X, 20)):
            status = "inactive" if (p, n) in position.novices_on("jetty", "inactive") else "active"
            _novice(svg, tx, _RING_Y + 8, p, colour.get(p, ""), "jetty", status, n)
    svg.add("</g>")
    svg.add("</g>")

    # 2. The temple path: a row per group of tiles, its guard tile at the end.
    svg.add('<g class="path">')
    svg.text(_TEMPLE_X, 22, "Temple path (from the jetty)", 12, weight="bold", anchor="start")
    guard_at = position.round if position is not None else 1
    for g, tiles in enumerate(table.groups, start=1):
        y = 50 + (g - 1) * 36
        for k, tile in enumerate(tiles):
            x = _TEMPLE_X + 15 + k * 34
            if position is None:
                _tile(svg, x, y, tile, table.tile_symbols[tile - 1], "path-tile", None, None)
            elif tile in position.path:
                who = position.on_tile.get(tile)
                _tile(svg, x, y, tile, table.tile_symbols[tile - 1], "path-tile", who, colour.get(who or "", ""))
            else:
                _tile(svg, x, y, tile, table.tile_symbols[tile - 1], "path-gone", None, None, empty=True)
        if g <= len(table.guard_tiles):
            gx = _TEMPLE_X + 15 + table.players * 34 + 16
            value = table.guard_tiles[g - 1]
            here = guard_at == g
            mark = ' data-guard-here="1"' if here else ""
            svg.add(f'<g class="guard-tile" data-guard="{g}" data-value="{value}"{mark}>')
            svg.add(f'<path d="M{_n(gx)},{_n(y - 15)} L{_n(gx + 15)},{_n(y)} L{_n(gx)},{_n(y + 15)} '
                    f'L{_n(gx - 15)},{_n(y)} Z" fill="{"#b03a2e" if here else "#e8c9a0"}" stroke="{_INK}" '
                    f'stroke-width="{2 if here else 0.8}"/>')
            svg.text(gx, y + 0.5, value, 11, fill="#ffffff" if here else _INK, weight="bold")
            svg.add("</g>")
            if here:
                svg.text(gx + 22, y, "Temple Guard", 9, anchor="start")
    svg.add("</g>")

    # 3. The temple: its parts side by side, each from the gate inwards.
    top = 50 + len(table.groups) * 36 + 24
    svg.add('<g class="temple">')
    svg.text(_TEMPLE_X, top - 10, "Temple (parts from the gate inwards)", 12, weight="bold", anchor="start")
    for c, part in enumerate(table.parts):
        for r, tile in enumerate(part):
            x = _TEMPLE_X + 15 + r * 34
            y = top + 15 + c * 36
            symbol = table.tile_symbols[tile - 1]
            if position is None:
                _tile(svg, x, y, tile, symbol, "temple-space", None, None, empty=tile not in table.start_tiles)
                continue
            who = position.temple.get(tile)
            if who is not None or tile in position.vacant:
                _tile(svg, x, y, tile, symbol, "temple-tile", who, colour.get(who or "", ""),
                      book=tile in position.books, vacant=who is None)
            else:
                _tile(svg, x, y, tile, symbol, "temple-space", None, None, book=tile in position.books, empty=True)
    svg.add("</g>")

    # 4. The council track, the time markers.
    top = max(top + len(table.parts) * 36 + 30, _RING_Y + _RING_R + _ISLAND_R + 40)
    svg.add('<g class="council">')
    svg.text(_TEMPLE_X - 470, top - 6, "Council of priests (seat value)", 12, weight="bold", anchor="start")
    step = 44
    for s, value in enumerate(table.council):
        x = _TEMPLE_X - 470 + 20 + s * step
        svg.add(f'<g class="seat" data-seat="{s}" data-value="{value}">')
        svg.add(f'<rect x="{_n(x - 20)}" y="{_n(top + 8)}" width="40" height="50" fill="#efe7d4" '
                f'stroke="{_LAND_EDGE}"/>')
        svg.text(x, top + 50, value, 10, weight="bold")
        svg.add("</g>")
        if position is not None:
            here = sorted((h, p) for p, (seat, h) in position.discs.items() if seat == s)
            for k, (h, p) in enumerate(here):
                _disc(svg, x, top + 38 - k * 8, p, colour.get(p, ""), s, h)
    svg.add("</g>")
    mx = _TEMPLE_X + 20
    svg.add('<g class="time-markers">')
    svg.text(mx, top - 6, "Time markers", 12, weight="bold", anchor="start")
    left = position.markers if position is not None and position.markers is not None else table.markers
    for k in range(table.markers):
        flipped = k >= left
        cx = mx + 14 + k * 30
        svg.add(f'<g class="time-marker" data-flipped="{1 if flipped else 0}">')
        svg.add(f'<circle cx="{_n(cx)}" cy="{_n(top + 32)}" r="11" fill="{"#9a9a9a" if flipped else _MOON}" '
                f'stroke="{_INK}" stroke-width="0.8"/>')
        svg.add("</g>")
    svg.add("</g>")

    # 5. The legend.
    _legend(svg, _LEGEND_X, 20, _legend_lines(table, position, players, title, name), colour)
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"


def _legend_lines(table: Table, position: LunaPosition | None, players, title: str, name: str) -> list[tuple]:
    lines: list[tuple] = [("title", name)]
    if title:
        head, sep, rest = title.partition(" (")
        lines.append(("text", head))
        if sep:
            lines.append(("text", sep.strip() + rest))
    if position is not None:
        lines.append(("text", _state_line(position)))
    if players:
        lines.append(("head", "Players"))
        for p, col in players:
            lines.append(("player", p, col, _player_words(p, position) if position is not None else ""))
    lines.append(("head", "Key"))
    lines.append(("key-favour", "favour tokens left on an island"))
    if position is not None:
        lines.append(("key-active", "active novices (count)"))
        lines.append(("key-inactive", "inactive novices, beside the island"))
        lines.append(("key-shrine", "shrine"))
        lines.append(("key-figure", "P Moon Priestess, B Builder, A Apostate"))
        lines.append(("key-book", "Book of Wisdom"))
    lines.append(("key-guard", "guard tile (red: the Temple Guard)"))
    lines.append(("key-marker", "time marker (grey: flipped)"))
    lines.append(("text", "A tile: its number, the island of its symbol"))
    lines.append(("text", "Dashed: an empty space; shaded and dashed:"))
    lines.append(("text", "a temple tile whose novice was expelled"))
    return lines


def _state_line(position: LunaPosition) -> str:
    bits = []
    if position.round is not None:
        bits.append("preparation round" if position.phase.startswith("prep") else f"round {position.round}")
    if position.winners:
        bits.append("won by " + ", ".join(position.winners))
    elif position.control not in (None, "game"):
        bits.append(f"{position.control} to act")
    return "; ".join(bits)


def _player_words(player: str, position: LunaPosition) -> str:
    bits = [f"influence {position.scores.get(player, 0)}", f"supply {position.supply.get(player, 0)}"]
    held = position.holds.get(player, ())
    bits.append("favours " + (", ".join(held) if held else "none"))
    if position.start == player:
        bits.append("start player")
    return "; ".join(bits)


def _legend(svg: _Svg, x: float, y: float, lines: list[tuple], colour: dict[str, str]) -> None:
    svg.add('<g class="legend">')
    y += 14
    for entry in lines:
        kind = entry[0]
        if kind == "title":
            svg.text(x, y, entry[1], 15, weight="bold", anchor="start")
        elif kind == "head":
            svg.text(x, y, entry[1], 12, weight="bold", anchor="start")
        elif kind == "text":
            svg.text(x, y, entry[1], 11, anchor="start")
        elif kind == "player":
            p, col, words = entry[1], entry[2], entry[3]
            svg.add(f'<g class="legend-player" data-player="{_esc(p)}" data-colour="{_esc(col)}">')
            svg.add(f'<rect x="{_n(x)}" y="{_n(y - 7)}" width="22" height="14" fill="{_fill(col)}" stroke="{_INK}" '
                    f'stroke-width="0.8"/>')
            svg.text(x + 30, y, f"{p} ({col})", 12, anchor="start")
            svg.add("</g>")
            if words:
                y += 16
                svg.text(x + 30, y, words, 10, anchor="start")
        else:
            cx = x + 11
            if kind == "key-favour":
                svg.add(f'<rect x="{_n(cx - 3.5)}" y="{_n(y - 3.5)}" width="7" height="7" fill="{_MOON}"/>')
            elif kind == "key-active":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="8" fill="{_UNKNOWN_COLOUR}"/>')
            elif kind == "key-inactive":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="7" fill="#ffffff" stroke="{_UNKNOWN_COLOUR}" '
                        f'stroke-width="3"/>')
            elif kind == "key-shrine":
                svg.add(f'<path d="M{_n(cx - 7)},{_n(y + 6)} V{_n(y - 2)} L{_n(cx)},{_n(y - 8)} L{_n(cx + 7)},'
                        f'{_n(y - 2)} V{_n(y + 6)} Z" fill="{_UNKNOWN_COLOUR}"/>')
            elif kind == "key-figure":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="8" fill="{_FIGURE}"/>')
            elif kind == "key-book":
                svg.add(f'<rect x="{_n(cx - 4.5)}" y="{_n(y - 3.5)}" width="9" height="7" fill="#7a2e1f"/>')
            elif kind == "key-guard":
                svg.add(f'<path d="M{_n(cx)},{_n(y - 8)} L{_n(cx + 8)},{_n(y)} L{_n(cx)},{_n(y + 8)} '
                        f'L{_n(cx - 8)},{_n(y)} Z" fill="#b03a2e"/>')
            elif kind == "key-marker":
                svg.add(f'<circle cx="{_n(cx)}" cy="{_n(y)}" r="7" fill="{_MOON}" stroke="{_INK}" stroke-width="0.8"/>')
            svg.text(x + 30, y, entry[-1], 11, anchor="start")
        y += 19
    svg.add("</g>")


# ---------------------------------------------------------------------------
# Plain text
# ---------------------------------------------------------------------------


def _counts(items: list[tuple[str, int]]) -> str:
    return ", ".join(f"{p} {n}" for p, n in items)


def render_text(table: Table, position: LunaPosition | None = None, players: Sequence[tuple[str, str]] = (),
                title: str = "") -> str:
    """The table (and the position, if given) as plain text: the players, the
    islands clockwise with their favour kind, tokens, figures, shrines and
    novices, the jetty, the temple path by group, the temple by part, the
    council and the time markers."""
    out: list[str] = [f"Luna, {table.players} players"]
    if title:
        out.append(title)
    if position is not None and _state_line(position):
        line = _state_line(position)
        out.append(line[:1].upper() + line[1:])
    if players:
        out.append("Players:")
        for p, col in players:
            out.append(f"  {p} ({col})" + (f": {_player_words(p, position)}" if position is not None else ""))
    out.append("")
    out.append("Islands (clockwise):")
    for i in range(1, 8):
        place = str(i)
        tokens = position.pool.get(place, 0) if position is not None else table.players
        line = f"  {i}  {table.kinds[i - 1]:<10} favours {tokens}"
        if position is not None:
            extra = []
            figures = position.figures_on(place)
            if figures:
                extra.append(", ".join(FIGURE_NAMES.get(f, f) for f in figures))
            shrines = position.shrines_on(place)
            if shrines:
                extra.append("shrine " + ", ".join(shrines))
            active = position.novices_on(place, "active")
            if active:
                extra.append("active " + _counts(active))
            inactive = position.novices_on(place, "inactive")
            if inactive:
                extra.append("inactive " + _counts(inactive))
            if extra:
                line += "  " + "; ".join(extra)
        out.append(line)
    if position is not None:
        jetty = [f"inactive {_counts(position.novices_on('jetty', 'inactive'))}"] if position.novices_on(
            "jetty", "inactive") else []
        jetty += [f"active {_counts(position.novices_on('jetty', 'active'))}"] if position.novices_on(
            "jetty", "active") else []
        out.append("Jetty: " + ("; ".join(jetty) if jetty else "none"))
    out.append("")
    guard_at = position.round if position is not None else 1
    out.append("Temple path (tile:island of its symbol, [player] on it; guard tiles between the groups):")
    for g, tiles in enumerate(table.groups, start=1):
        cells = []
        for tile in tiles:
            if position is not None and tile not in position.path:
                cells.append(f"({tile} gone)")
                continue
            who = position.on_tile.get(tile) if position is not None else None
            cells.append(f"{tile}:{table.tile_symbols[tile - 1]}" + (f" [{who}]" if who else ""))
        guard = ""
        if g <= len(table.guard_tiles):
            guard = f"  | guard {table.guard_tiles[g - 1]}" + (" <- the Temple Guard" if guard_at == g else "")
        out.append(f"  group {g}: {', '.join(cells)}{guard}")
    out.append("Temple (each part from the gate inwards):")
    for k, part in enumerate(table.parts, start=1):
        cells = []
        for tile in part:
            if position is None:
                cells.append(f"{tile}" if tile in table.start_tiles else ".")
                continue
            who = position.temple.get(tile)
            book = " +book" if tile in position.books else ""
            if who is not None:
                cells.append(f"{tile} [{who}]{book}")
            elif tile in position.vacant:
                cells.append(f"{tile} vacant{book}")
            else:
                cells.append(".")
        out.append(f"  part {k}: {', '.join(cells)}")
    out.append("")
    out.append("Council seats 0-{}: values {}".format(len(table.council) - 1, " ".join(map(str, table.council))))
    if position is not None:
        order = sorted(position.discs.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
        out.append("Council: " + (", ".join(f"{p} seat {s}" + (f" (height {h})" if h > 1 else "")
                                            for p, (s, h) in order) or "no disc"))
    left = position.markers if position is not None and position.markers is not None else table.markers
    out.append(f"Time markers: {left} of {table.markers} still to flip")
    return "\n".join(out) + "\n"


class LunaPicture(Picture):
    """Luna's islands, temple and council, and its positions (referee.picture's interface)."""

    def blank(self, players: int | None, board_file: str | None, svg: bool) -> str:
        if players is None:
            raise RefereeError("say how many players: --players N (2 to 4) or --transcript T")
        if not 2 <= players <= 4:
            raise RefereeError(f"Luna is for 2 to 4 players, not {players}")
        values = luna_data.load(board_file) if board_file is not None else luna_data.load()
        render = render_svg if svg else render_text
        return render(table_of(values, players))

    def position(self, rules, state: frozenset, players: Sequence[tuple[str, str]], title: str, svg: bool) -> str:
        render = render_svg if svg else render_text
        return render(table_of(rules.data, len(rules.players)), position_from_state(state), players, title=title)
