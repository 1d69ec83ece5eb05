"""The Cyclades boards and their loader (referee/games/cyclades/board.py, docs/boards.md).

The shipped boards are compared with the reference facts in the sibling folder
``shared/reference`` (skipped when it is not there); the loader's checks are
tested on small bad board files.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.base.errors import BoardError, FileError
from referee.base.terms import fn
from referee.games.cyclades.board import (
    Board,
    Island,
    Sea,
    StartSeat,
    board_facts,
    builtin_board,
    hex_neighbours,
    load_board,
)

REPO = Path(__file__).resolve().parents[3]
REFERENCE = Path(__file__).resolve().parents[4] / "shared" / "reference"
COUNTS = (2, 3, 4, 5)

needs_reference = pytest.mark.skipif(
    not REFERENCE.is_dir(), reason=f"reference data not present at {REFERENCE}"
)


def reference(count: int) -> dict:
    return json.loads((REFERENCE / f"cyclades-board-{count}p.json").read_text(encoding="utf-8"))


def ref_id(entry: str) -> str:
    """'IS2 (A4,B5)' -> 'IS2'; 'E7 (AciesNN, ...) / G6 (Mystouille)' -> 'E7'."""
    return entry.split()[0]


def income(board: Board, seat: StartSeat) -> int:
    return sum(board.island(i).prosperity for i in seat.islands) + sum(
        board.sea(s).prosperity for s in seat.fleets
    )


# ---------------------------------------------------------------------------
# The shipped boards against the reference facts
# ---------------------------------------------------------------------------


@needs_reference
@pytest.mark.parametrize("count", COUNTS)
def test_islands_match_reference(count):
    board, ref = builtin_board(count), reference(count)
    assert {i.id for i in board.islands} == {i["cai_id"] for i in ref["islands"]}
    for r in ref["islands"]:
        island = board.island(r["cai_id"])
        assert set(island.hexes) == set(r["hexes"])
        assert island.slots == r["building_slots"]
        assert island.prosperity == r["cornucopias"]
        assert island.metropolis_slots == r["metropolis_occupies_slots"]


@needs_reference
@pytest.mark.parametrize("count", COUNTS)
def test_island_coasts_match_reference(count):
    board, ref = builtin_board(count), reference(count)
    for r in ref["islands"]:
        assert board.island_seas(r["cai_id"]) == set(r["adjacent_seas"]), r["cai_id"]


@needs_reference
@pytest.mark.parametrize("count", COUNTS)
def test_seas_and_their_adjacency_match_reference(count):
    board, ref = builtin_board(count), reference(count)
    assert {s.id for s in board.seas} == {s["id"] for s in ref["seas"]}
    for r in ref["seas"]:
        sea = r["id"]
        assert board.sea(sea).prosperity == r["cornucopias"], sea
        assert board.sea_neighbours(sea) == set(r["adjacent_seas"]), sea
        assert board.sea_islands(sea) == set(r["adjacent_islands"]), sea


@needs_reference
@pytest.mark.parametrize("count", (3, 4, 5))
def test_start_matches_reference(count):
    board, start = builtin_board(count), reference(count)[f"start_{count}p"]
    letters = [k for k in start if len(k) == 1]
    assert [s.letter for s in board.start] == letters
    for letter in letters:
        seat = board.seat(letter)
        assert seat.islands == tuple(ref_id(i) for i in start[letter]["islands"])
        # Where the sources disagree the reference lists the majority first.
        assert seat.fleets == tuple(ref_id(f) for f in start[letter]["fleets"])
    neutral = {i.id for i in board.islands} - {i for s in board.start for i in s.islands}
    assert neutral == {ref_id(i) for i in start["neutral_islands"]}


@needs_reference
def test_two_player_start_follows_reference_with_the_documented_inference():
    board, start = builtin_board(2), reference(2)["start_2p"]
    a, b = board.seat("A"), board.seat("B")
    assert a.islands == tuple(ref_id(i) for i in start["A"]["islands"])
    assert b.islands == tuple(ref_id(i) for i in start["B"]["islands"])
    assert a.fleets == ("B2", "G5")  # G5 Mystouille (F6 kamilbulat)
    assert b.fleets[0] == ref_id(start["B"]["fleets"][0]) == "D4"
    # Mystouille's F1 touches no island of B; K2 is an inference, and says so.
    assert ref_id(start["B"]["fleets"][1]) == "F1"
    assert b.fleets[1] == "K2"
    assert "K2" in b.note and "inferred" in b.note and "F1" in b.note
    assert "G5" in a.note and "F6" in a.note


@needs_reference
@pytest.mark.parametrize("count", COUNTS)
def test_grid_matches_reference_coordinate_scheme(count):
    scheme = reference(count)["coordinate_scheme"]
    lengths = re.search(r"row lengths ([0-9,]+)", scheme).group(1)
    assert builtin_board(count).rows == tuple(int(n) for n in lengths.split(","))


# ---------------------------------------------------------------------------
# The shipped boards on their own
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", COUNTS)
def test_every_seat_starts_with_income_2(count):
    board = builtin_board(count)
    assert len(board.start) == count
    for seat in board.start:
        assert income(board, seat) == 2, seat.letter


@pytest.mark.parametrize("count", COUNTS)
def test_every_starting_fleet_touches_an_own_island(count):
    board = builtin_board(count)
    for seat in board.start:
        for sea in seat.fleets:
            assert board.sea_islands(sea) & set(seat.islands), (seat.letter, sea)


@pytest.mark.parametrize("count", COUNTS)
def test_board_says_its_sources_and_confidence(count):
    board = builtin_board(count)
    assert board.player_counts == (count,)
    assert "shared/reference/cyclades-board-" in board.sources
    assert "Mystouille" in board.sources
    assert board.confidence


def test_only_the_two_player_start_is_unverified():
    for count in COUNTS:
        for seat in builtin_board(count).start:
            assert seat.verified == (count != 2), (count, seat.letter)
            assert seat.verified or seat.note


def test_two_player_board_is_the_three_player_map():
    two, three = builtin_board(2), builtin_board(3)
    assert two.islands == three.islands and two.seas == three.seas
    assert two.rows == three.rows


def test_island_of_and_lookups():
    board = builtin_board(5)
    assert board.island_of("B2") == "IS1"
    assert board.island_of("A1") is None
    with pytest.raises(KeyError):
        board.island_of("A7")
    assert board.island("IS9") == Island("IS9", ("F7",), 1, 2, 1)
    assert board.sea("K6") == Sea("K6", "K6", 1)
    assert board.seat("E").islands == ("IS3", "IS11")


def test_neighbour_rule_on_the_middle_row():
    rows = (6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6)
    # F1 (row 5, index 0): E1 above (shorter row), G1 below (shorter row), F2 beside.
    assert sorted(hex_neighbours(rows, 5, 0)) == [(4, 0), (5, 1), (6, 0)]
    # E5 (row 4, index 4): D4, D5 above; F5, F6 below.
    assert sorted(hex_neighbours(rows, 4, 4)) == [(3, 3), (3, 4), (4, 3), (4, 5), (5, 4), (5, 5)]


def test_board_facts():
    board = builtin_board(3)
    facts = board_facts(board)
    assert len(facts) == len(set(facts))
    assert fn("island", "IS1") in facts
    assert fn("island_slots", "IS7", 4) in facts
    assert fn("island_prosperity", "IS5", 0) in facts
    assert fn("metropolis_slots", "IS1", 1) in facts
    assert fn("sea", "H1") in facts
    assert fn("sea_prosperity", "K2", 1) in facts
    assert fn("sea_prosperity", "H1", 0) not in facts
    assert fn("coast", "IS8", "K2") in facts
    assert fn("sea_adjacent", "H1", "H2") in facts and fn("sea_adjacent", "H2", "H1") in facts
    names = {f.name for f in facts}
    assert names == {
        "island", "island_slots", "island_prosperity", "metropolis_slots",
        "sea", "sea_prosperity", "coast", "sea_adjacent",
    }
    assert sum(f.name == "sea" for f in facts) == 30
    assert sum(f.name == "sea_prosperity" for f in facts) == 4
    for f in facts:
        assert all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in f.args)
    adjacent = {f.args for f in facts if f.name == "sea_adjacent"}
    assert all((t, s) in adjacent for s, t in adjacent)


def test_loader_imports_neither_clingo_nor_lark():
    code = "import sys, referee.games.cyclades.board; print('clingo' in sys.modules, 'lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_no_builtin_board_for_six_players():
    with pytest.raises(BoardError, match="no built-in Cyclades board for 6 players"):
        builtin_board(6)


def test_docs_example_loads(tmp_path):
    text = (REPO / "docs" / "boards.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    complete = [b for b in blocks if "[board]" in b and "rows" in b and "[start.A]" in b]
    assert complete, "docs/boards.md has no complete example board"
    path = tmp_path / "example.toml"
    path.write_text(complete[0], encoding="utf-8")
    board = load_board(path)
    assert board.islands and board.start


# ---------------------------------------------------------------------------
# Malformed board files: a BoardError naming the file, the place and the fault
# ---------------------------------------------------------------------------

SMALL = """\
[board]
name = "Test"
players = [2]
rows = [3, 4, 3]

[islands]
IS1 = { hexes = ["A1", "B1"], slots = 2, prosperity = 1 }
IS2 = { hexes = ["C3"], slots = 1, prosperity = 2 }

[seas]
prosperity = { A3 = 1 }

[start.A]
islands = ["IS1"]
fleets = ["A2"]

[start.B]
islands = ["IS2"]
fleets = ["B4"]
"""


def write(tmp_path: Path, text: str, name: str = "bad.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_small_board_loads(tmp_path):
    board = load_board(write(tmp_path, SMALL, "small.toml"))
    assert board.rows == (3, 4, 3)
    assert board.island("IS1").metropolis_slots == 2  # default: min(2, slots)
    assert board.island("IS2").metropolis_slots == 1
    assert board.island_seas("IS1") == {"A2", "B2", "C1"}
    assert board.sea_islands("B4") == {"IS2"}
    assert board.sea("A3").prosperity == 1 and board.sea("A2").prosperity == 0
    assert [income(board, s) for s in board.start] == [1, 2]


BAD = [
    # (id, old text, new text, fragments of the message, line)
    ("syntax", 'name = "Test"', 'name = "Test', ["TOML syntax"], 2),
    ("syntax-missing-equals", "players = [2]", "players [2]", ["TOML syntax"], 3),
    ("unknown-top-key", "[seas]", "[sea]", ["unknown section or key 'sea'"], 10),
    ("unknown-board-key", "players = [2]", "players = [2]\ncolour = 1", ["[board]", "unknown key 'colour'"], 4),
    ("unknown-island-key", "slots = 1,", "slots = 1, temple = 1,", ["island IS2", "unknown key 'temple'"], 8),
    ("unknown-seas-key", "prosperity = { A3 = 1 }", "prosperity = { A3 = 1 }\nports = 1", ["[seas]", "unknown key 'ports'"], 12),
    ("unknown-seat-key", 'fleets = ["B4"]', 'fleets = ["B4"]\ntroops = 3', ["start seat B", "unknown key 'troops'"], 20),
    ("hex-outside-row", '"C3"]', '"C9"]', ["island IS2", "C9", "outside the grid", "row C has 3 hexes"], 8),
    ("hex-outside-grid", '"C3"]', '"D1"]', ["island IS2", "D1", "no row D"], 8),
    ("hex-not-a-hex", '"C3"]', '"c3"]', ["island IS2", "'c3'", "not a hex id"], 8),
    ("hex-used-twice", '"C3"]', '"B1"]', ["island IS2", "B1", "also by island IS1"], 8),
    ("hex-twice-in-island", '"A1", "B1"]', '"A1", "B1", "A1"]', ["island IS1", "A1", "twice"], 7),
    ("not-connected", '"A1", "B1"]', '"A1", "B3"]', ["island IS1", "not connected", "B3"], 7),
    ("slots-zero", "slots = 1,", "slots = 0,", ["island IS2", "slots = 0", "at least 1"], 8),
    ("slots-not-int", "slots = 1,", 'slots = "1",', ["island IS2", "slots = '1'"], 8),
    ("slots-missing", "slots = 1, ", "", ["island IS2", "'slots'", "missing"], 8),
    ("metropolis-over-slots", "slots = 1,", "slots = 1, metropolis_slots = 2,", ["island IS2", "metropolis_slots = 2", "between 1"], 8),
    ("metropolis-zero", "slots = 1,", "slots = 1, metropolis_slots = 0,", ["island IS2", "metropolis_slots = 0"], 8),
    ("island-prosperity-negative", "prosperity = 2", "prosperity = -1", ["island IS2", "prosperity = -1", "0 or more"], 8),
    ("sea-prosperity-negative", "A3 = 1", "A3 = -2", ["sea A3", "-2", "0 or more"], 11),
    ("sea-prosperity-on-island", "A3 = 1", "B1 = 1", ["B1", "island IS1", "not a sea space"], 11),
    ("sea-prosperity-outside", "A3 = 1", "A4 = 1", ["A4", "outside the grid"], 11),
    ("start-island-missing", 'islands = ["IS2"]', 'islands = ["IS9"]', ["start seat B", "IS9", "does not exist"], 18),
    ("start-island-is-sea", 'islands = ["IS2"]', 'islands = ["A3"]', ["start seat B", "A3", "is a sea space"], 18),
    ("start-fleet-missing", 'fleets = ["B4"]', 'fleets = ["B7"]', ["start seat B", "B7", "outside the grid"], 19),
    ("start-fleet-on-island", 'fleets = ["B4"]', 'fleets = ["C3"]', ["start seat B", "C3", "island IS2", "not a sea space"], 19),
    ("start-island-twice", 'islands = ["IS2"]', 'islands = ["IS1"]', ["start seat B", "IS1", "also by seat A"], 18),
    ("start-fleets-share-sea", 'fleets = ["B4"]', 'fleets = ["A2"]', ["start seat B", "A2", "seat A's fleet"], 19),
    ("start-seat-gap", "[start.B]", "[start.C]", ["seat B is missing"], 13),
    ("start-too-few-seats", "players = [2]", "players = [3]", ["2 seats", "3 players", "[start.C]"], 13),
    ("start-seat-letter", "[start.B]", "[start.b]", ["seat 'b'", "capital letters"], 17),
    ("unverified-without-note", 'fleets = ["B4"]', 'fleets = ["B4"]\nverified = false', ["start seat B", "note"], 20),
    ("verified-not-bool", 'fleets = ["B4"]', 'fleets = ["B4"]\nverified = "no"', ["start seat B", "true or false"], 20),
    ("duplicate-island-id", '[seas]', 'IS1 = { hexes = ["A3"], slots = 1 }\n\n[seas]', ["IS1", "defined twice"], 10),
    ("duplicate-seat", "[start.B]", '[start.A]\nislands = []\nfleets = []\n\n[start.B]', ["start.A", "defined twice"], 17),
    ("rows-uneven", "rows = [3, 4, 3]", "rows = [3, 5, 3]", ["rows", "exactly one hex"], 4),
    ("rows-missing", "rows = [3, 4, 3]\n", "", ["'rows' is missing"], 1),
    ("players-bad", "players = [2]", "players = 2", ["'players' must be a list"], 3),
    ("island-id-like-hex", "IS2 = {", "C2 = {", ["island C2", "hex id"], 8),
    ("hexes-empty", '["C3"]', "[]", ["island IS2", "'hexes'"], 8),
    ("board-missing", "[board]\n", "[boards]\n", ["unknown section or key 'boards'"], 1),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_board_file(tmp_path, case):
    _, old, new, fragments, line = case
    assert old in SMALL, old
    path = write(tmp_path, SMALL.replace(old, new, 1))
    with pytest.raises(BoardError) as info:
        load_board(path)
    err = info.value
    text = str(err)
    assert "bad.toml" in text
    for fragment in fragments:
        assert fragment in text
    assert err.position is not None, text
    assert err.position.line == line, text
    assert err.context and "^" in err.context
    assert err.code == "board"


def test_missing_board_section(tmp_path):
    text = SMALL.split("[islands]")[1]
    with pytest.raises(BoardError, match=r"bad.toml: the \[board\] section is missing"):
        load_board(write(tmp_path, "[islands]" + text))


def test_missing_file(tmp_path):
    with pytest.raises(FileError, match="nowhere.toml: board file not found"):
        load_board(tmp_path / "nowhere.toml")


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(SMALL.replace("Test", "Tést").encode("latin-1"))
    with pytest.raises(BoardError, match="latin1.toml: board file is not UTF-8"):
        load_board(path)


def test_position_of_a_syntax_error_has_line_and_column(tmp_path):
    with pytest.raises(BoardError) as info:
        load_board(write(tmp_path, SMALL.replace("slots = 1,", "slots = ,")))
    pos = info.value.position
    assert (pos.line, pos.column) == (8, 33)
    assert info.value.to_json()["line"] == 8


def test_no_traceback_for_any_line_removed_or_mangled(tmp_path):
    """Any damage to a real board file gives a BoardError, never another exception."""
    source = (REPO / "referee/games/cyclades/boards/5p.toml").read_text(encoding="utf-8")
    lines = source.splitlines()
    variants = []
    for k in range(len(lines)):
        variants.append("\n".join(lines[:k] + lines[k + 1 :]))  # a line removed
        variants.append("\n".join(lines[:k]))  # the file cut short
        mangled = re.sub(r"\b\d+\b", '"x"', lines[k], count=1)
        variants.append("\n".join(lines[:k] + [mangled] + lines[k + 1 :]))  # a number made a string
        mangled = re.sub(r'"[A-Z0-9]+"', "7", lines[k], count=1)
        variants.append("\n".join(lines[:k] + [mangled] + lines[k + 1 :]))  # an id made a number
    for n, text in enumerate(variants):
        path = write(tmp_path, text, f"v{n}.toml")
        try:
            load_board(path)
        except BoardError as err:
            assert f"v{n}.toml" in str(err)


# ---------------------------------------------------------------------------
# A user's own starting placement on a shipped map (based_on)
# ---------------------------------------------------------------------------


def test_own_start_on_a_builtin_map(tmp_path):
    text = """\
[board]
name = "Two players, kamilbulat's fleet for A"
based_on = "2p"

[start.A]
islands = ["IS1", "IS7"]
fleets = ["B2", "F6"]

[start.B]
islands = ["IS2", "IS8"]
fleets = ["D4", "F1"]
"""
    board = load_board(write(tmp_path, text, "mine.toml"))
    assert board.name == "Two players, kamilbulat's fleet for A"
    assert board.player_counts == (2,)
    assert board.islands == builtin_board(3).islands
    assert board.seat("A").fleets == ("B2", "F6") and board.seat("A").verified
    assert "3p.toml" in board.sources  # inherited from 2p.toml


def test_based_on_keeps_the_base_start_when_none_given(tmp_path):
    board = load_board(write(tmp_path, '[board]\nname = "x"\nbased_on = "5p"\n', "mine.toml"))
    assert board.start == builtin_board(5).start


def test_based_on_may_not_change_the_map(tmp_path):
    text = '[board]\nbased_on = "3p"\n\n[seas]\nprosperity = { A1 = 1 }\n'
    with pytest.raises(BoardError, match="may not give 'seas'") as info:
        load_board(write(tmp_path, text))
    assert info.value.position.line == 4


def test_based_on_checks_the_start_against_the_base_map(tmp_path):
    text = '[board]\nbased_on = "3p"\n[start.A]\nislands = ["IS1"]\nfleets = ["B1"]\n'
    with pytest.raises(BoardError, match="B1 is a hex of island IS1") as info:
        load_board(write(tmp_path, text))
    assert info.value.position.line == 5


def test_based_on_a_file_and_cycles(tmp_path):
    write(tmp_path, SMALL, "small.toml")
    board = load_board(write(tmp_path, '[board]\nname = "y"\nbased_on = "small.toml"\n', "mine.toml"))
    assert board.rows == (3, 4, 3)
    write(tmp_path, '[board]\nbased_on = "b.toml"\n', "a.toml")
    write(tmp_path, '[board]\nbased_on = "a.toml"\n', "b.toml")
    with pytest.raises(BoardError, match="cycle"):
        load_board(tmp_path / "a.toml")


def test_based_on_an_unknown_builtin(tmp_path):
    with pytest.raises(BoardError, match="no built-in board for 7 players"):
        load_board(write(tmp_path, '[board]\nbased_on = "7p"\n'))


def test_a_board_of_a_million_hexes_is_refused_at_once(tmp_path):
    """A board that would blow up grounding is a clear BoardError, at once."""
    import time
    path = tmp_path / "huge.toml"
    path.write_text('[board]\nname = "huge"\nplayers = [3]\nrows = [999999, 1000000]\n'
                    'sources = "x"\nconfidence = "x"\n', encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(BoardError, match="1999999 hexes; a board has at most 2000"):
        load_board(path)
    assert time.monotonic() - start < 1
