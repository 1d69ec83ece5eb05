"""Luna's move writer: every move the engine lists in the sampled positions of
the shipped records, written as a line and read back there, is the same move."""

from __future__ import annotations

import pytest
from helpers.replays import ROOT, replay, transcript_ids
from helpers.round_trip import mismatches, round_trips

from referee.base.terms import fn
from referee.game.parts import part
from referee.game.parts.words import Words

RECORDS = sorted((ROOT / "transcripts" / "luna").glob("game-*p.txt"))


@pytest.mark.parametrize("path", RECORDS, ids=transcript_ids(RECORDS))
def test_every_listed_move_written_and_read_back_is_the_same_move(path):
    session, run = replay(path)
    trips = round_trips(session, run, path)
    players = [t for t in trips if t.role in session.rules.players and t.move != fn("done")]  # the next line ends
    assert players and all(t.line is not None for t in players), [t for t in players if t.line is None][:5]
    assert not mismatches(trips), mismatches(trips)[:5]


def test_lines_as_a_player_writes_them():
    session, _ = replay(RECORDS[0])
    words = part(session.rules, Words)
    assert words.write_move("Ann", fn("favour", 3, 0)) == "Ann: favour on 3"
    assert words.write_move("Ann", fn("occupy", 7, 14, 1, 0)) == "Ann: occupy 14 from 7 with bribe"
    waves = fn("waves", fn("jetty"), fn("inactive"), 3, 1)
    assert words.write_move("Ann", waves) == "Ann: waves 1 inactive from jetty to 3"
