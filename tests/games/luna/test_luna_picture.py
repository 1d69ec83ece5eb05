"""Luna's picture (referee/games/luna/draw.py, ``referee board luna``): the text
and the SVG show what the state holds -- the novices active and inactive on each
island and the jetty (rule novices_active), the favour tokens left (setup_islands,
favour_take), shrines, the three figures, the temple path and the Temple Guard
(setup_path, setup_guard, tile_take), the temple with its novices and books
(setup_temple, temple_enter, book), the council discs (setup_council, council) and
the time markers (setup_time_markers, two_player_markers, meditate); the SVG
parses as XML with an element per island and per piece; names are escaped; the
command refuses to overwrite a file."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from referee.ask.session import Session
from referee.base.terms import Fn, fn
from referee.cli import main
from referee.game.fluents import Winner
from referee.game.notation import read_transcript
from referee.game.parts import part
from referee.game.picture import Picture
from referee.games.luna import data as luna_data
from referee.games.luna.draw import LunaPosition, position_from_state, render_svg, render_text, table_of
from referee.games.luna.fluents import (
    Book,
    Disc,
    Figure,
    Markers,
    Novices,
    OnTile,
    Path,
    Pool,
    Round,
    Shrine,
    Supply,
    Temple,
    Vacant,
)
from referee.judge.visitor import Referee

SVG = "{http://www.w3.org/2000/svg}"
GAME_2P = "transcripts/luna/game-2p.txt"
GAME_3P = "transcripts/luna/game-3p.txt"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def after(path: str, move: int):
    referee = Referee(read_transcript(path))
    return referee.rules, referee.run(upto=move + 1, close=False).final


def move_number(path: str, role: str, text: str) -> int:
    return next(k for k, play in enumerate(read_transcript(path).plays, start=1)
                if play.role == role and play.text == text)


def players_of(path: str) -> list[tuple[str, str]]:
    return [(p.name, p.colour) for p in read_transcript(path).header.players]


def name(term) -> str:
    return term.name if isinstance(term, Fn) else str(term)


def state_novices(state) -> dict[tuple[str, str, str], int]:
    """novices(P,L,S,C) read straight from the fluents."""
    return {(f.player, name(f.place), f.status.name): f.amount for f in Novices.of(state)}


def drawn_novices(root: ET.Element) -> dict[tuple[str, str, str], int]:
    out = {}
    for g in groups(root, "novices"):
        key = (g.get("data-player"), g.get("data-place"), g.get("data-status"))
        assert key not in out
        out[key] = int(g.get("data-count"))
        assert [t.text for t in g.iter(f"{SVG}text")] == [g.get("data-count")]
    return out


def island_line(text: str, island: int) -> str:
    return next(row for row in text.splitlines() if row.startswith(f"  {island}  "))


# -- the text form ----------------------------------------------------------------------


def test_text_lists_the_states_novices_shrines_figures_and_favours_after_a_known_move():
    """After Bob's 'recruit on 5' of game-2p (rule recruit), each island's line
    has every player's active and inactive novices as the state counts them
    (rule novices_active), its shrines, figures and the favour tokens left."""
    number = move_number(GAME_2P, "Bob", "recruit on 5")
    rules, state = after(GAME_2P, number)
    _, before = after(GAME_2P, number - 1)
    on_five = lambda s: sum(n for (p, place, _), n in state_novices(s).items() if p == "Bob" and place == "5")
    assert on_five(state) > on_five(before)  # the recruit put novices on island 5
    text = part(rules, Picture).position(rules, state, players_of(GAME_2P), "t", svg=False)
    novices = state_novices(state)
    assert novices
    for island in range(1, 8):
        line = island_line(text, island)
        for status in ("active", "inactive"):
            here = sorted((p, n) for (p, place, s), n in novices.items() if place == str(island) and s == status)
            if here:
                assert f"{status} " + ", ".join(f"{p} {n}" for p, n in here) in line, line
            else:
                assert f"{status} " not in line, line
        pool = Pool.lookup(state, island, default=0)
        assert f"favours {pool} " in line + " "
        shrines = sorted(f.player for f in Shrine.of(state) if f.island == island)
        assert ("shrine " + ", ".join(shrines) in line) == bool(shrines)
    for f in Figure.of(state):
        label = {"priestess": "Moon Priestess", "builder": "Builder", "apostate": "Apostate"}[f.name.name]
        assert label in island_line(text, f.island)
    supply = {f.player: f.amount for f in Supply.of(state)}
    assert "Bob (blue): influence " in text and f"supply {supply.get('Bob', 0)};" in text


def test_a_tile_taken_is_on_the_path_and_entered_it_is_in_the_temple():
    """Rule tile_take puts Ann's novice on tile 5 of the path; rule temple_enter
    moves tile and novice into the temple."""
    occupy = move_number(GAME_2P, "Ann", "occupy 5 from 5")
    enter = move_number(GAME_2P, "Ann", "enter 5")
    players = players_of(GAME_2P)
    texts = {}
    for n in (occupy - 1, occupy, enter):
        rules, state = after(GAME_2P, n)
        texts[n] = part(rules, Picture).position(rules, state, players, "t", svg=False)
    assert "5:5 [Ann]" not in texts[occupy - 1] and "5:5 [Ann]" in texts[occupy]
    assert "5 [Ann]" not in next(r for r in texts[occupy].splitlines() if r.startswith("  part 1:"))
    assert "(5 gone)" in texts[enter] and "5 [Ann]" in next(r for r in texts[enter].splitlines()
                                                             if r.startswith("  part 1:"))


def test_council_guard_and_time_markers_are_the_states():
    """Rules setup_council/council (the discs' seats), setup_guard (the guard on
    round R's guard tile) and meditate (a time marker flipped)."""
    number = move_number(GAME_2P, "Bob", "meditate")
    rules, state = after(GAME_2P, number)
    text = part(rules, Picture).position(rules, state, players_of(GAME_2P), "t", svg=False)
    discs = {f.player: f.seat for f in Disc.of(state)}
    council = next(r for r in text.splitlines() if r.startswith("Council: "))
    for p, seat in discs.items():
        assert f"{p} seat {seat}" in council
    left = Markers.one(state).left
    assert f"Time markers: {left} of 3 still to flip" in text and left == 2  # two players: three markers
    round_ = Round.one(state).number
    guard = next(r for r in text.splitlines() if "the Temple Guard" in r and r.startswith("  group"))
    assert guard.startswith(f"  group {round_}:") and f"guard {rules.data.guard_tiles[round_ - 1]} " in guard


def test_the_blank_table_for_a_player_count():
    """Rules setup_islands (as many tokens as players), setup_path (groups of as
    many tiles as players), two_player_markers."""
    runner = CliRunner()
    text = runner.invoke(main, ["board", "luna", "--players", "2"]).output
    assert text.startswith("Luna, 2 players\n")
    kinds = luna_data.load().islands
    for island in range(1, 8):
        assert island_line(text, island).split()[1:4] == [kinds[island - 1], "favours", "2"]
    assert "Time markers: 3 of 3 still to flip" in text
    groups_ = [r for r in text.splitlines() if r.startswith("  group ")]
    assert len(groups_) == 6 and all(r.split(": ", 1)[1].count(":") == 2 for r in groups_)
    root = parse(runner.invoke(main, ["board", "luna", "--players", "4", "--svg", "-"]).output)
    assert [g.get("data-favours") for g in groups(root, "island")] == ["4"] * 7
    assert len(groups(root, "time-marker")) == 4 and len(groups(root, "path-tile")) == 24


# -- the SVG ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [GAME_2P, GAME_3P])
def test_svg_has_an_element_per_island_and_per_piece_equal_to_the_state(path):
    plays = len(read_transcript(path).plays)
    rules, state = after(path, plays // 2)
    players = players_of(path)
    root = parse(part(rules, Picture).position(rules, state, players, "t", svg=True))
    islands = groups(root, "island")
    assert [g.get("data-island") for g in islands] == [str(i) for i in range(1, 8)]
    assert [g.get("data-kind") for g in islands] == list(rules.data.islands)
    pool = {str(f.island): f.amount for f in Pool.of(state)}
    assert {g.get("data-island"): int(g.get("data-favours")) for g in islands} == {
        str(i): pool.get(str(i), 0) for i in range(1, 8)}
    assert [len([r for r in g.iter(f"{SVG}rect") if r.get("class") == "favour"]) for g in islands] == [
        pool.get(str(i), 0) for i in range(1, 8)]
    assert drawn_novices(root) == state_novices(state)
    assert {(g.get("data-player"), g.get("data-place")) for g in groups(root, "shrine")} == {
        (f.player, str(f.island)) for f in Shrine.of(state)}
    assert {g.get("data-figure"): g.get("data-place") for g in groups(root, "figure")} == {
        f.name.name: str(f.island) for f in Figure.of(state)}
    assert {int(g.get("data-tile")): g.get("data-player") for g in groups(root, "path-tile")} == {
        f.tile: next((o.player for o in OnTile.of(state) if o.tile == f.tile), None)
        for f in Path.of(state)}
    assert {int(g.get("data-tile")): g.get("data-player") for g in groups(root, "temple-tile")} == {
        **{f.tile: f.player for f in Temple.of(state)},
        **{f.tile: None for f in Vacant.of(state)}}
    books = {int(g.get("data-tile")) for kind in ("temple-tile", "temple-space") for g in groups(root, kind)
             if g.get("data-book")}
    assert books == {f.tile for f in Book.of(state)}
    assert {g.get("data-player"): (int(g.get("data-seat")), int(g.get("data-height")))
            for g in groups(root, "disc")} == {f.player: (f.seat, f.height) for f in Disc.of(state)}
    left = Markers.one(state).left
    assert [g.get("data-flipped") for g in groups(root, "time-marker")].count("0") == left
    assert {g.get("data-player") for g in groups(root, "legend-player")} == {p for p, _ in players}


def test_names_are_escaped_and_the_svg_is_deterministic():
    odd = ["<A&B>", "张伟", "O'Neil\"s"]
    fluents = [fn("novices", odd[0], 1, fn("active"), 2), fn("novices", odd[1], fn("jetty"), fn("inactive"), 1),
               fn("shrine", odd[2], 3), fn("on_tile", 9, odd[0]), fn("path", 9), fn("temple", 1, odd[1]),
               fn("disc", odd[2], 2, 1), fn("score", odd[0], 7), fn("markers", 1), fn("round", 2)]
    players = list(zip(odd, ["red", "blue", "green"]))
    table = table_of(luna_data.load(), 3)
    svg = render_svg(table, position_from_state(fluents), players, title="after <move> & more")
    assert svg == render_svg(table, position_from_state(list(reversed(fluents))), players,
                             title="after <move> & more")
    root = parse(svg)
    assert [g.get("data-player") for g in groups(root, "legend-player")] == odd
    assert {(g.get("data-player"), g.get("data-place")) for g in groups(root, "novices")} == {
        (odd[0], "1"), (odd[1], "jetty")}
    assert [g.get("data-player") for g in groups(root, "shrine")] == [odd[2]]
    assert "<A&B>" not in svg and "&lt;A&amp;B&gt;" in svg and "after &lt;move&gt; &amp; more" in svg
    assert "9:2 [<A&B>]" in render_text(table, position_from_state(fluents), players)


def test_an_empty_position_draws_nothing_of_a_player():
    table = table_of(luna_data.load(), 2)
    root = parse(render_svg(table, LunaPosition(), [("Ann", "red"), ("Bob", "blue")]))
    assert not groups(root, "novices") and not groups(root, "disc") and len(groups(root, "island")) == 7


# -- the command and the API --------------------------------------------------------------


def invoke(*args):
    result = CliRunner().invoke(main, ["board", *args])
    assert "Traceback" not in result.output
    return result


def test_cli_after_n_is_the_position_after_move_n_and_says_the_round():
    number = move_number(GAME_2P, "Ann", "occupy 5 from 5")
    text = invoke("luna", "--transcript", GAME_2P, "--after", str(number))
    assert text.exit_code == 0 and text.output.splitlines()[1] == f"after move {number} of game-2p.txt, round 1"
    svg = invoke("luna", "--transcript", GAME_2P, "--after", str(number), "--svg", "-")
    root = parse(svg.output)
    assert [g.get("data-player") for g in groups(root, "path-tile") if g.get("data-tile") == "5"] == ["Ann"]
    assert svg.output == Session(GAME_2P).picture(number, svg=True)
    end = invoke("luna", "--transcript", GAME_2P).output
    _, final = after(GAME_2P, 100)
    winners = sorted(f.player for f in Winner.of(final))
    assert winners and "after move 100 of game-2p.txt, round 6" in end and f"won by {', '.join(winners)}" in end


def test_svg_to_a_new_file_never_over_an_existing_one(tmp_path):
    out = tmp_path / "luna.svg"
    assert invoke("luna", "--transcript", GAME_2P, "--after", "3", "--svg", str(out)).exit_code == 0
    assert len(groups(parse(out.read_text("utf-8")), "island")) == 7
    out.write_text("mine", encoding="utf-8")
    again = invoke("luna", "--transcript", GAME_2P, "--svg", str(out))
    assert again.exit_code == 2 and "exists already" in again.output and out.read_text() == "mine"


@pytest.mark.parametrize("args, message", [
    (["luna"], "say how many players: --players N (2 to 4)"),
    (["luna", "--players", "5"], "Luna is for 2 to 4 players, not 5"),
    (["luna", "--transcript", GAME_2P, "--after", "101"], "there is no move 101: the transcript has 100 moves"),
    (["luna", "--transcript", GAME_2P, "--players", "3"], "a game for 2 players, not 3"),
    (["luna", "--transcript", "transcripts/cyclades/game-3p.txt"], "is a game of cyclades, not luna"),
    (["luna", "--players", "2", "--board", "nope.txt"], "a Luna data file is a .toml file"),
])
def test_errors_exit_2_with_a_message(args, message):
    result = invoke(*args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_data_file_changes_the_picture(tmp_path):
    """A 'board:' data file (docs/luna.md) is drawn: its islands' kinds."""
    mine = tmp_path / "mine.toml"
    mine.write_text('islands = ["herbs", "shrine", "book", "sailboat", "bribe", "waves", "substitute"]\n',
                    encoding="utf-8")
    text = invoke("luna", "--players", "2", "--board", str(mine)).output
    assert island_line(text, 1).split()[1] == "herbs" and island_line(text, 2).split()[1] == "shrine"
