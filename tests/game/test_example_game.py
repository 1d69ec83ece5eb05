"""The example game (tests/example_game/, Nim): the contract between the
generic referee and a game, as executable documentation (docs/adding-a-game.md).

The game is registered the way any other package registers one: an entry point
of the group ``referee.games`` in the metadata of an installed distribution.
The fixture ``nim`` writes that metadata (a ``*.dist-info`` folder with
``entry_points.txt``) into a temporary folder and puts the folder on
``sys.path`` for this module's tests only, so ``importlib.metadata`` finds it
exactly as it finds the project's own entry points, and nothing in
pyproject.toml names the example. A subprocess gets the same through PYTHONPATH.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.game_names import lines_naming_a_shipped_game
from helpers.round_trip import mismatches, round_trips

from referee.ask.session import Session
from referee.base.errors import RefereeError
from referee.base.terms import fn
from referee.cli import main
from referee.game.catalogue import load_catalogue
from referee.game.parts.words import Words
from referee.game.registry import forget_games, game_class, game_package, known_games

TESTS = Path(__file__).resolve().parents[1]
EXAMPLE = TESTS / "example_game"
# as the reports name them: the tests run from the repository root (conftest.py)
LEGAL = "tests/example_game/transcripts/legal.txt"
ILLEGAL = "tests/example_game/transcripts/illegal.txt"


@pytest.fixture(scope="module", autouse=True)
def nim(tmp_path_factory):
    """Nim installed as a distribution with one entry point, for this module only."""
    site = tmp_path_factory.mktemp("site")
    info = site / "referee_example_nim-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: referee-example-nim\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[referee.games]\nnim = example_game.game:NimRules\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(TESTS))  # the package example_game
        patch.syspath_prepend(str(site))   # its distribution's metadata
        forget_games()  # the registry read the entry points before the folder was there
        yield os.pathsep.join([str(site), str(TESTS)])
    forget_games()


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_example_is_found_through_its_entry_point():
    (point,) = [ep for ep in entry_points(group="referee.games") if ep.name == "nim"]
    assert point.dist.name == "referee-example-nim"
    assert "nim" in known_games() and game_class("nim").__name__ == "NimRules"
    assert game_package(game_class("nim")) == "example_game"


def test_the_catalogue_names_every_rule_the_programs_use():
    """Every id of a violation atom or a '% Rule id' comment is catalogued, and
    every violation id has a report message."""
    text = (EXAMPLE / "rules" / "nim.lp").read_text() + (TESTS.parent / "referee" / "game" / "rules.lp").read_text()
    violations = set(re.findall(r"violation\(([a-z]\w*),", text))
    blocks = set(re.findall(r"^% Rule (\w+):", text, re.MULTILINE))
    catalogue = load_catalogue("nim")
    assert violations | blocks == set(catalogue.ids)
    assert all(catalogue.rule(v).message for v in violations)


def test_check_a_legal_record():
    """Rule last_wins: Ann takes the last object and wins."""
    result = cli("check", LEGAL)
    assert result.exit_code == 0, result.output
    assert result.output == f"{LEGAL}: checked 3 moves (rules: en); every move is legal; Ann wins.\n"


def test_check_reports_each_illegal_move_with_its_rule():
    """Rule take_count; and out of turn, the game's own rule (take_turns) before
    the generic catch-all of referee/game/rules.lp (not_in_control). Each illegal move
    stands as played: Bob takes the last object."""
    result = cli("check", ILLEGAL)
    assert result.exit_code == 1
    assert result.output == (
        f"{ILLEGAL}:5:1: move 2, Bob: 'take 4 from 2': take_count: Bob may take 1 to 3 objects, not 4\n"
        f"{ILLEGAL}:6:1: move 3, Bob: 'take 1 from 1': take_turns: Bob moved just now: it is Ann's turn; "
        "not_in_control: it is Ann's turn, not Bob's\n\n"
        f"{ILLEGAL}: checked 3 moves (rules: en); 2 illegal moves (each recorded and applied as played, "
        "as a move nobody noticed stands); Bob wins, counting the illegal moves on lines 5, 6 as played.\n")


def test_explain_an_illegal_move_and_its_alternatives():
    """Rules take_count and take_available: Bob, with heaps of 1 and 4, may take
    1 from heap 1 or 1 to 3 from heap 2."""
    result = cli("explain", ILLEGAL, "--move", "2")
    assert result.exit_code == 1
    assert result.output == (
        f"{ILLEGAL}:5:1: move 2, Bob: 'take 4 from 2'\n"
        "  ILLEGAL: take 4 from heap 2\n"
        "  - take_count (One to three): Bob may take 1 to 3 objects, not 4\n"
        "      rule (en): A move takes one, two or three objects.\n"
        "  what may be done instead (Bob):\n"
        "    - take 1 from heap 1, take 1 from heap 2, take 2 from heap 2, take 3 from heap 2\n")


def test_moves_after_a_move():
    """The illegal move stands as played (heap 2 is empty): Ann may only take the last object."""
    result = cli("moves", ILLEGAL, "--after", "2")
    assert result.exit_code == 0
    assert result.output == "after move 2 (line 5): Ann to decide (1 legal move)\n  - take 1 from heap 1\n"


def test_a_game_without_board_files_refuses_one():
    result = cli("check", LEGAL, "--board", "board.toml")
    assert result.exit_code == 2 and "Nim has no board files yet" in result.output


def test_a_line_the_reader_refuses_is_an_error_with_its_position(tmp_path):
    record = tmp_path / "bad.txt"
    record.write_text("game: nim\nplayers: Ann red, Bob blue\nheaps: 3\nCy: take 1 from 1\n")
    result = cli("check", str(record))
    assert result.exit_code == 2
    assert f"{record}:4:1: error[notation]: 'Cy' is not a player: expected Ann or Bob" in result.output


@pytest.mark.parametrize("record", [LEGAL, ILLEGAL], ids=["legal", "illegal"])
def test_a_move_is_legal_exactly_when_it_is_listed(record):
    """The contract of referee/game/rules.lp: no violation <=> among legal/2, for
    every move 'take N from H' (N 0 to 4, H 0 to 3) in every position of the record."""
    session = Session(record)
    rules, engine = session.rules, session.referee.engine
    for step in session.referee.run().written():
        listed = set(engine.legal_moves(rules.static, step.before))
        for player in rules.players:
            for heap in range(4):
                for count in range(5):
                    move = fn("take", heap, count)
                    judged = not engine.judge(rules.static, step.before, player, move).violations
                    assert judged == ((player, move) in listed), (step.number, player, move)


@pytest.mark.parametrize("record", [LEGAL, ILLEGAL], ids=["legal", "illegal"])
def test_every_listed_move_written_and_read_back_is_the_same_move(record):
    """The move writer's round trip: 'Ann: take 2 from 1' for take(1,2), in every sampled position."""
    session = Session(record)
    trips = round_trips(session, session.referee.run(), Path(record))
    assert trips and all(t.line is not None for t in trips)
    assert not mismatches(trips), mismatches(trips)[:5]
    assert next(t.line for t in trips if t.move == fn("take", 1, 2) and t.role == "Ann") == "Ann: take 2 from 1"


def test_a_game_without_a_move_writer_says_so():
    session = Session(LEGAL)
    with pytest.raises(RefereeError, match="Nim has no move writer yet"):
        Words(session.rules).write_move("Ann", fn("take", 1, 2))


def test_a_game_without_a_board_picture_says_so():
    result = cli("board", "nim")
    assert result.exit_code == 2 and "Nim has no board picture yet" in result.output


def test_the_generic_modules_still_name_no_game():
    """The name test reads the shipped games: 'nim' is in 'minimum'."""
    found = lines_naming_a_shipped_game()
    assert not found, "\n".join(found)


def test_the_installed_command_checks_the_example(nim):
    """The real `referee` command in a new process, the example on PYTHONPATH."""
    command = Path(sys.executable).with_name("referee")
    env = dict(os.environ, PYTHONPATH=nim)
    done = subprocess.run([str(command), "check", ILLEGAL], capture_output=True, text=True, env=env,
                          cwd=TESTS.parent, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stdout == cli("check", ILLEGAL).output and done.stderr == ""
