"""Luna's terms by name: one declaration per fluent (rules/state.lp), per static
fact (game.static_facts) and per move the Python reads (rules/actions.lp,
rules/temple.lp); referee.game.fluents describes the declarations."""

from __future__ import annotations

from referee.game.fluents import compound, fact, fluent

# -- fluents ---------------------------------------------------------------------------
Round = fluent("round", "number")
Start = fluent("start", "player")
Markers = fluent("markers", "left")  # the meditation markers left this round
Novices = fluent("novices", "player", "place", "status", "amount")  # place: an island or jetty
Supply = fluent("supply", "player", "amount")
Shrine = fluent("shrine", "player", "island")
Holds = fluent("holds", "player", "kind")  # a favour tile
Pool = fluent("pool", "island", "amount")
Figure = fluent("figure", "name", "island")  # priestess, builder, apostate
Path = fluent("path", "tile")
OnTile = fluent("on_tile", "tile", "player")
Temple = fluent("temple", "tile", "player")
Vacant = fluent("vacant", "tile")
Book = fluent("book", "tile")
Score = fluent("score", "player", "points")
Disc = fluent("disc", "player", "seat", "height")  # on the council
Placed = fluent("placed", "player", "pairs")
BookBonusTaken = fluent("book_bonus_taken")
Moving = fluent("moving", "player", "action")  # travel or waves
RoundBegins = fluent("round_begins")

# -- static facts --------------------------------------------------------------------------
Seat = fact("seat", "player", "seat")
IslandKind = fact("island_kind", "island", "kind")
GuardValue = fact("guard_value", "round", "value")
LastSeat = fact("last_seat", "seat")
Neighbour = fact("neighbour", "tile", "other")
StartPlayer = fact("start_player", "player")
PriestessValue = fact("priestess_value", "rank", "value")
BuilderStep = fact("builder_step", "steps")
CouncilValue = fact("council_value", "seat", "value")
FigureStart = fact("figure_start", "figure", "island")
StartTile = fact("start_tile", "player", "tile")
PathTile = fact("path_tile", "tile", "group")

# -- moves ---------------------------------------------------------------------------------
Favour = compound("favour", "island", "substitute")
Recruit = compound("recruit", "island", "substitute")
ShrineMove = compound("shrine", "island", "substitute")
Council = compound("council", "island", "seats", "substitute")
Banish = compound("banish", "steps", "substitute")
Herbs = compound("herbs", "island", "amount")
Sailboat = compound("sailboat", "origin", "target", "amount")
Travel = compound("travel", "origin", "target", "amount")
Waves = compound("waves", "origin", "status", "target", "amount")
Occupy = compound("occupy", "island", "tile", "bribe", "substitute")
Enter = compound("enter", "tile", "bribe")
BookMove = compound("book", "source", "target")
NovicesMove = compound("novices", "island")  # a pair placed in phase prep_novices
