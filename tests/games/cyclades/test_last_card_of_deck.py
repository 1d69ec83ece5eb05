"""The creature track refreshed with one card left in the deck (rules
creature_track_refresh, creature_track_reveal, creature_deck_reshuffle,
track_slot_order, gods_track_forced; docs/notation.md, "What the referee fills in").

A long game runs the deck down; here Ann, on Zeus in cycle 1, replaces the card
on the track fifteen times (rule zeus_replace_creature), so that cycle 2's
refresh finds a single card, the Sylph, in the deck. The written ``creatures:``
line is what is judged: the referee lays no card of it before reading it, and
fills in only what the line leaves out. With 2 and 4 players the first god of
cycle 2 (last cycle's face-down Ares) is no more laid ahead of the ``gods:``
line either.

Two forms: the card on the 4-GP slot unbought (it slides to the 3-GP slot:
one empty slot, filled by the Sylph), and bought (two empty slots: the Sylph,
then a card of the discard pile shuffled into a new deck).
"""

from __future__ import annotations

import itertools

import pytest
from helpers.cyclades import play, track, transcript

from referee.ask.options import CheckOptions
from referee.ask.session import Session
from referee.base.errors import SequenceError
from referee.base.terms import Fn, fn
from referee.game.notation import parse_transcript

#: The card on the track in cycle 1, then each card that replaces it; the Sylph stays in the deck.
REPLACED = ("Pegasus", "Griffon", "Giant", "Siren", "Cyclops", "Chimera", "Sphinx", "Fates", "Satyr", "Dryad",
            "Kraken", "Minotaur", "Chiron", "Medusa", "Polyphemus", "Harpy")
GODS_CYCLE_1 = {5: "Zeus, Athena, Poseidon, Ares", 4: "Zeus, Athena, Poseidon / Ares",
                3: "Zeus, Athena / Ares, Poseidon", 2: "Zeus, Athena, Poseidon / Ares"}
#: Cycle 2: with 4 and 2 players, last cycle's face-down Ares comes first (rule gods_track);
#: with 3, the face-down pair.
GODS_CYCLE_2 = {5: "Zeus, Athena, Poseidon, Ares", 4: "Ares, Zeus, Athena / Poseidon",
                3: "Ares, Poseidon", 2: "Ares, Zeus, Athena / Poseidon"}
OFFERINGS = {5: ("Ann: 1 on Zeus", "Bob: Apollo", "Cy: 1 on Athena", "Dan: 1 on Poseidon", "Eve: 1 on Ares"),
             4: ("Ann: 1 on Zeus", "Bob: Apollo", "Cy: 1 on Athena", "Dan: 1 on Poseidon"),
             3: ("Ann: 1 on Zeus", "Bob: Apollo", "Cy: 1 on Athena"),
             2: ("Ann: 1 on Zeus", "Bob: Apollo", "Bob: 1 on Athena", "Ann: 1 on Poseidon")}
BOBS_ISLAND = {5: "IS1", 4: "IS2", 3: "IS2", 2: "IS2"}
COUNTS = (2, 3, 4, 5)


def one_card_left(players: int, bought: bool, cycle_2: str) -> str:
    """Cycle 1 that leaves the Sylph alone in the deck (the Harpy on the track,
    bought or not), then ``cycle_2``'s lines."""
    replaces = "; ".join(f"replace {a} -> {b}" for a, b in itertools.pairwise(REPLACED))
    order = "Ann, Bob, Bob, Ann" if players == 2 else ", ".join(("Ann", "Bob", "Cy", "Dan", "Eve")[:players])
    lines = [f"order: {order}", "position: Ann 30 GP", "cycle 1", "creatures: Pegasus",
             f"gods: {GODS_CYCLE_1[players]}", *OFFERINGS[players],
             f"Ann/Zeus: {replaces}" + ("; buy Harpy" if bought else ""),
             f"Bob/Apollo: prosperity on {BOBS_ISLAND[players]}", "cycle 2", cycle_2]
    return "\n".join(lines)


def both_paths(body: str, players: int):
    """The report of the record on the fast path, and the runs of both paths."""
    text = transcript(body, players=players)
    fast = Session(parse_transcript(text, "test.cyc"), cache=False)
    solver = Session(parse_transcript(text, "test.cyc"), CheckOptions(fast_path=False), cache=False)
    return fast.check(), fast.referee.run(), solver.check(), solver.referee.run()


def problems(report) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.text, tuple(b.rule for b in v.breaches)) for v in report.problems]


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("bought, written", [(False, "creatures: Sylph, Harpy"),
                                             (True, "creatures: Sylph, Pegasus")],
                         ids=["one-empty-slot", "two-empty-slots"])
def test_creature_track_reveal_the_written_line_is_judged_with_one_card_left(players, bought, written):
    """Rule creature_track_reveal: "After the refresh the slots are shown one by one:
    ... an empty slot is filled with the top card of the deck." (when the deck is
    empty the discard pile is shuffled into a new deck). The line that says so is legal on both paths, its
    cards judged as written (before: creature_track_refresh, move_out_of_phase,
    track_slot_order), and the ``gods:`` line after it too."""
    body = one_card_left(players, bought, f"{written}\ngods: {GODS_CYCLE_2[players]}")
    report, fast, solver_report, solver = both_paths(body, players)
    assert problems(report) == [] and problems(solver_report) == []
    laid = [s for s in fast.steps if s.move.name == "track" and s.play is not None]
    assert [s.play.text for s in laid][-2:] == written.removeprefix("creatures: ").split(", ")
    assert not [s for s in fast.steps if s.move.name in ("track", "god") and s.inserted]
    after_track = laid[-1].after
    assert track(after_track) == ({4: "sylph", 3: "pegasus"} if bought else {4: "sylph", 3: "harpy"})
    assert [(s.role, s.move, s.after) for s in fast.steps] == [(s.role, s.move, s.after) for s in solver.steps]


@pytest.mark.parametrize("players", COUNTS)
def test_creature_not_in_deck_a_card_other_than_the_last_one_is_illegal(players):
    """Rule creature_not_in_deck: with the Sylph alone in the deck, a written
    Pegasus (in the discard pile) is the move judged, and it is illegal."""
    body = one_card_left(players, False, f"creatures: Pegasus, Harpy\ngods: {GODS_CYCLE_2[players]}")
    report, _, solver_report, _ = both_paths(body, players)
    assert problems(report) == problems(solver_report) == [("Pegasus", ("creature_not_in_deck",))]


@pytest.mark.parametrize("players", COUNTS)
def test_creature_track_reveal_a_slid_creature_left_out_is_filled_in(players):
    """The line may leave out the Harpy that slid to the 3-GP slot (docs/notation.md)."""
    body = one_card_left(players, False, f"creatures: Sylph\ngods: {GODS_CYCLE_2[players]}")
    report, fast, solver_report, _ = both_paths(body, players)
    assert problems(report) == [] and problems(solver_report) == []
    assert track(fast.final) == {4: "sylph", 3: "harpy"}


@pytest.mark.parametrize("players", (4, 2))
def test_gods_track_forced_the_face_down_god_may_still_be_left_out(players):
    """Rule gods_track_forced: last cycle's face-down Ares comes first; written
    without it, the ``gods:`` line's tiles lie one space further down."""
    gods = GODS_CYCLE_2[players].removeprefix("Ares, ")
    report, fast, solver_report, _ = both_paths(one_card_left(players, False, f"creatures: Sylph, Harpy\n"
                                                                              f"gods: {gods}"), players)
    assert problems(report) == [] and problems(solver_report) == []
    assert fn("god", 1, Fn("ares"), Fn("up")) in [s.move for s in fast.steps if s.inserted == "forced"]


@pytest.mark.parametrize("players", COUNTS)
def test_the_last_card_of_the_deck_may_be_left_out_with_the_slid_one(players):
    """A ``creatures:`` line left out whole: the Sylph, the only card the deck can
    give, and the Harpy that slid are filled in when the ``gods:`` line is read."""
    body = one_card_left(players, False, f"gods: {GODS_CYCLE_2[players]}")
    report, fast, solver_report, _ = both_paths(body, players)
    assert problems(report) == [] and problems(solver_report) == []
    assert track(fast.final) == {4: "sylph", 3: "harpy"}


def test_creature_deck_reshuffle_a_card_from_the_new_deck_must_be_written():
    """Rule creature_deck_reshuffle: with the Harpy bought, the 3-GP slot takes a
    card of the discard pile shuffled into a new deck, which could be several:
    the ``creatures:`` line cannot be left out (the record is refused at the
    first line that needs the track)."""
    body = one_card_left(5, True, "gods: Zeus, Athena, Poseidon, Ares\nCy: 1 on Zeus")
    with pytest.raises(SequenceError, match="the creature track is not written: .* the 3-GP slot first"):
        play(body)
