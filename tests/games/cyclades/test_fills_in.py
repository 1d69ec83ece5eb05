"""What the referee fills in (docs/notation.md, "What the referee fills in"):
each promise of that section, one test each, on lines of the shipped games
with the part the promise covers left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.ask.session import Session
from referee.base.errors import SequenceError
from referee.base.terms import Fn, fn
from referee.game.notation import parse_transcript
from referee.games.cyclades.fluents import DiscardMove, Metropolis

REPO = Path(__file__).resolve().parents[3]


def shipped(name: str) -> list[str]:
    return (REPO / "transcripts" / "cyclades" / name).read_text(encoding="utf-8").splitlines()


GAME_5P, GAME_4P, BATTLES_5P = shipped("game-5p.txt"), shipped("game-4p.txt"), shipped("battles-5p.txt")


def run(lines: list[str]):
    session = Session(parse_transcript("\n".join(lines) + "\n", "t.txt"))
    return session.check(), session.referee.run()


def inserted(steps, why: str) -> list[Fn]:
    return [s.move for s in steps if s.inserted == why]


def test_bookkeeping_is_never_written():
    """Refreshing the track, income, paying the offerings, Apollo's gift and the
    end of the cycle: game-5p's first two cycles write none of them."""
    report, result = run(GAME_5P[:41])
    assert not report.problems
    done = {m.name for m in inserted(result.steps, "bookkeeping")}
    assert {"refresh_track", "income", "pay_offerings", "apollo_income", "end_cycle"} <= done


def test_a_turn_ends_when_a_later_player_is_named_and_pass_may_be_left_out():
    """game-5p cycle 1 writes no 'pass'; leaving out Bob's whole Athena line
    (a turn with no action) is legal too: his turn ends unwritten."""
    report, result = run(GAME_5P[:20] + GAME_5P[21:26])
    assert not report.problems
    ended = [s for s in result.steps if s.inserted == "end of turn"]
    assert "Bob" in {s.role for s in ended} and all(s.move == Fn("pass") for s in ended)


def test_the_turns_not_written_end_at_a_cycle_heading_and_at_the_end_of_the_file():
    report, result = run(GAME_5P[:26] + ["cycle 2"] + GAME_5P[27:29])
    assert not report.problems
    first_of_cycle_2 = next(i for i, s in enumerate(result.steps) if s.move.name == "end_cycle")
    assert result.steps[first_of_cycle_2 - 1].inserted == "end of turn"
    assert result.steps[first_of_cycle_2 - 1].role == "Dan"  # the last turn of cycle 1, Dan's on Apollo
    _, at_end = run(GAME_5P[:26])
    last = max(i for i, s in enumerate(at_end.steps) if s.number is not None)
    closing = [(s.role, s.move.name, s.inserted) for s in at_end.steps[last + 1:]]
    assert closing[:2] == [("Dan", "pass", "end of turn"), (Fn("game"), "end_cycle", "bookkeeping")]


def test_a_creature_that_slid_along_the_track_may_be_left_out():
    """Rule creature_track_reveal: game-5p cycle 2 'creatures: Harpy, Pegasus' --
    the Pegasus slid from 4 to 3 GP, so 'creatures: Harpy' says the same."""
    lines = GAME_5P[:41]
    lines[27] = "creatures: Harpy"
    report, result = run(lines)
    assert not report.problems
    assert fn("track", 3, Fn("pegasus")) in inserted(result.steps, "forced")


def test_the_last_god_tile_may_be_left_out():
    """5 players: all four gods are shown; the fourth can only be the one left."""
    lines = GAME_5P[:26]
    lines[11] = "gods: Athena, Zeus, Poseidon"
    report, result = run(lines)
    assert not report.problems
    assert fn("god", 4, Fn("ares"), Fn("up")) in inserted(result.steps, "forced")


def test_the_face_down_god_that_comes_first_next_cycle_may_be_left_out():
    """Rule gods_track (4 players): last cycle's face-down god comes first.
    game-4p cycle 2 'gods: Ares, Zeus, Poseidon / Athena' written without Ares.
    (Before, each tile was judged one space off and the offering on Ares refused.)"""
    lines = GAME_4P[:34]
    assert lines[22].startswith("gods: Ares, Zeus, Poseidon / Athena")
    lines[22] = "gods: Zeus, Poseidon / Athena"
    report, result = run(lines)
    assert not report.problems
    assert fn("god", 1, Fn("ares"), Fn("up")) in inserted(result.steps, "forced")


def test_a_chance_outcome_that_could_be_several_must_be_written():
    lines = GAME_5P[:26]
    del lines[11]  # the gods line
    with pytest.raises(SequenceError, match="the god tiles are not written: a 'gods:' line must say"):
        run(lines)


def test_the_only_building_of_a_type_to_discard_is_taken_for_the_player():
    """battles-5p line 81: Bob's metropolis from four buildings, one of each type,
    on IS1, written with its four discards. Written without them, the discards
    are the only answer (before: metropolis_place and metropolis_room)."""
    lines = BATTLES_5P[:81]
    assert lines[80].startswith("Bob/Athena: discard temple IS1; discard port IS1;")
    lines[80] = "Bob/Athena: metropolis on IS1"
    report, result = run(lines)
    assert not report.problems
    assert sorted(DiscardMove.read(m).kind.name for m in inserted(result.steps, "forced") if m.name == "discard") == \
        ["fortress", "port", "temple", "university"]
    assert any(f.island == "IS1" for f in Metropolis.of(result.final))


def test_discards_with_one_answer_are_taken_but_an_island_to_choose_is_not():
    """The same, with nothing written after the fourth building: the four discards
    are taken for Bob, but he has several islands with room, so the metropolis is
    his to place: his turn ends with it unsettled (rule metropolis_at_once). The
    only island with room, left out, is taken: tests/games/cyclades/test_rules_metropolis.py,
    test_metropolis_the_only_island_with_room_is_taken_when_the_placement_is_left_out."""
    lines = BATTLES_5P[:80] + BATTLES_5P[81:82]  # his turn ends at Ann's Zeus line
    report, result = run(lines)
    assert len([m for m in inserted(result.steps, "forced") if m.name == "discard"]) == 4
    assert [[b.rule for b in v.breaches] for v in report.problems] == [["metropolis_at_once"]]
