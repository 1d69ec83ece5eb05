"""Records as people write them (issue 14, section 4): a heading forgotten or
written too early, a name misspelt, a record that cannot be read past some line.
One such line must not make the whole record unreadable: the referee judges
the rest and says, at the line, what it assumed (docs/notation.md, "Reading a
record tolerantly")."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.ask.session import Session
from referee.base.errors import RefereeError
from referee.cli import main
from referee.game.notation import parse_transcript

REPO = Path(__file__).resolve().parents[2]
GAME_5P = (REPO / "transcripts" / "cyclades" / "game-5p.txt").read_text(encoding="utf-8").splitlines()
LUNA_2P = (REPO / "transcripts" / "luna" / "game-2p.txt").read_text(encoding="utf-8").splitlines()
SCHEMA = json.loads(resources.files("referee").joinpath("ask/schema/report.schema.json").read_text())


def lines(source: list[str], first: int, last: int) -> list[str]:
    """Lines ``first`` to ``last`` (1-based, inclusive) of a shipped record."""
    return source[first - 1:last]


def check(text_lines: list[str], name: str = "t.txt"):
    return Session(parse_transcript("\n".join(text_lines) + "\n", name)).check()


# game-5p.txt: lines 1-26 are the header and cycle 1 (heading on line 10); line 27
# is 'cycle 2', line 28 its creature track, 29 its gods, 30-40 its offerings and actions.
CYCLE_1 = lines(GAME_5P, 1, 26)
CYCLE_2 = lines(GAME_5P, 28, 40)


def test_the_two_cycles_as_written_are_legal():
    report = check(CYCLE_1 + ["cycle 2"] + CYCLE_2)
    assert not report.problems and not report.assumptions and report.cycles == 2


def test_a_forgotten_cycle_heading_is_assumed_where_the_creature_track_is_written():
    """Before, the cycle 2 lines were judged in cycle 1: 18 illegal moves."""
    report = check(CYCLE_1 + CYCLE_2)
    assert not report.problems
    (assumed,) = report.assumptions
    assert (assumed.line, assumed.column, assumed.number) == (27, 1, 23)
    assert assumed.text == "cycle 2 begins here: the heading 'cycle 2' is not written"
    assert report.cycles == 2


def test_a_cycle_heading_written_during_the_offerings_is_set_aside_until_the_cycle_ends():
    """Rule offering phase: the cycle cannot end before every marker is placed
    (before: exit 2, 'this is cycle 1, not cycle 2')."""
    early = CYCLE_1[:18] + ["cycle 2"] + CYCLE_1[18:] + CYCLE_2
    report = check(early)
    assert not report.problems
    first, second = report.assumptions
    assert (first.line, first.column) == (19, 1)
    assert first.text.startswith("'cycle 2' is written while cycle 1 goes on (Cy to decide); the heading is set aside")
    assert (second.line, second.column) == (28, 1)
    assert second.text == "cycle 2 begins here: its heading, on line 19, was written too early"


def test_a_cycle_heading_written_late_closes_nothing():
    late = CYCLE_1 + CYCLE_2[:2] + ["cycle 2"] + CYCLE_2[2:]
    report = check(late)
    assert not report.problems
    begins, heading = report.assumptions
    assert begins.text == "cycle 2 begins here: the heading 'cycle 2' is not written"
    assert heading.line == 29 and heading.text == "'cycle 2' is written after cycle 2 began (line 27): " \
                                                  "the heading closes nothing"


def test_a_misnumbered_cycle_heading_is_read_as_the_cycle_that_begins():
    report = check(CYCLE_1 + ["cycle 3"] + CYCLE_2)
    assert not report.problems and report.cycles == 2
    (assumed,) = report.assumptions
    assert assumed.text == "'cycle 3' is read as 'cycle 2': cycle 1 is over, so cycle 2 begins here"


# luna/game-2p.txt: round 1 on lines 7-26 (Ann's last meditation on line 26), 'round 2' on 27.
ROUND_1 = lines(LUNA_2P, 1, 26)
ROUND_2 = lines(LUNA_2P, 28, 32)


def test_a_forgotten_luna_round_heading_is_said_where_the_round_begins():
    """Rule meditate_last: the last time marker ends the round. Before, the
    moves of round 2 were taken silently."""
    report = check(ROUND_1 + ROUND_2)
    assert not report.problems
    (assumed,) = report.assumptions
    assert (assumed.line, assumed.column) == (27, 1)
    assert assumed.text == "round 2 begins here: the heading 'round 2' is not written"
    assert report.cycles == 2


def test_an_early_luna_round_heading_is_said_at_its_line_and_where_the_round_begins():
    """The same handling in both directions (before: exit 2 for an early heading)."""
    early = ROUND_1[:22] + ["round 2"] + ROUND_1[22:] + ROUND_2
    report = check(early)
    assert not report.problems
    first, second = report.assumptions
    assert first.line == 23 and first.text.startswith("'round 2' is written while round 1 goes on (Bob to decide)")
    assert second.line == 28 and second.text == "round 2 begins here: its heading, on line 23, was written too early"


def test_an_assumption_is_in_the_text_report_at_its_line_and_in_the_explanation(tmp_path):
    path = tmp_path / "forgot.txt"
    path.write_text("\n".join(CYCLE_1 + CYCLE_2) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0
    assert f"{path}:27:1: assumed: cycle 2 begins here: the heading 'cycle 2' is not written" in result.output
    assert "1 assumption about what the record means" in result.output
    explained = CliRunner().invoke(main, ["explain", f"{path}:27"])
    assert "  assumed: cycle 2 begins here" in explained.output


# --json on a record that cannot be read: the report's shape, the error, the moves before it

def test_json_for_text_that_cannot_be_read_is_a_report_with_the_moves_before_the_error(tmp_path):
    path = tmp_path / "typo.txt"
    broken = CYCLE_1[:20] + ["Cy: 2 onn Poseidon"] + CYCLE_1[21:]
    path.write_text("\n".join(broken) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["error"]["code"] == "notation" and data["error"]["line"] == 21
    assert data["legal"] is False and data["game"] == "cyclades"
    assert data["moves_checked"] == 13  # the 5 chance moves and 8 offerings on lines 11-20


def test_json_for_a_record_that_cannot_be_followed_keeps_the_moves_judged_before(tmp_path):
    path = tmp_path / "nogods.txt"
    path.write_text("\n".join(CYCLE_1[:11] + CYCLE_1[12:]) + "\n", encoding="utf-8")  # no 'gods:' line
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["error"]["code"] == "sequence" and data["error"]["line"] == 12
    assert data["moves_checked"] == 1 and data["players"][0] == "Ann"


def test_json_for_a_header_that_cannot_be_read_is_still_a_report(tmp_path):
    path = tmp_path / "nohead.txt"
    path.write_text("game: cyclades\nplayers: Ann red\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["error"]["code"] == "notation" and data["moves_checked"] == 0 and data["problems"] == []


def test_json_for_a_readable_record_has_no_error(tmp_path):
    path = tmp_path / "ok.txt"
    path.write_text("\n".join(CYCLE_1) + "\n", encoding="utf-8")
    data = json.loads(CliRunner().invoke(main, ["check", "--json", str(path)]).stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["error"] is None and data["assumptions"] == [] and data["legal"] is True


@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_the_error_still_goes_to_standard_error(tmp_path, flag):
    path = tmp_path / "typo.txt"
    path.write_text("\n".join(CYCLE_1[:20] + ["Cy: 2 onn Poseidon"]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", *flag, str(path)])
    assert result.exit_code == 2 and f"{path}:21:" in result.stderr


# "did you mean ...?": the nearest names of the game for a name that cannot be read

from referee.base.errors import NotationError  # noqa: E402
from referee.base.words import did_you_mean, nearest  # noqa: E402


def test_nearest_offers_only_the_names_about_as_near_as_the_best():
    assert nearest("Harpie", ["Harpy", "Sphinx", "Giant"]) == ["Harpy"]
    assert nearest("metroplis", ["metropolis", "troop", "temple"]) == ["metropolis"]
    assert nearest("xyz", ["Zeus", "Ares"]) == []
    assert did_you_mean("Anne", ["Ann", "Bob"]) == " (did you mean Ann?)"
    assert did_you_mean("cylce", ["cycle"], quote=True) == " (did you mean 'cycle'?)"


def cyclades_error(line: str) -> NotationError:
    text = "\n".join(CYCLE_1[:13] + [line]) + "\n"
    with pytest.raises(NotationError) as info:
        Session(parse_transcript(text, "t.txt"))
    return info.value


@pytest.mark.parametrize("line, column, meant", [
    ("Anne: 2 on Athena", 1, "'Anne' is not a player (did you mean Ann?)"),              # a player
    ("Ann: 2 on Athenna", 11, "unknown god 'Athenna' (did you mean Athena?)"),            # a god
    ("Cy/Zues: priest", 4, "unknown god 'Zues' (did you mean Zeus?)"),
    ("creatures: Pegasus, Harpie", 21, "unknown creature 'Harpie' (did you mean Harpy?)"),  # a creature
    ("Cy/Zeus: tempel on IS3", 10, "unknown unit or building 'tempel' (did you mean temple?)"),
    ("Cy/Zeus: metroplis on IS3", 10, "(did you mean metropolis?)"),                      # an action
    ("Cy/Zeus: bye Pegasus", 14, "(did you mean 'buy'?)"),
    ("Cy/Zeus: priest; demolsh temple", 26, "(did you mean 'demolish'?)"),
    ("Ann: retreet to IS3", 14, "(did you mean 'retreat'?)"),
    ("Cy: 2 onn Poseidon", 11, "(did you mean 'on'?)"),
    ("cylce 2", 7, "(did you mean 'cycle'?)"),                                          # a line's keyword
    ("btle: Ann 2, Bob 1", 11, "(did you mean 'battle'?)"),
    ("Cy/Zeus: temple on IS99", 20, "IS99 is no island of the board 'Cyclades, 5 players' (did you mean IS9?)"),
    ("Cy/Zeus: temple on S13", 20, "(did you mean IS13?)"),                              # an island
])
def test_a_cyclades_name_that_cannot_be_read_gets_the_nearest_names(line, column, meant):
    error = cyclades_error(line)
    assert (error.position.line, error.position.column) == (14, column)
    assert meant in error.message


def luna_error(line: str, layout: str = "layout: intro") -> NotationError:
    head = LUNA_2P[:4] + [layout] + LUNA_2P[5:12]  # line 5 is the layout
    with pytest.raises(NotationError) as info:
        Session(parse_transcript("\n".join(head + [line]) + "\n", "t.luna"))
    return info.value


@pytest.mark.parametrize("line, meant", [
    ("Anne: favour on 3", "'Anne' is not a player (did you mean Ann?)"),
    ("Ann: favur on 3", "found 'favur' (did you mean 'favour'?)"),
    ("Bob: recuit on 5", "(did you mean 'recruit'?)"),
    ("Bob: meditat", "(did you mean 'meditate'?)"),
    ("Bob: travel 2 form 1 to 3", "found 'form' (did you mean 'from'?)"),
    ("rnd 2", "(did you mean 'round'?)"),
])
def test_a_luna_name_that_cannot_be_read_gets_the_nearest_names(line, meant):
    error = luna_error(line)
    assert error.position.line == 13 and meant in error.message


def test_luna_header_words_get_the_nearest_names_too():
    error = luna_error("", "layout: normla")
    assert error.position.line == 5 and "unknown layout 'normla' (did you mean normal?)" in error.message


# A line written out of sequence is judged as a move, and the rest of the record still is

BATTLES_5P = (REPO / "transcripts" / "cyclades" / "battles-5p.txt").read_text(encoding="utf-8").splitlines()


def test_a_retreat_written_before_the_battle_round_it_follows_is_judged_where_it_stands():
    """battles-5p lines 74-75: 'battle: Eve -1' then 'Eve: retreat to J6', swapped.
    Before: exit 2 ('the battle at K6 goes on, but its next round is not written')."""
    swapped = BATTLES_5P[:73] + [BATTLES_5P[74], BATTLES_5P[73]] + BATTLES_5P[75:79]
    report = check(swapped)
    (problem,) = report.problems
    assert (problem.line, problem.text, problem.legal) == (74, "retreat to J6", False)
    assert "not_in_control" in {b.rule for b in problem.breaches}
    (assumed,) = report.assumptions
    assert assumed.line == 74 and assumed.text == (
        "'Eve: retreat to J6' is written before line 75, which comes first: it is judged where it is written "
        "(not applied there), then taken after line 75")
    assert report.moves_checked == 82  # every line judged, nothing after it lost


def test_a_second_apollo_player_written_before_the_first_is_judged_where_it_stands():
    """game-5p cycle 8: Eve then Dan on Apollo; Dan's 'pass' written before Eve's
    marker. Before: Eve's turn was taken as ended and her marker line made exit 2."""
    swapped = GAME_5P[:134] + [GAME_5P[135], GAME_5P[134]]
    report = check(swapped)
    (problem,) = report.problems
    assert (problem.line, problem.player, problem.text) == (135, "Dan", "pass")
    assert [b.rule for b in problem.breaches] == ["apollo_order", "not_in_control"]  # the specific rule first
    assert report.assumptions[0].text.startswith("'Dan/Apollo: pass' is written before line 136, which comes first")


def test_an_offering_written_before_the_god_tiles_is_judged_where_it_stands():
    """A decision before the track is complete: game-5p cycle 2, Dan's offering
    written before the 'gods:' line."""
    swapped = GAME_5P[:28] + [GAME_5P[29], GAME_5P[28]] + GAME_5P[30:40]
    report = check(swapped)
    (problem,) = report.problems
    assert (problem.line, problem.player) == (29, "Dan") and not problem.legal
    assert report.assumptions[0].text.startswith("'Dan: 4 on Athena' is written before line 30")


def test_a_heading_written_before_the_last_actions_of_its_cycle_is_set_aside():
    """'cycle 2' written above Ann's and Dan's last actions of cycle 1: a god's
    action never opens a cycle. Before: exit 2 ('the creature track is not written')."""
    early = CYCLE_1[:23] + ["cycle 2"] + CYCLE_1[23:] + CYCLE_2
    report = check(early)
    assert not report.problems
    first, second = report.assumptions
    assert first.line == 24 and first.text.startswith("'cycle 2' is written before line 25, which belongs to cycle 1")
    assert second.text == "cycle 2 begins here: its heading, on line 24, was written too early"


def test_interleaved_turns_are_not_reordered():
    """Lines of several turns written before the turn that should have come first
    are not a swap: the turn ends at the first of them, as the notation says, and
    its late line is what is illegal (transcripts/cyclades/illegal-acting-before-god-above.txt)."""
    text = (REPO / "transcripts" / "cyclades" / "illegal-acting-before-god-above.txt").read_text(encoding="utf-8")
    report = Session(parse_transcript(text, "t.txt")).check()
    assert [(v.player, [b.rule for b in v.breaches]) for v in report.problems] == [
        ("Ann", ["action_order", "not_in_control"])]
    assert report.assumptions == []


def test_a_missing_chance_line_that_never_comes_is_still_an_error():
    lines = CYCLE_1[:11] + CYCLE_1[12:]  # no 'gods:' line at all
    with pytest.raises(RefereeError, match="the god tiles are not written"):
        check(lines)


# '??' may mark any piece of a multi-piece line

def test_a_disputed_mark_after_one_piece_marks_that_piece():
    text = "\n".join(CYCLE_1[:21] + ["Bob/Athena: philosopher; university on IS1 ??; pass"]) + "\n"
    plays = [p for p in parse_transcript(text, "t.txt").plays if p.span.line == 22]
    assert [(p.text, p.disputed) for p in plays] == [("philosopher", False), ("university on IS1", True),
                                                     ("pass", False)]
    report = check(CYCLE_1[:21] + ["Bob/Athena: philosopher; university on IS1 ??"] + CYCLE_1[21:])
    assert [d.text for d in report.disputes] == ["philosopher", "university on IS1"]  # at the end: the whole line
    middle = check(CYCLE_1[:20] + ["Bob/Athena: philosopher ??; university on IS1"] + CYCLE_1[21:])
    assert [(d.text, d.legal) for d in middle.disputes] == [("philosopher", True)]


def test_a_disputed_mark_after_a_creatures_use_ends_the_use():
    text = ("game: cyclades\nplayers: Ann red, Bob blue, Cy green\ncycle 1\n"
            "Ann/Zeus: buy Harpy: troop IS4 ??; priest\n")
    plays = parse_transcript(text, "t.txt").plays
    assert [(p.text, p.disputed) for p in plays] == [("buy Harpy", True), ("troop IS4", True), ("priest", False)]
