"""Cyclades' move writer: every move the engine lists in the sampled positions
of the shipped records, written as a line and read back there, is the same move;
the few moves the notation writes only with another (a replacement card with its
'replace X ->', a creature's further uses, a god tile below the first) have no
line of their own."""

from __future__ import annotations

import pytest
from helpers.replays import ROOT, replay, transcript_ids
from helpers.round_trip import mismatches, round_trips

from referee.base.terms import Fn, fn
from referee.game.parts import part
from referee.game.parts.words import Words

NAMES = ["game-2p", "game-3p", "game-4p", "game-5p", "battles-2p", "battles-5p", "creatures-5p",
         "creatures-game-5p", "figures-5p"]
RECORDS = [ROOT / "transcripts" / "cyclades" / f"{name}.txt" for name in NAMES]


@pytest.mark.parametrize("path", RECORDS, ids=transcript_ids(RECORDS))
def test_every_listed_move_written_and_read_back_is_the_same_move(path):
    session, run = replay(path)
    trips = round_trips(session, run, path)
    assert any(t.line for t in trips)
    assert not mismatches(trips), mismatches(trips)[:5]
    unwritten = {(t.move.name, str(t.role) == "chance") for t in trips if t.line is None}
    assert unwritten <= {("replace", False), ("use", False), ("god", True), ("track", True)}, \
        [t for t in trips if t.line is None][:5]


def test_lines_as_a_player_writes_them():
    session, _ = replay(RECORDS[0])
    words = part(session.rules, Words)
    player = session.rules.players[0]
    assert words.write_move(player, fn("offer", Fn("zeus"), 3)) == f"{player}: 3 on Zeus"
    assert words.write_move("chance", fn("track", 3, Fn("harpy"))) == "creatures: -, Harpy"
    assert words.write_move("chance", fn("god", 1, Fn("ares"), Fn("up"))) == "gods: Ares"
