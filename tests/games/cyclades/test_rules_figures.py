"""Cyclades, the creatures with a figure (rulebook: Mythological creatures): Kraken,
Minotaur, Chiron, Medusa and Polyphemus (referee/games/cyclades/rules/figures.lp).

Rules figure_place, figure_duration, figure_collision, kraken_place, kraken_move,
kraken_move_affordable, kraken_closed, minotaur_defends, minotaur_no_retreat,
chiron_protects, medusa_troops, polyphemus_push, polyphemus_sink, polyphemus_all and
polyphemus_closed. Uses are written after the purchase (docs/notation.md, Creatures):
``buy Minotaur: IS4``, ``buy Kraken: F6 -> F5``, ``buy Polyphemus: IS4, fleet F5 -> G5``.

Board figures5 (tests/helpers/cyclades.py), cycle 1, each player offers 1 GP (Eve
takes Apollo): Ann 6 GP, Bob 6, Cy 6, Dan 5, Eve 8. Troops: Ann IS2, IS12; Bob IS1,
IS9; Cy IS4, IS13; Dan IS6, IS11; Eve IS3, IS7. Fleets: Ann C6, K1; Bob B3, E7; Cy F5,
K6; Dan D8, F10; Eve F1, F3. The card tested lies on the 4-GP slot. Cycle 2 (CYCLE2):
Ann on Apollo acts last; Eve (Zeus) first, with 12 GP, then Dan (Athena, 5 GP).
"""

from __future__ import annotations

import pytest
from helpers.cyclades import count, first_cycle, fluents, gold, holds, play

from referee.base.terms import Fn, fn

#: The next cycle: the turn order is Eve, Dan, Cy, Bob, Ann; Ann goes to Apollo and acts last.
CYCLE2 = """
    cycle 2
    creatures: {cards}
    gods: Zeus, Athena, Ares, Poseidon
    Eve: 1 on Zeus
    Dan: 1 on Athena
    Cy: 1 on Ares
    Bob: 1 on Poseidon
    Ann: Apollo
    {actions}
"""


def figures(card: str, actions: str, cycle2: str | None = None, cards: str = "Harpy, Giant"):
    """Cycle 1 with ``card`` on the track and ``actions``; then, if given, cycle 2
    with ``cards`` on the track and ``cycle2``'s actions."""
    body = first_cycle(card, actions)
    if cycle2 is not None:
        body += CYCLE2.format(cards=cards, actions=cycle2.strip())
    return play(body, board="figures5")


def figure_places(state) -> list[tuple]:
    return fluents(state, "figure")


def discards(state) -> list[str]:
    return [c for (c,) in fluents(state, "discard")]


# -- figure_place ------------------------------------------------------------------------------

def test_figure_place_the_figure_goes_on_an_island():
    """Rule figure_place: "Minotaur, Chiron, Medusa, Polyphemus: the player puts the creature's figure on an
    island of their choice." — Ann's Minotaur stands on Cy's IS4; its card stays with it (not discarded)."""
    line = "Ann/Zeus: buy Minotaur: IS4"
    g = figures("Minotaur", line)
    assert g.problems == []
    after = g.after(line)
    assert figure_places(after) == [("minotaur", "IS4", "Ann", 1)]
    assert discards(after) == [] and gold(after, "Ann") == 6 - 4
    assert g.report.warnings == []  # the effect is checked: no "effect not checked" warning


def test_figure_place_not_at_sea():
    """Rule figure_place: "... puts the creature's figure on an island of their choice." — F5 is a sea space."""
    line = "Ann/Zeus: buy Chiron: F5"
    g = figures("Chiron", line)
    assert g.problems == [(line, ("figure_place",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot place Chiron there: the figure goes on an island, once per purchase")
    # the card, whose figure was not placed, is discarded when Ann's chance to use it ends
    assert figure_places(g.final) == [] and "chiron" in discards(g.final)


def test_figure_place_alternatives_list_the_islands():
    """Rule figure_place: "... on an island of their choice." — the alternatives after the purchase name
    every island of the board, grouped."""
    line = "Ann/Zeus: buy Medusa: F5 ??"
    g = figures("Medusa", line)
    verdict = g.session.explain(move=g.steps(line)[1].number, everything=True)
    wording = "\n".join(verdict.alternatives)
    assert "Medusa: any of 13 islands: IS1, IS10, IS11, IS12, IS13, IS2, IS3, IS4, IS5, IS6, IS7, IS8, IS9" in wording


# -- figure_duration ----------------------------------------------------------------------------

def test_figure_duration_acts_until_the_buyers_actions_next_cycle():
    """Rule figure_duration: "Minotaur, Chiron, Medusa, Polyphemus act on their island until the start of the
    buyer's actions in the next cycle; then the figure leaves the board and the card goes to the discard
    pile." — Ann's Medusa still holds Cy's troop on IS4 in cycle 2 before Ann acts (Ann is last, on Apollo);
    when her turn begins it leaves and its card is discarded."""
    g = figures("Medusa", "Ann/Zeus: buy Medusa: IS4",
                cycle2="""
                    Cy/Ares: troop IS4 -> IS8
                    Ann/Apollo: prosperity on IS2
                """)
    assert g.problems == [("Cy/Ares: troop IS4 -> IS8", ("medusa_troops",))]
    assert figure_places(g.before("Cy/Ares: troop IS4 -> IS8")) == [("medusa", "IS4", "Ann", 1)]
    before_ann = g.before("Ann/Apollo: prosperity on IS2")
    assert figure_places(before_ann) == [] and "medusa" in discards(before_ann)


def test_figure_duration_a_card_back_in_the_deck_is_not_discarded_again():
    """Rule figure_duration: "... then the figure leaves the board and the card goes to the discard pile." — the
    card goes there from its buyer's hand: a card already back in the deck (as after the Chimera used it and the
    discard pile was shuffled in) stays there, once."""
    g = figures("Medusa", "Ann/Zeus: buy Medusa: IS4",
                cycle2="Cy/Ares: troop on IS4\nAnn/Apollo: prosperity on IS2")
    assert g.problems == []
    step = next(s for s in g.run.steps if fluents(s.before, "figure") and not fluents(s.after, "figure"))
    assert "medusa" in discards(step.after)
    state = step.before | {fn("deck", Fn("medusa"))}
    rules = g.session.referee.rules
    judged = g.session.referee.engine.judge(rules.static, state, step.role, step.move)
    assert fluents(judged.next_state, "figure") == [] and "medusa" not in discards(judged.next_state)
    assert holds(judged.next_state, "deck", ":medusa")
    assert g.session.referee.speed.speculate(state, step.role, step.move) == judged.next_state


def test_figure_duration_ends_when_the_buyer_acts_first():
    """Rule figure_duration: "... until the start of the buyer's actions in the next cycle ..." — Ann acts first
    in cycle 2 (Zeus): the Medusa is gone at once, and Cy's troop may leave IS4."""
    body = first_cycle("Medusa", "Ann/Zeus: buy Medusa: IS4") + """
        cycle 2
        creatures: Harpy, Giant
        gods: Zeus, Athena, Ares, Poseidon
        Eve: 1 on Athena
        Dan: Apollo
        Cy: 1 on Ares
        Bob: 1 on Poseidon
        Ann: 1 on Zeus
        Ann/Zeus: priest
        Cy/Ares: troop IS4 -> IS8
    """
    g = play(body, board="figures5")
    assert g.problems == []
    assert figure_places(g.before("Ann/Zeus: priest")) == []
    assert count(g.after("Cy/Ares: troop IS4 -> IS8"), "troops", "Cy", "IS8") == 1


# -- figure_collision -----------------------------------------------------------------------------

def test_figure_collision_two_figures_destroy_each_other():
    """Rule figure_collision: "Two figures on the same island destroy each other: both leave the board and both
    cards go to the discard pile." — Eve puts Chiron on IS4, where Ann's Minotaur stands."""
    line = "Eve/Zeus: buy Chiron: IS4"
    g = figures("Minotaur", "Ann/Zeus: buy Minotaur: IS4", cycle2=line, cards="Chiron, Harpy")
    assert g.problems == []
    assert figure_places(g.before(line)) == [("minotaur", "IS4", "Ann", 1)]
    after = g.after(line)
    assert figure_places(after) == []
    assert {"minotaur", "chiron"} <= set(discards(after))


# -- Kraken ----------------------------------------------------------------------------------------

def test_kraken_place_destroys_the_fleets_there():
    """Rule kraken_place: "Kraken: the player puts the Kraken on any sea space (taking it from wherever it
    stands); the fleets there are destroyed and go back to their owners." — Cy's fleet on F5."""
    line = "Ann/Zeus: buy Kraken: F5"
    g = figures("Kraken", line)
    assert g.problems == []
    after = g.after(line)
    assert count(after, "fleets", "Cy", "F5") == 0 and count(after, "fleets", "Cy", "K6") == 1
    assert figure_places(after) == [("kraken", "F5", "Ann", 1)]
    assert discards(after) == ["kraken"]


def test_kraken_place_on_a_sea_space_only():
    """Rule kraken_place: "... puts the Kraken on any sea space ..." — IS4 is an island."""
    line = "Ann/Zeus: buy Kraken: IS4"
    g = figures("Kraken", line)
    assert g.problems == [(line, ("kraken_place",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot place the Kraken on IS4: it goes on a sea space, once per purchase")


def test_kraken_place_the_next_buyer_takes_it_from_where_it_stands():
    """Rule kraken_place: "... (taking it from wherever it stands) ..." — a position where Bob's Kraken stands on
    K1 and Ann has just bought the card (the only way to see it again is a reshuffle of the deck): she puts it on
    B3, and it leaves K1."""
    line = "Ann/Zeus: buy Kraken"
    g = figures("Kraken", line)
    session = g.session
    state = g.after(line) | {fn("figure", Fn("kraken"), "K1", "Bob", 1)}
    move = fn("use", Fn("kraken"), fn("sea", "B3"))
    judged = session.referee.engine.judge(session.referee.rules.static, state, "Ann", move)
    assert judged.violations == ()
    assert fluents(judged.next_state, "figure") == [("kraken", "B3", "Ann", 1)]
    assert count(judged.next_state, "fleets", "Bob", "B3") == 0
    assert session.referee.speed.speculate(state, "Ann", move) == judged.next_state


def test_kraken_move_space_by_space_for_1_gp_each():
    """Rule kraken_move: "For 1 GP per space, right after placing it, the player moves the Kraken on from space
    to adjacent space; the fleets on every space it enters are destroyed." — F6 (empty), F5 (Cy's fleet), E4."""
    line = "Ann/Zeus: buy Kraken: F6 -> F5 -> E4"
    g = figures("Kraken", line)
    assert g.problems == []
    after = g.after(line)
    assert gold(after, "Ann") == 6 - 4 - 2
    assert count(after, "fleets", "Cy", "F5") == 0
    assert figure_places(after) == [("kraken", "E4", "Ann", 1)]


def test_kraken_move_to_an_adjacent_space():
    """Rule kraken_move: "... moves the Kraken on from space to adjacent space ..." — E3 is not next to F6."""
    line = "Ann/Zeus: buy Kraken: F6 -> E3"
    g = figures("Kraken", line)
    assert g.problems == [(line, ("kraken_move",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot move the Kraken to E3: it moves to an adjacent sea space, right after it is placed")
    assert figure_places(g.after(line)) == [("kraken", "F6", "Ann", 1)]


def test_kraken_move_affordable():
    """Rule kraken_move_affordable: "Each space the Kraken moves costs 1 GP; the player must be able to pay it."
    — Ann has 2 GP left after the purchase: the third space is one too many."""
    line = "Ann/Zeus: buy Kraken: F6 -> F5 -> E4 -> D3"
    g = figures("Kraken", line)
    assert g.problems == [(line, ("kraken_move_affordable",))]
    assert g.report.problems[0].breaches[0].message == "Ann has 0 GP and cannot pay the 1 GP to move the Kraken"


def test_kraken_closed_to_fleets_sailing_or_recruited():
    """Rule kraken_closed: "The sea space where the Kraken stands is closed to all fleets until it moves: no
    fleet sails into it, is recruited there or retreats there." — the Kraken on E8, next to Dan's D8 and IS6."""
    g = figures("Kraken", """
        Ann/Zeus: buy Kraken: E8
        Dan/Poseidon: fleet on E8; fleet D8 -> E8
    """)
    assert g.problems == [("Dan/Poseidon: fleet on E8; fleet D8 -> E8", ("kraken_closed",)),
                          ("Dan/Poseidon: fleet on E8; fleet D8 -> E8", ("kraken_closed",))]
    assert g.report.problems[0].breaches[0].message == "Dan cannot bring a fleet to E8: the Kraken closes it to fleets"


def test_kraken_closed_until_it_moves():
    """Rule kraken_closed: "... closed to all fleets until it moves ..." — the Kraken goes on from E8 to E7
    (Bob's fleet is destroyed): E8 is open again."""
    line = "Dan/Poseidon: fleet D8 -> E8"
    g = figures("Kraken", "Ann/Zeus: buy Kraken: E8 -> E7\n" + line)
    assert g.problems == []
    assert count(g.after(line), "fleets", "Dan", "E8") == 1
    assert count(g.after(line), "fleets", "Bob", "E7") == 0


def test_kraken_closed_to_a_retreat():
    """Rule kraken_closed: "... no fleet ... retreats there." — Dan attacks Bob's fleet on E7 and loses a round;
    he cannot retreat to E6, where the Kraken stands, but may to E8."""
    body = """
        Ann/Zeus: buy Kraken: E6
        Dan/Poseidon: fleet on D8; 2 fleets D8 -> E8 -> E7
        battle: Dan 0, Bob 3
        Dan: retreat to {to}
    """
    g = figures("Kraken", body.format(to="E6"))
    assert g.problems == [("Dan: retreat to E6", ("kraken_closed",))]
    assert figures("Kraken", body.format(to="E8")).problems == []


# -- Minotaur --------------------------------------------------------------------------------------

ATTACK = """
    Ann/Zeus: buy {figure}: IS11
    Cy/Ares: 2 troops on IS13; 3 troops IS13 -> IS11
"""


def test_minotaur_defends_as_two_troops():
    """Rule minotaur_defends: "Minotaur: he counts as two troops defending his island in a battle (whoever
    defends it) ..." — Cy's 3 troops roll 1 (4), Dan's one troop and the Minotaur roll 2 (1 + 2 + 2 = 5):
    Cy loses; without the Minotaur Dan would have lost (3)."""
    g = figures("Minotaur", ATTACK.format(figure="Minotaur") + "battle: Cy 1, Dan 2\nCy: retreat to IS13")
    assert g.problems == []
    after = g.after("battle: Cy 1, Dan 2")
    assert count(after, "troops", "Cy", "IS11") == 2 and count(after, "troops", "Dan", "IS11") == 1


def test_minotaur_defends_lost_last():
    """Rule minotaur_defends: "... the defender's troops are lost before him; once he is alone, he is discarded
    when the defender loses another round." — Dan's troop falls first (Cy 5, Dan 4), the Minotaur fights on
    alone, and falls in the next round (Cy 3, Dan 2): Cy takes IS11."""
    g = figures("Minotaur", ATTACK.format(figure="Minotaur") + "battle: Cy 2, Dan 1\nbattle: Cy 0, Dan 0")
    assert g.problems == []
    middle = g.after("battle: Cy 2, Dan 1")
    assert count(middle, "troops", "Dan", "IS11") == 0
    assert fluents(middle, "battle") == [("land", "IS11", "Cy", "Dan")]
    assert figure_places(middle) == [("minotaur", "IS11", "Ann", 1)]
    end = g.after("battle: Cy 0, Dan 0")
    assert fluents(end, "battle") == [] and figure_places(end) == []
    assert "minotaur" in discards(end)
    assert count(end, "troops", "Cy", "IS11") == 3 and not holds(end, "marker", "IS11", "Dan")


def test_minotaur_defends_alone_keeps_the_island_when_the_attacker_retreats():
    """Rule minotaur_defends: "... once he is alone ..." — Dan's troop falls, Cy retreats from the Minotaur:
    IS11 stays Dan's, with his territory marker."""
    g = figures("Minotaur", ATTACK.format(figure="Minotaur") + "battle: Cy 2, Dan 1\nCy: retreat to IS13")
    assert g.problems == []
    end = g.final
    assert holds(end, "marker", "IS11", "Dan") and count(end, "troops", "Cy", "IS13") == 3


def test_minotaur_no_retreat():
    """Rule minotaur_no_retreat: "The Minotaur never retreats: the side he defends cannot retreat from his
    island." — Dan, who could otherwise retreat to IS6 by his fleet on F10, must fight on."""
    line = "Dan: retreat to IS6"
    g = figures("Minotaur", ATTACK.format(figure="Minotaur") + "battle: Cy 0, Dan 3\n" + line)
    assert g.problems == [(line, ("minotaur_no_retreat",))]
    assert g.report.problems[0].breaches[0].message == (
        "Dan cannot retreat from IS11: the Minotaur defends it and never retreats")


# -- Chiron ------------------------------------------------------------------------------------------

def test_chiron_protects_from_harpy_and_giant():
    """Rule chiron_protects: "Chiron protects his island from the Pegasus (no troops fly there), the Giant and
    the Harpy; the other creatures still act there." — Ann's Chiron on Cy's IS4 (with Cy's fortress): in cycle
    2 Eve's Harpy and Dan's Giant cannot touch it."""
    g = figures("Chiron", "Ann/Zeus: buy Chiron: IS4\nCy/Ares: fortress on IS4",
                cycle2="""
                    Eve/Zeus: buy Harpy: troop IS4
                    Dan/Athena: buy Giant: fortress IS4
                """)
    assert g.problems == [("Eve/Zeus: buy Harpy: troop IS4", ("chiron_protects",)),
                          ("Dan/Athena: buy Giant: fortress IS4", ("chiron_protects",))]
    assert [p.breaches[0].message for p in g.report.problems] == [
        "Eve cannot use the Harpy on IS4: Chiron protects the island",
        "Dan cannot use the Giant on IS4: Chiron protects the island"]


def test_chiron_protects_from_pegasus():
    """Rule chiron_protects: "... from the Pegasus (no troops fly there) ..." — Eve's troops cannot fly to IS4."""
    line = "Eve/Zeus: buy Pegasus: troop IS3 -> IS4"
    g = figures("Chiron", "Ann/Zeus: buy Chiron: IS4", cycle2=line, cards="Pegasus, Giant")
    assert g.problems == [(line, ("chiron_protects",))]


def test_chiron_protects_only_his_island():
    """Rule chiron_protects: "... the other creatures still act there." — the Harpy still acts elsewhere, on Cy's
    IS13."""
    line = "Eve/Zeus: buy Harpy: troop IS13"
    g = figures("Chiron", "Ann/Zeus: buy Chiron: IS4", cycle2=line)
    assert g.problems == []
    assert count(g.after(line), "troops", "Cy", "IS13") == 0


# -- Medusa --------------------------------------------------------------------------------------------

def test_medusa_troops_cannot_move_away():
    """Rule medusa_troops: "Medusa: troops on her island cannot move away (by Ares or the Pegasus, nor retreat
    from a battle there); troops may still arrive ..." — Cy's troop on IS4 cannot sail away to IS8."""
    line = "Cy/Ares: troop IS4 -> IS8"
    g = figures("Medusa", "Ann/Zeus: buy Medusa: IS4\n" + line)
    assert g.problems == [(line, ("medusa_troops",))]
    assert g.report.problems[0].breaches[0].message == "Cy cannot move troops away from IS4: Medusa holds them there"


@pytest.mark.parametrize("retreat", ["Dan: retreat to IS6", "Cy: retreat to IS13"])
def test_medusa_troops_arrive_but_nobody_retreats(retreat):
    """Rule medusa_troops: "... troops may still arrive, and an attacker there cannot retreat." — Cy lands on
    Dan's IS11 where the Medusa stands (legal); after a round neither Dan nor Cy may retreat."""
    g = figures("Medusa", ATTACK.format(figure="Medusa") + "battle: Cy 0, Dan 3\n" + retreat)
    assert g.problems == [(retreat, ("medusa_troops",))]


# -- Polyphemus ------------------------------------------------------------------------------------------

def test_polyphemus_push_a_space_away():
    """Rule polyphemus_push: "Polyphemus: the fleets on the sea spaces next to his island are pushed one space
    away, in the order and direction the buyer chooses, ..." — Cy's fleet on F5, next to IS4, goes to G5."""
    line = "Ann/Zeus: buy Polyphemus: IS4, fleet F5 -> G5"
    g = figures("Polyphemus", line)
    assert g.problems == []
    after = g.after(line)
    assert count(after, "fleets", "Cy", "F5") == 0 and count(after, "fleets", "Cy", "G5") == 1
    assert figure_places(after) == [("polyphemus", "IS4", "Ann", 1)]


def test_polyphemus_push_away_from_the_island():
    """Rule polyphemus_push: "... to an adjacent space that is not next to the island ..." — F6 is next to IS4
    too; the fleet then goes on to G5."""
    line = "Ann/Zeus: buy Polyphemus: IS4, fleet F5 -> F6, fleet F6 -> G5"
    g = figures("Polyphemus", line)
    assert g.problems == [(line, ("polyphemus_push",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot push fleets from F5 to F6: they go from a space next to the Polyphemus's island to an adjacent"
        " space farther away, open to fleets, without another colour's fleets")


def test_polyphemus_push_never_two_colours():
    """Rule polyphemus_push: "... holds no other colour's fleets." — Bob's fleet on E7 (next to IS9) could only
    go to E8, where Dan's fleet stands."""
    line = "Dan/Poseidon: fleet on E8; buy Polyphemus: IS9, fleet E7 -> E8"
    g = figures("Polyphemus", line)
    assert g.problems == [(line, ("polyphemus_push",))]


def test_polyphemus_sink_fleets_that_cannot_move():
    """Rule polyphemus_sink: "Fleets next to the Polyphemus's island that cannot be pushed anywhere are destroyed
    (and go back to their owner)." — Bob's fleet on E7, with Dan's on E8, is destroyed."""
    line = "Dan/Poseidon: fleet on E8; buy Polyphemus: IS9, sink E7"
    g = figures("Polyphemus", line)
    assert g.problems == []
    assert count(g.after(line), "fleets", "Bob", "E7") == 0 and count(g.after(line), "fleets", "Dan", "E8") == 1


def test_polyphemus_sink_only_when_no_push_is_possible():
    """Rule polyphemus_sink: "... that cannot be pushed anywhere are destroyed ..." — Cy's fleet on F5 could go
    to G5."""
    line = "Ann/Zeus: buy Polyphemus: IS4, sink F5"
    g = figures("Polyphemus", line)
    assert g.problems == [(line, ("polyphemus_sink",))]


def test_polyphemus_all_before_anything_else():
    """Rule polyphemus_all: "All the fleets next to the Polyphemus's island are pushed (or destroyed) at once,
    before the buyer does anything else." — Ann recruits a priest with Cy's fleet still on F5; the alternatives
    then are the pushes."""
    line = "Ann/Zeus: buy Polyphemus: IS4; priest ??"
    g = figures("Polyphemus", line)
    assert g.problems == [(line, ("polyphemus_all",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann must first push (or destroy) the fleets on F5, next to the Polyphemus's island")
    wording = "\n".join(g.session.explain(move=g.steps(line)[2].number, everything=True).alternatives)
    assert "Polyphemus: push 1 of the fleets on F5 to G5" in wording
    assert "recruit" not in wording


def test_polyphemus_closed_while_he_stays():
    """Rule polyphemus_closed: "While the Polyphemus stays, no fleet may enter the sea spaces next to his island:
    none sails into them, is recruited there or retreats there." — Dan sinks Bob's E7 fleet, then cannot sail
    into E7."""
    line = "Dan/Poseidon: fleet on E8; buy Polyphemus: IS9, sink E7; fleet E8 -> E7"
    g = figures("Polyphemus", line)
    assert g.problems == [(line, ("polyphemus_closed",))]
    assert g.report.problems[0].breaches[0].message == (
        "Dan cannot bring a fleet to E7: it lies next to the Polyphemus's island")


# -- Zeus's replacement and the words -------------------------------------------------------------

def test_zeus_replace_creature_a_figure_card_goes_to_the_discard_pile():
    """Rule zeus_replace_creature: "With Zeus, for 1 GP a player may discard a creature from the track and put the
    top card of the deck in its slot, as often as they can pay." — a figure card replaced on the track is discarded like any other (it was
    never placed)."""
    line = "Ann/Zeus: replace Medusa -> Kraken"
    g = figures("Medusa", line)
    assert g.problems == []
    after = g.after(line)
    assert discards(after) == ["medusa"] and fluents(after, "track") == [(4, "kraken")]
    assert gold(after, "Ann") == 6 - 1


def test_figure_uses_in_words():
    """The figures' uses as the referee words them (docs/notation.md, Creatures)."""
    words = figures("Kraken", "Ann/Zeus: buy Kraken: F6 -> F5").session.referee.words.describe_move
    assert words(fn("use", Fn("kraken"), fn("sea", "F6"))) == "use Kraken: put it on F6, destroying the fleets there"
    assert words(fn("use", Fn("kraken"), fn("step", "F5"))) == (
        "use Kraken: move it on to F5 (1 GP), destroying the fleets there")
    assert words(fn("use", Fn("medusa"), fn("island", "IS4"))) == "use Medusa: put it on IS4"
    assert words(fn("use", Fn("polyphemus"), fn("push", "F5", 2, "G5"))) == "use Polyphemus: push 2 fleets from F5 to G5"
    assert words(fn("use", Fn("polyphemus"), fn("sink", "F3"))) == (
        "use Polyphemus: destroy the fleets on F3, which cannot be pushed")


def test_kraken_closed_to_the_sylph():
    """Rule kraken_closed: "... no fleet sails into it ..." — the Sylph's movement is a fleet movement too:
    in cycle 2 Dan's Sylph cannot take his fleet from D8 into E8, where Ann's Kraken stands."""
    line = "Dan/Athena: buy Sylph: fleet D8 -> E8"
    g = figures("Kraken", "Ann/Zeus: buy Kraken: E8", cycle2=line, cards="Sylph, Giant")
    assert g.problems == [(line, ("kraken_closed",))]


def test_polyphemus_closed_to_the_sylph():
    """Rule polyphemus_closed: "While the Polyphemus stays, no fleet may enter the sea spaces next to his island
    ..." — until Ann's actions in cycle 2, to a Sylph's movement as to Poseidon's: Ann's Polyphemus on IS9 pushes
    Bob's E7 fleet to E8; in cycle 2 Dan's Sylph cannot take his F10 fleet through F9 into F8, next to IS9."""
    line = "Dan/Athena: buy Sylph: fleet F10 -> F9 -> F8"
    g = figures("Polyphemus", "Ann/Zeus: buy Polyphemus: IS9, fleet E7 -> E8", cycle2=line, cards="Sylph, Giant")
    assert g.problems == [(line, ("polyphemus_closed",))]
