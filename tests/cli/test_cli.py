"""The command line as a user meets it: exit codes, errors with positions,
JSON that follows its schema, and outputs that never overwrite anything."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli import main

GAME = """\
game: cyclades
players: Ann red, Bob blue, Cy green
cycle 1
creatures: Pegasus
gods: Zeus, Ares / Athena, Poseidon
Ann: 3 on Zeus
Bob: 4 on Zeus
Ann: 2 on Ares
Cy: Apollo
Bob/Zeus: priest; temple on IS2
Ann/Ares: troop on IS1; troop on IS7
Cy/Apollo: prosperity on IS3
"""

ILLEGAL = GAME.replace("Bob: 4 on Zeus", "Bob: 3 on Zeus")  # must exceed the standing 3 GP


def run(*args, input_files=None, tmp_path=None):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME, encoding="utf-8")
    return path


@pytest.fixture
def illegal(tmp_path):
    path = tmp_path / "illegal.txt"
    path.write_text(ILLEGAL, encoding="utf-8")
    return path


def test_check_legal_game_exits_0(game):
    result = run("check", str(game))
    assert result.exit_code == 0, result.output
    assert "every move is legal" in result.output


def test_check_illegal_move_exits_1_with_position_cycle_player_and_rule(illegal):
    result = run("check", str(illegal))
    assert result.exit_code == 1
    first = next(line for line in result.output.splitlines() if ": assumed: " not in line)
    assert first.startswith(f"{illegal}:7:6: move 7, cycle 1, Bob: '3 on Zeus': offering_outbid:")


def test_check_goes_on_after_an_illegal_move_but_strict_stops(illegal):
    lenient = json.loads(run("check", "--json", str(illegal)).output)
    strict = json.loads(run("check", "--json", "--strict", str(illegal)).output)
    assert lenient["moves_checked"] == 14 and not lenient["stopped_at_first_problem"]
    assert strict["stopped_at_first_problem"] and strict["moves_checked"] == 7


def test_unreadable_transcript_exits_2_with_position_and_caret(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(GAME.replace("Ann: 3 on Zeus", "Ann: 3 onn Zeus"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert f"{path}:6:" in result.output and "^" in result.output
    assert "Traceback" not in result.output


def test_missing_file_exits_2(tmp_path):
    result = CliRunner().invoke(main, ["check", str(tmp_path / "nope.txt")])
    assert result.exit_code == 2


def test_json_report_follows_its_schema(illegal):
    schema = json.loads(resources.files("referee").joinpath("ask/schema/report.schema.json").read_text())
    data = json.loads(run("check", "--json", str(illegal)).output)
    jsonschema.validate(data, schema)
    assert data["problems"][0]["breaches"][0]["rule"] == "offering_outbid"


def test_explain_names_rule_english_and_alternatives(illegal):
    result = run("explain", str(illegal), "--move", "7")
    assert result.exit_code == 1
    assert "ILLEGAL" in result.output and "offering_outbid" in result.output
    assert "rule (en):" in result.output
    assert "offer 4-" in result.output and "GP to Zeus" in result.output and "take Apollo" in result.output


def test_explain_by_line_and_translation_sentence(illegal):
    result = run("explain", str(illegal), "--line", "7", "--rules", "zh-003")
    assert "rule (zh-003): 该奉献必须是高於其他已发生过的奉献" in result.output


def test_explain_by_place_as_a_report_prints_it(illegal):
    """People count lines: 'referee explain GAME.txt:7' (FILE:LINE, as compilers
    print it) is the first move of line 7; FILE:LINE:COLUMN the move at that column."""
    by_move = run("explain", str(illegal), "--move", "7").output
    assert run("explain", f"{illegal}:7").output == by_move
    assert run("explain", f"{illegal}:7:6").output == by_move
    two = run("explain", f"{illegal}:10:19")  # 'Bob/Zeus: priest; temple on IS2': the temple
    assert "'temple on IS2'" in two.output.splitlines()[0]
    assert "'priest'" in run("explain", f"{illegal}:10").output.splitlines()[0]


NO_FREE_SLOT = Path(__file__).resolve().parents[2] / "transcripts" / "cyclades" / "illegal-build-no-free-slot.txt"


def test_explain_of_a_line_explains_the_move_the_report_flags_and_every_one(tmp_path):
    """Rule build_free_slot: a building needs a free building space. 'Eve/Zeus: priest;
    temple on IS3; temple on IS3' (line 22): the report flags the second temple, and
    the line explains it, not the priest before it; with two such temples, both."""
    flagged = run("explain", f"{NO_FREE_SLOT}:22")
    assert flagged.exit_code == 1
    first = flagged.output.splitlines()[0]
    assert first.endswith("illegal-build-no-free-slot.txt:22:34: move 15, cycle 1, Eve: 'temple on IS3'")
    assert "ILLEGAL" in flagged.output and "build_free_slot" in flagged.output
    assert run("explain", str(NO_FREE_SLOT), "--line", "22").output == flagged.output
    lines = NO_FREE_SLOT.read_text(encoding="utf-8").splitlines()
    assert lines[21] == "Eve/Zeus: priest; temple on IS3; temple on IS3"
    lines[21] += "; temple on IS3"
    twice = tmp_path / "twice.txt"
    twice.write_text("\n".join(lines) + "\n", encoding="utf-8")
    both = run("explain", f"{twice}:22", "--json")
    verdicts = json.loads(both.output)
    assert isinstance(verdicts, list) and len(verdicts) == 2 and both.exit_code == 1
    assert all(v["legal"] is False and "build_free_slot" in [b["rule"] for b in v["breaches"]] for v in verdicts)
    assert [v["number"] for v in verdicts] == [15, 16] and {v["line"] for v in verdicts} == {22}


def test_explain_by_place_says_why_a_line_holds_no_move(illegal):
    result = CliRunner().invoke(main, ["explain", f"{illegal}:3"])
    assert result.exit_code == 2
    assert "line 3 is the heading 'cycle 1', not a move; the next move is on line 4" in result.output
    both = CliRunner().invoke(main, ["explain", f"{illegal}:7", "--move", "7"])
    assert both.exit_code == 2 and "leave out --move and --line" in both.output


def test_explain_needs_move_or_line(game):
    result = CliRunner().invoke(main, ["explain", str(game)])
    assert result.exit_code == 2


def test_moves_lists_the_grouped_choices_of_the_player_in_control(game):
    result = run("moves", str(game), "--after", "6")
    assert result.exit_code == 0
    assert "after move 6 (line 6): Bob to decide" in result.output
    assert "offer 4-7 GP to Zeus" in result.output and "offer 1-7 GP to Ares" in result.output


def test_output_goes_to_a_new_file_and_never_overwrites(game, tmp_path):
    out = tmp_path / "report.txt"
    assert run("check", str(game), "-o", str(out)).exit_code == 0
    assert "every move is legal" in out.read_text()
    again = CliRunner().invoke(main, ["check", str(game), "-o", str(out)])
    assert again.exit_code == 2 and "exists already" in again.output
    over = CliRunner().invoke(main, ["check", str(game), "-o", str(game)])
    assert over.exit_code == 2 and game.read_text() == GAME


def test_unknown_reading_is_a_clear_error(game):
    result = CliRunner().invoke(main, ["check", str(game), "--rules", "klingon"])
    assert result.exit_code == 2 and "unknown rules reading 'klingon'" in result.output


def test_missing_chance_line_is_an_error_with_position_and_caret(tmp_path):
    path = tmp_path / "nogods.txt"
    path.write_text(GAME.replace("gods: Zeus, Ares / Athena, Poseidon\n", ""), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert f"{path}:5:6: error[sequence]: the god tiles are not written" in result.output
    assert "Ann: 3 on Zeus\n     ^" in result.output


def test_board_file_named_in_the_header_is_found_beside_the_transcript(tmp_path):
    board = resources.files("referee").joinpath("games/cyclades/boards/3p.toml").read_text()
    (tmp_path / "ours.toml").write_text(board, encoding="utf-8")
    path = tmp_path / "game.txt"
    path.write_text(GAME.replace("players: Ann red, Bob blue, Cy green\n",
                                 "players: Ann red, Bob blue, Cy green\nboard: ours.toml\n"), encoding="utf-8")
    assert run("check", str(path)).exit_code == 0
    missing = tmp_path / "missing.txt"
    missing.write_text(path.read_text().replace("ours.toml", "nope.toml"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(missing)])
    assert result.exit_code == 2 and f"{missing}:3:1: error[file]: " in result.output


def test_an_interrupted_check_leaves_nothing_written(game, tmp_path, monkeypatch):
    """Ctrl-C during a check: exit 130, a message, no output file, the transcript untouched."""
    from referee.ask.session import Session

    def interrupted(self, alternatives=False, tolerant=False):
        raise KeyboardInterrupt

    monkeypatch.setattr(Session, "check", interrupted)
    out = tmp_path / "report.txt"
    result = CliRunner().invoke(main, ["check", str(game), "-o", str(out)])
    assert result.exit_code == 130 and "interrupted: nothing was written" in result.output
    assert not out.exists() and game.read_text() == GAME


def test_an_interrupted_write_leaves_no_half_written_file(game, tmp_path, monkeypatch):
    """The answer is written to a temporary file and linked into place whole; an
    interruption in between leaves neither the answer nor the temporary file."""
    import os

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "link", interrupted)
    out = tmp_path / "report.txt"
    result = CliRunner().invoke(main, ["check", str(game), "-o", str(out)])
    assert result.exit_code == 130
    assert sorted(os.listdir(tmp_path)) == ["game.txt"]


@pytest.mark.parametrize("command", [None, *sorted(main.commands)])
def test_every_help_ends_with_examples_and_the_exit_codes(command):
    result = run(*([command] if command else []), "--help")
    assert result.exit_code == 0
    examples = result.output.split("Examples:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert examples and all(line.startswith("    referee ") for line in examples)
    assert "Exit codes: 0 " in result.output
    assert command is None or all(line.split()[1] == command for line in examples)


def test_a_count_of_one_takes_the_singular():
    result = CliRunner().invoke(main, ["board", "cyclades", "--players", "1"])
    assert result.exit_code == 2
    assert "no built-in Cyclades board for 1 player (there are boards for 2, 3, 4, 5)" in result.stderr


def test_a_legal_move_is_never_followed_by_what_may_be_done_instead():
    outbid = "transcripts/cyclades/illegal-outbid-too-low.txt"
    legal = run("explain", outbid, "--move", "6")
    assert legal.exit_code == 0 and "  LEGAL: offer 3 GP to Zeus" in legal.output
    assert "instead" not in legal.output and "  what may be done here (Ann):" in legal.output
    illegal = run("explain", outbid, "--move", "7")
    assert illegal.exit_code == 1 and "  what may be done instead (Bob):" in illegal.output


@pytest.mark.parametrize("args, kind", [
    (["check", "nowhere.txt"], "file"),
    (["explain", "nowhere.txt", "--move", "1"], "file"),
    (["check", "referee/service/web"], "file"),  # a folder without records
    (["check", "--rules", "klingon", "transcripts/cyclades/illegal-outbid-too-low.txt"], "reading"),
    (["moves", "--rules", "klingon", "transcripts/cyclades/illegal-outbid-too-low.txt"], "reading"),
    (["compare", "cyclades", "--rules", "en", "--rules", "klingon"], "reading"),
    (["compare", "cyclades", "--rules", "en", "--rules", "klingon", "--transcripts"], "reading"),
    (["explain", "transcripts/cyclades/illegal-outbid-too-low.txt", "--move", "99"], "option"),
    (["board", "cyclades", "--after", "3", "--players", "3"], "option"),
])
def test_each_error_is_of_its_kind_in_every_command(args, kind):
    """docs/report.md, "Errors": one table of kinds, the same in every command."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and f"error[{kind}]: " in result.stderr, result.output
