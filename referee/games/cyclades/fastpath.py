"""Cyclades fast path: the bookkeeping steps and forced chance outcomes in Python.

Each function mirrors a rule block of ``rules/*.lp`` for a decision point that
has exactly one answer; ``tests/judge/test_invariant.py``
(``test_fast_path_batching_and_speculation_agree_with_the_solver_alone``) replays
every shipped transcript with and without this module and compares the verdicts
and states move by move, and checks the speculation model against the solver's
next state of every legal move; ``tests/game/test_readings.py`` does so under each
reading.
"""

from __future__ import annotations

from referee.base.terms import Fn, Term, fn
from referee.game.fluents import Control, Phase
from referee.game.state import Draft, tup
from referee.games.cyclades import figures
from referee.games.cyclades.fluents import (
    Act,
    Acting,
    ApolloDue,
    Battle,
    BattleTurn,
    Bought,
    Buildings,
    BuildingTarget,
    Change,
    Coast,
    Cycle,
    Deck,
    Demolish,
    Discard,
    Discarded,
    Effect,
    Finished,
    Fleets,
    FleetTarget,
    FleetTargetFrom,
    GodDown,
    GodTile,
    GodUp,
    HarpyTook,
    Island,
    IslandProsperity,
    IslandSlots,
    March,
    Marker,
    Metropolis,
    MetropolisSlots,
    Offer,
    OfferingMarker,
    Order,
    Outbid,
    Pending,
    Player,
    PlayerCount,
    Retreat,
    Reveal,
    Sail,
    Sea,
    SeaAdjacent,
    SeaProsperity,
    Side,
    StartOrder,
    SylphSpent,
    TopOfDeck,
    Track,
    Troops,
    TroopTarget,
    Use,
    VariantActive,
    Via,
    WaitingGod,
)

GODS = ("zeus", "athena", "poseidon", "ares")
#: The creature track's slots by price (rules/data.lp, track_slot/1).
TRACK_SLOTS = (4, 3, 2)


class Facts:
    """The static facts of one game, indexed for the fast path."""

    def __init__(self, static: list[Fn]):
        self.players = [f.name for f in Player.of(static)]
        self.variants = frozenset(f.variant.name for f in VariantActive.of(static))  # readings.toml
        self.player_count = PlayerCount.of(static)[0].number
        self.island_prosperity = {f.island: f.amount for f in IslandProsperity.of(static)}
        self.island_slots = {f.island: f.slots for f in IslandSlots.of(static)}
        self.metropolis_slots = {f.island: f.slots for f in MetropolisSlots.of(static)}
        self.sea_prosperity = {f.sea: f.amount for f in SeaProsperity.of(static)}
        starts = StartOrder.of(static)
        self.owner = {f.marker: OfferingMarker.read(f.marker).player for f in starts}  # marker -> player
        self.markers = len(starts)
        target = 3 if self.player_count == 2 else 2
        self.metropolis_target = target
        self.coast: dict[Term, set] = {}  # sea space -> the islands next to it
        self.coasts: dict[Term, set] = {}  # island -> the sea spaces next to it
        for f in Coast.of(static):
            self.coast.setdefault(f.sea, set()).add(f.island)
            self.coasts.setdefault(f.island, set()).add(f.sea)
        self.islands = {f.name for f in Island.of(static)}
        self.seas = {f.name for f in Sea.of(static)}
        self.sea_adjacent: dict[Term, set] = {}
        for f in SeaAdjacent.of(static):
            self.sea_adjacent.setdefault(f.sea, set()).add(f.other)


# -- views of a state (mirroring state.lp) -----------------------------------------
def controlled(d: Draft, facts: Facts, player: Term) -> set[Term]:
    """Rule island_control: islands with the player's troops or territory marker."""
    attacking = {b.place for b in Battle.of(d) if b.kind == Fn("land") and b.attacker == player}
    held = {key.island for key, n in Troops.counts(d).items()
            if key.player == player and n > 0 and key.island not in attacking}
    if "territory_marker_income_only" not in facts.variants:  # variant: a marker keeps the income only
        held |= _marked(d, player)
    return held


def _marked(d: Draft, player: Term) -> set[Term]:
    return {m.island for m in Marker.of(d) if m.player == player}


def income_of(d: Draft, facts: Facts, player: Term) -> int:
    """Rule income (variant territory_marker_income_only: the islands of the player's markers too)."""
    markers = d.counts("prosperity")
    earning = controlled(d, facts, player) | _marked(d, player)
    total = sum(facts.island_prosperity.get(i, 0) + markers.get(i, 0) for i in earning)
    seas = {key.sea for key, n in Fleets.counts(d).items() if key.player == player}
    return total + sum(facts.sea_prosperity.get(s, 0) for s in seas)


def metropolises(d: Draft, facts: Facts, player: Term) -> int:
    held = controlled(d, facts, player)
    return sum(1 for m in Metropolis.of(d) if m.island in held)


def phase(d: Draft) -> str:
    f = Phase.one(d)
    return f.name.name if f else ""


def set_phase(d: Draft, name: str) -> None:
    d.drop_all("phase")
    d.add("phase", Fn(name))


# -- control (mirroring control.lp) -------------------------------------------------
def to_place(d: Draft) -> Term | None:
    outbid = Outbid.one(d)
    if outbid:
        return outbid.marker
    placed = {f.marker for f in Offer.of(d)}
    waiting = sorted((f.rank, f.marker) for f in Order.of(d) if f.marker not in placed)
    return waiting[0][1] if waiting else None


def set_control(d: Draft, facts: Facts) -> None:
    d.drop_all("control")
    ph = phase(d)
    role: Term | None = None
    if ph in ("refresh", "income", "pay", "cycle_end"):
        role = Fn("game")
    elif ph in ("reveal_track", "reveal_gods"):
        role = Fn("chance")
    elif ph == "bidding":
        marker = to_place(d)
        role = facts.owner[marker] if marker is not None else None
    elif ph == "actions":
        turn = BattleTurn.one(d)
        if turn is not None:  # a battle: chance rolls, the players decide whether to retreat
            role = Fn("chance") if turn.decider == Fn("dice") else turn.decider
        elif d.one("reveal"):
            role = Fn("chance")
        elif d.one("apollo_due"):
            role = Fn("game")
        else:
            acting = Acting.one(d)
            role = facts.owner[acting.marker] if acting else None
    if role is not None:
        d.add("control", role)


# -- bookkeeping steps of the game role -----------------------------------------------
def refresh_track(d: Draft, facts: Facts) -> None:
    """Rule creature_track_refresh."""
    cycle = Cycle.one(d).number
    track = {f.slot: f for f in Track.of(d)}
    if 2 in track:
        d.discard(track[2].term())
        d.add("discard", track[2].card)
    if cycle == 2 and 4 in track and "creature_left_on_deck" in facts.variants:
        # variant creature_left_on_deck: the unbought card goes face up on top of the deck
        card = track.pop(4).card
        d.discard(fn("track", 4, card))
        d.add("deck", card)
        d.add("top_of_deck", card)
    for slot in (3, 4):
        if slot in track:
            d.discard(track[slot].term())
            d.add("track", slot - 1, track[slot].card)
    for slot in (4, 3, 2):
        if slot >= 5 - cycle:
            d.add("reveal", slot)
    set_phase(d, "reveal_track")


def income(d: Draft, facts: Facts) -> None:
    """Rule income."""
    for p in facts.players:
        d.change("gold", p, income_of(d, facts, p))
    set_phase(d, "bidding")


def pay_offerings(d: Draft, facts: Facts) -> None:
    """Rules offering_payment and action_order."""
    offers = Offer.of(d)
    up = {f.god: f.position for f in GodUp.of(d)}
    ranks = []
    total = "priests_off_total_2p" in facts.variants and facts.player_count == 2  # variant: the total
    owed: dict = {}
    for f in offers:
        marker, god, amount = f.marker, f.god, f.amount
        player = facts.owner[marker]
        if god.name == "apollo":
            ranks.append((10 + amount, marker, god))
            continue
        if total:
            owed.setdefault(player, []).append(amount)
        else:
            d.change("gold", player, -max(1, amount - d.count("priests", player)))
        if god in up:
            ranks.append((up[god], marker, god))
    for player, amounts in owed.items():
        d.change("gold", player, -max(len(amounts), sum(amounts) - d.count("priests", player)))
    for rank, marker, god in ranks:
        d.add("act", rank, marker, god)
    if ranks:
        rank, marker, god = min(ranks, key=lambda r: r[0])
        d.add("acting", marker)
        figures.starts_acting(d, facts.owner[marker], Cycle.one(d).number)  # rule figure_duration
        if god.name == "apollo":
            d.add("apollo_due", marker)
    set_phase(d, "actions")


def apollo_income(d: Draft, facts: Facts) -> None:
    """Rule apollo_income."""
    for due in map(ApolloDue.read, d.drop_all("apollo_due")):
        player = facts.owner[due.marker]
        d.change("gold", player, 4 if len(controlled(d, facts, player)) == 1 else 1)


def end_cycle(d: Draft, facts: Facts) -> None:
    """Rules next_turn_order, gods_track (waiting gods) and end_of_game."""
    finished = d.drop_all("finished")
    d.drop_all("order")
    for f in map(Finished.read, finished):
        d.add("order", facts.markers - f.rank + 1, f.marker)
    for name in ("offer", "act", "apollo_marker_placed", "god_up"):
        d.drop_all(name)
    for key, n in d.counts("temples_used").items():
        d.change("temples_used", key, -n)
    for f in map(GodDown.read, d.drop_all("god_down")):
        d.add("waiting_god", f.position, f.god)
    cycle = Cycle.read(d.drop_all("cycle")[0]).number
    d.add("cycle", cycle + 1)
    held = {p: metropolises(d, facts, p) for p in facts.players}
    if any(n >= facts.metropolis_target for n in held.values()):
        best = max(held.values())
        contenders = [p for p in facts.players if held[p] == best]
        if "winner_by_gold" in facts.variants:  # variant: GP alone among those at the target
            contenders = [p for p in facts.players if held[p] >= facts.metropolis_target]
        most_gold = max(d.count("gold", p) for p in contenders)
        for p in contenders:
            if d.count("gold", p) == most_gold:
                d.add("winner", p)
        set_phase(d, "over")
    else:
        set_phase(d, "refresh")


GAME_STEPS = {
    "refresh_track": refresh_track,
    "income": income,
    "pay_offerings": pay_offerings,
    "apollo_income": apollo_income,
    "end_cycle": end_cycle,
}


def game_step(state: frozenset[Fn]) -> Fn | None:
    """The bookkeeping move the game role makes now (its only legal move)."""
    d = Draft(state)
    if d.one("control") != Control.make(Fn("game")):
        return None
    ph = phase(d)
    name = {"refresh": "refresh_track", "income": "income", "pay": "pay_offerings",
            "cycle_end": "end_cycle", "actions": "apollo_income"}.get(ph)
    return Fn(name) if name else None


# -- forced chance outcomes --------------------------------------------------------------
def forced_chance(state: frozenset[Fn], facts: Facts) -> Fn | None:
    """The chance outcome when only one is possible: a creature that slid along the
    track (rule creature_track_reveal) or a god tile that can only be one god
    (rule gods_track)."""
    d = Draft(state)
    if d.one("control") != Control.make(Fn("chance")):
        return None
    reveals = [f.slot for f in Reveal.of(d)]
    if reveals:
        slot = max(reveals)
        kept = [f for f in Track.of(d) if f.slot == slot]
        if kept:
            return Track.make(slot, kept[0].card)
        top = TopOfDeck.one(d)  # variant creature_left_on_deck: the last slot takes it
        if top is not None and len(reveals) == 1:
            return Track.make(slot, top.card)
        drawable = [f.card for f in Deck.of(d)] or [f.card for f in Discard.of(d)]
        return Track.make(slot, drawable[0]) if len(drawable) == 1 else None
    if phase(d) != "reveal_gods":
        return None
    shown = {f.god for f in GodUp.of(d)} | {f.god for f in GodDown.of(d)}
    pos = len(shown) + 1
    face = _face(d, facts, pos)
    forced = _forced_god(d, facts, pos)
    left = [Fn(g) for g in GODS if Fn(g) not in shown]
    if forced is not None and forced not in shown:
        return fn("god", pos, forced, face)
    if forced is None and len(left) == 1 and face is not None:
        return fn("god", pos, left[0], face)
    return None


def _pair_cycle(d: Draft, facts: Facts) -> bool:
    return facts.player_count == 3 and d.one("waiting_god") is not None


def _face(d: Draft, facts: Facts, pos: int) -> Fn | None:
    n = facts.player_count
    if n == 5:
        return Fn("up")
    if n in (2, 4):
        return Fn("up") if pos <= 3 else Fn("down")
    if pos <= 2:
        return Fn("up")
    return None if _pair_cycle(d, facts) else Fn("down")


def _forced_god(d: Draft, facts: Facts, pos: int) -> Fn | None:
    waiting = {f.position: f.god for f in WaitingGod.of(d)}
    if facts.player_count in (2, 4) and pos == 1:
        return waiting.get(4)
    if _pair_cycle(d, facts):
        return waiting.get(pos + 2)
    return None


def reveal(d: Draft, facts: Facts, move: Fn) -> None:
    """Apply a chance outcome (legal ones only: the fast path is for forced outcomes)."""
    if move.name == "track":
        outcome = Track.read(move)
        slot, card = outcome.slot, outcome.card
        waiting = fn("reveal", slot) in d.facts  # (cycle.lp: a card is laid only on a slot waiting for one)
        d.discard(fn("reveal", slot))
        if waiting and not any(f.slot == slot for f in Track.of(d)):
            if d.one("deck") is None:  # rule creature_deck_reshuffle
                for f in map(Discard.read, d.drop_all("discard")):
                    if f.card != card:
                        d.add("deck", f.card)
            d.add("track", slot, card)
            d.discard(fn("deck", card))
        d.discard(fn("top_of_deck", card))  # variant creature_left_on_deck
        if not d.one("reveal"):
            d.drop_all("top_of_deck")
        if not d.one("reveal") and phase(d) == "reveal_track":
            set_phase(d, "reveal_gods")
        return
    tile = GodTile.read(move)
    pos, god, face = tile.position, tile.god, tile.face
    if phase(d) != "reveal_gods":  # laid out of phase: it changes nothing (cycle.lp)
        return
    d.add("god_up" if face == Fn("up") else "god_down", pos, god)
    to_show = 2 if _pair_cycle(d, facts) else 4
    if pos == to_show:
        d.drop_all("waiting_god")
        set_phase(d, "income")


def apply(state: frozenset[Fn], facts: Facts, role: Term, move: Fn) -> frozenset[Fn]:
    """The next state after a forced move, computed in Python."""
    d = Draft(state)
    if role == Fn("game"):
        GAME_STEPS[move.name](d, facts)
    else:
        reveal(d, facts, move)
    set_control(d, facts)
    return d.freeze()


# -- speculation: the likely next state of any move -------------------------------------
#
# Only a guess, used to judge many moves in one solver call (Engine.prefetch):
# the solver judges each move in the state guessed for it, and a judgement is
# used only when that state is the real one. A wrong or missing guess costs
# time, never a wrong verdict.

RECRUIT_COSTS = {"priest": (0, 4), "philosopher": (0, 4), "fleet": (0, 1, 2, 3), "troop": (0, 2, 3, 4)}
BUILDINGS = ("temple", "university", "port", "fortress")


def _placing(d: Draft, facts: Facts, player: Term) -> Term | None:
    outbid = [f.marker for f in Outbid.of(d) if facts.owner[f.marker] == player]
    if outbid:
        return outbid[0]
    placed = {f.marker for f in Offer.of(d)}
    waiting = sorted((f.rank, f.marker) for f in Order.of(d)
                     if f.marker not in placed and facts.owner[f.marker] == player)
    return waiting[0][1] if waiting else None


def _temples(d: Draft, facts: Facts, player: Term) -> int:
    held = controlled(d, facts, player)
    temples = sum(n for key, n in Buildings.counts(d).items() if key.island in held and key.kind == Fn("temple"))
    return temples + sum(1 for f in Metropolis.of(d) if f.island in held)


def _free_slots(d: Draft, facts: Facts, island: Term) -> int:
    used = sum(n for key, n in Buildings.counts(d).items() if key.island == island)
    if fn("metropolis", island) in d.facts:
        used += facts.metropolis_slots[island]
    return facts.island_slots[island] - used


def _placeable(d: Draft, facts: Facts, player: Term) -> bool:
    return any(fn("metropolis", i) not in d.facts for i in controlled(d, facts, player))


def _offer(d: Draft, facts: Facts, player: Term, god: Fn, amount: int) -> None:
    marker = _placing(d, facts, player)
    if marker is None:
        return
    for f in Outbid.of(d):
        if f.marker == marker:
            d.discard(f.term())
    if god == Fn("apollo"):
        amount = 1 + sum(1 for f in Offer.of(d) if f.god == god)
    else:
        for f in Offer.of(d):
            if f.god == god and f.marker != marker:
                d.discard(f.term())
                d.add("outbid", f.marker, god)
    d.add("offer", marker, god, amount)
    if phase(d) == "bidding" and to_place(d) is None:
        set_phase(d, "pay")


#: The creatures whose use is a move of its own right after the purchase (creatures.lp, figures.lp).
EFFECT_CARDS = ("harpy", "giant", "griffon", "satyr", "dryad", "sphinx", "cyclops", "pegasus",
                "siren", "sylph", "chimera") + figures.FIGURE_CARDS
#: The creatures used several times in a row (the Sphinx sells unit after unit; the
#: Kraken moves, the Polyphemus pushes after the placement).
MULTI_USE = ("sphinx",) + figures.MULTI_USE
#: What Satyr and Dryad take (rules satyr_philosopher, dryad_priest).
CARD_TAKEN = {"satyr": "philosophers", "dryad": "priests"}


def _use(d: Draft, facts: Facts, player: Term, card: str, target: Term) -> bool:
    """A creature's use, applied as played (rules harpy_troop, giant_building,
    griffon_gold, satyr_philosopher, dryad_priest)."""
    if card == "harpy" and isinstance(target, Fn) and target.name == "troop":
        island = TroopTarget.read(target).island
        for key, n in Troops.counts(d).items():
            if key.island == island and n > 0:
                d.change("troops", key.term(), -1)
                if "harpy_replaces_troop" in facts.variants and (n == 1 or key.player == player):
                    _harpy_place(d, player, island, key.player)
    elif card == "giant" and isinstance(target, Fn) and target.name == "building":
        building = BuildingTarget.read(target)
        kind, island = building.kind, building.island
        if d.count("building", tup(island, kind)) > 0:
            d.change("building", tup(island, kind), -1)
    elif card == "giant" and isinstance(target, Fn) and target.name == "metropolis":
        pass
    elif card == "griffon":
        if target in facts.players and target != player:
            half = d.count("gold", target) // 2
            d.change("gold", target, -half)
            d.change("gold", player, half)
    elif card == "sphinx":  # rule sphinx_sell
        if target in (Fn("priest"), Fn("philosopher")):
            counter, key = target.name + "s", player
        elif (troop := TroopTarget.match(target)) is not None:
            counter, key = "troops", tup(player, troop.island)
        elif (fleet := FleetTarget.match(target)) is not None:
            counter, key = "fleets", tup(player, fleet.sea)
        else:
            return True
        held = d.count(counter, key)
        if held > 0:
            d.change(counter, key, -1)
            d.change("gold", player, 2)
    elif card == "siren":  # rules siren_fleet, siren_reserve
        if not (isinstance(target, Fn) and target.name == "fleet" and target.args):
            return False
        sea = (FleetTarget.match(target) or FleetTargetFrom.read(target)).sea
        enemies = [key for key, n in Fleets.counts(d).items() if key.sea == sea and key.player != player and n > 0]
        if enemies:
            for key in enemies:
                d.change("fleets", key.term(), -1)
            d.change("fleets", tup(player, sea), 1)
            source = FleetTargetFrom.match(target)
            if source is not None and source.source != sea and d.count("fleets", tup(player, source.source)) > 0:
                d.change("fleets", tup(player, source.source), -1)
    elif card == "sylph":  # rule sylph_move: a fleet movement as with Poseidon, without its cost
        sail = Sail.match(target)
        if sail is None:
            return False
        return _sail(d, player, sail.start, sail.count, sail.path, cost=0)
    elif card == "chimera":  # rules chimera_discard, chimera_shuffle
        if not (isinstance(target, Fn) and not target.args) or target == Fn("chimera"):
            return True
        if fn("discard", target) not in d.facts:
            return True
        if target.name in EFFECT_CARDS:
            d.add("effect", player, target)
        elif target.name == "fates":
            d.change("gold", player, income_of(d, facts, player))
        for f in Discard.of(d):
            d.discard(f.term())
            d.add("deck", f.card)
    elif card == "pegasus":  # rule pegasus_move: a troop movement without fleets or cost
        march = March.match(target)
        if march is None:
            return False
        return _march(d, facts, player, march.start, march.count, march.to, cost=0)
    elif card == "cyclops":  # rules cyclops_building, cyclops_type, metropolis_buildings
        change = Change.match(target)
        if change is None:
            return False
        old, island, new = change.old, change.island, change.new
        held = controlled(d, facts, player)
        if island not in held or d.count("building", tup(island, old)) < 1 or new == old or new.name not in BUILDINGS:
            return True

        def owned() -> set:
            return {key.kind for key, n in Buildings.counts(d).items() if key.island in held and n > 0}

        before = owned()
        d.change("building", tup(island, old), -1)
        d.change("building", tup(island, new), 1)
        if (not any(f.player == player for f in Pending.of(d)) and len(before) < 4
                and len(owned()) == 4):
            d.add("pending", player, Fn("buildings"))
    elif card in CARD_TAKEN:
        kind = CARD_TAKEN[card]
        if target in facts.players and target != player and d.count(kind, target) > 0:
            before = d.count(kind, player)
            d.change(kind, target, -1)
            d.change(kind, player, 1)
            if kind == "philosophers" and before == 3:
                d.change("philosophers", player, -4)
                if _placeable(d, facts, player):
                    d.add("pending", player, Fn("place"))
    else:
        return False
    return True


SYLPH_RANGE = 10  # rule sylph_move


def _sylph_spent(d: Draft, facts: Facts, player: Term, move: Fn) -> int | None:
    """Variant sylph_total_ten: the spaces of the player's Sylph movements so far,
    this one included, when ``move`` is one (else None); the fluent
    sylph_spent(P,K) goes with any move of the player and comes back with the total
    while the power lasts (the effect is then kept)."""
    before = [f for f in SylphSpent.of(d) if f.player == player]
    for f in before:
        d.discard(f.term())
    use = Use.match(move)
    if ("sylph_total_ten" not in facts.variants or use is None
            or use.card != Fn("sylph") or fn("effect", player, Fn("sylph")) not in d.facts):
        return None
    sail = Sail.match(use.target)
    if sail is None:
        return None
    legs = route(sail.path)
    if not legs:
        return None
    total = (before[0].spaces if before else 0) + len(legs)
    if total < SYLPH_RANGE:
        d.add("sylph_spent", player, total)
    return total


def _player_move(d: Draft, facts: Facts, player: Term, move: Fn) -> bool:
    a, name = move.args, move.name
    acting = d.one("acting")
    # Rule creature_effect_at_once: any move of the player ends the chance to use a creature.
    spent = _sylph_spent(d, facts, player, move)
    for f in [f for f in Effect.of(d) if f.player == player]:
        if not (name == "use" and a and a[0] == f.card and f.card.name in MULTI_USE) and not (
                f.card == Fn("sylph") and spent is not None and spent < SYLPH_RANGE):
            d.discard(f.term())
            figures.effect_ends(d, facts, player, f.card, move)
    if name in ("offer", "apollo"):
        _offer(d, facts, player, a[0] if a else Fn("apollo"), a[1] if a else 0)
    elif name == "recruit":
        unit = a[0].name
        bought = d.count("bought", tup(player, a[0]))
        costs = RECRUIT_COSTS[unit]
        if bought < len(costs):
            d.change("gold", player, -costs[bought])
        d.change("bought", tup(player, a[0]), 1)
        if unit in ("priest", "philosopher"):
            before = d.count(unit + "s", player)
            d.change(unit + "s", player, 1)
            if unit == "philosopher" and before == 3:
                d.change("philosophers", player, -4)
                if _placeable(d, facts, player):
                    d.add("pending", player, Fn("place"))
        elif len(a) > 1:
            d.change(unit + "s", tup(player, a[1]), 1)
    elif name == "build":
        kind, island = a
        if island not in facts.island_slots:
            return False
        owned = {key.kind for key, n in Buildings.counts(d).items() if key.island in controlled(d, facts, player)}
        d.change("gold", player, -2)
        d.change("building", tup(island, kind), 1)
        if (island in controlled(d, facts, player) and not any(f.player == player for f in Pending.of(d))
                and len(owned) < 4 and len(owned | {kind}) == 4):
            d.add("pending", player, Fn("buildings"))
    elif name in ("buy", "replace"):
        slot = next((f.slot for f in Track.of(d) if f.card == a[0]), None)
        if slot is None:
            return False
        if name == "buy":
            discount = min(max(0, _temples(d, facts, player) - d.count("temples_used", player)), slot - 1)
            d.change("gold", player, -(slot - discount))
            d.change("temples_used", player, discount)
        elif "zeus_replace_slides" in facts.variants:  # variant: the dearer cards slide, a new card at 4 GP
            d.change("gold", player, -1)
            for f in sorted((f for f in Track.of(d) if f.slot > slot), key=lambda f: f.slot):
                d.discard(f.term())
                d.add("track", f.slot - 1, f.card)
            d.add("reveal", max(TRACK_SLOTS))
        else:
            d.change("gold", player, -1)
            d.add("reveal", slot)
        d.discard(fn("track", slot, a[0]))
        if (name == "replace" and a[0] == Fn("chimera")
                and "chimera_shuffle_on_replace" in facts.variants):  # variant: the discards join the deck
            for f in map(Discard.read, d.drop_all("discard")):
                d.add("deck", f.card)
            d.add("deck", a[0])
        elif name == "replace" or a[0].name not in figures.ISLAND_FIGURES:  # rule figure_duration
            d.add("discard", a[0])
        if name == "buy" and a[0].name in EFFECT_CARDS:
            d.add("effect", player, a[0])
        elif name == "buy" and a[0].name == "fates":  # rule fates_income
            d.change("gold", player, income_of(d, facts, player))
    elif name == "use":
        if len(a) != 2 or not isinstance(a[0], Fn):
            return False
        if a[0].name in figures.FIGURE_CARDS:
            return figures.use(d, facts, player, a[0].name, a[1], Cycle.one(d).number)
        return _use(d, facts, player, a[0].name, a[1])
    elif name == "discard":
        kind, island = a
        done = {f.kind for f in Discarded.of(d) if f.player == player}
        if (fn("pending", player, Fn("buildings")) not in d.facts or kind in done
                or island not in controlled(d, facts, player) or d.count("building", tup(island, kind)) < 1):
            return True  # a discard that cannot be made changes nothing
        d.change("building", tup(island, kind), -1)
        if len(done) == 3:
            for f in [f for f in Discarded.of(d) if f.player == player]:
                d.discard(f.term())
            d.discard(fn("pending", player, Fn("buildings")))
            if _placeable(d, facts, player):
                d.add("pending", player, Fn("place"))
                if "metropolis_demolish_any" in facts.variants:  # variant: the buildings' metropolis
                    d.add("by_buildings", player)
        else:
            d.add("discarded", player, kind)
    elif name == "metropolis":
        if a[0] not in facts.island_slots:
            return False  # not an island of this board: no guess
        buildings = sum(n for key, n in Buildings.counts(d).items() if key.island == a[0])
        deficit = min(facts.metropolis_slots[a[0]] - _free_slots(d, facts, a[0]), buildings)
        d.add("metropolis", a[0])
        d.discard(fn("pending", player, Fn("place")))
        d.discard(fn("by_buildings", player))  # variant metropolis_demolish_any
        if deficit > 0:
            d.add("pending", player, fn("demolish", a[0], deficit))
    elif name == "demolish":
        pending = next((f for f in Pending.of(d) if f.player == player and f.task.name == "demolish"), None)
        if pending is None:
            return False
        task = Demolish.read(pending.task)
        island, deficit = task.island, task.deficit
        d.change("building", tup(island, a[0]), -1)
        d.discard(pending.term())
        if deficit > 1:
            d.add("pending", player, fn("demolish", island, deficit - 1))
    elif name == "sail":
        return _sail(d, player, *a)
    elif name == "march":
        return _march(d, facts, player, *a)
    elif name in ("stay", "retreat"):
        return _battle_decision(d, facts, player, move)
    elif name == "prosperity":
        d.change("prosperity", a[0], 1)
        d.add("apollo_marker_placed")
    elif name == "pass":
        if acting is None or facts.owner[Acting.read(acting).marker] != player:
            return False
        marker = Acting.read(acting).marker
        acts = sorted((f.rank, f.marker, f.god) for f in Act.of(d))
        rank = next((r for r, m, _ in acts if m == marker), None)
        if rank is None:  # a marker acting without its god's action (a state no legal game reaches)
            return False
        d.add("finished", marker, 1 + sum(1 for _ in d.having("finished")))
        d.discard(acting)
        for key, n in Bought.counts(d).items():
            if key.player == player:
                d.change("bought", key.term(), -n)
        for f in Pending.of(d) + Discarded.of(d):
            if f.player == player:
                d.discard(f.term())
        d.discard(fn("by_buildings", player))
        later = [(r, m, g) for r, m, g in acts if r > rank]
        if later:
            d.add("acting", later[0][1])
            figures.starts_acting(d, facts.owner[later[0][1]], Cycle.one(d).number)  # rule figure_duration
            if later[0][2] == Fn("apollo"):
                d.add("apollo_due", later[0][1])
        else:
            set_phase(d, "cycle_end")
    else:
        return False
    return True


def speculate(state: frozenset[Fn], facts: Facts, role: Term, move: Fn) -> frozenset[Fn] | None:
    """The likely state after ``move`` (None when no guess is made)."""
    d = Draft(state)
    if role == Fn("game"):
        if move != game_step(state):
            return None
        GAME_STEPS[move.name](d, facts)
    elif role == Fn("chance") and move.name == "round":
        if not _round(d, facts, move):
            return None
    elif role == Fn("chance"):
        if move.name not in ("track", "god") or (move.name == "track" and not d.one("reveal")):
            return None
        reveal(d, facts, move)
    elif not _player_move(d, facts, role, move):
        return None
    _leave_markers(state, d)
    set_control(d, facts)
    return d.freeze()


#: Each player's troops (rules/data.lp, supply(troop,8)).
TROOP_SUPPLY = 8


def _harpy_place(d: Draft, player: Term, island: Term, owner: Term) -> None:
    """Variant harpy_replaces_troop: the player's troop from the reserve takes
    the removed troop's place; an island so taken leaves its owner no marker."""
    own = Troops.counts(d)
    if owner != player and sum(n for key, n in own.items() if key.player == player) >= TROOP_SUPPLY:
        return
    d.change("troops", tup(player, island), 1)
    if owner != player:
        d.add("harpy_took", island)
        for f in [f for f in Marker.of(d) if f.island == island and f.player == owner]:
            d.discard(f.term())


def _leave_markers(before: frozenset[Fn], d: Draft) -> None:
    """Rule territory_marker: an island left without the player's troops keeps
    their marker (the island of a battle is settled by the battle)."""
    was = Draft(before)
    battles = {f.place for f in Battle.of(was) if f.kind == Fn("land")}
    taken = {f.island for f in HarpyTook.of(d)}  # variant harpy_replaces_troop (_harpy_place)
    for key, n in was.counts("troops").items():
        if n > 0 and d.count("troops", key) == 0:
            left = Troops.Key.read(key)
            if left.island not in battles and left.island not in taken:
                d.add("marker", left.island, left.player)
    for f in d.having("harpy_took"):
        d.discard(f)


# -- movement and battles (mirroring movement.lp, battle.lp; speculation only) ----------------
def _enemy(d: Draft, unit: str, place: Term, player: Term) -> Term | None:
    """The other player with units (troops or fleets) at ``place``."""
    return next((owner for (owner, at), n in _units_by_place(d, unit).items()
                 if at == place and owner != player and n > 0), None)


def _units_by_place(d: Draft, unit: str) -> dict[tuple[Term, Term], int]:
    """Troops or fleets by (player, place)."""
    if unit == "troops":
        return {(key.player, key.island): n for key, n in Troops.counts(d).items()}
    return {(key.player, key.sea): n for key, n in Fleets.counts(d).items()}


def _start_battle(d: Draft, kind: str, place: Term, attacker: Term, defender: Term) -> None:
    if d.one("battle") is None:
        d.add("battle_turn", Fn("dice"))
    d.add("battle", Fn(kind), place, attacker, defender)


def route(path: Term) -> list[tuple[Term, Term]]:
    """The spaces of a fleet movement's path ``via(S,Delta,Rest)...end``, each
    with the fleets picked up there (negative: left there)."""
    spaces = []
    step = Via.match(path)
    while step is not None and len(spaces) < 100:
        spaces.append((step.space, step.delta))
        step = Via.match(step.rest)
    return spaces


def _sail(d: Draft, player: Term, start: Term, count: Term, path: Term, cost: int = 1) -> bool:
    legs = route(path)
    if not legs or not isinstance(count, int) or not all(isinstance(delta, int) for _, delta in legs):
        return False
    end, carried = legs[-1][0], count + sum(delta for _, delta in legs[:-1])
    enemy = _enemy(d, "fleets", end, player)
    d.change("gold", player, -cost)
    d.change("fleets", tup(player, start), -count)
    for space, delta in legs[:-1]:
        d.change("fleets", tup(player, space), -delta)
    d.change("fleets", tup(player, end), carried)
    if enemy is not None:
        _start_battle(d, "sea", end, player, enemy)
    return True


def _march(d: Draft, facts: Facts, player: Term, start: Term, count: Term, to: Term, cost: int = 1) -> bool:
    if not isinstance(count, int):
        return False
    enemy = _enemy(d, "troops", to, player)
    conquest = enemy is None and to not in controlled(d, facts, player)
    types = _types_with(d, facts, player, to) if conquest else None
    d.change("gold", player, -cost)
    d.change("troops", tup(player, start), -count)
    d.change("troops", tup(player, to), count)
    if enemy is not None:
        _start_battle(d, "land", to, player, enemy)
        return True
    for f in [f for f in Marker.of(d) if f.island == to and f.player != player]:
        d.discard(f.term())
    if types is not None:
        _conquest_metropolis(d, player, types)
    return True


def _types_with(d: Draft, facts: Facts, player: Term, island: Term) -> tuple[int, set]:
    """The building types ``player`` owns now, and with ``island``'s added."""
    held = controlled(d, facts, player)
    buildings = Buildings.counts(d)
    owned = {key.kind for key, n in buildings.items() if key.island in held and n > 0}
    gained = {key.kind for key, n in buildings.items() if key.island == island and n > 0}
    return len(owned), owned | gained


def _conquest_metropolis(d: Draft, player: Term, types: tuple[int, set]) -> None:
    """Rule metropolis_buildings: a conquest that completes the four types."""
    before, after = types
    if before < 4 and len(after) == 4 and not any(f.player == player for f in Pending.of(d)):
        d.add("pending", player, Fn("buildings"))


def _battle_units(d: Draft) -> tuple[Battle, str, dict]:
    battle = Battle.one(d)
    unit = "troops" if battle.kind == Fn("land") else "fleets"
    place = battle.place
    return battle, unit, {p: d.count(unit, tup(p, place)) for p in (battle.attacker, battle.defender)}


def _end_battle(d: Draft, battle: Battle, taken: bool) -> None:
    d.discard(battle.term())
    d.drop_all("battle_turn")
    if taken and battle.kind == Fn("land"):
        for f in [f for f in Marker.of(d) if f.island == battle.place and f.player != battle.attacker]:
            d.discard(f.term())


def _round(d: Draft, facts: Facts, move: Fn) -> bool:
    if d.one("battle") is None or len(move.args) != 2:
        return False
    battle, unit, units = _battle_units(d)
    place, attacker, defender = battle.place, battle.attacker, battle.defender
    sides = {side.player: (side.face, side.loss) for side in map(Side.read, move.args)}
    if set(sides) != {attacker, defender}:
        return False
    unwritten = Fn("u")
    if any(loss != unwritten for _, loss in sides.values()):
        losses = {p: 0 if loss == unwritten else loss for p, (_, loss) in sides.items()}
    elif all(face != unwritten for face, _ in sides.values()):
        faces = {p: face for p, (face, _) in sides.items()}
        losses = dict(zip((attacker, defender), _round_losses(units[attacker] + faces[attacker],
                                                               units[defender] + _bonus(d, facts, battle)
                                                               + faces[defender])))
    else:
        return False
    types = _types_with(d, facts, attacker, place) if battle.kind == Fn("land") else None
    minotaur = figures.minotaur_defends(d, battle)  # rule minotaur_defends: lost last
    minotaur_lost = minotaur and losses[defender] > 0 and units[defender] == 0
    if minotaur_lost:
        figures.minotaur_lost(d)
    left = {}
    for p in (attacker, defender):
        lost = min(losses[p], units[p])
        d.change(unit, tup(p, place), -lost)
        left[p] = units[p] - lost
    d.drop_all("battle_turn")
    if left[attacker] and (left[defender] or (minotaur and not minotaur_lost)):
        first = defender
        if "loser_decides_first" in facts.variants:  # variant: the loser of the round first
            lost = {p: units[p] - left[p] for p in (attacker, defender)}
            first = attacker if lost[attacker] and not lost[defender] else defender
            d.add("first_decider", Fn("att" if first == attacker else "def"))
        d.add("battle_turn", first)
        return True
    _end_battle(d, battle, taken=left[attacker] > 0)
    if battle.kind == Fn("land") and not left[attacker] and not left[defender]:
        d.add("marker", place, defender)
    if types is not None and left[attacker] > 0:
        _conquest_metropolis(d, attacker, types)
    return True


def _battle_decision(d: Draft, facts: Facts, player: Term, move: Fn) -> bool:
    turn = BattleTurn.one(d)
    if turn is None or turn.decider != player or d.one("battle") is None:
        return False
    battle, unit, units = _battle_units(d)
    place, attacker, defender = battle.place, battle.attacker, battle.defender
    d.discard(turn.term())
    if move.name == "stay":
        if "loser_decides_first" in facts.variants:  # variant: the first decider is remembered
            side = Fn("att" if player == attacker else "def")
            first = fn("first_decider", side) in d.facts
            d.discard(fn("first_decider", side))
            d.add("battle_turn", (defender if player == attacker else attacker) if first else Fn("dice"))
            return True
        d.add("battle_turn", attacker if player == defender else Fn("dice"))
        return True
    to = Retreat.read(move).to
    if (player == defender and "minotaur_may_retreat" in facts.variants
            and figures.minotaur_defends(d, battle)):  # variant: the Minotaur fights on alone
        d.change(unit, tup(player, place), -units[player])
        d.change(unit, tup(player, to), units[player])
        first = fn("first_decider", Fn("def"))
        attacker_next = "loser_decides_first" not in facts.variants or first in d.facts
        d.discard(first)
        d.add("battle_turn", attacker if attacker_next else Fn("dice"))
        return True
    if player == attacker and not units[defender] and figures.minotaur_defends(d, battle):
        d.add("marker", place, defender)  # rule minotaur_defends: the island stays the defender's
    types = _types_with(d, facts, attacker, place) if player == defender and battle.kind == Fn("land") else None
    d.change(unit, tup(player, place), -units[player])
    d.change(unit, tup(player, to), units[player])
    _end_battle(d, battle, taken=player == defender)
    d.drop_all("first_decider")
    if types is not None:
        _conquest_metropolis(d, attacker, types)
    return True


def _bonus(d: Draft, facts: Facts, battle: Battle) -> int:
    """Rule battle_defence_bonus."""
    kind, place, defender = battle.kind, battle.place, battle.defender
    metropolis = "metropolis_no_defence" not in facts.variants  # variant: a metropolis does not defend
    if kind == Fn("land"):  # the Minotaur counts as two troops (rule minotaur_defends)
        return (d.count("building", tup(place, Fn("fortress"))) + (metropolis and fn("metropolis", place) in d.facts)
                + 2 * figures.minotaur_defends(d, battle))
    held = facts.coast.get(place, set())
    held = controlled(d, facts, defender) & held
    return sum(d.count("building", tup(i, Fn("port"))) + (metropolis and fn("metropolis", i) in d.facts)
               for i in held)


# -- battles (mirroring battle.lp) ---------------------------------------------------------
DIE_VALUES = (0, 1, 2, 3)  # rule combat_die: faces 0, 1, 1, 2, 2, 3


def _round_losses(attacker_total: int, defender_total: int) -> tuple[int, int]:
    """Rule battle_round: the lower total loses a unit; a tie costs both one."""
    return int(attacker_total <= defender_total), int(attacker_total >= defender_total)


def battle_rolls(state: frozenset[Fn], facts: Facts, move: Fn) -> list[tuple[int, int]]:
    """Rule battle_round: the pairs of faces (attacker's, defender's) that agree
    with a round as written (faces and losses not written are free)."""
    d = Draft(state)
    battle = Battle.one(d)
    sides = [Side.match(s) for s in move.args]
    if battle is None or move.name != "round" or None in sides:
        return []
    kind, place, attacker, defender = battle.kind, battle.place, battle.attacker, battle.defender
    unit = "troops" if kind == Fn("land") else "fleets"
    units = {p: d.count(unit, tup(p, place)) for p in (attacker, defender)}
    bonus = _bonus(d, facts, battle)
    written = {side.player: (side.face, side.loss) for side in sides}
    if set(written) - {attacker, defender}:
        return []
    faces = {p: [written[p][0]] if p in written and written[p][0] != Fn("u") else list(DIE_VALUES)
             for p in (attacker, defender)}
    losses_written = any(p in written and written[p][1] != Fn("u") for p in written)
    found = []
    for a in faces[attacker]:
        for b in faces[defender]:
            lost = dict(zip((attacker, defender), _round_losses(units[attacker] + a, units[defender] + bonus + b)))
            if not losses_written or all(lost[p] == (written[p][1] if p in written else 0) for p in lost):
                found.append((a, b))
    return found
