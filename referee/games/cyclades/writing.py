"""Cyclades moves written back in the notation of docs/notation.md: the inverse
of reading.py, piece by piece, so that a listed move can be pasted into a record
and read again as the same move.

A record line holds several moves (a god's actions, the cards of the creature
track, a creature's uses after its purchase); these functions write one part
each, and :func:`creature_use` the text a use adds after ``buy X:``. A move
the notation has no form for gives None.
"""

from __future__ import annotations

from referee.base.terms import Fn, Term

from .describe import name
from .fastpath import route
from .fluents import (
    Build,
    BuildingTarget,
    Buy,
    Change,
    DemolishMove,
    DiscardMove,
    FleetTarget,
    FleetTargetFrom,
    GodTile,
    KrakenStep,
    March,
    MetropolisMove,
    OfferMove,
    Prosperity,
    Push,
    Recruit,
    RecruitOn,
    Replace,
    Retreat,
    Sail,
    Side,
    Sink,
    Track,
    TroopTarget,
)

#: Units and buildings as a piece writes them, singular and plural.
PLURALS = {"priest": "priests", "philosopher": "philosophers", "troop": "troops", "fleet": "fleets",
           "temple": "temples", "port": "ports", "fortress": "fortresses", "university": "universities"}


def card(term: Term) -> str:
    """A creature, a god or a building as a player writes it: ``fates`` -> ``The Fates``."""
    written = name(term)
    return written[0].upper() + written[1:]


def units(count: int, unit: str) -> str:
    return f"{count} {PLURALS[unit]}" if count != 1 else unit


def _path(start: Term, count: int, path: Term, unit: str = "fleet") -> str:
    legs = "".join(f" -> {space}" + (f" {delta:+d}" if isinstance(delta, int) and delta else "")
                   for space, delta in route(path))
    return f"{units(count, unit)} {start}{legs}"


def offering(move: Fn) -> str | None:
    """The text after ``Name:`` for a bidding or battle decision."""
    match move.name:
        case "offer":
            offer = OfferMove.read(move)
            return f"{offer.amount} on {card(offer.god)}"
        case "apollo":
            return "Apollo"
        case "retreat":
            return f"retreat to {Retreat.read(move).to}"
        case "stay":
            return "stay"
    return None


def piece(move: Fn) -> str | None:
    """One piece of a ``Name/God:`` line (a creature's use excepted: ``creature_use``)."""
    if (recruit := Recruit.match(move)) is not None:
        return recruit.unit.name
    if (recruit := RecruitOn.match(move)) is not None:
        return f"{recruit.unit.name} on {recruit.place}"
    if (build := Build.match(move)) is not None:
        return f"{build.kind.name} on {build.island}"
    if (buy := Buy.match(move)) is not None:
        return f"buy {card(buy.card)}"
    if (old := Replace.match(move)) is not None:
        return f"replace {card(old.card)} ->"  # the card drawn follows (``replaced``)
    if (discard := DiscardMove.match(move)) is not None:
        return f"discard {discard.kind.name} on {discard.island}"
    if (metropolis := MetropolisMove.match(move)) is not None:
        return f"metropolis on {metropolis.island}"
    if (demolish := DemolishMove.match(move)) is not None:
        return f"demolish {demolish.kind.name}"
    if (prosperity := Prosperity.match(move)) is not None:
        return f"prosperity on {prosperity.island}"
    if move == Fn("pass"):
        return "pass"
    if (march := March.match(move)) is not None:
        return f"{units(march.count, 'troop')} {march.start} -> {march.to}"
    if (sail := Sail.match(move)) is not None:
        return _path(sail.start, sail.count, sail.path)
    return None


def replaced(move: Fn) -> str:
    """The card drawn for a Zeus replacement (chance ``track(S,C)``), after the arrow."""
    return card(Track.read(move).card)


def track_card(move: Fn) -> str:
    """A card of the ``creatures:`` line (chance ``track(S,C)``)."""
    return card(Track.read(move).card)


def god_tile(move: Fn) -> tuple[str, bool]:
    """A tile of the ``gods:`` line (chance ``god(Pos,G,Face)``): the god and whether it lies face down."""
    tile = GodTile.read(move)
    return card(tile.god), tile.face == Fn("down")


def gods_line(tiles: list[tuple[str, bool]]) -> str:
    up = [g for g, down in tiles if not down]
    down = [g for g, down in tiles if down]
    return "gods: " + ", ".join(up) + (" / " + ", ".join(down) if down else "")


def battle_side(side: Term) -> str | None:
    """One side of a ``battle:`` line (``side(P,Face,Loss)``, ``u`` not written)."""
    view = Side.match(side)
    if view is None:
        return None
    who, face, loss = view.player, view.face, view.loss
    text = str(who)
    if face != Fn("u"):
        text += f" {face}"
    if loss != Fn("u"):
        text += f" -{loss}"
    return text


def battle_line(move: Fn) -> str | None:
    sides = [battle_side(s) for s in move.args]
    return None if None in sides else "battle: " + ", ".join(sides)


def creature_use(target: Term, first: bool, card_name: str) -> str | None:
    """What ``use(card_name,target)`` adds to its purchase's text: the first use
    after ``buy X:``, a further one (the Sphinx's sales, the Kraken's steps, the
    Polyphemus's pushes) after the use before it. None: no form for it."""
    if isinstance(target, str):  # Griffon, Satyr, Dryad: a player
        return f": {target}" if first else None
    if not isinstance(target, Fn):
        return None
    lead = ": " if first else ", "
    match card_name, target.name:
        case "harpy", "troop":
            return f": troop on {TroopTarget.read(target).island}"
        case "giant", "building":
            building = BuildingTarget.read(target)
            return f": {building.kind.name} on {building.island}"
        case "cyclops", "change":
            change = Change.read(target)
            return f": {change.old.name} on {change.island} -> {change.new.name}"
        case "pegasus", "march":
            march = March.read(target)
            return f": {units(march.count, 'troop')} {march.start} -> {march.to}"
        case "siren", "fleet":
            if (source := FleetTargetFrom.match(target)) is not None:
                return f": {source.sea} from {source.source}"
            return f": {FleetTarget.read(target).sea}"
        case "sylph", "sail" if first:
            sail = Sail.read(target)
            return ": " + _path(sail.start, sail.count, sail.path)
        case "sphinx", ("priest" | "philosopher"):
            return lead + target.name
        case "sphinx", ("troop" | "fleet"):
            return lead + f"{target.name} on {_only(target)}"
        case ("minotaur" | "chiron" | "medusa" | "polyphemus"), "island" if first:
            return f": {_only(target)}"
        case "kraken", "sea" if first:
            return f": {_only(target)}"
        case "kraken", "step" if not first:
            return f" -> {KrakenStep.read(target).sea}"
        case "polyphemus", "push" if not first:
            push = Push.read(target)
            return f", {units(push.count, 'fleet')} {push.space} -> {push.to}"
        case "polyphemus", "sink" if not first:
            return f", sink {Sink.read(target).space}"
        case "chimera", _ if first and not target.args:
            return f": {card(target)}"
    return None


def _only(target: Fn) -> Term:
    """The one argument of a creature's target (``island(I)``, ``sea(S)``, ``troop(I)``...)."""
    (only,) = target.args
    return only
