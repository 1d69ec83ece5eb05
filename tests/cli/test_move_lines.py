"""Each alternative as a line of the notation: ``explain --json`` and ``moves
--json`` carry ``alternative_lines`` (the game's move writer), the text outputs
stay as they were, and under a viewpoint the lines of a player whose figures
are screened are not listed."""

from __future__ import annotations

import json
from importlib import resources

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
Bob: 3 on Zeus
Ann: 2 on Ares
Cy: Apollo
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME, encoding="utf-8")
    return path


def _verdict_schema() -> dict:
    schema = json.loads(resources.files("referee").joinpath("ask/schema/report.schema.json").read_text())
    return {"$ref": "#/$defs/verdict", "$defs": schema["$defs"]}


def test_explain_json_carries_each_alternative_as_a_line_that_reads_back_legal(record, tmp_path):
    data = json.loads(run("explain", str(record), "--move", "7", "--json").output)
    jsonschema.validate(data, _verdict_schema())
    lines = data["alternative_lines"]
    assert lines["complete"] is True and "Bob: 4 on Zeus" in lines["lines"] and "Bob: Apollo" in lines["lines"]
    assert "Bob: 3 on Zeus" not in lines["lines"] and all(line.startswith("Bob: ") for line in lines["lines"])
    assert len(lines["lines"]) == data["alternatives_total"]
    for line in (lines["lines"][0], "Bob: 4 on Zeus", lines["lines"][-1]):  # entered in its place: legal
        other = tmp_path / "other.txt"
        other.write_text(GAME.replace("Bob: 3 on Zeus", line), encoding="utf-8")
        again = json.loads(run("explain", str(other), "--move", "7", "--json").output)
        assert again["legal"] and again["text"] == line.removeprefix("Bob: "), again


def test_the_text_answers_are_unchanged(record):
    explained = run("explain", str(record), "--move", "7").output
    listed = run("moves", str(record), "--after", "6").output
    assert "Bob: 4 on Zeus" not in explained + listed and "lines" not in explained + listed
    assert "  - offer 4-7 GP to Zeus" in explained and "  - offer 4-7 GP to Zeus" in listed


def test_moves_json_carries_the_lines(record):
    data = json.loads(run("moves", str(record), "--after", "6", "--json").output)
    assert data["control"] == "Bob" and data["alternative_lines"]["complete"] is True
    assert len(data["alternative_lines"]["lines"]) == data["total"]
    jsonschema.validate(data["alternative_lines"], {"$ref": "#/$defs/alternative_lines",
                                                    "$defs": _verdict_schema()["$defs"]})


def test_under_a_viewpoint_another_players_screened_moves_have_no_lines(record):
    """Bob's offerings as lines would tell Ann his gold: the screened listing has none."""
    as_ann = json.loads(run("moves", str(record), "--after", "6", "--json", "--as", "Ann").output)
    assert "alternative_lines" not in as_ann and as_ann["total"] is None
    explained = json.loads(run("explain", str(record), "--move", "7", "--json", "--as", "Ann").output)
    assert "alternative_lines" not in explained
    as_bob = json.loads(run("moves", str(record), "--after", "6", "--json", "--as", "Bob").output)
    assert "Bob: 4 on Zeus" in as_bob["alternative_lines"]["lines"]
