"""Drawing boards and positions (referee/games/cyclades/draw.py, ``referee board``): the SVG is
well-formed XML with one hexagon per hex placed by the neighbour rule, every id
labelled, the board file's slots and prosperity drawn, a position's pieces equal
to the state's counts, user text escaped; the command's errors exit with 2."""

from __future__ import annotations

import math
import re
import tomllib
import xml.etree.ElementTree as ET
from importlib import resources

import pytest
from click.testing import CliRunner

from referee.base.terms import fn
from referee.cli import main
from referee.game.fluents import Count
from referee.game.notation import read_transcript
from referee.games.cyclades.board import builtin_board, hex_neighbours, load_board
from referee.games.cyclades.draw import Position, position_from_state, render_svg, render_text
from referee.games.cyclades.fluents import Metropolis
from referee.judge.visitor import Referee

SVG = "{http://www.w3.org/2000/svg}"
GAME_3P = "transcripts/cyclades/game-3p.txt"
GAME_5P = "transcripts/cyclades/game-5p.txt"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def labels(root: ET.Element, cls: str) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}text") if cls in (t.get("class") or "").split()]


def board_file(players: int) -> dict:
    """The shipped board file read as plain TOML, not through referee.games.cyclades.board."""
    text = resources.files("referee").joinpath(f"games/cyclades/boards/{players}p.toml").read_text("utf-8")
    data = tomllib.loads(text)
    if "based_on" in data["board"]:
        base = board_file(int(data["board"]["based_on"][0]))
        base["start"] = data["start"]
        return base
    return data


def pieces(state) -> dict[str, dict]:
    """The state's counts, read straight from the fluents."""
    out: dict[str, dict] = {"troops": {}, "fleets": {}, "building": {}, "prosperity": {}}
    for count in Count.of(state):
        if count.counter.name in out:
            key = count.key
            key = tuple(key.args) if hasattr(key, "args") and key.name == "" else key
            if count.counter.name == "building":
                key = (key[0], key[1].name)
            out[count.counter.name][key] = count.amount
    out["metropolis"] = {f.island for f in Metropolis.of(state)}
    return out


def drawn(root: ET.Element) -> dict[str, dict]:
    """The pieces an SVG shows, read from its groups."""
    out: dict[str, dict] = {"troops": {}, "fleets": {}, "building": {}, "prosperity": {}}
    for cls, key in (("troops", "troops"), ("fleet", "fleets")):
        for g in groups(root, cls):
            out[key][(g.get("data-player"), g.get("data-place"))] = int(g.get("data-count"))
            assert [t.text for t in g.iter(f"{SVG}text")] == [g.get("data-count")]
    for g in groups(root, "building"):
        k = (g.get("data-place"), g.get("data-type"))
        out["building"][k] = out["building"].get(k, 0) + 1
    for g in groups(root, "prosperity-marker"):
        out["prosperity"][g.get("data-place")] = int(g.get("data-count"))
        assert [t.text for t in g.iter(f"{SVG}text")] == [f"+{g.get('data-count')}"]
    out["metropolis"] = {g.get("data-place") for g in groups(root, "metropolis")}
    return out


# -- the board ---------------------------------------------------------------------


@pytest.mark.parametrize("players, hexes", [(2, 47), (3, 47), (4, 69), (5, 91)])
def test_one_hexagon_per_hex_and_every_id_labelled(players, hexes):
    board = builtin_board(players)
    root = parse(render_svg(board))
    polygons = list(root.iter(f"{SVG}polygon"))
    assert len(polygons) == hexes
    names = [f"{'ABCDEFGHIJK'[r]}{c + 1}" for r, n in enumerate(board_file(players)["board"]["rows"]) for c in range(n)]
    assert sorted(p.get("data-hex") for p in polygons) == sorted(names)
    data = board_file(players)
    island_hexes = {h for spec in data["islands"].values() for h in spec["hexes"]}
    assert sorted(labels(root, "island-label")) == sorted(data["islands"])
    assert sorted(labels(root, "sea-label")) == sorted(set(names) - island_hexes)
    assert {p.get("data-hex") for p in polygons if p.get("class") == "hex island"} == island_hexes


def test_hexagons_touch_exactly_as_the_neighbour_rule_says():
    board = builtin_board(5)
    root = parse(render_svg(board))
    centre = {}
    for p in root.iter(f"{SVG}polygon"):
        pts = [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
        assert len(pts) == 6
        centre[p.get("data-hex")] = (sum(x for x, _ in pts) / 6, sum(y for _, y in pts) / 6)
    side = min(math.dist(a, b) for a in centre.values() for b in centre.values() if a != b)
    rows = board.rows
    for r, n in enumerate(rows):
        for c in range(n):
            name = f"{'ABCDEFGHIJK'[r]}{c + 1}"
            touching = {f"{'ABCDEFGHIJK'[rr]}{cc + 1}" for rr, cc in hex_neighbours(rows, r, c)}
            close = {other for other, xy in centre.items()
                     if other != name and math.dist(xy, centre[name]) < side * 1.01}
            assert close == touching, name


@pytest.mark.parametrize("players", [3, 5])
def test_slots_and_prosperity_are_those_of_the_board_file(players):
    data = board_file(players)
    root = parse(render_svg(builtin_board(players)))
    slots: dict[str, int] = {}
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("class") == "slot":
            slots[rect.get("data-island")] = slots.get(rect.get("data-island"), 0) + 1
    assert slots == {i: spec["slots"] for i, spec in data["islands"].items()}
    shown = {g.get("data-place"): [t.text for t in g.iter(f"{SVG}text")] for g in groups(root, "prosperity")}
    expected = {i: [str(spec["prosperity"])] for i, spec in data["islands"].items() if spec.get("prosperity", 0)}
    expected.update({s: [str(n)] for s, n in data["seas"]["prosperity"].items()})
    assert shown == expected


def test_starting_placement_is_marked_for_the_seats_asked():
    data = board_file(5)
    root = parse(render_svg(builtin_board(5), seats=5))
    fleets = sorted((g.get("data-player"), g.get("data-place")) for g in groups(root, "start-fleet"))
    islands = sorted((g.get("data-player"), g.get("data-place")) for g in groups(root, "start-island"))
    assert fleets == sorted((seat, s) for seat, spec in data["start"].items() for s in spec["fleets"])
    assert islands == sorted((seat, i) for seat, spec in data["start"].items() for i in spec["islands"])
    two = parse(render_svg(builtin_board(5), seats=2))
    assert {g.get("data-player") for g in groups(two, "start-fleet")} == {"A", "B"}
    assert not groups(parse(render_svg(builtin_board(5), seats=0)), "start-fleet")


def test_text_grid_places_hexes_by_the_neighbour_rule_and_lists_islands():
    board = builtin_board(5)
    text = render_text(board, seats=5)
    unit: dict[str, tuple[int, float]] = {}
    for line in text.splitlines():
        found = list(re.finditer(r"\b([A-K])([0-9]+)\b", line))
        if len(found) >= 6 and all(m.group(1) == found[0].group(1) for m in found):  # a row of hex ids
            for m in found:
                unit[m.group(0)] = ("ABCDEFGHIJK".index(m.group(1)), (m.start() + len(m.group(0)) / 2) / 3)
    assert len(unit) == 91
    for a, (ra, xa) in unit.items():
        for b, (rb, xb) in unit.items():
            touching = (rb, int(b[1:]) - 1) in hex_neighbours(board.rows, ra, int(a[1:]) - 1)
            apart = abs(xa - xb)  # in half hexes; ids of 2 and 3 letters sit up to 1/6 off centre
            near = (abs(ra - rb) == 1 and abs(apart - 1) < 0.25) or (ra == rb and abs(apart - 2) < 0.25)
            assert touching == near, (a, b)
    for island in board.islands:
        line = next(row for row in text.splitlines() if row.startswith(f"  {island.id} "))
        assert f"slots {island.slots} " in line and f"prosperity {island.prosperity}" in line
    assert "A1 1, A6 1, F1 1, F11 1, K1 1, K6 1" in text
    assert "seat B: islands IS1, IS9; fleets B3, E7" in text


# -- a position ------------------------------------------------------------------------


def position_after(path: str, move: int):
    referee = Referee(read_transcript(path))
    return referee, referee.run(upto=move + 1, close=False).final


def test_pieces_drawn_after_a_move_are_the_states_counts():
    transcript = read_transcript(GAME_3P)
    players = [(p.name, p.colour) for p in transcript.header.players]
    referee, state = position_after(GAME_3P, 29)
    expected = pieces(state)
    assert expected["troops"] and expected["fleets"] and expected["building"] and expected["prosperity"]
    shown = drawn(parse(render_svg(referee.rules.board, position_from_state(state), players)))
    assert shown == expected
    text = render_text(referee.rules.board, position_from_state(state), players)
    for (player, island), n in expected["troops"].items():
        line = next(row for row in text.splitlines() if row.startswith(f"  {island} "))
        assert f"troops {player} {n}" in line
    for (player, sea), n in expected["fleets"].items():
        assert f"  {sea:<4} {player} {n}" in text.splitlines()


def test_after_counts_written_moves_a_troop_appears_after_its_move():
    transcript = read_transcript(GAME_3P)
    number = next(k for k, play in enumerate(transcript.plays, start=1)
                  if play.role == "Ivo" and play.text == "troop on IS5")

    def troops(after: int) -> int:
        result = invoke("cyclades", "--transcript", GAME_3P, "--after", str(after), "--svg", "-")
        assert result.exit_code == 0
        return drawn(parse(result.output))["troops"].get(("Ivo", "IS5"), 0)

    assert troops(number) == troops(number - 1) + 1


def test_cli_draws_the_end_of_a_game_with_metropolises_and_no_gold():
    result = CliRunner().invoke(main, ["board", "cyclades", "--transcript", GAME_5P, "--svg", "-"])
    assert result.exit_code == 0, result.output
    root = parse(result.output)
    _, state = position_after(GAME_5P, len(read_transcript(GAME_5P).plays))
    expected = pieces(state)
    assert expected["metropolis"]
    assert drawn(root) == expected
    names = {g.get("data-player"): g.get("data-colour") for g in groups(root, "legend-player")}
    assert names == {p.name: p.colour for p in read_transcript(GAME_5P).header.players}
    text = CliRunner().invoke(main, ["board", "cyclades", "--transcript", GAME_5P]).output
    for output in (result.output, text):
        assert "gold" not in output.lower().replace('"#f0b429"', "")
    assert "after move 212 of game-5p.txt, cycle 9" in text


def test_territory_markers_control_and_battles():
    board = builtin_board(3)
    state = frozenset({
        fn("marker", "IS4", "Ann"),
        fn("marker", "IS6", "Ann"), fn("count", fn("troops"), fn("", "Bob", "IS6"), 2),
        fn("battle", fn("land"), "IS7", "Bob", "Ann"),
    })
    position = position_from_state(state)
    assert position.controllers("IS4") == ["Ann"] and position.controllers("IS6") == ["Bob"]
    root = parse(render_svg(board, position, [("Ann", "red"), ("Bob", "blue")]))
    assert sorted(g.get("data-place") for g in groups(root, "marker")) == ["IS4", "IS6"]
    coasts = {line.get("stroke") for g in groups(root, "coasts") for line in g}
    assert {"#d62728", "#1f63c6"} <= coasts  # IS4 in Ann's red, IS6 in Bob's blue
    battle = [p for p in root.iter(f"{SVG}path") if p.get("class") == "battle"]
    assert sorted(p.get("data-place") for p in battle) == ["IS7"] * len(board.island("IS7").hexes)
    assert "territory marker Ann" in render_text(board, position, [("Ann", "red"), ("Bob", "blue")])


def test_figures_drawn_where_they_stand():
    """The creatures' figures (rules/figures.lp): the Kraken on its sea space, an
    island figure on its island, each with who put it there, in SVG and text."""
    board = builtin_board(5)
    state = frozenset({fn("figure", fn("kraken"), "E8", "Ann", 1), fn("figure", fn("medusa"), "IS4", "Bob", 2),
                       fn("count", fn("fleets"), fn("", "Dan", "D8"), 1)})
    players = [("Ann", "red"), ("Bob", "blue"), ("Dan", "yellow")]
    position = position_from_state(state)
    assert position.figures == {"kraken": ("E8", "Ann"), "medusa": ("IS4", "Bob")}
    root = parse(render_svg(board, position, players))
    shown = {(g.get("data-creature"), g.get("data-place"), g.get("data-player")) for g in groups(root, "figure")}
    assert shown == {("kraken", "E8", "Ann"), ("medusa", "IS4", "Bob")}
    assert [t.text for g in groups(root, "figure") for t in g.iter(f"{SVG}text")] in (["Kr", "Me"], ["Me", "Kr"])
    assert any("Kr Kraken" in (t.text or "") for g in groups(root, "legend") for t in g.iter(f"{SVG}text"))
    text = render_text(board, position, players)
    assert "Figures: Kraken on E8 (put there by Ann), Medusa on IS4 (put there by Bob)" in text
    assert "figure Medusa (put there by Bob)" in next(row for row in text.splitlines() if row.startswith("  IS4 "))
    grid = text.splitlines()
    row = next(k for k, line in enumerate(grid) if " E8 " in line)
    column = grid[row].index(" E8 ") - 1  # each hex is a cell of 6 characters, its id centred
    assert grid[row + 1][column:column + 6].strip() == "Kr"


def test_cli_draws_a_figure_after_its_placement():
    path = "transcripts/cyclades/illegal-minotaur-retreat.txt"
    plays = read_transcript(path).plays
    number = next(k for k, play in enumerate(plays, start=1) if play.move.name == "use")
    result = invoke("cyclades", "--transcript", path, "--after", str(number), "--svg", "-")
    assert result.exit_code == 0, result.output
    assert [(g.get("data-creature"), g.get("data-place")) for g in groups(parse(result.output), "figure")] == [
        ("minotaur", "IS11")]
    before = invoke("cyclades", "--transcript", path, "--after", str(number - 1)).output
    assert "Figures:" not in before
    assert "Figures: Minotaur on IS11 (put there by Ann)" in invoke(
        "cyclades", "--transcript", path, "--after", str(number)).output


def test_user_text_is_escaped_and_any_script_kept(tmp_path):
    odd = ["<A&B>", "张伟", "O'Neil\"s"]
    position = Position(troops={(odd[0], "IS1"): 1, (odd[1], "IS2"): 2}, fleets={(odd[2], "C2"): 3},
                        markers={"IS4": (odd[0],)})
    svg = render_svg(builtin_board(3), position, list(zip(odd, ["red", "blue", "green"])))
    root = parse(svg)
    assert [g.get("data-player") for g in groups(root, "legend-player")] == odd
    assert {g.get("data-player") for g in groups(root, "troops")} == set(odd[:2])
    assert [g.get("data-player") for g in groups(root, "fleet")] == [odd[2]]
    assert "<A&B>" not in svg and "&lt;A&amp;B&gt;" in svg
    text = tmp_path / "odd.toml"
    source = resources.files("referee").joinpath("games/cyclades/boards/3p.toml").read_text("utf-8")
    text.write_text(source.replace('name = "Cyclades, 3 players"', 'name = "Ann\'s <&> \\"board\\"\\u0001"'),
                    encoding="utf-8")
    root = parse(render_svg(load_board(text)))
    assert root.find(f"{SVG}title").text == "Ann's <&> \"board\"\ufffd"


def test_the_svg_is_deterministic():
    fluents = [fn("count", fn("troops"), fn("", p, i), n) for p, i, n in
               [("Ann", "IS1", 1), ("Bob", "IS1", 2), ("Bob", "IS3", 1)]]
    fluents += [fn("count", fn("fleets"), fn("", "Ann", s), 1) for s in ("C2", "F1", "K2")]
    fluents += [fn("count", fn("building"), fn("", "IS3", fn(t)), 1) for t in ("port", "temple")]
    players = [("Ann", "red"), ("Bob", "blue")]
    one = render_svg(builtin_board(3), position_from_state(fluents), players)
    other = render_svg(builtin_board(3), position_from_state(list(reversed(fluents))), players)
    assert one == other
    root = parse(one)
    # both players' troops on IS1 (a battle in progress), the buildings in type order
    assert [g.get("data-player") for g in groups(root, "troops") if g.get("data-place") == "IS1"] == ["Ann", "Bob"]
    assert [g.get("data-type") for g in groups(root, "building")] == ["temple", "port"]


# -- the command -------------------------------------------------------------------------


def invoke(*args):
    result = CliRunner().invoke(main, ["board", *args])
    assert "Traceback" not in result.output
    return result


def test_svg_to_a_new_file_never_over_an_existing_one(tmp_path):
    out = tmp_path / "board.svg"
    assert invoke("cyclades", "--players", "5", "--svg", str(out)).exit_code == 0
    assert len(list(parse(out.read_text("utf-8")).iter(f"{SVG}polygon"))) == 91
    out.write_text("mine", encoding="utf-8")
    again = invoke("cyclades", "--players", "5", "--svg", str(out))
    assert again.exit_code == 2 and "exists already" in again.output and out.read_text() == "mine"
    folder = invoke("cyclades", "--players", "5", "--svg", str(tmp_path / "no" / "x.svg"))
    assert folder.exit_code == 2 and "there is no folder" in folder.output


def test_text_is_the_default_and_board_files_are_drawn(tmp_path):
    result = invoke("cyclades", "--players", "4")
    assert result.exit_code == 0 and "Cyclades, 4 players" in result.output and "<svg" not in result.output
    mine = tmp_path / "mine.toml"
    mine.write_text('[board]\nname = "Mine"\nbased_on = "3p"\n', encoding="utf-8")
    drawn_file = invoke("cyclades", "--board", str(mine), "--svg", "-")
    assert drawn_file.exit_code == 0 and parse(drawn_file.output).find(f"{SVG}title").text == "Mine"
    wrong = invoke("cyclades", "--board", str(mine), "--players", "5")
    assert wrong.exit_code == 2 and "is for 3 players, not 5" in wrong.output


@pytest.mark.parametrize("args, message", [
    (["chess", "--players", "2"], "unknown game 'chess'"),
    (["LUNA", "--transcript", GAME_3P], "is a game of cyclades, not LUNA"),
    (["cyclades"], "say which board"),
    (["cyclades", "--players", "7"], "no built-in Cyclades board for 7 players"),
    (["cyclades", "--after", "3", "--players", "3"], "--after N needs --transcript T"),
    (["cyclades", "--transcript", GAME_3P, "--after", "155"], "there is no move 155: the transcript has 154 moves"),
    (["cyclades", "--transcript", GAME_3P, "--after", "-1"], "-1 is not in the range"),
    (["cyclades", "--transcript", GAME_3P, "--players", "5"], "a game for 3 players, not 5"),
    (["cyclades", "--transcript", "nope.txt"], "cannot read the transcript nope.txt"),
    (["cyclades", "--board", "nope.toml"], "board file not found"),
])
def test_errors_exit_2_with_a_message(args, message):
    result = invoke(*args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_the_transcripts_board_and_board_option_are_honoured(tmp_path):
    (tmp_path / "ours.toml").write_text('[board]\nname = "Ours"\nbased_on = "3p"\n', encoding="utf-8")
    game = tmp_path / "game.txt"
    game.write_text(read_transcript_text(GAME_3P).replace("board: 3p", "board: ours.toml"), encoding="utf-8")
    assert invoke("cyclades", "--transcript", str(game), "--after", "4").output.startswith("Ours\n")
    (tmp_path / "theirs.toml").write_text('[board]\nname = "Theirs"\nbased_on = "3p"\n', encoding="utf-8")
    result = invoke("cyclades", "--transcript", str(game), "--after", "0", "--board", str(tmp_path / "theirs.toml"))
    assert result.output.startswith("Theirs\nbefore the first move of game.txt")


def read_transcript_text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def test_the_title_says_illegal_moves_were_applied_as_played():
    path = "transcripts/cyclades/illegal-troop-not-own-island.txt"
    result = invoke("cyclades", "--transcript", path)
    assert result.exit_code == 0
    assert result.output.splitlines()[1].endswith("(1 illegal move applied as played)")
    svg = invoke("cyclades", "--transcript", path, "--svg", "-").output
    assert "(1 illegal move applied as played)" in [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert "applied as played" not in invoke("cyclades", "--transcript", path, "--after", "1").output
