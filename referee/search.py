"""The solver's search for positions where two readings disagree
(``referee compare GAME --rules A --rules B``; docs/translations.md).

For each variant in one reading and not the other, a *scenario* bounds the
search: a small transcript (a board, 2 or 3 players, a few moves) that reaches
a decision point — a battle round, a retreat, Apollo's turn, an offering, a
recruit — the *free parts* of the position (extra pieces, gold, buildings,
metropolises near the action, each written as a ``position:`` item) and the
moves to judge there. Both readings' rule programs are grounded together, their
predicates renamed apart (``a_``/``b_``; the move ``does/2`` and the static facts
are shared); choice rules pick the free parts and the move; a constraint asks
that the verdicts (the rules broken) or the effects of the move differ; and
``#minimize`` keeps the position small (verdict differences first among
positions of one size). The witness is then written as a transcript
(``position:`` line, the scenario's moves, the move found) and replayed with the
referee under both readings, to show that ``referee check --rules A|B``
reproduces it.

The scenarios are data in this module (``SCENARIOS``): one per rule block that a
variant changes. A variant without a scenario is reported as not searched.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import clingo
from clingo import ast

from .compare import CompareResult, check_readings, rules_broken, verdict
from .engine import from_symbol, to_symbol
from .errors import DataError, RefereeError
from .readings import Readings, load_readings
from .games.cyclades.describe import describe_move
from .games.cyclades.game import position_item
from .terms import Fn, fn

#: Default bounds: free facts in a position, seconds of solving per scenario.
DEFAULT_MAX_SIZE = 8
DEFAULT_SECONDS = 20.0

_HEAD3 = ["game: cyclades", "players: Ann red, Bob blue, Cy green"]
_HEAD2 = ["game: cyclades", "players: Pat red, Quinn blue", "order: Pat, Quinn, Quinn, Pat", "board: 2p"]
_FACES = (0, 1, 2, 3)


@dataclass(frozen=True)
class Scenario:
    """A bounded search space for the rule blocks some variants change."""

    name: str
    blocks: tuple[str, ...]  # the catalogue rule ids of the blocks exercised
    variants: tuple[str, ...]  # the variants whose difference it can show
    header: tuple[str, ...]
    lines: tuple[str, ...]  # the moves leading to the decision point
    extras: tuple[str, ...]  # the free parts: position: items (docs/notation.md)
    moves: tuple  # (role, move, line); line "" for a bookkeeping step the referee makes itself
    description: str
    fixed: tuple[str, ...] = ()  # position: items every position of the scenario has
    then: tuple = ()  # (role, move, line) made after the lines to reach the decision point


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


_CYCLE1 = ("cycle 1", "creatures: Pegasus")
SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "sea-round", ("battle_round", "battle_defence_bonus", "battle_retreat"),
        ("port_bonus_any_owner", "metropolis_no_defence", "loser_decides_first"),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Poseidon, Ares / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Bob/Poseidon: fleet D4 -> D3 -> C2"),
        (_building("port", "IS1"), _building("port", "IS2"), _building("port", "IS3"),
         _metropolis("IS1"), _metropolis("IS2"), _metropolis("IS3"),
         _units("Ann", 1, "fleet", "C2"), _units("Ann", 2, "fleet", "C2")),
        _rounds("Bob", "Ann"),
        "a round of Bob's fleet against Ann's on C2 (3-player board, cycle 1); free: ports and metropolises "
        "on IS1, IS2, IS3 (next to C2), Ann's extra fleets on C2; moves: every round with both faces written "
        "(0-3), losses unwritten or written"),
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
        "metropolis on IS2, Bob's extra troops there; moves: every round with both faces written"),
    Scenario(
        "sea-retreat", ("battle_retreat", "battle_retreat_place"),
        ("fleet_retreat_to_own_space", "retreat_needs_several", "loser_decides_first"),
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
        ("retreat_needs_several", "loser_decides_first"),
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
        then=(("Ann", fn("buy", Fn("harpy")), ""),)),
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
        "second-building", ("build", "build_one_island"), ("buildings_one_island",),
        tuple(_HEAD3),
        _CYCLE1 + ("gods: Ares, Poseidon / Zeus, Athena", "Ann: 2 on Ares", "Bob: 2 on Poseidon", "Cy: Apollo",
                   "Ann/Ares: fortress on IS1"),
        (),
        tuple(("Ann", fn("build", Fn("fortress"), i), f"Ann/Ares: fortress on {i}") for i in ("IS1", "IS7")),
        "Ann's Ares turn (3-player board, cycle 1) after a fortress on IS1; no free parts; moves: a second "
        "fortress on IS1 or on IS7"),
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


@dataclass
class Disagreement:
    """One place where the readings part, with its minimal witness."""

    scenario: str
    variants: tuple[str, ...]
    blocks: tuple[str, ...]
    position: tuple[str, ...]  # the free parts chosen (position: items)
    move: str
    what: str  # 'verdict' or 'effect'
    verdict_a: tuple[str, ...]
    verdict_b: tuple[str, ...]
    transcript: str
    reproduced: bool
    replay: str  # what replaying the transcript under both readings gave
    optimal: bool

    def to_json(self) -> dict:
        return {"scenario": self.scenario, "variants": list(self.variants), "rule_blocks": list(self.blocks),
                "position": list(self.position), "move": self.move, "what": self.what,
                "verdict_a": list(self.verdict_a), "verdict_b": list(self.verdict_b),
                "transcript": self.transcript, "reproduced": self.reproduced, "replay": self.replay,
                "minimal": self.optimal}

    def to_text(self, a: str, b: str) -> list[str]:
        out = [f"disagreement in scenario {self.scenario} (variants {', '.join(self.variants)}; "
               f"rule blocks {', '.join(self.blocks)}):",
               f"  position: {'; '.join(self.position) or 'the scenario as it stands'}"
               f"{'' if self.optimal else ' (not proven minimal within the time bound)'}",
               f"  move: {self.move}",
               f"  {a}: {verdict(self.verdict_a)}; {b}: {verdict(self.verdict_b)}"
               + ("" if self.what == "verdict" else " — the next states differ"),
               f"  replayed with referee check: {self.replay}",
               "  witness transcript:"]
        out += ["    " + line for line in self.transcript.splitlines()]
        return out


# -- the combined program ------------------------------------------------------------------

_SHARED = {("does", 2)}


def renamed(program: str, prefix: str) -> list:
    """The statements of ``program`` with every predicate it defines (and
    ``true/1``, ``variant_active/1``) prefixed; ``does/2`` and the static facts
    stay shared. #show statements are dropped."""
    statements: list = []
    ast.parse_string(program, statements.append)
    defined = {("true", 1), ("variant_active", 1)}

    class Heads(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            symbol = atom.symbol
            for f in (symbol.arguments if symbol.ast_type == ast.ASTType.Pool else [symbol]):
                if f.ast_type == ast.ASTType.Function:
                    defined.add((f.name, len(f.arguments)))
            return atom

    for s in statements:
        if s.ast_type == ast.ASTType.Rule:
            Heads()(s.head)
    defined -= _SHARED

    class Rename(ast.Transformer):
        def visit_SymbolicAtom(self, atom):
            symbol = atom.symbol
            if symbol.ast_type == ast.ASTType.Pool:
                return atom.update(symbol=symbol.update(arguments=[self._name(f) for f in symbol.arguments]))
            return atom.update(symbol=self._name(symbol))

        def _name(self, f):
            if f.ast_type == ast.ASTType.Function and (f.name, len(f.arguments)) in defined:
                return f.update(name=prefix + f.name)
            return f

    return [Rename()(s) for s in statements if s.ast_type == ast.ASTType.Rule]


_GLUE = """
{{ pick(E) : extra(E) }} {max_size}.
1 {{ choose(I) : move(I,_,_) }} 1.
does(R,M) :- choose(I), move(I,R,M).
"""

_COPY = """
{p}has(C,K) :- base_{p}(count(C,K,_)).
{p}touched(C,K) :- {p}has(C,K), pick(E), delta(E,C,K,_).
{p}counter(count(C,K,N)) :- base_{p}(count(C,K,N)).
{p}true(F) :- base_{p}(F), not {p}counter(F).
{p}true(count(C,K,N)) :- base_{p}(count(C,K,N)), not {p}touched(C,K).
{p}true(count(C,K,N+D)) :- base_{p}(count(C,K,N)), {p}touched(C,K), D = #sum{{ X,E : pick(E), delta(E,C,K,X) }},
    N + D != 0.
{p}true(count(C,K,D)) :- delta(_,C,K,_), not {p}has(C,K), D = #sum{{ X,E : pick(E), delta(E,C,K,X) }}, D != 0.
{p}true(F) :- pick(E), adds(E,F).
{p}verdict(Id) :- {p}violation(Id,R,M,_), does(R,M).
{p}after(F) :- {p}true(F), not {p}loses(F).
{p}after(F) :- {p}gains(F).
"""

_DIFFER = """
differ_verdict :- a_verdict(Id), not b_verdict(Id).
differ_verdict :- b_verdict(Id), not a_verdict(Id).
differ_effect :- a_after(F), not b_after(F).
differ_effect :- b_after(F), not a_after(F).
:- not differ_verdict, not differ_effect.
a_illegal :- a_verdict(_).
b_illegal :- b_verdict(_).
legality_differs :- a_illegal, not b_illegal.
legality_differs :- b_illegal, not a_illegal.
#minimize{ 1@3,E : pick(E) }.
#minimize{ 1@2 : not legality_differs }.
#minimize{ 1@1 : not differ_verdict }.
#show pick/1. #show choose/1. #show differ_verdict/0. #show a_verdict/1. #show b_verdict/1.
"""


_PROGRAM_CACHE: dict = {}


def _statements(program: str) -> tuple[list, list]:
    """The two renamed copies of the rule program (kept: renaming takes a moment)."""
    if program not in _PROGRAM_CACHE:
        _PROGRAM_CACHE.clear()
        _PROGRAM_CACHE[program] = (renamed(program, "a_"), renamed(program, "b_"))
    return _PROGRAM_CACHE[program]


def compare_search(game: str, reading_a: str, reading_b: str, max_size: int = DEFAULT_MAX_SIZE,
                   seconds: float = DEFAULT_SECONDS, readings: Readings | None = None) -> CompareResult:
    """Search the scenarios of the variants in which the readings differ for
    positions and moves they judge differently (see the module docstring)."""
    started = time.perf_counter()
    if readings is None:
        variants_a, variants_b = check_readings(game, reading_a, reading_b)
        readings = load_readings(game)
    else:
        variants_a, variants_b = readings.reading(reading_a).variants, readings.reading(reading_b).variants
    if game != "cyclades":
        raise DataError(f"the search knows scenarios for cyclades only, not {game}")
    result = CompareResult(game, reading_a, reading_b, variants_a, variants_b, "search")
    if reading_a == reading_b:
        raise DataError(f"compare two different readings (both are {reading_a})")
    differing = set(result.differing)
    scenarios = [s for s in SCENARIOS if differing & set(s.variants)]
    # A variant no listed scenario names: its module's rule ids pick the scenarios that exercise them.
    for vid in sorted(differing - {v for s in SCENARIOS for v in s.variants}):
        blocks = set(readings.variants[vid].rules)
        scenarios += [s for s in SCENARIOS if blocks & set(s.blocks) and s not in scenarios]
    unsearched = sorted(v for v in differing
                        if not any(v in s.variants or set(readings.variants[v].rules) & set(s.blocks)
                                   for s in scenarios))
    result.searched = {"scenarios": [s.name for s in scenarios], "max free facts": max_size,
                       "seconds per scenario": seconds,
                       "spaces": {s.name: s.description for s in scenarios},
                       "variants without a scenario": unsearched}
    pair = ((reading_a, variants_a), (reading_b, variants_b))
    shown_legality: set = set()
    shown_any: set = set()
    for scenario in scenarios:
        # Each variant alone first (reading A with that variant switched), so that each
        # difference gets its own witness; a witness counts when it parts A and B.
        own = [v for v in scenario.variants if v in differing] or sorted(differing)
        reproduced = False
        for vid in own:
            if vid in shown_legality:  # an earlier scenario showed it as legal against illegal
                reproduced = True
                continue
            # from A's side (A against A with v switched), else from B's (B with v switched against B)
            found = _search(scenario, (reading_a, variants_a),
                            (f"{reading_a}±{vid}", tuple(sorted(set(variants_a) ^ {vid}))), pair,
                            readings, max_size, seconds)
            if found is None or not found.reproduced:
                found = _search(scenario, (f"{reading_b}±{vid}", tuple(sorted(set(variants_b) ^ {vid}))),
                                (reading_b, variants_b), pair, readings, max_size, seconds)
            if found is not None and found.reproduced:
                found.variants = (vid,)
                result.disagreements.append(found)
                reproduced = True
                shown_any.add(vid)
                if (not found.verdict_a) != (not found.verdict_b):
                    shown_legality.add(vid)
        if not reproduced and not set(own) & shown_any:  # the variants together (one may mask another's)
            found = _search(scenario, *pair, pair, readings, max_size, seconds)
            if found is not None:
                found.variants = tuple(own)
                result.disagreements.append(found)
    result.seconds = time.perf_counter() - started
    return result


def _base_state(scenario: Scenario, reading: tuple, readings: Readings):
    """The state the scenario's moves lead to under a reading (no free parts)."""
    from .notation import parse_transcript

    text = _witness(scenario, (), "")
    referee = _referee(parse_transcript(text, source=f"<scenario {scenario.name}>"), reading, readings)
    state = referee.run(close=False).final
    for role, move, _ in scenario.then:
        state = referee.engine.judge(referee.rules.static, state, role, move).next_state
    return state, referee


def _referee(transcript, reading: tuple, readings: Readings):
    """A referee judging under ``reading`` = (name, variants), the variants
    among ``readings`` (which may hold variants that are not shipped, e.g. a
    test's)."""
    from .engine import Engine
    from .games.cyclades.game import rule_files
    from .referee import Referee

    files = rule_files()
    files += tuple(m for m in readings.modules() if m not in files)
    name, variants = reading
    referee = Referee(transcript, rules=_base_name(name), engine=Engine(files))
    referee.rules.static = _with_variants(referee.rules.static, variants)
    referee.rules.setup.facts.variants = frozenset(variants)
    return referee


def _base_name(reading: str) -> str:
    return reading if reading in load_readings("cyclades").readings else "en"


def _with_variants(static: tuple, variants: tuple[str, ...]) -> tuple:
    kept = tuple(f for f in static if f.name != "variant_active")
    return kept + tuple(fn("variant_active", Fn(v)) for v in variants)


def _search(scenario: Scenario, reading_a: tuple, reading_b: tuple, shown: tuple, readings: Readings,
            max_size: int, seconds: float) -> Disagreement | None:
    """The smallest position and move of the scenario on which readings A and B
    (each (name, variants)) disagree, replayed as a transcript under the
    ``shown`` pair of readings (the pair compared)."""
    base_a, referee = _base_state(scenario, reading_a, readings)
    base_b, _ = _base_state(scenario, reading_b, readings)
    program = "\n".join(p.read_text(encoding="utf-8") for p in referee.engine.program_files)
    copy_a, copy_b = _statements(program)
    ctl = clingo.Control(["--warn=none", "--opt-mode=opt"])
    with ast.ProgramBuilder(ctl) as builder:
        for statement in copy_a + copy_b:
            builder.add(statement)
        glue = _GLUE.format(max_size=max_size) + _COPY.format(p="a_") + _COPY.format(p="b_") + _DIFFER
        ast.parse_string(glue, builder.add)
    static = [f for f in referee.rules.static if f.name != "variant_active"]
    facts = [to_symbol(f) for f in static]
    facts += [clingo.Function("a_variant_active", [clingo.Function(v)]) for v in reading_a[1]]
    facts += [clingo.Function("b_variant_active", [clingo.Function(v)]) for v in reading_b[1]]
    facts += [clingo.Function("base_a_", [to_symbol(f)]) for f in base_a]
    facts += [clingo.Function("base_b_", [to_symbol(f)]) for f in base_b]
    for e, extra in enumerate(scenario.extras):
        facts.append(clingo.Function("extra", [clingo.Number(e)]))
        kind, name, *rest = position_item(extra, referee.rules.board, referee.rules.players)
        if kind == "change":
            key, delta = rest
            facts.append(clingo.Function("delta", [clingo.Number(e), clingo.Function(name), to_symbol(key),
                                                   clingo.Number(delta)]))
        else:
            facts.append(clingo.Function("adds", [clingo.Number(e), to_symbol(fn(name, *rest[0]))]))
    for i, (role, move, _) in enumerate(scenario.moves):
        facts.append(clingo.Function("move", [clingo.Number(i), to_symbol(role), to_symbol(move)]))
    with ctl.backend() as backend:
        for symbol in facts:
            backend.add_rule([backend.add_atom(symbol)])
    ground_error: list = []

    def ground() -> None:
        try:
            ctl.ground([("base", [])])
        except BaseException as exc:  # re-raised below
            ground_error.append(exc)

    worker = threading.Thread(target=ground, daemon=True)
    worker.start()
    worker.join(max(seconds, 30.0))
    if worker.is_alive() or ground_error:
        raise RefereeError(f"the search of scenario {scenario.name} could not be grounded in time"
                           + (f": {ground_error[0]}" if ground_error else ""))
    best: list = []
    with ctl.solve(on_model=lambda m: best.append([from_symbol(s) for s in m.symbols(shown=True)]),
                   async_=True) as handle:
        finished = handle.wait(seconds)
        if not finished:
            handle.cancel()
        outcome = handle.get()
    if not best:
        return None
    model = best[-1]
    optimal = finished and outcome.exhausted
    picks = sorted(a.args[0] for a in model if a.name == "pick")
    choice = next(a.args[0] for a in model if a.name == "choose")
    verdict_a = tuple(sorted(a.args[0].name for a in model if a.name == "a_verdict"))
    verdict_b = tuple(sorted(a.args[0].name for a in model if a.name == "b_verdict"))
    what = "verdict" if any(a.name == "differ_verdict" for a in model) else "effect"
    position = tuple(scenario.extras[e] for e in picks)
    role, move, line = scenario.moves[choice]
    transcript = _witness(scenario, position, line)
    reproduced, replay, verdicts = _replay(transcript, shown[0], shown[1], readings, closes=not line)
    line = line or f"({describe_move(move)}: the referee makes it when the transcript ends)"
    if (reading_a, reading_b) != shown:  # a variant alone was searched: say what the compared pair gives
        verdict_a, verdict_b = verdicts
    return Disagreement(scenario.name, (), scenario.blocks, position, line, what, verdict_a, verdict_b,
                        transcript, reproduced, replay, optimal)


def _witness(scenario: Scenario, position: tuple[str, ...], line: str) -> str:
    items = scenario.fixed + position
    header = list(scenario.header) + ([f"position: {'; '.join(items)}"] if items else [])
    lines = list(scenario.lines) + [t[2] for t in scenario.then if t[2]] + ([line] if line else [])
    return "\n".join(header + lines) + "\n"


def _replay(text: str, reading_a: tuple, reading_b: tuple, readings: Readings,
            closes: bool = False) -> tuple[bool, str, tuple]:
    """Check the witness transcript under both readings: does its last move part
    them (its verdict, or the state after it; with ``closes``, the state after the
    cycle is closed, where the winner is known)? Whether it does, in words, and
    the rules each reading finds broken."""
    from .notation import parse_transcript

    outcomes = []
    for reading in (reading_a, reading_b):
        try:
            referee = _referee(parse_transcript(text, source="<witness>"), reading, readings)
            run = referee.run(close=closes)
            last = max(s.number for s in run.written())
            step = run.step_of(last)
            rules = rules_broken(step)
            effect = run.final if closes else step.after
            said = verdict(rules)
            if closes:
                said += f", {referee.rules.describe_outcome(run.final)}"
            outcomes.append((said, effect, rules))
        except RefereeError as error:
            outcomes.append((f"unreadable ({str(error).splitlines()[0]})", None, ("unreadable",)))
    reproduced = outcomes[0][:2] != outcomes[1][:2]
    said = f"{reading_a[0]}: {outcomes[0][0]}; {reading_b[0]}: {outcomes[1][0]}"
    if reproduced and outcomes[0][2] == outcomes[1][2] and not closes:
        said += " (the same verdict, different next states)"
    elif not reproduced:
        said += " (the transcript does not part them: the referee fills in what the notation leaves out)"
    return reproduced, said, (outcomes[0][2], outcomes[1][2])
