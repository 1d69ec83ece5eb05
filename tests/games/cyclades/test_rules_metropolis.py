"""Cyclades, metropolises (rulebook: Metropolises).

Rules metropolis_at_once, metropolis_buildings, metropolis_discard,
metropolis_philosophers, metropolis_place, metropolis_room, metropolis_demolish,
metropolis_counts_as_all, and build_free_slot for the spaces a metropolis takes.
"""

from __future__ import annotations

from helpers.cyclades import (
    ANN_FIRST_METROPOLIS,
    ANN_SECOND_METROPOLIS,
    BUILD3,
    buildings,
    count,
    fluents,
    gold,
    holds,
    metropolises,
    play,
)

from referee.base.terms import fn

# -- four philosophers: board crowded5 --------------------------------------------------------
#
# Ann holds two one-slot islands, IS3 and IS9 (a metropolis there takes the one
# slot), and earns 10 GP a cycle (IS3 2 + IS9 2 + six prosperity seas).
# Cycle 1: 15 GP, 14 after her offering on Athena; two philosophers (free + 4 GP)
# and a university on each island: 14 - 4 - 4 = 6 GP (or 8 GP with one university).
# Cycle 2 (order Eve, Dan, Cy, Bob, Ann): 6 + 10 = 16 GP, 15 after her offering;
# two more philosophers make four: 15 - 4 = 11 GP, and a metropolis to place.

CROWDED = """
    cycle 1
    creatures: Pegasus
    gods: Athena, Zeus, Ares, Poseidon
    Ann: 1 on Athena
    Bob: 1 on Zeus
    Cy: 1 on Ares
    Dan: 1 on Poseidon
    Eve: Apollo
    Ann/Athena: 2 philosophers; {universities}
    Eve/Apollo: prosperity on IS11
    cycle 2
    creatures: Harpy, Pegasus
    gods: Athena, Zeus, Ares, Poseidon
    Eve: 1 on Zeus
    Dan: 1 on Ares
    Cy: 1 on Poseidon
    Bob: Apollo
    Ann: 1 on Athena
"""
FULL = CROWDED.format(universities="university on IS3; university on IS9")
ROOM_ON_IS9 = CROWDED.format(universities="university on IS3")
BOB_APOLLO = "Bob/Apollo: prosperity on IS1\n"


def crowded(body: str, actions: str):
    return play(body + actions + "\n" + BOB_APOLLO, board="crowded5")


def test_metropolis_philosophers_four_philosophers_make_a_metropolis():
    """Rule metropolis_philosophers: "A player who has four philosophers must at once
    discard them and build a metropolis; if their only island already has one, they
    just discard the philosophers." """
    line = "Ann/Athena: 2 philosophers; metropolis on IS9"
    g = crowded(ROOM_ON_IS9, line)
    assert g.problems == []
    steps = g.steps(line)
    assert count(steps[0].after, "philosophers", "Ann") == 3
    assert count(steps[1].after, "philosophers", "Ann") == 0
    assert fluents(steps[1].after, "pending") == [("Ann", "place")]
    assert metropolises(steps[2].after) == ["IS9"] and fluents(steps[2].after, "pending") == []


def test_metropolis_the_only_island_with_room_is_taken_when_the_placement_is_left_out():
    """Rule metropolis_room, and docs/notation.md "What the referee fills in": a
    decision with only one possible answer that the player left out (the only
    island to put the metropolis on: IS3 is full, IS9 has room) is taken for them."""
    line = "Ann/Athena: 2 philosophers"
    g = crowded(ROOM_ON_IS9, line)
    assert g.problems == []
    assert [s.move for s in g.run.steps if s.inserted == "forced"] == [fn("metropolis", "IS9")]
    assert metropolises(g.run.final) == ["IS9"]


def test_metropolis_room_the_metropolis_goes_where_there_is_room():
    """Rule metropolis_room: "The metropolis is placed on an island with room for it;
    only if none of the player's islands has room do they demolish buildings to make
    room." — IS3 holds a university, IS9 is free."""
    g = crowded(ROOM_ON_IS9, "Ann/Athena: 2 philosophers; metropolis on IS3")
    assert g.problems == [("Ann/Athena: 2 philosophers; metropolis on IS3", ("metropolis_room",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann must place the metropolis where there is room, such as IS9")
    assert metropolises(g.final) == ["IS3"] and g.report.winners == ()


def test_build_free_slot_a_metropolis_takes_its_spaces():
    """Rule build_free_slot: "A building needs a free building space on the island; a
    metropolis takes the spaces the board gives it." — the metropolis fills IS9's one
    space (Ann still has 11 GP)."""
    line = "Ann/Athena: 2 philosophers; metropolis on IS9; university on IS9"
    g = crowded(ROOM_ON_IS9, line)
    assert g.problems == [(line, ("build_free_slot",))]


def test_metropolis_demolish_buildings_make_room_when_no_island_has_any():
    """Rule metropolis_demolish: "To make room the player demolishes their buildings on
    that island, as many as needed." — both of Ann's islands are full."""
    line = "Ann/Athena: 2 philosophers; metropolis on IS3; demolish university"
    g = crowded(FULL, line)
    assert g.problems == []
    placed = g.steps(line)[2].after
    assert fluents(placed, "pending") == [("Ann", ("demolish", "IS3", 1))]
    after = g.after(line)
    assert metropolises(after) == ["IS3"]
    assert buildings(after, "IS3") == {} and buildings(after, "IS9") == {"university": 1}


def test_metropolis_demolish_only_a_building_that_stands_there():
    """Rule metropolis_demolish: "To make room the player demolishes their buildings on
    that island, as many as needed." — there is no temple on IS3."""
    line = "Ann/Athena: 2 philosophers; metropolis on IS3; demolish temple"
    g = crowded(FULL, line)
    assert g.problems == [(line, ("metropolis_demolish",))]


def test_metropolis_demolish_only_for_a_metropolis():
    """Rule metropolis_demolish: "To make room the player demolishes their buildings ..."
    — nothing to make room for in cycle 1."""
    g = play(CROWDED.format(universities="university on IS3; demolish university").split("cycle 2")[0],
             board="crowded5")
    assert g.problems == [("Ann/Athena: 2 philosophers; university on IS3; demolish university",
                           ("metropolis_demolish",))]


def test_metropolis_at_once_settled_before_anything_else():
    """Rule metropolis_at_once: "A player who gains a metropolis settles it at once
    (discarding, placing, demolishing) before doing anything else." — Ann buys Harpy
    with her metropolis still to place, and ends her turn without placing it."""
    line = "Ann/Athena: 2 philosophers; buy Harpy"
    g = crowded(FULL, line)
    assert g.problems == [(line, ("metropolis_at_once",)), ("(Ann: end the turn)", ("metropolis_at_once",))]


def test_metropolis_counts_as_all_it_counts_as_a_temple():
    """Rule metropolis_counts_as_all: "A metropolis has the powers of all four buildings;
    among other things it counts as a temple when buying creatures." — Ann has no
    temple: Harpy (4-GP slot) costs her 4 - 1 = 3 once her metropolis stands."""
    line = "Ann/Athena: 2 philosophers; metropolis on IS3; demolish university; buy Harpy"
    g = crowded(FULL, line)
    assert g.problems == []
    steps = g.steps(line)
    assert gold(steps[-2].after, "Ann") == 11 and gold(steps[-1].after, "Ann") == 8


def test_metropolis_place_only_when_one_is_due():
    """Rule metropolis_place: "The metropolis goes on an island the player controls that
    has no metropolis yet." — and only when the player has gained one."""
    g = play(CROWDED.format(universities="metropolis on IS9").split("cycle 2")[0], board="crowded5")
    assert g.problems == [("Ann/Athena: 2 philosophers; metropolis on IS9", ("metropolis_place",))]


def test_metropolis_place_on_an_island_the_player_controls():
    """Rule metropolis_place: "The metropolis goes on an island the player controls that
    has no metropolis yet." — IS1 is Bob's."""
    line = "Ann/Athena: 2 philosophers; metropolis on IS1"
    g = crowded(ROOM_ON_IS9, line)
    assert g.problems == [(line, ("metropolis_place",))]


# -- four philosophers on a single island: board single2 ----------------------------------------
#
# Two players. Ann holds only IS1 (one building space, 2 prosperity) and earns
# IS1 2 + A2 1 + F1 1 = 4 GP, plus 1 a cycle for each of her Apollo markers on IS1;
# Apollo gives her 4 GP (a single island). Each cycle she takes Athena (two
# philosophers: 1 + 4 GP) and Apollo; Bob takes the other two face-up gods.
#   cycle 1: 5+4 = 9 - 1 - 4 = 4, + 4 = 8       (order Ann, Bob, Ann, Bob)
#   cycle 2: 8+5 = 13 - 1 - 4 = 8, + 4 = 12     (order Ann, Bob, Bob, Ann): metropolis on IS1
#   cycle 3: 12+6 = 18 - 1 - 4 = 13, + 4 = 17   (order Ann, Bob, Ann, Bob)
#   cycle 4: 17+7 = 24 - 1 - 4 = 19            (order Ann, Bob, Ann, Bob): four again
SINGLE_ISLAND = """
    cycle 1
    creatures: Pegasus
    gods: Athena, Zeus, Ares / Poseidon
    Ann: 1 on Athena
    Bob: 1 on Zeus
    Ann: Apollo
    Bob: 1 on Ares
    Ann/Athena: 2 philosophers
    Ann/Apollo: prosperity on IS1
    cycle 2
    creatures: Harpy, Pegasus
    gods: Poseidon, Athena, Zeus / Ares
    Ann: 1 on Athena
    Bob: 1 on Poseidon
    Bob: 1 on Zeus
    Ann: Apollo
    Ann/Athena: 2 philosophers; metropolis on IS1
    Ann/Apollo: prosperity on IS1
    cycle 3
    creatures: Sylph, Harpy, Pegasus
    gods: Ares, Athena, Zeus / Poseidon
    Ann: 1 on Athena
    Bob: 1 on Ares
    Ann: Apollo
    Bob: 1 on Zeus
    Ann/Athena: 2 philosophers
    Ann/Apollo: prosperity on IS1
    cycle 4
    creatures: Griffon, Sylph, Harpy
    gods: Poseidon, Athena, Zeus / Ares
    Ann: 1 on Athena
    Bob: 1 on Poseidon
    Ann: Apollo
    Bob: 1 on Zeus
"""


def test_metropolis_philosophers_only_discarded_when_the_only_island_has_a_metropolis():
    """Rule metropolis_philosophers: "A player who has four philosophers must at once
    discard them and build a metropolis; if their only island already has one, they
    just discard the philosophers." """
    g = play(SINGLE_ISLAND + """
        Ann/Athena: 2 philosophers
        Ann/Apollo: prosperity on IS1
    """, players=2, board="single2")
    assert g.problems == []
    assert metropolises(g.after("Ann/Athena: 2 philosophers; metropolis on IS1")) == ["IS1"]
    fourth = g.after("Ann/Athena: 2 philosophers", nth=3)
    assert count(fourth, "philosophers", "Ann") == 0
    assert fluents(fourth, "pending") == [] and metropolises(fourth) == ["IS1"]
    assert gold(fourth, "Ann") == 19


def test_metropolis_place_not_on_an_island_with_a_metropolis():
    """Rule metropolis_place: "The metropolis goes on an island the player controls that
    has no metropolis yet." """
    line = "Ann/Athena: 2 philosophers; metropolis on IS1"
    g = play(SINGLE_ISLAND + line + "\nAnn/Apollo: prosperity on IS1\n", players=2, board="single2")
    assert g.problems[0] == (line, ("metropolis_place",))


def test_metropolis_place_an_illegal_metropolis_leaves_nothing_to_settle():
    """Rule metropolis_at_once: "A player who gains a metropolis settles it at once
    (discarding, placing, demolishing) before doing anything else." — Ann gained no
    metropolis with her fourth philosopher (her only island has one), so once her
    wrongly written metropolis is reported (rule metropolis_place) she has nothing to
    settle: the check carries on without further problems."""
    line = "Ann/Athena: 2 philosophers; metropolis on IS1"
    g = play(SINGLE_ISLAND + line + "\nAnn/Apollo: prosperity on IS1\n", players=2, board="single2")
    assert g.problems == [(line, ("metropolis_place",))]


# -- four kinds of building: board build3 -------------------------------------------------------

def test_metropolis_buildings_four_kinds_even_on_different_islands():
    """Rule metropolis_buildings: "A player who owns the four kinds of building (port,
    fortress, temple, university), even on different islands, must at once discard one
    of each and build a metropolis." — Ann's temples and a university on IS7, a
    university on IS1, ports on IS5; her fortress on IS5 completes the four kinds."""
    g = play(BUILD3.format(bob1=1) + ANN_FIRST_METROPOLIS + "\nCy/Apollo: prosperity on IS4\n",
             players=3, board="build3")
    assert g.problems == []
    steps = g.steps(ANN_FIRST_METROPOLIS)
    assert fluents(steps[0].before, "pending") == []
    assert fluents(steps[0].after, "pending") == [("Ann", "buildings")]
    assert fluents(steps[4].after, "pending") == [("Ann", "place")]
    after = steps[5].after
    assert metropolises(after) == ["IS7"] and fluents(after, "pending") == []
    assert buildings(after, "IS7") == {"temple": 1, "university": 1}
    assert buildings(after, "IS5") == {"port": 1} and buildings(after, "IS1") == {}


def test_metropolis_discard_one_of_each_kind():
    """Rule metropolis_discard: "The four buildings discarded for a metropolis are one of
    each kind, chosen by the player where they own several of a kind." — not a second
    temple."""
    line = ("Ann/Ares: fortress on IS5; discard temple IS7; discard temple IS7; discard university IS1; "
            "discard port IS5; discard fortress IS5; metropolis on IS7")
    g = play(BUILD3.format(bob1=1) + line + "\nCy/Apollo: prosperity on IS4\n", players=3, board="build3")
    assert g.problems == [(line, ("metropolis_discard",))]


DISCARD_MISSING = ("Ann/Ares: fortress on IS5; discard temple IS7; discard university IS5; discard university IS1; "
                   "discard port IS5; discard fortress IS5; metropolis on IS7")


def test_metropolis_discard_a_building_the_player_owns():
    """Rule metropolis_discard: "The four buildings discarded for a metropolis are one of
    each kind, chosen by the player ..." — Ann has no university on IS5."""
    g = play(BUILD3.format(bob1=1) + DISCARD_MISSING + "\nCy/Apollo: prosperity on IS4\n",
             players=3, board="build3")
    assert g.problems == [(DISCARD_MISSING, ("metropolis_discard",))]


def test_metropolis_discard_a_missing_building_changes_nothing():
    """Rule metropolis_discard: "The four buildings discarded for a metropolis are one of
    each kind, chosen by the player ..." — a building that is not there cannot be taken
    away: the wrong discard changes nothing, Ann discards her university on IS1
    instead, and IS5 keeps one port."""
    g = play(BUILD3.format(bob1=1) + DISCARD_MISSING + "\nCy/Apollo: prosperity on IS4\n",
             players=3, board="build3")
    assert buildings(g.after(DISCARD_MISSING), "IS5") == {"port": 1}


def test_metropolis_discard_only_for_a_metropolis():
    """Rule metropolis_discard: "The four buildings discarded for a metropolis ..." — in
    cycle 3 Ann has three kinds only."""
    g = play(BUILD3.format(bob1=1).replace("university on IS7; university on IS1",
                                           "university on IS7; university on IS1; discard temple IS7")
             + "Cy/Apollo: prosperity on IS4\n", players=3, board="build3")
    assert g.problems == [("Ann/Athena: university on IS7; university on IS1; discard temple IS7",
                           ("metropolis_discard",))]


def test_metropolis_discard_again_for_a_second_metropolis():
    """Rule metropolis_discard: "The four buildings discarded for a metropolis are one of
    each kind, chosen by the player where they own several of a kind." — the same for
    every metropolis: Ann completes the four kinds a second time with another fortress."""
    g = play(BUILD3.format(bob1=1) + ANN_FIRST_METROPOLIS + "\n" + ANN_SECOND_METROPOLIS
             + "\nCy/Apollo: prosperity on IS4\n", players=3, board="build3")
    assert g.problems == []
    steps = g.steps(ANN_SECOND_METROPOLIS)
    assert [fluents(s.after, "pending") for s in steps[:5]] == [
        [("Ann", "buildings")]] * 4 + [[("Ann", "place")]]
    assert metropolises(g.after(ANN_SECOND_METROPOLIS)) == ["IS5", "IS7"]


def test_metropolis_buildings_completed_by_a_conquest():
    """Rule metropolis_buildings: "A player who owns the four kinds of building (port, fortress, temple,
    university), even on different islands, must at once discard one of each and build a metropolis." — Ann, with a temple and a university on IS2, takes Dan's IS5 with
    its port and fortress: she owns the four and must build her metropolis at once."""
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 1 on Zeus
        Bob: 1 on Athena
        Cy: 1 on Poseidon
        Dan: 1 on Ares
        Eve: Apollo
        Ann/Zeus: temple on IS2
        Dan/Ares: troop IS6 -> IS5; fortress on IS5
        Eve/Apollo: prosperity on IS3
        cycle 2
        creatures: Harpy, Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Eve: Apollo
        Cy: 1 on Zeus
        Dan: 1 on Poseidon
        Bob: 1 on Ares
        Ann: 1 on Athena
        Ann/Athena: university on IS2
        Dan/Poseidon: port on IS5
        Eve/Apollo: prosperity on IS3
        cycle 3
        creatures: Siren, Harpy, Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Eve: Apollo
        Dan: 1 on Zeus
        Bob: 1 on Athena
        Ann: 1 on Ares
        Cy: 1 on Poseidon
        Ann/Ares: troop on IS2; 2 troops IS2 -> IS5
        battle: Ann 3, Dan 0
        Ann/Ares: discard temple IS2; discard university IS2; discard port IS5; discard fortress IS5; metropolis on IS5
    """)
    assert g.problems == []
    assert holds(g.after("battle: Ann 3, Dan 0"), "pending", "Ann", fn("buildings"))
    assert metropolises(g.final) == ["IS5"]
