"""Cyclades, setting up the game and taking turns (rulebook: Setup).

Rules setup_gold, setup_placement, setup_turn_order, setup_components,
creature_deck, not_in_control and move_out_of_phase.
"""

from __future__ import annotations

import pytest
from helpers.cyclades import NAMES, count, fleets, fluents, golds, opening, play, transcript, troops, turn_order

from referee.ask.session import Session
from referee.base.errors import NotationError
from referee.game.fluents import Count
from referee.game.notation import parse_transcript

#: Starting placement per seat, copied from referee/games/cyclades/boards/*.toml.
START = {
    5: {"Ann": (("IS2", "IS12"), ("C6", "K1")), "Bob": (("IS1", "IS9"), ("B3", "E7")),
        "Cy": (("IS4", "IS13"), ("F5", "K6")), "Dan": (("IS6", "IS7"), ("D8", "F1")),
        "Eve": (("IS3", "IS11"), ("F3", "G9"))},
    4: {"Ann": (("IS1", "IS8"), ("B3", "F7")), "Bob": (("IS2", "IS7"), ("D6", "F1")),
        "Cy": (("IS3", "IS10"), ("F5", "K1")), "Dan": (("IS4", "IS9"), ("F3", "I5"))},
    3: {"Ann": (("IS1", "IS7"), ("C2", "G5")), "Bob": (("IS2", "IS5"), ("D4", "F1")),
        "Cy": (("IS3", "IS8"), ("F4", "K2"))},
    2: {"Ann": (("IS1", "IS7"), ("B2", "G5")), "Bob": (("IS2", "IS8"), ("D4", "K2"))},
}

FIRST_TRACK = """
    cycle 1
    creatures: Pegasus
"""


def test_setup_gold_each_player_starts_with_5_gp():
    """Rule setup_gold: "Each player starts with 5 GP, kept hidden behind their screen." """
    for players in (2, 3, 4, 5):
        g = play(FIRST_TRACK, players=players)
        assert golds(g.run.initial, players) == {p: 5 for p in NAMES[:players]}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_placement_troop_on_each_starting_island_fleet_on_each_starting_sea(players):
    """Rule setup_placement: "The islands, troops and fleets are set out as the setup
    for the number of players shows: each colour starts with a troop on each of its
    starting islands and a fleet on each of its starting sea spaces." (The seats A, B,
    ... of the shipped board for that many players, in the order of the header.)"""
    initial = play(FIRST_TRACK, players=players).run.initial
    for player, (islands, seas) in START[players].items():
        assert troops(initial, player) == {i: 1 for i in islands}
        assert fleets(initial, player) == {s: 1 for s in seas}


def test_setup_turn_order_first_cycle_follows_the_shuffled_markers():
    """Rule setup_turn_order: "The players' offering markers are shuffled and laid at
    random on the turn track; this is the order of offerings in the first cycle (the
    referee takes it as the transcript states it)." """
    body = """
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Cy: 1 on Zeus
        Ann: 1 on Athena
        Eve: 1 on Ares
        Bob: 1 on Poseidon
        Dan: Apollo
        Dan/Apollo: prosperity on IS6
    """
    g = play(body, order="Cy, Ann, Eve, Bob, Dan")
    assert turn_order(g.run.initial) == ["Cy", "Ann", "Eve", "Bob", "Dan"]
    assert g.problems == []
    # Without an order line the seat order is the turn order: Ann would offer first.
    g = play(body)
    assert turn_order(g.run.initial) == list(NAMES)
    assert g.problems[0] == ("Cy: 1 on Zeus", ("not_in_control", "offering_order"))


def test_setup_components_one_offering_marker_each_two_in_the_2_player_game():
    """Rule setup_components: "Each player takes a screen, an offering marker (two in
    the 2-player game), 3 territory markers, 8 fleets and 8 troops of their colour; the
    creature figures, priest and philosopher cards, buildings, metropolises, dice and
    prosperity markers are laid beside the boards." """
    initial = play(FIRST_TRACK, players=3).run.initial
    assert fluents(initial, "order") == [(1, ("Ann", 1)), (2, ("Bob", 1)), (3, ("Cy", 1))]
    initial = play(FIRST_TRACK, players=2, order="Bob, Ann, Ann, Bob").run.initial
    assert fluents(initial, "order") == [(1, ("Bob", 1)), (2, ("Ann", 1)), (3, ("Ann", 2)), (4, ("Bob", 2))]
    # Nothing else is in play yet: no priests, philosophers, buildings, metropolises
    # or prosperity markers.
    for name in ("priests", "philosophers", "building", "prosperity"):
        assert not [c for c in Count.of(initial) if c.counter.name == name]
    assert fluents(initial, "metropolis") == []


def test_setup_components_a_2_player_turn_track_names_each_player_twice():
    """Rule setup_components: "... an offering marker (two in the 2-player game) ..." —
    a 2-player turn track with one marker per player is not a Cyclades setup."""
    text = transcript(FIRST_TRACK, players=2, order="Ann, Bob")
    with pytest.raises(NotationError, match="twice"):
        Session(parse_transcript(text, "test.cyc"))


def test_creature_deck_all_17_cards_face_down():
    """Rule creature_deck: "The 17 creature cards are shuffled and placed face down as
    the draw deck." """
    initial = play(FIRST_TRACK).run.initial
    assert [c for (c,) in fluents(initial, "deck")] == sorted(
        ["sylph", "pegasus", "harpy", "griffon", "giant", "siren", "cyclops", "chimera", "sphinx", "fates",
         "satyr", "dryad", "kraken", "minotaur", "chiron", "medusa", "polyphemus"])
    assert fluents(initial, "track") == [] and fluents(initial, "discard") == []


def test_not_in_control_only_the_player_whose_turn_it_is_offers():
    """Rule not_in_control: "Only the player whose turn it is may decide; chance alone
    reveals cards and god tiles and rolls dice, and the game itself carries out the
    bookkeeping steps (refreshing the track, income, paying offerings)." """
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Bob: 1 on Zeus
    """)
    assert g.problems == [("Bob: 1 on Zeus", ("not_in_control", "offering_order"))]
    # The catch-all comes after the rule that decides (docs/report.md).
    assert [b.rule for b in g.report.problems[0].breaches] == ["offering_order", "not_in_control"]
    # Ann, whose marker stands on Zeus and was not outbid, offers again while Bob
    # is to offer: her marker stays (offering_once, named first).
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 1 on Zeus
        Ann: 2 on Athena
    """)
    assert g.problems == [("Ann: 2 on Athena", ("not_in_control", "offering_once"))]
    assert g.first == [("Ann: 2 on Athena", "offering_once")]
    # Alone when no more specific rule applies: a creature card when none is due.
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 1 on Zeus
        creatures: Harpy
    """)
    assert g.problems == [("creatures: Harpy", ("move_out_of_phase", "not_in_control"))]
    assert g.report.problems[0].breaches[1].message == "it is Bob's decision now, not chance's"


def test_not_in_control_a_player_whose_turn_is_over_cannot_act_again():
    """Rule not_in_control: "Only the player whose turn it is may decide ..." — once
    Bob (Athena, 2nd) has started, Ann's turn (Zeus, 1st) is over; a record that
    goes on with Ann's turn below Bob's line has Bob's line out of sequence
    (docs/notation.md, "Reading a record tolerantly"): it is the one judged
    illegal where it is written, and taken again after Ann's."""
    g = play(opening("""
        Ann/Zeus: priest
        Bob/Athena: philosopher
        Ann/Zeus: temple on IS2
    """))
    assert g.problems == [("Bob/Athena: philosopher", ("action_order", "not_in_control"))]
    assert g.first == [("Bob/Athena: philosopher", "action_order")]


def test_move_out_of_phase_no_offering_during_the_actions():
    """Rule move_out_of_phase: "A cycle runs in a fixed order: refresh the creature
    track, set out the gods, collect income, make offerings, pay them, then take
    actions in turn; each move belongs to its phase and cannot be made in another." """
    g = play(opening("""
        Ann/Zeus: priest
        Ann: 5 on Athena
    """))
    assert g.problems == [("Ann: 5 on Athena", ("move_out_of_phase",))]
    legal = play(opening("Ann/Zeus: priest\n"))
    assert legal.problems == []


def test_move_out_of_phase_no_action_before_the_offerings_are_paid():
    """Rule move_out_of_phase: "... make offerings, pay them, then take actions in
    turn ..." — Ann, whose turn it is to make an offering, cannot build yet."""
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann/Zeus: priest
    """)
    rules = dict(g.problems)["Ann/Zeus: priest"]
    assert "move_out_of_phase" in rules
    assert count(g.final, "priests", "Ann") == 1  # it stands, as a move nobody noticed


def test_every_rule_of_the_catalogue_has_a_rulebook_test():
    """Every rule id of referee/games/cyclades/catalogue.toml is quoted ('Rule <id>:')
    by a test of tests/games/cyclades/test_rules_*.py, and no test quotes an unknown id."""
    import re
    from pathlib import Path

    from referee.game.catalogue import load_catalogue

    ids = set(load_catalogue("cyclades").ids)
    text = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_rules_*.py"))
    quoted = set(re.findall(r"Rule ([a-z][a-z0-9_]*):", text))
    assert sorted(ids - quoted) == [] and sorted(quoted - ids) == []


# -- a starting placement stated by the transcript (the 2-player fleets are weakly sourced) ---------

def _started(*lines: str):
    from referee.game.notation import parse_transcript
    from referee.judge.visitor import Referee
    text = "game: cyclades\nplayers: Pat red, Quinn blue\n" + "\n".join(lines) + "\ncycle 1\n"
    referee = Referee(parse_transcript(text, "start.cyc"))
    return referee.run().initial


def test_setup_placement_a_transcript_may_state_the_starting_placement():
    """Rule setup_placement: "... each colour starts with a troop on each of its starting islands and a fleet on
    each of its starting sea spaces." — here as the transcript's 'start:' line says."""
    initial = _started("start: Pat IS1, IS4, B2, F5", "start: Quinn IS3, IS8, K2, F3")
    assert troops(initial, "Pat") == {"IS1": 1, "IS4": 1} and fleets(initial, "Pat") == {"B2": 1, "F5": 1}
    assert troops(initial, "Quinn") == {"IS3": 1, "IS8": 1} and fleets(initial, "Quinn") == {"F3": 1, "K2": 1}


@pytest.mark.parametrize("lines, why", [
    (("start: Pat IS1, IS4, F3, F5",), "the fleet on F3 is next to none of Pat's islands"),
    (("start: Pat IS1, B2, F5",), ("a player starts with 2 islands and 2 fleets on this board, the line names "
                                   "1 island and 2 sea spaces")),
    (("start: Pat IS1, IS4, B2, Z9",), "Z9 is neither an island nor a sea space"),
    (("start: Pat IS1, IS2, B2, C2",), "IS2 is also Quinn's"),
    (("start: Pat IS1, IS4, B2, F5", "start: Quinn IS1, IS8, K2, C1"), "IS1 is also Pat's"),
])
def test_setup_placement_a_stated_placement_must_be_legal(lines, why):
    """Rule setup_placement: "... each colour starts with a troop on each of its starting islands and a fleet on
    each of its starting sea spaces." — as many as a seat of the board, next to the player's islands, none
    shared."""
    with pytest.raises(NotationError, match="starting placement is not legal") as error:
        _started(*lines)
    assert why in str(error.value)
