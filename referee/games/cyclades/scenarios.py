"""The Cyclades scenarios of the search for positions where two readings
disagree (``referee compare cyclades --rules A --rules B``; the search itself is
:mod:`referee.search`, docs/translations.md).

One scenario per rule block that a variant changes: a small transcript that
reaches a decision point (a battle round, a retreat, Apollo's turn, an
offering, a recruit), the free parts of the position (``position:`` items) and
the moves to judge there. A variant without a scenario is reported as not
searched.
"""

from __future__ import annotations

from referee.base.terms import Fn, fn
from referee.game.parts.scenarios import Scenarios
from referee.game.scenario import Scenario
from referee.game.state import Draft

from .game import position_item

_HEAD3 = ["game: cyclades", "players: Ann red, Bob blue, Cy green"]
_HEAD2 = ["game: cyclades", "players: Pat red, Quinn blue", "order: Pat, Quinn, Quinn, Pat", "board: 2p"]
_FACES = (0, 1, 2, 3)


def _units(player: str, n: int, unit: str, place: str) -> str:
    return f"{player} {n} {unit}{'s' if n > 1 else ''} {place}"


def _building(kind: str, island: str) -> str:
    return f"{kind} {island}"


def _metropolis(island: str) -> str:
    return f"metropolis {island}"


def _gold(player: str, n: int) -> str:
    return f"{player} {n} GP"


def _priests(player: str, n: int) -> str:
    return f"{player} {n} priest{'s' if n > 1 else ''}"


def _rounds(attacker: str, defender: str) -> tuple:
    """Every round with both faces written, with the losses unwritten or written."""
    out = []
    u = Fn("u")
    for fa in _FACES:
        for fd in _FACES:
            for la, ld in ((u, u), (1, 0), (0, 1), (1, 1)):
                move = fn("round", fn("side", attacker, fa, la), fn("side", defender, fd, ld))
                text = (f"battle: {attacker} {fa}{' -1' if la == 1 else ''}, "
                        f"{defender} {fd}{' -1' if ld == 1 else ''}")
                out.append((Fn("chance"), move, text))
    return tuple(out)


def _sail(start: str, path: tuple) -> Fn:
    """sail(Start, 1, via(S1,0,via(...,end))): one fleet along the path, nothing picked up."""
    route: Fn = Fn("end")
    for space in reversed(path):
        route = fn("via", space, 0, route)
    return fn("sail", start, 1, route)


def _decisions(places: dict) -> tuple:
    out = []
    for player, targets in places.items():
        out.append((player, Fn("stay"), f"{player}: stay"))
        out += [(player, fn("retreat", y), f"{player}: retreat to {y}") for y in targets]
    return tuple(out)


def _order(first: tuple, second: tuple) -> tuple:
    """The decisions after a round, written in both orders, the second a stay or
    a retreat (player, place): a reading that has the other side decide first
    fills in that side's unwritten stay, so the second decision is out of turn there."""
    (p, x), (q, y) = first, second
    return ((f"{q}: stay", f"{p}: stay"), (f"{p}: stay", f"{q}: stay"),
            (f"{q}: stay", f"{p}: retreat to {x}"), (f"{p}: stay", f"{q}: retreat to {y}"))


_CYCLE1 = ("cycle 1", "creatures: Pegasus")
SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "sea-round", ("battle_round", "battle_defence_bonus", "battle_retreat"),
        ("metropolis_no_defence", "loser_decides_first"),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Bob/Poseidon: fleet D4 -> D3 -> C2"),
        (_building("port", "IS1"), _building("port", "IS2"), _building("port", "IS3"),
         _metropolis("IS1"), _metropolis("IS2"), _metropolis("IS3"),
         _units("Ann", 1, "fleet", "C2"), _units("Ann", 2, "fleet", "C2")),
        _rounds("Bob", "Ann"),
        "a round of Bob's fleet against Ann's on C2 (3-player board, cycle 1); free: ports and metropolises "
        "on IS1, IS2, IS3 (next to C2), Ann's extra fleets on C2; moves: every round with both faces written "
        "(0-3), losses unwritten or written",
        follow=_order(("Ann", "C1"), ("Bob", "D3"))),
    Scenario(
        "land-round", ("battle_round", "battle_defence_bonus", "battle_retreat"),
        ("metropolis_no_defence", "loser_decides_first"),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: troop on IS1; 2 troops IS1 -> IS2"),
        (_building("fortress", "IS2"), _metropolis("IS2"), _units("Bob", 1, "troop", "IS2"),
         _units("Bob", 2, "troop", "IS2")),
        _rounds("Ann", "Bob"),
        "a round of Ann's 2 troops against Bob's on IS2 (3-player board, cycle 1); free: a fortress and a "
        "metropolis on IS2, Bob's extra troops there; moves: every round with both faces written",
        follow=_order(("Ann", "IS1"), ("Bob", "IS5"))),
    Scenario(
        "sea-retreat", ("battle_retreat", "battle_retreat_place"),
        ("fleet_retreat_to_own_space", "loser_decides_first"),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Bob/Poseidon: fleet on D4; 2 fleets D4 -> D3 -> C2", "battle: Bob 0, Ann 3"),
        (_units("Ann", 1, "fleet", "C2"), _units("Bob", 1, "fleet", "C2"), _units("Bob", 1, "fleet", "F4"),
         _units("Ann", 1, "fleet", "B2")),
        _decisions({"Bob": ("D3", "D4", "F1", "F4", "B2"), "Ann": ("C1", "B2", "G5")}),
        "the decisions after Bob lost a fleet on C2 (2 against Ann's 1); free: extra fleets on C2 (either side), "
        "F4, B2; moves: stay, or retreat to D3, D4, F1, F4, B2 (Bob), C1, B2, G5 (Ann)"),
    Scenario(
        "land-retreat", ("battle_retreat", "battle_retreat_place"),
        ("loser_decides_first",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: troop on IS1; troop on IS1; 3 troops IS1 -> IS2", "battle: Ann 0, Bob 3"),
        (_units("Bob", 1, "troop", "IS2"), _units("Ann", 1, "troop", "IS2")),
        _decisions({"Ann": ("IS1", "IS7"), "Bob": ("IS5",)}),
        "the decisions after Ann lost a troop on IS2 (3 against Bob's 1); free: extra troops on IS2; moves: "
        "stay, or retreat to IS1, IS7 (Ann), IS5 (Bob)"),
    Scenario(
        "apollo-turn", ("apollo_prosperity", "apollo_prosperity_island", "apollo_prosperity_missing"),
        ("apollo_marker_any_island", "apollo_marker_optional"),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: pass", "Bob/Poseidon: pass"),
        (_units("Cy", 1, "troop", "IS3"),),
        tuple([("Cy", fn("prosperity", f"IS{i}"), f"Cy/Apollo: prosperity on IS{i}") for i in range(1, 9)]
              + [("Cy", Fn("pass"), "Cy/Apollo: pass")]),
        "Cy's Apollo turn (3-player board, cycle 1); free: an extra troop; moves: the prosperity marker on "
        "each island, or the end of the turn"),
    Scenario(
        "two-player-offering", ("offering_affordable", "offering_payment"),
        ("priests_off_total_2p",),
        tuple(_HEAD2),
        ("cycle 1", "creatures: Chiron", "gods: Zeus, Athena, Poseidon / Ares", "Pat: 1 on Zeus",
         "Quinn: 2 on Athena"),
        (_priests("Quinn", 1), _priests("Quinn", 2), _gold("Quinn", 1), _gold("Quinn", 2)),
        tuple(("Quinn", fn("offer", Fn(g), n), f"Quinn: {n} on {g.capitalize()}")
              for g in ("zeus", "poseidon") for n in range(1, 9)),
        "Quinn's second offering in a 2-player cycle 1 (his first: 2 on Athena); free: priests and gold for "
        "Quinn; moves: 1-8 GP on Zeus or Poseidon"),
    Scenario(
        "end-of-game", ("end_of_game",), ("winner_by_gold",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 1 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: pass", "Bob/Poseidon: pass", "Cy/Apollo: prosperity on IS3"),
        (_metropolis("IS1"), _metropolis("IS7"), _metropolis("IS4"), _metropolis("IS2"), _metropolis("IS5"),
         _metropolis("IS3"), _gold("Bob", 3), _gold("Bob", 6), _gold("Cy", 3)),
        ((Fn("game"), Fn("end_cycle"), ""),),
        "the end of cycle 1 (3-player board; Ann also holds IS4); free: metropolises on the players' islands, "
        "gold for Bob and Cy; move: the end of the cycle, where the winner is known",
        fixed=("Ann troop IS4",),
        then=(("Cy", Fn("pass"), "Cy/Apollo: pass"),)),
    Scenario(
        "fleet-move", ("fleet_move", "fleet_move_enemy_stop", "battle_round"), ("fleets_pass_enemy_fleets",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo"),
        (_units("Ann", 1, "fleet", "D3"), _units("Cy", 1, "fleet", "E4"), _units("Cy", 1, "fleet", "B2")),
        tuple(("Bob", _sail("D4", path), f"Bob/Poseidon: fleet D4 -> {' -> '.join(path)}")
              for path in (("D3",), ("E4",), ("D3", "C2"), ("D3", "E4"), ("D3", "C2", "B2"), ("D3", "C2", "C1"),
                           ("E4", "F4"), ("E4", "F4", "G3"), ("D3", "E4", "F5"))),
        "Bob's Poseidon turn (3-player board, cycle 1; Ann's fleet on C2); free: fleets of Ann on D3 and of "
        "Cy on E4 and B2; moves: his fleet from D4 along nine routes of 1 to 3 steps"),
    Scenario(
        "new-fleet", ("recruit_fleet_place",),
        ("fleet_recruit_with_own_fleets",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo"),
        (_units("Bob", 1, "fleet", "E4"), _units("Bob", 1, "fleet", "F5"), _units("Ann", 1, "fleet", "E4")),
        tuple(("Bob", fn("recruit", Fn("fleet"), s), f"Bob/Poseidon: fleet on {s}")
              for s in ("D4", "D3", "E4", "F5", "C2")),
        "Bob's Poseidon turn (3-player board, cycle 1); free: fleets on E4 and F5; moves: a new fleet on "
        "D4, D3, E4, F5 or C2"),
    Scenario(
        "harpy", ("harpy_troop", "territory_marker"), ("harpy_replaces_troop",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Harpy", "gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares",
         "Bob: 2 on Poseidon", "Cy: Apollo"),
        (_units("Bob", 1, "troop", "IS2"), _units("Cy", 1, "troop", "IS3"), _units("Ann", 1, "troop", "IS1")),
        tuple(("Ann", fn("use", Fn("harpy"), fn("troop", f"IS{i}")), f"Ann/Ares: buy Harpy: troop IS{i}")
              for i in range(1, 9)),
        "Ann's Ares turn (3-player board, cycle 1), the Harpy just bought; free: extra troops of Bob on IS2, "
        "of Cy on IS3, of Ann on IS1; moves: the Harpy on a troop of each island",
        then=(("Ann", fn("buy", Fn("harpy")), ""),),
        follow=tuple((f"Ann/Ares: troop on IS{i}",) for i in range(1, 9))),
    Scenario(
        "zeus-replace", ("zeus_replace_creature", "chimera_shuffle"), ("chimera_shuffle_on_replace",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Chimera", "gods: Zeus, Ares / Poseidon, Athena", "Ann: 2 on Ares",
         "Bob: 2 on Zeus", "Cy: Apollo"),
        (_gold("Bob", 1),),
        (("Bob", fn("replace", Fn("chimera")), "Bob/Zeus: replace Chimera -> Chimera"),),
        "Bob's Zeus turn (3-player board, cycle 1; the Chimera on the track); free: gold for Bob; move: "
        "the Chimera replaced (the witness draws the Chimera again)"),
    Scenario(
        "zeus-slide", ("zeus_replace_creature", "creature_buy"), ("zeus_replace_slides",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Pegasus", "gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares",
         "Bob: 2 on Poseidon", "Cy: Apollo", "Cy/Apollo: prosperity on IS3", "cycle 2",
         "creatures: Harpy, Pegasus", "gods: Zeus, Athena", "Cy: Apollo", "Bob: 3 on Zeus", "Ann: 1 on Athena",
         "Bob/Zeus: replace Pegasus -> Griffon"),
        (_gold("Bob", 1),),
        tuple(("Bob", fn("buy", Fn(c)), f"Bob/Zeus: buy {c.capitalize()}") for c in ("harpy", "griffon")),
        "Bob's Zeus turn in cycle 2 (3-player board; Harpy on 4 GP, Pegasus on 3 GP), after he replaced the "
        "Pegasus by the Griffon; free: gold for Bob (3 GP left); moves: buy the Harpy or the Griffon"),
    Scenario(
        "cycle-2-track", ("creature_track_refresh", "creature_track_reveal", "creature_top_of_deck"),
        ("creature_left_on_deck",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Pegasus", "gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares",
         "Bob: 2 on Poseidon", "Cy: Apollo", "Cy/Apollo: prosperity on IS3", "cycle 2"),
        (),
        tuple((Fn("chance"), fn("track", 4, Fn(c)), f"creatures: {c.capitalize()}") for c in ("pegasus", "harpy")),
        "the cycle-2 track (3-player board; nobody bought the Pegasus in cycle 1); no free parts; moves: the "
        "4-GP slot shows the Pegasus or the Harpy"),
    Scenario(
        "metropolis-room", ("metropolis_room", "metropolis_demolish"), ("metropolis_demolish_any",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: fortress on IS7",
                   "Ann/Ares: discard temple IS7; discard port IS7; discard university IS7; discard fortress IS7"),
        (),
        tuple(("Ann", fn("metropolis", i), f"Ann/Ares: metropolis on {i}") for i in ("IS1", "IS7")),
        "Ann's metropolis of the four buildings (3-player board, cycle 1; her temple left on IS1, IS7 emptied "
        "by the discards); no free parts; moves: the metropolis on IS1 (no room) or IS7",
        fixed=("temple IS1", "temple IS7", "port IS7", "university IS7")),
    Scenario(
        "sylph-again", ("sylph_move", "creature_effect_at_once"), ("sylph_total_ten",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Sylph", "gods: Zeus, Ares / Poseidon, Athena", "Ann: 1 on Zeus",
         "Bob: 2 on Ares", "Cy: Apollo", "Ann/Zeus: buy Sylph: fleet C2 -> D3 -> E4 -> F5 -> F6"),
        (_units("Ann", 1, "fleet", "G5"),),
        tuple(("Ann", fn("use", Fn("sylph"), _sail("G5", path)), f"Ann/Zeus: use Sylph: fleet G5 -> {' -> '.join(path)}")
              for path in (("H4",), ("H4", "I3", "J2", "I2", "H2"), ("H4", "I3", "J2", "I2", "H2", "H1"),
                           ("F5", "E4", "D3", "C2", "B2", "A1", "A2"))),
        "Ann's Zeus turn (3-player board, cycle 1), the Sylph bought and her fleet moved 4 spaces from C2 to F6; "
        "free: a second fleet of Ann on G5; moves: her fleet from G5 along routes of 1, 5, 6 and 7 spaces"),
    Scenario(
        "pegasus", ("pegasus_move", "troop_move_chain"), ("pegasus_needs_fleets",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Pegasus", "gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares",
         "Bob: 2 on Poseidon", "Cy: Apollo"),
        (_units("Ann", 1, "fleet", "F5"), _units("Ann", 1, "fleet", "E4"), _units("Cy", 1, "troop", "IS3")),
        tuple(("Ann", fn("use", Fn("pegasus"), fn("march", "IS7", 1, f"IS{i}")), f"Ann/Ares: buy Pegasus: troop IS7 -> IS{i}")
              for i in (1, 2, 3, 4, 5, 8)),
        "Ann's Ares turn (3-player board, cycle 1; her fleets on C2 and G5), the Pegasus just bought; free: "
        "fleets of Ann on F5 and E4 (a chain from IS7 to IS3), an extra troop of Cy on IS3; moves: her troop "
        "from IS7 flown to IS1, IS2, IS3, IS4, IS5 or IS8",
        then=(("Ann", fn("buy", Fn("pegasus")), ""),)),
    Scenario(
        "fleet-start", ("fleet_move", "fleet_move_start", "fleet_move_single"), ("fleet_move_one_fleet",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo"),
        (_units("Bob", 1, "fleet", "D4"),),
        tuple(("Bob", fn("sail", "D4", n, fn("via", "E4", 0, Fn("end"))),
               f"Bob/Poseidon: {n} fleet{'s' if n > 1 else ''} D4 -> E4") for n in (1, 2, 3)),
        "Bob's Poseidon turn (3-player board, cycle 1; his two fleets on D4); free: a third fleet of his on D4; "
        "moves: 1, 2 or 3 fleets from D4 to E4",
        fixed=("Bob fleet D4",)),
    Scenario(
        "minotaur-retreat", ("minotaur_no_retreat", "minotaur_defends", "battle_retreat"), ("minotaur_may_retreat",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Minotaur", "gods: Zeus, Ares / Poseidon, Athena", "Ann: 1 on Ares",
         "Bob: 1 on Zeus", "Cy: Apollo", "Bob/Zeus: buy Minotaur: IS2",
         "Ann/Ares: troop on IS1; troop on IS1; 3 troops IS1 -> IS2", "battle: Ann 0, Bob 3"),
        (_units("Bob", 1, "troop", "IS2"), _units("Ann", 1, "troop", "IS2")),
        _decisions({"Bob": ("IS4",)}),
        "Bob's decision after Ann lost a troop on IS2, where his Minotaur stands (3 troops against his 1 and "
        "the Minotaur; Bob also holds IS4, linked to IS2 by his fleet on D4); free: extra troops on IS2; "
        "moves: stay, or retreat to IS4",
        fixed=("Bob troop IS4",)),
    Scenario(
        "polyphemus-seas", ("polyphemus_closed", "recruit_fleet_place"), ("polyphemus_seas_open",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Polyphemus", "gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares",
         "Bob: 1 on Poseidon", "Cy: Apollo", "Bob/Poseidon: buy Polyphemus: IS4, fleet D4 -> D3"),
        (_gold("Bob", 1),),
        tuple(("Bob", fn("recruit", Fn("fleet"), s), f"Bob/Poseidon: fleet on {s}")
              for s in ("D4", "D5", "D3", "B3")),
        "Bob's Poseidon turn (3-player board, cycle 1) after his Polyphemus on IS4 pushed his fleet from D4 "
        "to D3; free: gold for Bob; moves: a new fleet on D4, D5 (next to IS4), D3 or B3"),
    Scenario(
        "chiron-pegasus", ("chiron_protects",), ("chiron_blocks_pegasus_departure",),
        tuple(_HEAD3),
        ("cycle 1", "creatures: Chiron", "gods: Zeus, Ares / Poseidon, Athena", "Ann: 1 on Ares", "Bob: 1 on Zeus",
         "Cy: Apollo", "Bob/Zeus: buy Chiron: IS1", "Cy/Apollo: prosperity on IS3", "cycle 2",
         "creatures: Pegasus, Giant", "gods: Poseidon, Athena", "Cy: 1 on Athena", "Ann: 1 on Poseidon",
         "Bob: Apollo"),
        (_units("Ann", 1, "troop", "IS1"),),
        tuple(("Ann", fn("use", Fn("pegasus"), fn("march", i, 1, j)), f"Ann/Poseidon: buy Pegasus: troop {i} -> {j}")
              for i, j in (("IS1", "IS4"), ("IS1", "IS6"), ("IS7", "IS1"), ("IS7", "IS6"))),
        "Ann's Poseidon turn in cycle 2 (3-player board), the Pegasus just bought, Bob's Chiron on her IS1 "
        "since cycle 1; free: an extra troop of Ann on IS1; moves: a troop flown from IS1 to IS4 or IS6, "
        "from IS7 to IS1 or IS6",
        then=(("Ann", fn("buy", Fn("pegasus")), ""),)),
    Scenario(
        "marker-island", ("territory_marker", "island_control", "recruit_troop_place"),
        ("territory_marker_income_only",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: troop IS7 -> IS6"),
        (_units("Ann", 1, "troop", "IS6"),),
        tuple(("Ann", fn("recruit", Fn("troop"), i), f"Ann/Ares: troop on {i}") for i in ("IS1", "IS6", "IS7", "IS4")),
        "Ann's Ares turn (3-player board, cycle 1) after her only troop on IS7 left for IS6 (her territory "
        "marker on IS7); free: an extra troop of Ann on IS6; moves: a new troop on IS1, IS6, IS7 or IS4"),
)



class CycladesScenarios(Scenarios):
    """The scenarios above, and a 'position:' line read against one game's board
    and players."""

    scenarios = SCENARIOS
    topics = ("offerings", "recruiting", "movement", "battles", "buildings and metropolises",
              "Apollo and the prosperity marker", "islands and territory markers", "creatures",
              "the end of the game")

    def starting_position(self, state: frozenset) -> frozenset:
        """The initial state with a 'position:' line's items added."""
        if not self.game.position:
            return state
        d = Draft(state)
        for change in self.game.position:
            if change[0] == "change":
                d.change(change[1], change[2], change[3])
            else:
                d.add(change[1], *change[2])
        return d.freeze()

    def use_variants(self, variants: tuple[str, ...]) -> None:
        """Judge with exactly these variant modules switched on (the search's readings)."""
        super().use_variants(variants)
        self.game.setup.facts.variants = frozenset(variants)

    def position_item(self, item: str) -> tuple:
        """A 'position:' item read against this game's board and players."""
        return position_item(item, self.game.board, self.game.players)
