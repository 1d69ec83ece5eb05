"""Cyclades, moving fleets and troops (rulebook: Poseidon and Ares; territory).

Rules fleet_move, fleet_move_god, fleet_move_start, fleet_move_range,
fleet_move_adjacent, fleet_move_pickup, fleet_move_enemy_stop, move_affordable,
troop_move, troop_move_god, troop_move_from, troop_move_chain, last_island,
troop_move_last_island, territory_marker and conquest.

The transcripts are 3-player games on the shipped 3p board:
  Ann: IS1 (coast A1 B2 C1 C2) and IS7; fleets C2, G5.
  Bob: IS2 (coast B2 B3 C2 D3 D4 D5) and IS5; fleets D4, F1.
  Cy:  IS3 (coast C1 C2 D1 D3 E2 E4 F3 F4) and IS8; fleets F4, K2.
  Neutral: IS4 (coast D4 D5 E4 E6 F5 F6) and IS6 (coast F4 F5 G3 G5 H3 H4).
Sea spaces: D4-D3, D4-D5, D4-E4, E4-F4, E4-F5, F5-G5, D5-E6, E6-F6, F6-G5.
In ARES_AND_POSEIDON (tests/helpers/cyclades.py) Ann has Ares and acts first with 5 GP, then Bob with Poseidon (5 GP).
"""

from __future__ import annotations

from helpers.cyclades import ARES_AND_POSEIDON, ares_and_poseidon, fleets, gold, holds, play, troops

# -- fleets (Poseidon) --------------------------------------------------------------------------

def test_fleet_move_goes_up_to_three_spaces_for_one_gp():
    """Rule fleet_move: "Poseidon: for 1 GP, some or all of the player's fleets on one sea space move together
    up to 3 spaces, each step to an adjacent sea space; on the way they may pick up and leave the player's own
    fleets. Several movements may be made in a turn, each paid." """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> E4 -> F5 -> F6")
    assert g.problems == []
    after = g.after("Bob/Poseidon: fleet D4 -> E4 -> F5 -> F6")
    assert fleets(after, "Bob") == {"F1": 1, "F6": 1}
    assert gold(after, "Bob") == 4


def test_fleet_move_range_a_fourth_space_is_too_far():
    """Rule fleet_move_range: "A movement of fleets goes at most 3 spaces." """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> D5 -> E6 -> F6 -> F7")
    assert g.problems == [("Bob/Poseidon: fleet D4 -> D5 -> E6 -> F6 -> F7", ("fleet_move_range",))]


def test_fleet_move_adjacent_each_step_to_a_neighbouring_sea_space():
    """Rule fleet_move_adjacent: "Each step of a fleet's movement goes to a sea space next to the one before."
    """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> F5")
    assert g.problems == [("Bob/Poseidon: fleet D4 -> F5", ("fleet_move_adjacent",))]


def test_fleet_move_start_the_fleets_must_be_there():
    """Rule fleet_move_start: "A movement starts with fleets of the player standing together on one sea space,
    no more than are there." """
    g = ares_and_poseidon("Bob/Poseidon: 2 fleets D4 -> D5", "Bob/Poseidon: fleet E4 -> F5")
    assert g.problems == [("Bob/Poseidon: 2 fleets D4 -> D5", ("fleet_move_start",)),
                          ("Bob/Poseidon: fleet E4 -> F5", ("fleet_move_start",))]


def test_fleet_move_pickup_and_leave_own_fleets_on_the_way():
    """Rule fleet_move: "Poseidon: for 1 GP, some or all of the player's fleets on one sea space move together
    up to 3 spaces, each step to an adjacent sea space; on the way they may pick up and leave the player's own
    fleets. Several movements may be made in a turn, each paid." """
    # A recruited fleet on D5 is picked up; one is left on E6.
    g = ares_and_poseidon("Bob/Poseidon: fleet on D5; fleet D4 -> D5 +1 -> E6 -1 -> F6")
    assert g.problems == []
    after = g.after("Bob/Poseidon: fleet on D5; fleet D4 -> D5 +1 -> E6 -1 -> F6")
    assert fleets(after, "Bob") == {"F1": 1, "E6": 1, "F6": 1}


def test_fleet_move_pickup_only_the_players_own_fleets():
    """Rule fleet_move_pickup: "On the way the moving fleets may pick up the player's own fleets where they pass
    and leave some of theirs behind, but never more than are there or are moving." """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> D5 +1 -> E6")
    assert g.problems == [("Bob/Poseidon: fleet D4 -> D5 +1 -> E6", ("fleet_move_pickup",))]


def test_fleet_move_enemy_stop_entering_enemy_fleets_ends_the_move():
    """Rule fleet_move_enemy_stop: "Fleets that enter a sea space holding another player's fleets stop there,
    and the battle starts at once; the rest of the movement is lost." """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> E4 -> F4 -> F5")
    assert g.problems == [("Bob/Poseidon: fleet D4 -> E4 -> F4 -> F5", ("fleet_move_enemy_stop",))]


def test_fleet_move_god_only_with_poseidon():
    """Rule fleet_move_god: "Only a player with Poseidon may move fleets this way." """
    g = ares_and_poseidon("Ann/Ares: fleet C2 -> B2")
    assert g.problems == [("Ann/Ares: fleet C2 -> B2", ("fleet_move_god",))]
    assert g.report.problems[0].breaches[0].message == "Ann's god this cycle is Ares: fleets move only with Poseidon"
    # Written under the Poseidon she does not have, the verdict names the god she has.
    g = ares_and_poseidon("Ann/Poseidon: fleet C2 -> B2")
    assert [b.message for b in g.report.problems[0].breaches if b.rule == "fleet_move_god"] == [
        "Ann's god this cycle is Ares: fleets move only with Poseidon"]


def test_move_affordable_each_movement_costs_one_gp():
    """Rule move_affordable: "Each movement of fleets or troops costs 1 GP, which the player must have." """
    g = play(ARES_AND_POSEIDON.replace("Bob: 2 on Poseidon", "Bob: 7 on Poseidon") + "Bob/Poseidon: fleet D4 -> D5",
             players=3)
    assert g.problems == [("Bob/Poseidon: fleet D4 -> D5", ("move_affordable",))]


def test_fleet_move_several_movements_in_one_turn_each_paid():
    """Rule fleet_move: "Poseidon: for 1 GP, some or all of the player's fleets on one sea space move together
    up to 3 spaces, each step to an adjacent sea space; on the way they may pick up and leave the player's own
    fleets. Several movements may be made in a turn, each paid." """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> D5; fleet F1 -> E1")
    assert g.problems == []
    assert gold(g.after("Bob/Poseidon: fleet D4 -> D5; fleet F1 -> E1"), "Bob") == 3


# -- troops (Ares) -------------------------------------------------------------------------------

def test_troop_move_to_an_empty_island_takes_it_and_leaves_a_territory_marker():
    """Rule conquest: "Troops landing on an island with no enemy troops take it, with its buildings and
    metropolis, without a battle, even if it has fortresses; a territory marker of another player there is
    removed." """
    # IS7 -> IS6 over Ann's fleet on G5: IS6 is taken without a battle (rule
    # conquest) and IS7, left empty, stays Ann's (rule territory_marker).
    g = ares_and_poseidon("Ann/Ares: troop IS7 -> IS6")
    assert g.problems == []
    after = g.after("Ann/Ares: troop IS7 -> IS6")
    assert troops(after, "Ann") == {"IS1": 1, "IS6": 1}
    assert holds(after, "marker", "IS7", "Ann")
    assert gold(after, "Ann") == 4
    assert not any(f.name == "battle" for f in after)


def test_territory_marker_keeps_the_island_under_the_players_control():
    """Rule territory_marker: "Troops that leave an island empty leave a territory marker on it: the island
    stays the player's (control, income, buildings) until another player's troops land there." """
    # IS7, left empty, is still Ann's: she may build there (rule build_island).
    g = ares_and_poseidon("Ann/Ares: troop IS7 -> IS6; fortress on IS7")
    assert g.problems == []


def test_territory_marker_troops_may_come_back():
    """Rule territory_marker: "Troops that leave an island empty leave a territory marker on it: the island
    stays the player's (control, income, buildings) until another player's troops land there." """
    # Ann's troop leaves IS7 (her marker) and comes back: the island is hers throughout.
    g = ares_and_poseidon("Ann/Ares: troop IS7 -> IS6; troop IS6 -> IS7")
    after = g.after("Ann/Ares: troop IS7 -> IS6; troop IS6 -> IS7")
    assert troops(after, "Ann") == {"IS1": 1, "IS7": 1}
    assert holds(after, "marker", "IS6", "Ann")


def test_troop_move_island_troops_do_not_stop_at_sea():
    """Rule troop_move_island: "Ares moves troops from one island to another island; troops never stand on a
    sea space." — not a missing chain of fleets: C2, next to Ann's IS1, holds Bob's fleet."""
    g = ares_and_poseidon("Ann/Ares: troop IS1 -> C2")
    assert g.problems == [("Ann/Ares: troop IS1 -> C2", ("troop_move_island",))]
    assert g.report.problems[0].breaches[0].message == \
        "troops move to an island, and C2 is not one: they cross the sea on the player's fleets, they do not stop there"


def test_troop_move_same_island_a_movement_goes_elsewhere():
    """Rule troop_move_same_island: "A troop movement goes to another island: troops staying on the island
    they stand on do not move." """
    g = ares_and_poseidon("Ann/Ares: troop IS1 -> IS1")
    assert g.problems == [("Ann/Ares: troop IS1 -> IS1", ("troop_move_same_island",))]
    assert g.report.problems[0].breaches[0].message == "the troops are already on IS1: a movement goes to another island"


def test_troop_move_chain_needs_the_players_fleets_between_the_islands():
    """Rule troop_move_chain: "Troops reach only an island linked to the island they leave by a chain of the
    player's fleets." """
    # From IS1 the only chain is Ann's fleet on C2 (next to IS1, IS2, IS3): IS4 is out of reach.
    g = ares_and_poseidon("Ann/Ares: troop IS1 -> IS4")
    assert g.problems == [("Ann/Ares: troop IS1 -> IS4", ("troop_move_chain",))]


def test_troop_move_chain_over_several_fleets():
    """Rule troop_move: "Ares: for 1 GP, some or all of the troops on one of the player's islands move to
    another island linked to it by a chain of the player's fleets (sea spaces holding the player's fleets, each
    next to the one before, the first next to the island left, the last next to the island reached). Several
    movements may be made in a turn, each paid." """
    # On 'chain3' Ann's fleets C2, D3 and E4 link IS1 to IS4 (E4 touches IS4).
    g = ares_and_poseidon("Ann/Ares: troop IS1 -> IS4", board="chain3")
    assert g.problems == []
    assert troops(g.after("Ann/Ares: troop IS1 -> IS4"), "Ann") == {"IS4": 1, "IS7": 1}


def test_troop_move_from_needs_the_troops_there():
    """Rule troop_move_from: "The troops moved together come from one island, and are the player's own troops
    there." """
    g = ares_and_poseidon("Ann/Ares: 2 troops IS1 -> IS2")
    assert g.problems == [("Ann/Ares: 2 troops IS1 -> IS2", ("troop_move_from",))]


def test_troop_move_god_only_with_ares():
    """Rule troop_move_god: "Only a player with Ares may move troops this way." """
    g = ares_and_poseidon("Bob/Poseidon: troop IS2 -> IS4")
    assert g.problems == [("Bob/Poseidon: troop IS2 -> IS4", ("troop_move_god",))]
    assert g.report.problems[0].breaches[0].message == "Bob's god this cycle is Poseidon: troops move only with Ares"


def test_troop_move_last_island_is_protected():
    """Rule troop_move_last_island: "Troops may not land on the last island of another player, unless taking it
    gives them the winning number of metropolises." """
    # On the 'single3' board Bob holds IS2 only.
    g = ares_and_poseidon("Ann/Ares: troop on IS1; 2 troops IS1 -> IS2", board="single3")
    assert g.problems == [("Ann/Ares: troop on IS1; 2 troops IS1 -> IS2", ("troop_move_last_island",))]


def test_last_island_an_island_with_two_owners_is_not_the_last():
    """Rule last_island: "Troops may not attack a player's last island, unless taking it gives the attacker the
    number of metropolises that wins the game (2, or 3 in the 2-player game)." """
    g = ares_and_poseidon("Ann/Ares: troop on IS1; 2 troops IS1 -> IS2")
    assert g.problems == []
    assert any(f.name == "battle" for f in g.after("Ann/Ares: troop on IS1; 2 troops IS1 -> IS2"))


def test_fleet_move_and_troop_move_alternatives_are_grouped():
    """Rule fleet_move: "Poseidon: for 1 GP, some or all of the player's fleets on one sea space move together
    up to 3 spaces, each step to an adjacent sea space; on the way they may pick up and leave the player's own
    fleets. Several movements may be made in a turn, each paid." """
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> D5 ??")
    wording = "\n".join(g.explain("Bob/Poseidon: fleet D4 -> D5 ??").alternatives)
    assert "move 1 fleet from D4 to E6 (1 route, besides those that turn back or pick up or leave fleets)" in wording  # D5-E6
    assert "move 1 fleet from D4 to F6 (2 routes, besides those that turn back or pick up or leave fleets)" in wording  # D5-E6-F6 and E4-F5-F6; D5 itself is the move made
    g = ares_and_poseidon("Ann/Ares: troop on IS1 ??")
    wording = "\n".join(g.explain("Ann/Ares: troop on IS1 ??").alternatives)
    assert "move 1 troop from IS1 to IS2" in wording


def test_income_counts_the_prosperity_of_sea_spaces_held_by_fleets():
    """Rule income: "Each player receives 1 GP for every prosperity symbol they control: those printed on their
    islands, Apollo's prosperity markers on their islands, and those printed on sea spaces where they have
    fleets. ..." — Bob's fleet sails to
    F7 (1 symbol): his income goes from 2 (IS2 1, F1 1) to 3."""
    g = ares_and_poseidon("Bob/Poseidon: fleet D4 -> D5 -> E6 -> F7", "Cy/Apollo: prosperity on IS3", "cycle 2",
              "creatures: Harpy, Pegasus", "gods: Zeus, Athena")
    first, second = g.when("income", 1), g.when("income", 2)
    assert gold(first.after, "Bob") - gold(first.before, "Bob") == 2
    assert gold(second.after, "Bob") - gold(second.before, "Bob") == 3
