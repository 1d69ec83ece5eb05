"""Cyclades, the Sylph and the Chimera (rulebook: Mythological creatures), and the
deck and discard pile around them and Zeus's replacement
(referee/games/cyclades/rules/creatures.lp, movement.lp, cycle.lp).

Rules sylph_move, chimera_discard and chimera_shuffle. Written ``buy Sylph: fleet K1 ->
K2 -> K3`` and ``buy Chimera: Harpy: troop IS3`` (docs/notation.md, Creatures).

The position is test_rules_creature_effects.first_cycle's: board 5p, cycle 1, Ann on
Zeus, Bob Athena, Cy Ares, Dan Poseidon, Eve Apollo, each with 6 GP for the actions.
Fleets: Ann C6, K1; Bob B3, E7; Cy F5, K6; Dan D8, F1; Eve F3, G9.
"""

from __future__ import annotations

from helpers.cyclades import check_rewritten, count, first_cycle, fleets, fluents, gold, holds, play, transcript

from referee.base.terms import fn
from referee.games.cyclades.fluents import Sail, Use

#: Ann's fleet from K1 through empty spaces: 10 steps to F2, 12 to D1.
LONG = ["K2", "K3", "J4", "I4", "H4", "H3", "G3", "G2", "F2", "E1", "D1"]


def sylph(spaces: list[str], start: str = "K1", count_: int = 1) -> str:
    return f"Ann/Zeus: buy Sylph: {count_} fleet{'s' if count_ > 1 else ''} {start} -> " + " -> ".join(spaces)


# -- Sylph -------------------------------------------------------------------------------------

def test_sylph_move_up_to_10_spaces_at_no_cost_without_poseidon():
    """Rule sylph_move: "Sylph: the player's fleets of one sea space move as with Poseidon's power (picking up
    and leaving the player's own fleets on the way, stopping where enemy fleets are, with a sea battle there),
    up to 10 spaces, at no cost beyond the card." — Ann, on Zeus, sails K1 to E1 (10 spaces): she pays the
    4 GP of the card and nothing more."""
    line = sylph(LONG[:10])
    g = play(first_cycle("Sylph", line))
    assert g.problems == []
    after = g.after(line)
    assert fleets(after, "Ann") == {"C6": 1, "E1": 1}
    assert gold(after, "Ann") == 6 - 4


def test_sylph_move_not_beyond_10_spaces():
    """Rule sylph_move: "... up to 10 spaces, ..." — an eleventh space is too far (the move stands as played)."""
    line = sylph(LONG)
    g = play(first_cycle("Sylph", line))
    assert g.problems == [(line, ("sylph_move",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot move fleets that far with the Sylph: at most 10 spaces, at least one")


def test_sylph_move_as_with_poseidon_stops_at_enemy_fleets_and_fights():
    """Rule sylph_move: "... stopping where enemy fleets are, with a sea battle there ..." — going on through
    Eve's fleet on F3 breaks rule fleet_move_enemy_stop; stopping there starts a sea battle."""
    through = sylph(LONG[:7] + ["F3", "E3"])
    g = play(first_cycle("Sylph", through))
    assert g.problems == [(through, ("fleet_move_enemy_stop",))]
    stop = sylph(LONG[:7] + ["F3"])
    g = play(first_cycle("Sylph", stop + "\nbattle: Ann 3, Eve 0"))
    assert g.problems == []
    assert fluents(g.after(stop), "battle") == [("sea", "F3", "Ann", "Eve")]
    assert fleets(g.final, "Ann") == {"C6": 1, "F3": 1} and fleets(g.final, "Eve") == {"G9": 1}


def test_sylph_move_picks_up_fleets_on_the_way():
    """Rule sylph_move: "... (picking up and leaving the player's own fleets on the way ...)" — Dan recruits a
    fleet on F2, then the Sylph takes his fleet from F1 through F2, picking it up, to G3."""
    line = "Dan/Poseidon: fleet on F2; buy Sylph: fleet F1 -> F2 +1 -> G2 -> G3"
    g = play(first_cycle("Sylph", line))
    assert g.problems == []
    assert fleets(g.after(line), "Dan") == {"D8": 1, "G3": 2}
    assert gold(g.after(line), "Dan") == 6 - 4


def test_sylph_move_fleets_that_are_there():
    """Rule sylph_move: "Sylph: the player's fleets of one sea space move ..." — Ann has one fleet on K1, not
    two (rule fleet_move_start), and none on F5."""
    two = sylph(LONG[:2], count_=2)
    g = play(first_cycle("Sylph", two))
    assert g.problems == [(two, ("fleet_move_start",))]
    other = sylph(["G5"], start="F5")
    g = play(first_cycle("Sylph", other))
    assert g.problems == [(other, ("fleet_move_start",))]


def test_sylph_move_alternatives_by_destination():
    """Rule sylph_move: "... up to 10 spaces ..." — after the purchase, the moves listed are one route to each
    space within 10 spaces (not every route), grouped by start; the route written, if legal, is judged as
    written whether or not it is the one listed."""
    line = sylph(LONG[:10]) + " ??"
    g = play(first_cycle("Sylph", line))
    use = g.steps(line)[1]
    assert use.legal
    legal = [m for r, m in g.session.referee.legal_moves(use.before) if r == "Ann"]
    ends = {Sail.read(Use.read(m).target).path for m in legal if m.name == "use"}
    assert len(ends) == len({e for e in ends}) and len([m for m in legal if m.name == "use"]) > 20
    wording = "\n".join(g.session.explain(move=use.number, everything=True).alternatives)
    assert "Sylph: move 1 fleet from K1 to any of" in wording
    assert "Sylph: move 1 fleet from C6 to any of" in wording


# -- Chimera -----------------------------------------------------------------------------------

def test_chimera_discard_uses_a_card_of_the_discard_pile():
    """Rule chimera_discard: "Chimera: the player takes a creature card from the discard pile (not the Chimera
    itself) and uses its power at once, as if they had just bought it." — Ann replaces the Harpy (1 GP),
    buys the Chimera that comes out (4 GP) and uses the Harpy from the discard pile on Eve's troop on IS3."""
    line = "Ann/Zeus: replace Harpy -> Chimera; buy Chimera: Harpy: troop IS3"
    g = play(first_cycle("Harpy", line))
    assert g.problems == []
    after = g.after(line)
    assert count(after, "troops", "Eve", "IS3") == 0 and holds(after, "marker", "IS3", "Eve")
    assert gold(after, "Ann") == 6 - 1 - 4
    assert [s.move for s in g.steps(line)][-2:] == [fn("use", fn("chimera"), fn("harpy")),
                                                    fn("use", fn("harpy"), fn("troop", "IS3"))]


def test_chimera_discard_only_a_card_of_the_discard_pile():
    """Rule chimera_discard: "Chimera: the player takes a creature card from the discard pile ..." — the Griffon
    is in the deck, not the discard pile; and the Chimera cannot take itself."""
    line = "Ann/Zeus: replace Harpy -> Chimera; buy Chimera: Griffon: Bob"
    g = play(first_cycle("Harpy", line))
    assert g.problems == [(line, ("chimera_discard",)), (line, ("creature_effect_at_once",))]
    assert g.report.problems[0].breaches[0].message == (
        "Ann cannot take Griffon with the Chimera: it is not in the discard pile, or it is the Chimera itself")
    text = first_cycle("Harpy", "Ann/Zeus: replace Harpy -> Chimera; buy Chimera\nAnn/Zeus: use Chimera: Harpy")
    g = check_rewritten(transcript(text), "Ann/Zeus: use Chimera: Harpy", fn("use", fn("chimera"), fn("chimera")))
    assert [b.rule for v in g.report.problems for b in v.breaches] == ["chimera_discard"]


def test_chimera_discard_the_card_used_as_if_bought():
    """Rule chimera_discard: "... uses its power at once, as if they had just bought it." — the Fates taken by the
    Chimera give Ann her income again; a Pegasus flies troops; the Sphinx's sales follow each other."""
    line = "Ann/Zeus: replace The Fates -> Chimera; buy Chimera: The Fates"
    g = play(first_cycle("The Fates", line))
    assert g.problems == []
    income = g.when("income")
    collected = gold(income.after, "Ann") - gold(income.before, "Ann")
    assert collected > 0 and gold(g.after(line), "Ann") == 6 - 1 - 4 + collected
    line = "Ann/Zeus: replace Sphinx -> Chimera; buy Chimera: Sphinx: troop IS2, fleet C6"
    g = play(first_cycle("Sphinx", line))
    assert g.problems == []
    assert gold(g.after(line), "Ann") == 6 - 1 - 4 + 4 and holds(g.after(line), "marker", "IS2", "Ann")


def test_chimera_discard_a_use_right_after_the_pick():
    """Rule creature_effect_at_once: "A creature's power is used at once, right after the player buys it; ..." —
    the Harpy taken by the Chimera is used at once, not after a priest."""
    line = "Ann/Zeus: replace Harpy -> Chimera; buy Chimera: Harpy; priest; use Harpy: troop IS3"
    g = play(first_cycle("Harpy", line))
    assert g.problems == [(line, ("creature_effect_at_once",))]


def test_chimera_shuffle_the_discard_pile_goes_back_into_the_deck():
    """Rule chimera_shuffle: "After the Chimera is used, the discard pile (the Chimera and the card used with it)
    is shuffled into the deck." — after the Chimera, the discard pile is empty and the Harpy and the Chimera
    can come out again in cycle 2."""
    line = "Ann/Zeus: replace Harpy -> Chimera; buy Chimera: Harpy: troop IS3"
    cycle2 = """
        cycle 2
        creatures: Harpy, Chimera
        gods: Zeus, Athena, Ares, Poseidon
    """
    g = play(first_cycle("Harpy", line) + cycle2)
    assert g.problems == []
    after = g.after(line)
    assert fluents(after, "discard") == []
    assert {("harpy",), ("chimera",)} <= set(fluents(after, "deck"))


def test_chimera_shuffle_not_when_zeus_discards_the_chimera():
    """Rule chimera_shuffle: "After the Chimera is used, ..." — Zeus's replacement discarding the Chimera does not
    shuffle (seed 003's note reads otherwise): the Harpy cannot come back in cycle 2 while the deck has cards."""
    line = "Ann/Zeus: replace Harpy -> Chimera; replace Chimera -> Sylph"
    cycle2 = """
        cycle 2
        creatures: Harpy, Sylph
        gods: Zeus, Athena, Ares, Poseidon
    """
    g = play(first_cycle("Harpy", line) + cycle2)
    assert fluents(g.after(line), "discard") == [("chimera",), ("harpy",)]
    assert g.problems == [("creatures: Harpy, Sylph", ("creature_not_in_deck",))]


def test_zeus_replace_creature_the_new_card_comes_from_the_deck():
    """Rule zeus_replace_creature: "With Zeus, for 1 GP a player may discard a creature from the track and put
    the top card of the deck in its slot, as often as they can pay." — the Harpy replaced goes to the discard
    pile and cannot be drawn again in its place (rule creature_not_in_deck)."""
    line = "Ann/Zeus: replace Harpy -> Harpy"
    g = play(first_cycle("Harpy", line))
    assert g.problems == [("Ann/Zeus: replace Harpy -> Harpy", ("creature_not_in_deck",))]
    assert fluents(g.after(line), "discard") == [("harpy",)]


def test_chimera_discard_a_figure_card_acts_by_its_own_rule():
    """Rule chimera_discard: "... uses its power at once, as if they had just bought it." — the Kraken taken
    from the discard pile goes on the sea space written after it (rule kraken_place, figures.lp)."""
    line = "Ann/Zeus: replace Harpy -> Kraken; replace Kraken -> Chimera; buy Chimera: Kraken: F5"
    g = play(first_cycle("Harpy", line))
    assert g.problems == []
    assert fluents(g.after(line), "figure") == [("kraken", "F5", "Ann", 1)]
