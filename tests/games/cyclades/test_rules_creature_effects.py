"""Cyclades, the creatures' effects (rulebook: Mythological creatures): Harpy, Giant,
Griffon, Satyr, Dryad, Sphinx, Cyclops, Pegasus, Siren and the Fates
(referee/games/cyclades/rules/creatures.lp).

Rules creature_effect_at_once, harpy_troop, giant_building, giant_not_metropolis,
griffon_gold, satyr_philosopher, dryad_priest, sphinx_sell, cyclops_building,
cyclops_type, pegasus_move, siren_fleet, siren_reserve, siren_isolated and fates_income. A use is written
after the purchase: ``buy Harpy: troop IS4`` (docs/notation.md, Creatures).

Board 5p, cycle 1, each player offers 1 GP (Eve takes Apollo): Ann 6 GP, Bob 6,
Cy 6, Dan 6, Eve 7. Troops: Ann IS2, IS12; Bob IS1, IS9; Cy IS4, IS13; Dan IS6,
IS7; Eve IS3, IS11. The card tested lies on the 4-GP slot.
"""

from __future__ import annotations

from helpers.cyclades import (
    ANN_FIRST_METROPOLIS,
    BUILD3,
    buildings,
    count,
    first_cycle,
    fluents,
    gold,
    holds,
    metropolises,
    play,
    transcript,
)

from referee.ask.options import CheckOptions
from referee.ask.session import Session
from referee.game.notation import parse_transcript
from referee.games.cyclades.fluents import FleetTarget, Use


# -- creature_effect_at_once ----------------------------------------------------------------

def test_creature_effect_at_once_the_use_follows_the_purchase():
    """Rule creature_effect_at_once: "A creature's power is used at once, right after the player buys it; then
    the card goes to the discard pile. A use that does not follow its purchase is not allowed (a purchase
    whose use is not written forgoes the power)." """
    line = "Ann/Zeus: buy Harpy; priest; use Harpy: troop IS3"
    g = play(first_cycle("Harpy", line))
    assert g.problems == [(line, ("creature_effect_at_once",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot use Harpy now: a creature's power is used right after its purchase")
    assert fluents(g.after("Ann/Zeus: buy Harpy; priest; use Harpy: troop IS3"), "discard") == [("harpy",)]


def test_creature_effect_at_once_a_purchase_may_go_unused():
    """Rule creature_effect_at_once: "... (a purchase whose use is not written forgoes the power)." — the
    Harpy is bought and discarded; Eve's troop stays; nothing is pending after the next move."""
    line = "Ann/Zeus: buy Harpy; priest"
    g = play(first_cycle("Harpy", line))
    assert g.problems == []
    steps = g.steps(line)
    assert fluents(steps[0].after, "effect") == [("Ann", "harpy")]
    assert fluents(steps[1].after, "effect") == []
    assert count(g.after(line), "troops", "Eve", "IS3") == 1
    assert fluents(g.after(line), "discard") == [("harpy",)]


def test_creature_effect_at_once_alternatives_list_the_uses():
    """Rule creature_effect_at_once: "A creature's power is used at once, right after the player buys it; ..."
    — the moves listed after the purchase include every use of the card, grouped."""
    line = "Ann/Zeus: buy Harpy: troop IS5 ??"
    g = play(first_cycle("Harpy", line))
    verdict = g.session.explain(move=g.steps(line)[1].number, everything=True)
    wording = "\n".join(verdict.alternatives)
    assert ("Harpy: any of 8 enemy troops on 8 islands (IS1, IS11, IS13, IS3, IS4, IS6, IS7, IS9);"
            " or one of their own 2 troops on IS12, IS2") in wording


# -- Harpy -----------------------------------------------------------------------------------

def test_harpy_troop_returns_a_troop_to_its_owners_reserve():
    """Rule harpy_troop: "Harpy: the player removes one troop of their choice from the board and returns it to
    its owner's reserve." — Cy's only troop on IS4 goes; IS4 stays Cy's with a territory marker, so Cy may
    recruit there."""
    line = "Ann/Zeus: buy Harpy: troop IS4"
    g = play(first_cycle("Harpy", line + "\nCy/Ares: troop on IS4"))
    assert g.problems == []
    after = g.after(line)
    assert count(after, "troops", "Cy", "IS4") == 0 and count(after, "troops", "Cy", "IS13") == 1
    assert holds(after, "marker", "IS4", "Cy")
    assert gold(after, "Ann") == 6 - 4
    assert count(g.after("Cy/Ares: troop on IS4"), "troops", "Cy", "IS4") == 1


def test_harpy_troop_any_troop_the_players_own_too():
    """Rule harpy_troop: "Harpy: the player removes one troop of their choice from the board ..." — Cy, with
    two troops on IS4, removes one of his own."""
    line = "Cy/Ares: troop on IS4; buy Harpy: troop IS4"
    g = play(first_cycle("Harpy", line))
    assert g.problems == []
    after = g.after(line)
    assert count(after, "troops", "Cy", "IS4") == 1 and not holds(after, "marker", "IS4", "Cy")


def test_harpy_troop_there_must_be_a_troop():
    """Rule harpy_troop: "Harpy: the player removes one troop of their choice from the board ..." — nobody has
    a troop on IS5."""
    line = "Ann/Zeus: buy Harpy: troop IS5"
    g = play(first_cycle("Harpy", line))
    assert g.problems == [(line, ("harpy_troop",))]
    assert g.report.problems[0].breaches[0].message == "Ann cannot use the Harpy on IS5: there is no troop there"


# -- Giant -----------------------------------------------------------------------------------

def test_giant_building_destroys_anyones_building():
    """Rule giant_building: "Giant: the player destroys one building of their choice (anyone's)." — Dan's
    Giant destroys the temple Ann built on IS2."""
    line = "Dan/Poseidon: buy Giant: temple IS2"
    g = play(first_cycle("Giant", "Ann/Zeus: temple on IS2\n" + line))
    assert g.problems == []
    assert buildings(g.before(line), "IS2") == {"temple": 1}
    assert buildings(g.after(line), "IS2") == {}
    assert gold(g.after(line), "Dan") == 6 - 4


def test_giant_building_the_building_must_be_there():
    """Rule giant_building: "Giant: the player destroys one building of their choice (anyone's)." — there is no
    port on IS2."""
    line = "Dan/Poseidon: buy Giant: port IS2"
    g = play(first_cycle("Giant", "Ann/Zeus: temple on IS2\n" + line))
    assert g.problems == [(line, ("giant_building",))]
    assert g.report.problems[0].breaches[0].message == "Dan cannot use the Giant on a port on IS2: there is none there"
    assert buildings(g.after(line), "IS2") == {"temple": 1}


def test_giant_not_metropolis():
    """Rule giant_not_metropolis: "The Giant cannot destroy a metropolis." — Ann's metropolis on IS7 (see
    test_rules_metropolis.py); in cycle 5 Cy, on Zeus, buys the Giant."""
    line = "Cy/Zeus: buy Giant: metropolis IS7"
    g = play(BUILD3.format(bob1=1) + ANN_FIRST_METROPOLIS + """
        Cy/Apollo: prosperity on IS4
        cycle 5
        creatures: Giant, Griffon, Sylph
        gods: Zeus, Athena / Ares, Poseidon
        Cy: 1 on Zeus
        Bob: Apollo
        Ann: Apollo
    """ + line, players=3, board="build3")
    assert g.problems == [(line, ("giant_not_metropolis",))]
    assert g.report.problems[0].breaches[0].message == "Cy cannot destroy the metropolis on IS7 with the Giant"
    assert metropolises(g.after(line)) == ["IS7"]


# -- Griffon ---------------------------------------------------------------------------------

def test_griffon_gold_takes_half_rounded_down():
    """Rule griffon_gold: "Griffon: the player takes half (rounded down) of the GP of another player of their
    choice, who shows their GP to everyone." — Eve has 7 GP: Ann takes 3."""
    line = "Ann/Zeus: buy Griffon: Eve"
    g = play(first_cycle("Griffon", line))
    assert g.problems == []
    assert gold(g.after(line), "Eve") == 4
    assert gold(g.after(line), "Ann") == 6 - 4 + 3


def test_griffon_gold_from_another_player():
    """Rule griffon_gold: "Griffon: the player takes half (rounded down) of the GP of another player of their
    choice, ..." — not from herself."""
    line = "Ann/Zeus: buy Griffon: Ann"
    g = play(first_cycle("Griffon", line))
    assert g.problems == [(line, ("griffon_gold",))]
    assert g.report.problems[0].breaches[0].message == "Ann cannot use the Griffon on Ann: it takes GP from another player"
    assert gold(g.after(line), "Ann") == 2


# -- Satyr and Dryad -------------------------------------------------------------------------

def test_satyr_philosopher_takes_one_from_another_player():
    """Rule satyr_philosopher: "Satyr: the player takes one philosopher from another player of their choice." —
    Bob recruits his free philosopher; Dan takes it."""
    line = "Dan/Poseidon: buy Satyr: Bob"
    g = play(first_cycle("Satyr", "Bob/Athena: philosopher\n" + line))
    assert g.problems == []
    assert count(g.after(line), "philosophers", "Bob") == 0 and count(g.after(line), "philosophers", "Dan") == 1


def test_satyr_philosopher_the_player_must_have_one():
    """Rule satyr_philosopher: "Satyr: the player takes one philosopher from another player of their choice." —
    Bob has none yet."""
    line = "Ann/Zeus: buy Satyr: Bob"
    g = play(first_cycle("Satyr", line))
    assert g.problems == [(line, ("satyr_philosopher",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot take a philosopher from Bob: only from another player who has one")


def test_dryad_priest_takes_one_from_another_player():
    """Rule dryad_priest: "Dryad: the player takes one priest from another player of their choice." — Ann
    recruits her free priest; Bob takes it."""
    line = "Bob/Athena: buy Dryad: Ann"
    g = play(first_cycle("Dryad", "Ann/Zeus: priest\n" + line))
    assert g.problems == []
    assert count(g.after(line), "priests", "Ann") == 0 and count(g.after(line), "priests", "Bob") == 1


def test_dryad_priest_not_from_oneself():
    """Rule dryad_priest: "Dryad: the player takes one priest from another player of their choice." — Ann cannot
    take her own priest, nor one from Cy, who has none."""
    g = play(first_cycle("Dryad", "Ann/Zeus: priest; buy Dryad: Ann"))
    assert g.problems == [("Ann/Zeus: priest; buy Dryad: Ann", ("dryad_priest",))]
    g = play(first_cycle("Dryad", "Ann/Zeus: priest; buy Dryad: Cy"))
    assert g.problems == [("Ann/Zeus: priest; buy Dryad: Cy", ("dryad_priest",))]
    assert count(g.final, "priests", "Ann") == 1


# -- the Fates -------------------------------------------------------------------------------

def test_fates_income_collected_again():
    """Rule fates_income: "The Fates: the player collects their income again, as at the start of the cycle." """
    line = "Ann/Zeus: buy The Fates"
    g = play(first_cycle("The Fates", line))
    assert g.problems == []
    income = g.when("income")
    collected = gold(income.after, "Ann") - gold(income.before, "Ann")
    assert collected > 0
    assert gold(g.after(line), "Ann") == 6 - 4 + collected
    assert g.report.warnings == []  # every card's effect is judged: nothing is accepted unchecked


# -- Sphinx ----------------------------------------------------------------------------------

def test_sphinx_sell_units_and_cards_for_2_gp_each():
    """Rule sphinx_sell: "Sphinx: the player sells any of their troops, fleets, priests and philosophers, for 2
    GP each. Troops and fleets go back to the reserve; an island left without the player's troops stays theirs
    with a territory marker." — Ann recruits her free priest, buys the Sphinx (4 GP) and sells the priest, her
    troop on IS2 and her fleet on C6: 6 - 4 + 6 = 8 GP; IS2 stays hers."""
    line = "Ann/Zeus: priest; buy Sphinx: priest, troop IS2, fleet C6"
    g = play(first_cycle("Sphinx", line))
    assert g.problems == []
    after = g.after(line)
    assert gold(after, "Ann") == 8
    assert count(after, "priests", "Ann") == 0 and count(after, "troops", "Ann", "IS2") == 0
    assert count(after, "fleets", "Ann", "C6") == 0 and holds(after, "marker", "IS2", "Ann")
    assert [s.move.name for s in g.steps(line)] == ["recruit", "buy", "use", "use", "use"]


def test_sphinx_sell_several_of_a_kind_one_use_each():
    """Rule sphinx_sell: "Sphinx: the player sells any of their troops, ..., for 2 GP each. ..." — Cy recruits a
    second troop on IS4 and sells both: IS4 stays his with a territory marker."""
    line = "Cy/Ares: troop on IS4; buy Sphinx: 2 troops IS4"
    g = play(first_cycle("Sphinx", line))
    assert g.problems == []
    after = g.after(line)
    assert gold(after, "Cy") == 6 - 4 + 4
    assert count(after, "troops", "Cy", "IS4") == 0 and holds(after, "marker", "IS4", "Cy")


def test_sphinx_sell_only_what_the_player_has():
    """Rule sphinx_sell: "Sphinx: the player sells any of their troops, fleets, priests and philosophers, ..." —
    Ann has no philosopher, and the troop on IS4 is Cy's."""
    line = "Ann/Zeus: buy Sphinx: philosopher, troop IS4"
    g = play(first_cycle("Sphinx", line))
    assert g.problems == [(line, ("sphinx_sell",)), (line, ("sphinx_sell",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot sell this to the Sphinx: they have no such unit there, or no such card")
    assert gold(g.after(line), "Ann") == 2 and count(g.after(line), "troops", "Cy", "IS4") == 1


def test_sphinx_sell_right_after_the_purchase():
    """Rule creature_effect_at_once: "A creature's power is used at once, right after the player buys it; ..." —
    the Sphinx's sales follow each other, but a priest recruited in between ends them."""
    line = "Ann/Zeus: buy Sphinx: troop IS2; priest; use Sphinx: fleet C6"
    g = play(first_cycle("Sphinx", line))
    assert g.problems == [(line, ("creature_effect_at_once",))]
    assert gold(g.after(line), "Ann") == 6 - 4 + 2 + 2  # the sale stands as played


# -- Cyclops (the card) ----------------------------------------------------------------------

def test_cyclops_building_changes_a_building_into_another_type():
    """Rule cyclops_building: "Cyclops: the player changes one of their buildings into a building of another
    type; if they then own the four types, they build a metropolis at once (rule metropolis_buildings)." —
    Ann's new temple on IS2 becomes a port."""
    line = "Ann/Zeus: temple on IS2; buy Cyclops: temple IS2 -> port"
    g = play(first_cycle("Cyclops", line))
    assert g.problems == []
    assert buildings(g.after(line), "IS2") == {"port": 1}
    assert gold(g.after(line), "Ann") == 6 - 2 - 3  # the temple lowers the Cyclops to 3 GP


def test_cyclops_building_only_the_players_own():
    """Rule cyclops_building: "Cyclops: the player changes one of their buildings ..." — Dan cannot change Ann's
    temple on IS2."""
    line = "Dan/Poseidon: buy Cyclops: temple IS2 -> port"
    g = play(first_cycle("Cyclops", "Ann/Zeus: temple on IS2\n" + line))
    assert g.problems == [(line, ("cyclops_building",))]
    assert g.report.problems[0].breaches[0].message == (
        "Dan cannot change a temple on IS2 with the Cyclops: they own no such building there")
    assert buildings(g.after(line), "IS2") == {"temple": 1}


def test_cyclops_type_another_type():
    """Rule cyclops_type: "The building the Cyclops changes becomes a building of another type." """
    line = "Ann/Zeus: temple on IS2; buy Cyclops: temple IS2 -> temple"
    g = play(first_cycle("Cyclops", line))
    assert g.problems == [(line, ("cyclops_type",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot change a temple into the same type, or into something that is not a building")


def test_cyclops_building_the_fourth_type_builds_a_metropolis_at_once():
    """Rule cyclops_building: "... if they then own the four types, they build a metropolis at once (rule
    metropolis_buildings)." — BUILD3 (see test_rules_metropolis.py): in cycle 5 Ann, with two temples and a
    university on IS7, a university on IS1 and ports on IS5, turns a temple into a fortress, discards one of
    each type and places the metropolis on IS7."""
    line = "Ann/Zeus: buy Cyclops: temple IS7 -> fortress"
    discards = ("Ann/Zeus: discard temple IS7; discard university IS1; discard port IS5; discard fortress IS7; "
                "metropolis on IS7")
    g = play(BUILD3.format(bob1=1) + f"""
        Cy/Apollo: prosperity on IS4
        cycle 5
        creatures: Cyclops, Griffon, Sylph
        gods: Zeus, Athena / Ares, Poseidon
        Cy: Apollo
        Bob: Apollo
        Ann: 1 on Zeus
        {line}
        {discards}
        Cy/Apollo: prosperity on IS4
    """, players=3, board="build3")
    assert g.problems == []
    assert fluents(g.before(line), "pending") == []
    assert fluents(g.after(line), "pending") == [("Ann", "buildings")]
    assert metropolises(g.after(discards)) == ["IS7"]
    assert buildings(g.after(discards), "IS7") == {"university": 1}


# -- Pegasus ---------------------------------------------------------------------------------

def test_pegasus_move_to_any_island_without_fleets_or_cost():
    """Rule pegasus_move: "Pegasus: some or all troops of one of the player's islands move to any other island,
    without a chain of fleets and at no cost; landing among enemy troops starts a battle as usual." — Ann, on
    Zeus, flies her troop from IS2 to the empty IS5, which no fleet of hers links: she takes IS5 and keeps IS2
    with a territory marker; she pays only the Pegasus (4 GP)."""
    line = "Ann/Zeus: buy Pegasus: troop IS2 -> IS5"
    g = play(first_cycle("Pegasus", line))
    assert g.problems == []
    after = g.after(line)
    assert count(after, "troops", "Ann", "IS5") == 1 and holds(after, "marker", "IS2", "Ann")
    assert gold(after, "Ann") == 6 - 4


def test_pegasus_move_a_battle_as_usual():
    """Rule pegasus_move: "... landing among enemy troops starts a battle as usual." — Ann's troop lands on
    Cy's IS4 (1 troop, no fortress): 1 + 3 beats 1 + 0; Cy loses his troop and Ann takes IS4."""
    line = "Ann/Zeus: buy Pegasus: troop IS2 -> IS4"
    g = play(first_cycle("Pegasus", line + "\nbattle: Ann 3, Cy 0"))
    assert g.problems == []
    assert fluents(g.after(line), "battle") == [("land", "IS4", "Ann", "Cy")]
    after = g.after("battle: Ann 3, Cy 0")
    assert fluents(after, "battle") == [] and count(after, "troops", "Cy", "IS4") == 0
    assert count(after, "troops", "Ann", "IS4") == 1


def test_pegasus_move_to_another_island():
    """Rule pegasus_move: "Pegasus: some or all troops of one of the player's islands move to any other
    island, ..." — not to the island they stand on, and only the troops there (rule troop_move_from)."""
    g = play(first_cycle("Pegasus", "Ann/Zeus: buy Pegasus: troop IS2 -> IS2"))
    assert g.problems == [("Ann/Zeus: buy Pegasus: troop IS2 -> IS2", ("pegasus_move",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot fly troops to IS2 with the Pegasus: it is not another island")
    g = play(first_cycle("Pegasus", "Ann/Zeus: buy Pegasus: 2 troops IS2 -> IS5"))
    assert g.problems == [("Ann/Zeus: buy Pegasus: 2 troops IS2 -> IS5", ("troop_move_from",))]


# -- Siren -----------------------------------------------------------------------------------

def test_siren_fleet_replaces_an_enemy_fleet():
    """Rule siren_fleet: "Siren: one enemy fleet of the player's choice goes back to its owner's reserve and one
    of the player's fleets takes its place." — Cy's fleet on F5 gives way to one of Ann's."""
    line = "Ann/Zeus: buy Siren: F5"
    g = play(first_cycle("Siren", line))
    assert g.problems == []
    after = g.after(line)
    assert count(after, "fleets", "Cy", "F5") == 0 and count(after, "fleets", "Ann", "F5") == 1
    assert count(after, "fleets", "Ann", "C6") == 1 and count(after, "fleets", "Ann", "K1") == 1


def test_siren_fleet_only_an_enemy_fleet():
    """Rule siren_fleet: "Siren: one enemy fleet of the player's choice goes back ..." — not Ann's own fleet on
    C6, nor an empty sea space (D3; D4 is a hex of the island IS4, which the reader refuses at the id)."""
    g = play(first_cycle("Siren", "Ann/Zeus: buy Siren: C6"))
    assert g.problems == [("Ann/Zeus: buy Siren: C6", ("siren_fleet",))]
    assert g.report.problems[0].breaches[0].message == "Ann cannot use the Siren on C6: there is no enemy fleet there"
    assert count(g.final, "fleets", "Ann", "C6") == 1
    g = play(first_cycle("Siren", "Ann/Zeus: buy Siren: D3"))
    assert g.problems == [("Ann/Zeus: buy Siren: D3", ("siren_fleet",))]


def test_siren_reserve_from_the_board_when_the_reserve_is_empty():
    """Rule siren_reserve: "The fleet comes from the player's reserve; only when the reserve is empty does the
    player take one of their fleets from elsewhere on the board." — board full5: Ann has all 8 fleets on the
    board; she takes the one on K1 to replace Cy's fleet on H6."""
    line = "Ann/Zeus: buy Siren: H6 from K1"
    g = play(first_cycle("Siren", line).replace("Eve/Apollo: prosperity on IS3", "Eve/Apollo: prosperity on IS12"),
             board="full5")
    assert g.problems == []
    after = g.after(line)
    assert count(after, "fleets", "Cy", "H6") == 0 and count(after, "fleets", "Ann", "H6") == 1
    assert count(after, "fleets", "Ann", "K1") == 0


def test_siren_reserve_the_reserve_first():
    """Rule siren_reserve: "The fleet comes from the player's reserve; only when the reserve is empty ..." —
    on board full5 Ann has no fleet in reserve; on the 5p board she has six, and may not take one from K1."""
    line = "Ann/Zeus: buy Siren: H6"
    g = play(first_cycle("Siren", line).replace("Eve/Apollo: prosperity on IS3", "Eve/Apollo: prosperity on IS12"),
             board="full5")
    assert g.problems == [(line, ("siren_reserve",))]
    line = "Ann/Zeus: buy Siren: F5 from K1"
    g = play(first_cycle("Siren", line))
    assert g.problems == [(line, ("siren_reserve",))]
    assert count(g.after(line), "fleets", "Ann", "F5") == 1  # applied as played


#: Cy has two more fleets on E8, beside Dan's fleet on D8: a space with several fleets.
STACKED = "position: Cy 2 fleets E8\n"


def siren_targets(g, line: str) -> set[str]:
    """The sea spaces of the Siren's uses listed as legal right after the purchase on ``line``."""
    use = g.steps(line)[1]
    legal = g.session.referee.legal_moves(use.before)
    return {str(FleetTarget.read(Use.read(m).target).sea) for r, m in legal if r == "Ann" and m.name == "use"}


def test_siren_isolated_not_on_a_space_with_several_fleets():
    """Rule siren_isolated: "The Siren works only on an isolated fleet: the enemy fleet it replaces must be alone
    on its sea space." — Cy's two fleets on E8 are no target, and E8 is not among the listed uses; his
    fleet alone on F5 is."""
    line = "Ann/Zeus: buy Siren: E8"
    g = play(STACKED + first_cycle("Siren", line))
    assert g.problems == [(line, ("siren_isolated",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot use the Siren on E8: it works only on an isolated fleet, and E8 holds 2 fleets")
    targets = siren_targets(g, line)
    assert "E8" not in targets and {"F5", "K6", "D8"} <= targets
    line = "Ann/Zeus: buy Siren: F5"
    g = play(STACKED + first_cycle("Siren", line))
    assert g.problems == []
    assert count(g.after(line), "fleets", "Cy", "F5") == 0 and count(g.after(line), "fleets", "Ann", "F5") == 1


def test_siren_isolated_no_two_battles_at_once():
    """Rule siren_isolated: "The Siren works only on an isolated fleet: ..." — the position a random playout
    reached (5 players, seed 1): a Siren on a stack left one of Ann's fleets beside one of Cy's on E8 with no
    battle, and Dan sailing in started two battles at once, after which chance had no legal round. The Siren
    is now the illegal move, on both paths, with the same states move by move."""
    body = STACKED + first_cycle("Siren", """
        Ann/Zeus: buy Siren: E8; pass
        Bob/Athena: pass
        Cy/Ares: pass
        Dan/Poseidon: fleet D8 -> E8
    """).replace("Eve/Apollo: prosperity on IS3", "")
    text = transcript(body)
    fast = Session(parse_transcript(text, "test.cyc"), cache=False)
    solver = Session(parse_transcript(text, "test.cyc"), CheckOptions(fast_path=False), cache=False)
    reports = fast.check(), solver.check()
    for report in reports:
        assert [(v.text, tuple(b.rule for b in v.breaches)) for v in report.problems] == [("E8", ("siren_isolated",))]
    runs = fast.referee.run(), solver.referee.run()
    assert [(s.role, s.move, s.after) for s in runs[0].steps] == [(s.role, s.move, s.after) for s in runs[1].steps]
