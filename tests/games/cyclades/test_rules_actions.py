"""Cyclades, the actions of the gods (rulebook: Game turn, phase 3 — Actions):
recruiting, building, Apollo, and the order and end of turns.

Rules action_order, recruit, recruit_god, recruit_limit, recruit_affordable,
recruit_place, recruit_supply, recruit_troop_place, recruit_fleet_place, build,
build_cost, build_god, build_island, build_free_slot, build_affordable,
apollo_income, apollo_prosperity, apollo_prosperity_once,
apollo_prosperity_island, apollo_prosperity_missing and end_of_turn.

Most transcripts start with OPENING (conftest): after the offerings Ann (Zeus)
has 4 GP, Bob (Athena) 5, Cy (Ares) 6, Dan (Poseidon) 6, Eve (Apollo) 7 + 1.
"""

from __future__ import annotations

from helpers.cyclades import (
    buildings,
    check_rewritten,
    count,
    fleets,
    fluents,
    gold,
    holds,
    marker,
    opening,
    play,
    transcript,
    troops,
)

from referee.base.terms import Fn, fn


def golds_along(g, line: str, player: str, nth: int = 1) -> list[int]:
    """The player's gold after each move written on ``line``."""
    return [gold(s.after, player) for s in g.steps(line, nth)]


# -- the order of actions ---------------------------------------------------------------------

#: The gods lie Poseidon, Ares, Athena, Zeus from the top.
ORDERED = """
    cycle 1
    creatures: Pegasus
    gods: Poseidon, Ares, Athena, Zeus
    Ann: 3 on Zeus
    Bob: 2 on Athena
    Cy: 1 on Ares
    Dan: Apollo
    Eve: 1 on Poseidon
"""


def test_action_order_gods_from_the_top_then_apollo():
    """Rule action_order: "Players act in the order of their gods on the track, from the
    top down; the players on Apollo act last, in the order of their Apollo spaces." """
    g = play(ORDERED + """
        Eve/Poseidon: fleet on F10
        Cy/Ares: troop on IS4
        Bob/Athena: philosopher
        Ann/Zeus: priest
        Dan/Apollo: prosperity on IS6
    """)
    assert g.problems == []
    finished = {m[0]: k for m, k in fluents(g.when("end_cycle").before, "finished")}
    assert finished == {"Eve": 1, "Cy": 2, "Bob": 3, "Ann": 4, "Dan": 5}


def test_apollo_order_the_players_on_apollo_act_in_the_order_they_came():
    """Rule apollo_order: "The players on Apollo act last, one after another, in the order they went to Apollo
    (the order of Apollo's spaces 1, 2, ...)." — while Ann (space 1) acts, Bob (space 2) acts. (The notation's
    sequencing would end Ann's turn before Bob's line, docs/notation.md; so the move is judged in the position
    where Ann acts.)"""
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: Apollo
        Bob: Apollo
        Cy: Apollo
        Dan: Apollo
        Eve: Apollo
        Ann/Apollo: prosperity on IS2
        Bob/Apollo: pass
    """)
    assert g.problems == []
    ann_acts = g.before("Ann/Apollo: prosperity on IS2")
    found = g.breaches(ann_acts, "Bob", fn("pass"))
    assert [rule for rule, _ in found] == ["apollo_order", "not_in_control"]
    assert found[0][1] == "Ann took Apollo's space 1 and Bob space 2: the players on Apollo act in the order they arrived"
    # Once Ann's turn is over, Ann on Apollo is told the same rule.
    found = g.breaches(g.before("Bob/Apollo: pass"), "Ann", fn("pass"))
    assert [rule for rule, _ in found] == ["apollo_order", "not_in_control"]
    assert found[0][1] == "Bob took Apollo's space 2 and Ann space 1: the players on Apollo act in the order they arrived"


def test_action_order_a_player_whose_god_came_earlier_cannot_act_later():
    """Rule action_order: "Players act in the order of their gods on the track, from the
    top down; ..." — Ann (Zeus, 4th) is written acting before Eve (Poseidon, 1st),
    whose turn comes first and is written on below: Ann's line is the one out of
    sequence (docs/notation.md, "Reading a record tolerantly"), judged where it is
    written and taken again after Eve's."""
    g = play(ORDERED + """
        Ann/Zeus: priest
        Eve/Poseidon: pass
        Dan/Apollo: prosperity on IS6
    """)
    assert g.problems == [("Ann/Zeus: priest", ("action_order", "not_in_control"))]
    assert g.first == [("Ann/Zeus: priest", "action_order")]
    # Before her turn: while Eve (Poseidon, 1st) acts, Ann (Zeus, 4th) is told hers comes
    # later. (The notation's sequencing would end the turns before Ann's line; so the
    # move is judged in the position where Eve acts.)
    eve_acts = play(ORDERED + "Eve/Poseidon: fleet on F1\n").before("Eve/Poseidon: fleet on F1")
    found = g.breaches(eve_acts, "Ann", fn("recruit", fn("priest")))
    assert [rule for rule, _ in found] == ["action_order", "not_in_control"]
    assert found[0][1] == \
        "Eve has the turn with Poseidon; Ann's turn with Zeus is later: the gods act from the top of the track down"
    assert g.report.problems[0].breaches[0].message == \
        "Eve has the turn with Poseidon; Ann's turn with Zeus is later: the gods act from the top of the track down"
    # After her turn: once Ann (Zeus, 4th) acts, Eve's turn (Poseidon, 1st) is over.
    ann_acted = play(ORDERED + "Ann/Zeus: priest\n")
    found = ann_acted.breaches(ann_acted.after("Ann/Zeus: priest"), "Eve", Fn("pass"))
    assert [rule for rule, _ in found] == ["action_order", "not_in_control"]
    assert found[0][1] == \
        "Ann has the turn with Zeus; Eve's turn with Poseidon is over: the gods act from the top of the track down"


def test_end_of_turn_the_player_of_the_next_god_acts():
    """Rule end_of_turn: "A player ends their turn when they have done what they want;
    their offering marker goes to the turn track, and the player of the next god acts." """
    g = play(opening("""
        Ann/Zeus: priest
        Ann/Zeus: pass
        Bob/Athena: philosopher
        Cy/Ares: troop on IS4
    """))
    assert g.problems == []
    ended = g.after("Ann/Zeus: pass")
    assert fluents(ended, "finished") == [(("Ann", 1), 1)]
    assert holds(ended, "acting", marker("Bob")) and holds(ended, "control", "Bob")
    # Bob's end of turn is not written: it ends when Cy's line begins.
    assert fluents(g.before("Cy/Ares: troop on IS4"), "finished") == [(("Ann", 1), 1), (("Bob", 1), 2)]


# -- recruiting --------------------------------------------------------------------------------

def test_recruit_zeus_and_athena_first_unit_free_one_more_for_4_gp():
    """Rule recruit: "Each god but Apollo recruits its unit: Zeus priests, Athena
    philosophers, Poseidon fleets, Ares troops. The first unit in a turn is free; Zeus
    and Athena sell one more for 4 GP; ..." """
    g = play(opening("""
        Ann/Zeus: 2 priests
        Bob/Athena: 2 philosophers
    """))
    assert g.problems == []
    assert golds_along(g, "Ann/Zeus: 2 priests", "Ann") == [4, 0]
    assert golds_along(g, "Bob/Athena: 2 philosophers", "Bob") == [5, 1]
    assert count(g.final, "priests", "Ann") == 2 and count(g.final, "philosophers", "Bob") == 2


def test_recruit_poseidon_fleets_cost_0_1_2_3():
    """Rule recruit: "... Poseidon's extra fleets cost 1, 2 and 3 GP ..." — Dan has 6 GP."""
    g = play(opening("Dan/Poseidon: 4 fleets on D8"))
    assert g.problems == []
    assert golds_along(g, "Dan/Poseidon: 4 fleets on D8", "Dan") == [6, 5, 3, 0]
    assert fleets(g.final, "Dan") == {"D8": 5, "F1": 1}


#: Cycle 2 after OPENING: turn order Eve, Dan, Cy, Bob, Ann. Eve has 8 + her income
#: IS3 2 + Apollo's marker 1 = 11 GP; she offers 1 on Ares: 10 GP.
EVE_ON_ARES = opening() + """
    cycle 2
    creatures: Harpy, Pegasus
    gods: Ares, Zeus, Athena, Poseidon
    Eve: 1 on Ares
    Dan: 1 on Poseidon
    Cy: 1 on Zeus
    Bob: 1 on Athena
    Ann: Apollo
"""


def test_recruit_ares_troops_cost_0_2_3_4():
    """Rule recruit: "... and Ares's extra troops 2, 3 and 4 GP, at most three extra in
    a turn." """
    g = play(EVE_ON_ARES + """
        Eve/Ares: 4 troops on IS3
        Ann/Apollo: prosperity on IS2
    """)
    assert g.problems == []
    assert golds_along(g, "Eve/Ares: 4 troops on IS3", "Eve") == [10, 8, 5, 1]
    assert troops(g.final, "Eve") == {"IS3": 5, "IS11": 1}


def test_recruit_limit_at_most_three_troops_bought_per_turn():
    """Rule recruit_limit: "Beyond the free unit, a player may buy at most one more
    priest or philosopher, and at most three more fleets or troops, in a turn." """
    g = play(EVE_ON_ARES + """
        Eve/Ares: 5 troops on IS3
        Ann/Apollo: prosperity on IS2
    """)
    assert g.problems == [("Eve/Ares: 5 troops on IS3", ("recruit_limit",))]
    assert g.report.problems[0].breaches[0].message == (
        "Eve has already recruited 4 of this unit this turn, the most allowed")


def test_recruit_limit_at_most_three_fleets_bought_per_turn():
    """Rule recruit_limit: "... at most three more fleets or troops, in a turn." """
    g = play(opening("Dan/Poseidon: 5 fleets on D8"))
    assert g.problems == [("Dan/Poseidon: 5 fleets on D8", ("recruit_limit",))]


def test_recruit_limit_one_more_priest_or_philosopher():
    """Rule recruit_limit: "Beyond the free unit, a player may buy at most one more
    priest or philosopher ..." """
    g = play(opening("""
        Ann/Zeus: 3 priests
        Bob/Athena: 3 philosophers
    """))
    assert g.problems == [("Ann/Zeus: 3 priests", ("recruit_limit",)),
                          ("Bob/Athena: 3 philosophers", ("recruit_limit",))]
    assert count(g.final, "priests", "Ann") == 3  # the move stands, as played


def test_recruit_affordable_every_unit_beyond_the_free_one_is_paid():
    """Rule recruit_affordable: "Every unit beyond the free one is paid at its price; a
    player cannot recruit what they cannot pay for." — Cy has 6 GP: troops 0 + 2 + 3,
    then 1 GP left for a fourth troop at 4 GP."""
    g = play(opening("Cy/Ares: 4 troops on IS4"))
    assert g.problems == [("Cy/Ares: 4 troops on IS4", ("recruit_affordable",))]
    assert g.report.problems[0].breaches[0].message == "Cy has 1 GP and cannot pay 4 GP for this recruit"
    # Bob offered 4 on Athena: 7 - 4 = 3 GP, short of the 4 GP of a second philosopher.
    g = play("""
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 3 on Zeus
        Bob: 4 on Athena
        Cy: 1 on Ares
        Dan: 1 on Poseidon
        Eve: Apollo
        Bob/Athena: 2 philosophers
        Eve/Apollo: prosperity on IS3
    """)
    assert g.problems == [("Bob/Athena: 2 philosophers", ("recruit_affordable",))]


def test_recruit_god_each_god_recruits_its_own_unit():
    """Rule recruit_god: "A player recruits only their god's unit: priests with Zeus,
    philosophers with Athena, fleets with Poseidon, troops with Ares; Apollo recruits
    nothing." """
    g = play(opening("""
        Ann/Zeus: troop on IS2
        Bob/Athena: priest
        Eve/Apollo: prosperity on IS3; philosopher
    """))
    assert g.problems == [("Ann/Zeus: troop on IS2", ("recruit_god",)),
                          ("Bob/Athena: priest", ("recruit_god",)),
                          ("Eve/Apollo: prosperity on IS3; philosopher", ("recruit_god",))]
    messages = [v.breaches[0].message for v in g.report.problems]
    assert messages == ["Ann's god this cycle is Zeus: this unit is recruited with Ares",
                        "Bob's god this cycle is Athena: this unit is recruited with Zeus",
                        "Eve's god this cycle is Apollo: this unit is recruited with Athena"]


def test_recruit_god_under_a_god_the_player_does_not_have_names_the_god_they_have():
    """Rule recruit_god: "A player recruits only their god's unit: priests with Zeus,
    philosophers with Athena, fleets with Poseidon, troops with Ares; Apollo recruits
    nothing." Ann, on Zeus, writes her line under Athena: the rules read the god she
    won, and the verdict says which it is, not only that a philosopher is recruited with
    the Athena she wrote."""
    g = play(opening("Ann/Athena: philosopher"))
    assert g.problems == [("Ann/Athena: philosopher", ("recruit_god",))]
    message = g.report.problems[0].breaches[0].message
    assert message == "Ann's god this cycle is Zeus: this unit is recruited with Athena"


def test_recruit_place_troops_and_fleets_go_on_the_board_priests_in_front_of_the_screen():
    """Rule recruit_place: "Priests and philosophers are cards kept in front of the
    player's screen; troops and fleets go on the board, so recruiting one says where it
    is placed." (The notation cannot write a troop without a place; another program
    could, so the transcript is rewritten.)"""
    text = transcript(opening("Cy/Ares: troop on IS4"))
    g = check_rewritten(text, "Cy/Ares: troop on IS4", fn("recruit", fn("troop")))
    assert g.problems == [("Cy/Ares: troop on IS4", ("recruit_place",))]
    text = transcript(opening("Ann/Zeus: priest"))
    g = check_rewritten(text, "Ann/Zeus: priest", fn("recruit", fn("priest"), "IS2"))
    assert g.problems == [("Ann/Zeus: priest", ("recruit_place",))]


#: Board full5: Ann starts with 8 troops (one on each of her 8 islands) and 8 fleets.
FULL_SUPPLY = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Bob: 1 on Zeus
    Cy: 1 on Athena
    Dan: Apollo
    Eve: 1 on {other}
    Ann: 1 on {god}
"""


def test_recruit_supply_eight_troops_on_the_board_at_most():
    """Rule recruit_supply: "Each player has 8 troops and 8 fleets; no one may have more
    than 8 of either on the board." """
    g = play(FULL_SUPPLY.format(god="Ares", other="Poseidon") + "Ann/Ares: troop on IS2\nDan/Apollo: prosperity on IS11\n",
             board="full5", order="Bob, Cy, Dan, Eve, Ann")
    assert g.problems == [("Ann/Ares: troop on IS2", ("recruit_supply",))]
    assert g.report.problems[0].breaches[0].message == "Ann already has 8 of these on the board, all they have"


def test_recruit_supply_eight_fleets_on_the_board_at_most():
    """Rule recruit_supply: "Each player has 8 troops and 8 fleets; no one may have more
    than 8 of either on the board." """
    g = play(FULL_SUPPLY.format(god="Poseidon", other="Ares") + "Ann/Poseidon: fleet on A1\nDan/Apollo: prosperity on IS11\n",
             board="full5", order="Bob, Cy, Dan, Eve, Ann")
    assert g.problems == [("Ann/Poseidon: fleet on A1", ("recruit_supply",))]


def test_recruit_troop_place_on_islands_the_player_controls():
    """Rule recruit_troop_place: "New troops are placed on islands the player controls."
    — Cy controls IS4 and IS13; IS2 is Ann's, IS5 neutral."""
    assert play(opening("Cy/Ares: troop on IS13; troop on IS4")).problems == []
    g = play(opening("Cy/Ares: troop on IS2; troop on IS5"))
    assert g.problems == [("Cy/Ares: troop on IS2; troop on IS5", ("recruit_troop_place",)),
                          ("Cy/Ares: troop on IS2; troop on IS5", ("recruit_troop_place",))]


def test_recruit_fleet_place_next_to_an_own_island():
    """Rule recruit_fleet_place: "New fleets are placed on sea spaces next to an island
    the player controls, and only on a space that is empty or already holds the
    player's fleets." — Dan (IS6, IS7): E8 touches IS6; A1 touches only Bob's IS1."""
    assert play(opening("Dan/Poseidon: fleet on E8; fleet on D8")).problems == []
    g = play(opening("Dan/Poseidon: fleet on A1"))
    assert g.problems == [("Dan/Poseidon: fleet on A1", ("recruit_fleet_place",))]


#: Eve on Poseidon, Dan on Apollo.
EVE_ON_POSEIDON = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: 3 on Zeus
    Bob: 2 on Athena
    Cy: 1 on Ares
    Dan: Apollo
    Eve: 1 on Poseidon
"""


def test_recruit_fleet_place_not_on_another_players_fleets():
    """Rule recruit_fleet_place: "... and only on a space that is empty or already holds
    the player's fleets." — K6 touches Eve's IS11 but holds Cy's starting fleet; F10
    touches IS11 too and is empty; F3 holds Eve's own fleet."""
    g = play(EVE_ON_POSEIDON + """
        Eve/Poseidon: fleet on F10; fleet on F3
        Dan/Apollo: prosperity on IS6
    """)
    assert g.problems == []
    g = play(EVE_ON_POSEIDON + """
        Eve/Poseidon: fleet on K6
        Dan/Apollo: prosperity on IS6
    """)
    assert g.problems == [("Eve/Poseidon: fleet on K6", ("recruit_fleet_place",))]


# -- building ----------------------------------------------------------------------------------

def test_build_several_buildings_of_one_kind_on_one_island_in_a_turn():
    """Rule build: "Each god but Apollo builds its building: Zeus temples, Athena
    universities, Poseidon ports, Ares fortresses, 2 GP each, on free building spaces of
    the player's islands. A player may build several in a turn, even of one kind on one
    island." """
    g = play(opening("""
        Ann/Zeus: 2 temples on IS12
        Bob/Athena: university on IS1
        Cy/Ares: fortress on IS13
        Dan/Poseidon: port on IS7
    """))
    assert g.problems == []
    assert buildings(g.final, "IS12") == {"temple": 2}
    assert buildings(g.final, "IS1") == {"university": 1}
    assert buildings(g.final, "IS13") == {"fortress": 1}
    assert buildings(g.final, "IS7") == {"port": 1}


def test_build_cost_every_building_costs_2_gp():
    """Rule build_cost: "Every building costs 2 GP." — Ann 4 GP, Bob 5 GP."""
    g = play(opening("""
        Ann/Zeus: 2 temples on IS12
        Bob/Athena: university on IS1; university on IS9
    """))
    assert golds_along(g, "Ann/Zeus: 2 temples on IS12", "Ann") == [2, 0]
    assert golds_along(g, "Bob/Athena: university on IS1; university on IS9", "Bob") == [3, 1]


def test_build_god_each_god_builds_its_own_building():
    """Rule build_god: "A player builds only their god's building: temples with Zeus,
    universities with Athena, ports with Poseidon, fortresses with Ares; Apollo builds
    nothing." """
    g = play(opening("""
        Ann/Zeus: port on IS2
        Eve/Apollo: prosperity on IS3; temple on IS3
    """))
    assert g.problems == [("Ann/Zeus: port on IS2", ("build_god",)),
                          ("Eve/Apollo: prosperity on IS3; temple on IS3", ("build_god",))]
    message = g.report.problems[0].breaches[0].message
    assert message == "Ann's god this cycle is Zeus: this building is built with Poseidon"


def test_build_island_only_on_islands_the_player_controls():
    """Rule build_island: "Buildings go on islands the player controls." — IS1 is Bob's,
    IS5 neutral."""
    g = play(opening("Ann/Zeus: temple on IS1; temple on IS5"))
    assert g.problems == [("Ann/Zeus: temple on IS1; temple on IS5", ("build_island",)),
                          ("Ann/Zeus: temple on IS1; temple on IS5", ("build_island",))]


def test_build_free_slot_a_building_needs_a_free_space():
    """Rule build_free_slot: "A building needs a free building space on the island; a
    metropolis takes the spaces the board gives it." — Bob's IS9 has one building
    space. (The metropolis half: test_rules_metropolis.py.)"""
    g = play(opening("Bob/Athena: 2 universities on IS9"))
    assert g.problems == [("Bob/Athena: 2 universities on IS9", ("build_free_slot",))]
    assert g.report.problems[0].breaches[0].message == "Bob cannot build here: the island has no free building space"


def test_build_affordable_not_without_the_gp():
    """Rule build_affordable: "A player cannot build without the GP to pay for it." —
    Ann has 4 GP: two temples, not three."""
    g = play(opening("Ann/Zeus: 3 temples on IS12"))
    assert g.problems == [("Ann/Zeus: 3 temples on IS12", ("build_affordable",))]
    assert g.report.problems[0].breaches[0].message == "Ann has 0 GP and cannot pay the 2 GP for a building"


# -- Apollo ------------------------------------------------------------------------------------

#: Board single5: Ann holds only IS2 (income IS2 1 + K1 1 = 2). Ann and Eve on Apollo.
SINGLE_ISLAND = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: Apollo
    Bob: 1 on Zeus
    Cy: 1 on Athena
    Dan: 1 on Ares
    Eve: Apollo
    Dan/Ares: troop on IS6
    Ann/Apollo: prosperity on IS2
"""


def test_apollo_income_4_gp_with_a_single_island_else_1_gp():
    """Rule apollo_income: "A player on Apollo receives 1 GP, or 4 GP if they control a
    single island; it is paid when their turn comes." — Ann (one island) 7 + 4 = 11;
    Eve (IS3 and IS11) 7 + 1 = 8."""
    g = play(SINGLE_ISLAND, board="single5")
    assert g.problems == []
    assert gold(g.when("pay_offerings").after, "Ann") == 7
    assert gold(g.before("Dan/Ares: troop on IS6"), "Ann") == 7  # not paid before her turn
    ann, eve = g.when("apollo_income", 1), g.when("apollo_income", 2)
    assert gold(ann.before, "Ann") == 7 and gold(ann.after, "Ann") == 11
    assert gold(eve.before, "Eve") == 7 and gold(eve.after, "Eve") == 8


def test_apollo_prosperity_only_the_first_player_on_apollo():
    """Rule apollo_prosperity: "Only the first player on Apollo in a cycle places a
    prosperity marker; an island may hold several." — Ann arrived first and placed it,
    Eve arrived second: she breaks this rule, and rule apollo_prosperity_once too."""
    g = play(SINGLE_ISLAND + "Eve/Apollo: prosperity on IS3\n", board="single5")
    assert g.problems == [("Eve/Apollo: prosperity on IS3", ("apollo_prosperity", "apollo_prosperity_once"))]


def test_apollo_prosperity_only_a_player_on_apollo():
    """Rule apollo_prosperity: "Only the first player on Apollo in a cycle places a
    prosperity marker ..." — Ann is on Zeus."""
    g = play(opening("Ann/Zeus: prosperity on IS2\nEve/Apollo: pass"))
    assert g.problems == [("Ann/Zeus: prosperity on IS2", ("apollo_prosperity",))]


def test_apollo_prosperity_once_a_single_marker_a_cycle():
    """Rule apollo_prosperity_once: "Apollo gives a single prosperity marker in a
    cycle." """
    g = play(opening("Eve/Apollo: prosperity on IS3; prosperity on IS11"))
    assert g.problems == [("Eve/Apollo: prosperity on IS3; prosperity on IS11", ("apollo_prosperity_once",))]
    assert count(g.final, "prosperity", "IS11") == 1  # as played


def test_apollo_prosperity_island_on_an_island_the_player_controls():
    """Rule apollo_prosperity_island: "The prosperity marker goes on an island the player
    controls." — IS2 is Ann's, IS5 neutral."""
    g = play(opening("Eve/Apollo: prosperity on IS2"))
    assert g.problems == [("Eve/Apollo: prosperity on IS2", ("apollo_prosperity_island",))]
    g = play(opening("Eve/Apollo: prosperity on IS5"))
    assert g.problems == [("Eve/Apollo: prosperity on IS5", ("apollo_prosperity_island",))]
    g = play(opening("Eve/Apollo: prosperity on IS11"))
    assert g.problems == [] and count(g.final, "prosperity", "IS11") == 1


def test_apollo_prosperity_missing_the_first_apollo_player_places_the_marker():
    """Rule apollo_prosperity_missing: "The first player on Apollo who controls an island
    must place the prosperity marker before ending their turn." — whether the end of
    the turn is written or not (a new cycle ends the turns not written; a
    transcript that just stops leaves them open)."""
    g = play(opening("Eve/Apollo: pass"))
    assert g.problems == [("Eve/Apollo: pass", ("apollo_prosperity_missing",))]
    g = play(opening("Dan/Poseidon: fleet on D8\nEve/Apollo: prosperity on IS3"))
    assert g.problems == []
    unwritten = opening("Eve/Apollo: prosperity on IS3").replace("Eve/Apollo: prosperity on IS3", "")
    assert play(unwritten).problems == []
    assert play(unwritten + "\ncycle 2\n").problems == [("(Eve: end the turn)", ("apollo_prosperity_missing",))]
