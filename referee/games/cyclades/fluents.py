"""Cyclades' terms by name: one declaration per fluent (rules/state.lp and the
rule files that add to it), per static fact (rules/data.lp, the board and the
header) and per move or part of a move the Python reads (referee.game.fluents
describes the declarations)."""

from __future__ import annotations

from referee.game.fluents import compound, counter, fact, fluent

# -- fluents ---------------------------------------------------------------------------
Act = fluent("act", "rank", "marker", "god")  # the marker acts rank-th, with that god
Acting = fluent("acting", "marker")
ApolloDue = fluent("apollo_due", "marker")
Battle = fluent("battle", "kind", "place", "attacker", "defender")  # kind: land or sea
BattleTurn = fluent("battle_turn", "decider")  # a player, or dice
Cycle = fluent("cycle", "number")
Deck = fluent("deck", "card")
Discard = fluent("discard", "card")
Discarded = fluent("discarded", "player", "kind")  # a building type discarded for a metropolis
Effect = fluent("effect", "player", "card")
Figure = fluent("figure", "card", "place", "player", "cycle")
Finished = fluent("finished", "marker", "rank")
GodDown = fluent("god_down", "position", "god")
GodUp = fluent("god_up", "position", "god")
HarpyTook = fluent("harpy_took", "island")
Marker = fluent("marker", "island", "player")  # a territory marker
Metropolis = fluent("metropolis", "island")
Offer = fluent("offer", "marker", "god", "amount")
Order = fluent("order", "rank", "marker")
Outbid = fluent("outbid", "marker", "god")
Pending = fluent("pending", "player", "task")  # task: buildings, place, demolish(I,N)
Reveal = fluent("reveal", "slot")
SylphSpent = fluent("sylph_spent", "player", "spaces")
TopOfDeck = fluent("top_of_deck", "card")
Track = fluent("track", "slot", "card")  # also the chance outcome track(Slot,Card)
WaitingGod = fluent("waiting_god", "position", "god")

# -- counters count(Name,Key,N) ---------------------------------------------------------
Bought = counter("bought", "player", "unit")
Buildings = counter("building", "island", "kind")
Fleets = counter("fleets", "player", "sea")
Troops = counter("troops", "player", "island")

# -- static facts --------------------------------------------------------------------------
Coast = fact("coast", "island", "sea")
Island = fact("island", "name")  # also a figure's target island(I)
IslandProsperity = fact("island_prosperity", "island", "amount")
IslandSlots = fact("island_slots", "island", "slots")
MetropolisSlots = fact("metropolis_slots", "island", "slots")
Player = fact("player", "name")
PlayerCount = fact("player_count", "number")
Sea = fact("sea", "name")  # also the Kraken's target sea(S)
SeaAdjacent = fact("sea_adjacent", "sea", "other")
SeaProsperity = fact("sea_prosperity", "sea", "amount")
StartOrder = fact("start_order", "position", "marker")
VariantActive = fact("variant_active", "variant")

# -- moves and their parts ------------------------------------------------------------------
OfferingMarker = compound("m", "player", "number")  # m(P,K), a player's offering marker
Use = compound("use", "card", "target")
DiscardMove = compound("discard", "kind", "island")  # a building discarded for a metropolis
OfferMove = compound("offer", "god", "amount")  # a player's offering (the fluent Offer is where it lies)
GodTile = compound("god", "position", "god", "face")  # the chance outcome god(Pos,God,Face)
Side = compound("side", "player", "face", "loss")  # one side of a battle round
BattleRound = compound("round", "attacker", "defender")  # a round in the one form the rules judge (two sides)
Retreat = compound("retreat", "to")
Demolish = compound("demolish", "island", "deficit")  # the task of pending(P,demolish(I,N))
Via = compound("via", "space", "delta", "rest")  # a fleet movement's path, space by space
Sail = compound("sail", "start", "count", "path")
March = compound("march", "start", "count", "to")
TroopTarget = compound("troop", "island")
FleetTarget = compound("fleet", "sea")
FleetTargetFrom = compound("fleet", "sea", "source")  # the Siren's, when the reserve is empty
BuildingTarget = compound("building", "kind", "island")
MetropolisTarget = compound("metropolis", "island")
Change = compound("change", "old", "island", "new")  # the Cyclops's
KrakenStep = compound("step", "sea")
Push = compound("push", "space", "count", "to")  # the Polyphemus's
Sink = compound("sink", "space")
# the moves of an action turn, as the notation writes them back (writing.py)
Recruit = compound("recruit", "unit")  # a priest or a philosopher
RecruitOn = compound("recruit", "unit", "place")  # a troop or a fleet
Build = compound("build", "kind", "island")
Buy = compound("buy", "card")
Replace = compound("replace", "card")
MetropolisMove = compound("metropolis", "island")
DemolishMove = compound("demolish", "kind")
Prosperity = compound("prosperity", "island")
