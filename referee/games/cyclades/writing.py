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
    a = move.args
    match move.name:
        case "offer":
            return f"{a[1]} on {card(a[0])}"
        case "apollo":
            return "Apollo"
        case "retreat":
            return f"retreat to {a[0]}"
        case "stay":
            return "stay"
    return None


def piece(move: Fn) -> str | None:
    """One piece of a ``Name/God:`` line (a creature's use excepted: ``creature_use``)."""
    a = move.args
    match move.name:
        case "recruit" if len(a) == 1:
            return a[0].name
        case "recruit":
            return f"{a[0].name} on {a[1]}"
        case "build":
            return f"{a[0].name} on {a[1]}"
        case "buy":
            return f"buy {card(a[0])}"
        case "replace":
            return f"replace {card(a[0])} ->"  # the card drawn follows (``replaced``)
        case "discard":
            return f"discard {a[0].name} on {a[1]}"
        case "metropolis":
            return f"metropolis on {a[0]}"
        case "demolish":
            return f"demolish {a[0].name}"
        case "prosperity":
            return f"prosperity on {a[0]}"
        case "pass":
            return "pass"
        case "march":
            return f"{units(a[1], 'troop')} {a[0]} -> {a[2]}"
        case "sail":
            return _path(a[0], a[1], a[2])
    return None


def replaced(move: Fn) -> str:
    """The card drawn for a Zeus replacement (chance ``track(S,C)``), after the arrow."""
    return card(move.args[1])


def track_card(move: Fn) -> str:
    """A card of the ``creatures:`` line (chance ``track(S,C)``)."""
    return card(move.args[1])


def god_tile(move: Fn) -> tuple[str, bool]:
    """A tile of the ``gods:`` line (chance ``god(Pos,G,Face)``): the god and whether it lies face down."""
    return card(move.args[1]), move.args[2] == Fn("down")


def gods_line(tiles: list[tuple[str, bool]]) -> str:
    up = [g for g, down in tiles if not down]
    down = [g for g, down in tiles if down]
    return "gods: " + ", ".join(up) + (" / " + ", ".join(down) if down else "")


def battle_side(side: Term) -> str | None:
    """One side of a ``battle:`` line (``side(P,Face,Loss)``, ``u`` not written)."""
    if not (isinstance(side, Fn) and side.name == "side" and len(side.args) == 3):
        return None
    who, face, loss = side.args
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
    a = target.args
    lead = ": " if first else ", "
    match card_name, target.name:
        case "harpy", "troop":
            return f": troop on {a[0]}"
        case "giant", "building":
            return f": {a[0].name} on {a[1]}"
        case "cyclops", "change":
            return f": {a[0].name} on {a[1]} -> {a[2].name}"
        case "pegasus", "march":
            return f": {units(a[1], 'troop')} {a[0]} -> {a[2]}"
        case "siren", "fleet":
            return f": {a[0]}" + (f" from {a[1]}" if len(a) == 2 else "")
        case "sylph", "sail" if first:
            return ": " + _path(a[0], a[1], a[2])
        case "sphinx", ("priest" | "philosopher"):
            return lead + target.name
        case "sphinx", ("troop" | "fleet"):
            return lead + f"{target.name} on {a[0]}"
        case ("minotaur" | "chiron" | "medusa" | "polyphemus"), "island" if first:
            return f": {a[0]}"
        case "kraken", "sea" if first:
            return f": {a[0]}"
        case "kraken", "step" if not first:
            return f" -> {a[0]}"
        case "polyphemus", "push" if not first:
            return f", {units(a[1], 'fleet')} {a[0]} -> {a[2]}"
        case "polyphemus", "sink" if not first:
            return f", sink {a[0]}"
        case "chimera", _ if first and not a:
            return f": {card(target)}"
    return None
