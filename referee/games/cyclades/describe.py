"""Cyclades moves, rule details and alternatives in words a player reads."""

from __future__ import annotations

from collections import defaultdict

from ...terms import Fn, Term
from .fastpath import route

NAMES = {"fates": "the Fates"}
PROPER = {"zeus", "athena", "poseidon", "ares", "apollo", "sylph", "pegasus", "harpy", "griffon", "giant", "siren",
          "cyclops", "chimera", "sphinx", "satyr", "dryad", "kraken", "minotaur", "chiron", "medusa", "polyphemus"}
ARTICLE = {"university": "a university", "fortress": "a fortress", "port": "a port", "temple": "a temple",
           "priest": "a priest", "philosopher": "a philosopher", "troop": "a troop", "fleet": "a fleet"}


def name(term: Term) -> str:
    """A constant as a player writes it: ``zeus`` -> ``Zeus``."""
    if isinstance(term, Fn) and not term.args:
        return NAMES.get(term.name, term.name.capitalize() if term.name in PROPER else term.name.replace("_", " "))
    if isinstance(term, Fn) and term.name == "m":  # an offering marker
        return f"{term.args[0]}'s marker {term.args[1]}"
    return str(term)


GAME_STEPS = {
    "refresh_track": "refresh the creature track",
    "income": "collect income",
    "pay_offerings": "pay the offerings",
    "apollo_income": "pay Apollo's gift",
    "end_cycle": "end the cycle",
}


def describe_move(move: Fn) -> str:
    """One move in words: ``offer(zeus,5)`` -> ``offer 5 GP to Zeus``."""
    a = move.args
    match move.name:
        case "offer":
            return f"offer {a[1]} GP to {name(a[0])}"
        case "apollo":
            return "take Apollo"
        case "recruit":
            return f"recruit {ARTICLE.get(a[0].name, name(a[0]))}" + (f" on {a[1]}" if len(a) > 1 else "")
        case "build":
            return f"build {ARTICLE[a[0].name]} on {a[1]}"
        case "buy":
            return f"buy {name(a[0])}"
        case "replace":
            return f"replace {name(a[0])} with the top card of the deck"
        case "use":
            return f"use {name(a[0])}: {_use(a[0], a[1])}"
        case "discard":
            return f"discard the {name(a[0])} on {a[1]} for the metropolis"
        case "metropolis":
            return f"place the metropolis on {a[0]}"
        case "demolish":
            return f"demolish {ARTICLE[a[0].name]} to make room for the metropolis"
        case "prosperity":
            return f"put Apollo's prosperity marker on {a[0]}"
        case "pass":
            return "end the turn"
        case "track":
            return f"{name(a[1])} on the {a[0]}-GP slot of the creature track"
        case "god":
            return f"{name(a[1])} at position {a[0]} of the gods track, face {a[2].name}"
        case "sail":
            return f"move {_units(a[1], 'fleet')} from {a[0]} " + " ".join(_legs(a[2]))
        case "march":
            return f"move {_units(a[1], 'troop')} from {a[0]} to {a[2]}"
        case "round":
            return "battle round: " + ", ".join(_side(side) for side in a)
        case "stay":
            return "stay in the battle"
        case "retreat":
            return f"retreat to {a[0]}"
    return GAME_STEPS.get(move.name, str(move))


def _use(card: Term, target: Term) -> str:
    """What a creature's use does, in words (creatures.lp)."""
    card = card.name if isinstance(card, Fn) else str(card)
    if isinstance(target, Fn) and target.name == "troop" and target.args:
        return f"remove a troop from {target.args[0]}"
    if isinstance(target, Fn) and target.name == "building" and len(target.args) == 2:
        return f"destroy the {name(target.args[0])} on {target.args[1]}"
    if isinstance(target, Fn) and target.name == "metropolis" and target.args:
        return f"destroy the metropolis on {target.args[0]}"
    if card == "cyclops" and isinstance(target, Fn) and target.name == "change" and len(target.args) == 3:
        return f"change the {name(target.args[0])} on {target.args[1]} into {ARTICLE.get(target.args[2].name, name(target.args[2]))}"
    if card == "pegasus" and isinstance(target, Fn) and target.name == "march" and len(target.args) == 3:
        return f"fly {_units(target.args[1], 'troop')} from {target.args[0]} to {target.args[2]}"
    if card == "siren" and isinstance(target, Fn) and target.name == "fleet" and target.args:
        source = f" with a fleet from {target.args[1]}" if len(target.args) == 2 else " with a fleet from the reserve"
        return f"replace an enemy fleet on {target.args[0]}{source}"
    if card == "sphinx":
        what = f"a {target.name}" + (f" on {target.args[0]}" if isinstance(target, Fn) and target.args else "")
        return f"sell {what} for 2 GP"
    taken = {"griffon": "half the GP of", "satyr": "a philosopher from", "dryad": "a priest from"}
    return f"take {taken.get(card, '')} {name(target)}".replace("  ", " ")


def _units(count: Term, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


def _legs(path: Term) -> list[str]:
    words = []
    for space, delta in route(path):
        words.append(f"to {space}")
        if isinstance(delta, int) and delta > 0:
            words.append(f"(picking up {delta})")
        elif isinstance(delta, int) and delta < 0:
            words.append(f"(leaving {-delta})")
    return words


def _side(side: Term) -> str:
    if not (isinstance(side, Fn) and side.name == "side" and len(side.args) == 3):
        return str(side)
    who, face, loss = side.args
    parts = [] if face == Fn("u") else [f"rolls {face}"]
    parts += [] if loss == Fn("u") else ["loses none"] if loss == 0 else [f"loses {loss}"]
    return f"{who} {' and '.join(parts)}"


def describe_role(role: Term) -> str:
    if isinstance(role, Fn):
        return {"chance": "chance", "game": "the game"}.get(role.name, role.name)
    return str(role)


def _ranges(numbers: list[int]) -> str:
    numbers = sorted(set(numbers))
    parts, start = [], numbers[0]
    for prev, cur in zip(numbers, numbers[1:] + [None]):
        if cur != prev + 1:
            parts.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = cur
    return ", ".join(parts)


def _listing(items: list[str], limit: int | None) -> str:
    if limit is not None and len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)


GOD_ORDER = {"zeus": 0, "athena": 1, "poseidon": 2, "ares": 3}


def _grouping(move: Fn) -> tuple[tuple, str, object]:
    """Where a legal move goes in a grouped listing: (sort key, wording with {}
    for the listing, the move's item in that listing)."""
    a = move.args
    match move.name:
        case "god":
            return (0, a[0]), f"position {a[0]} shows {{}} face {a[2].name}", name(a[1])
        case "track":
            return (1, -a[0]), f"the {a[0]}-GP slot shows {{}}", name(a[1])
        case "offer":
            return (2, GOD_ORDER.get(a[0].name, 9)), f"offer {{}} GP to {name(a[0])}", a[1]
        case "recruit" if len(a) > 1:
            return (4, a[0].name), f"recruit {ARTICLE[a[0].name]} on {{}}", a[1]
        case "build":
            return (5, a[0].name), f"build {ARTICLE[a[0].name]} on {{}}", a[1]
        case "buy":
            return (6,), "buy {}", name(a[0])
        case "replace":
            return (7,), "replace {} (Zeus, 1 GP)", name(a[0])
        case "use" if len(a) == 2 and a[0] == Fn("sphinx") and isinstance(a[1], Fn):
            where = f" on {a[1].args[0]}" if a[1].args else ""
            return (6, 0), "Sphinx: sell (2 GP each) {}", f"a {a[1].name}{where}"
        case "use" if len(a) == 2 and isinstance(a[1], Fn) and a[1].name == "change" and len(a[1].args) == 3:
            return ((6, 4), f"Cyclops: change the {name(a[1].args[0])} on {a[1].args[1]} into {{}}",
                    name(a[1].args[2]))
        case "use" if len(a) == 2 and isinstance(a[1], Fn) and a[1].name == "march" and len(a[1].args) == 3:
            return ((6, 5, a[1].args[0]), f"Pegasus: fly {{}} troops from {a[1].args[0]} to any island",
                    a[1].args[1])
        case "use" if len(a) == 2 and isinstance(a[1], Fn) and a[1].name == "fleet" and a[0] == Fn("siren"):
            source = f" (a fleet from {a[1].args[1]})" if len(a[1].args) == 2 else ""
            return (6, 6, source), f"Siren: an enemy fleet on any of {{}}{source}", a[1].args[0]
        case "use" if len(a) == 2 and isinstance(a[1], Fn) and a[1].name == "troop":
            return (6, 1), "Harpy: a troop on any of {}", a[1].args[0]
        case "use" if len(a) == 2 and isinstance(a[1], Fn) and a[1].name == "building":
            return (6, 2), "Giant: any of these buildings: {}", f"{name(a[1].args[0])} on {a[1].args[1]}"
        case "use" if len(a) == 2 and isinstance(a[0], Fn):
            return (6, 3, a[0].name), f"{name(a[0])}: {_use(a[0], Fn('X')).replace(' X', '')} {{}}", name(a[1])
        case "prosperity":
            return (8,), "put Apollo's prosperity marker on {}", a[0]
        case "discard":
            return (9, a[0].name), f"discard the {a[0].name} on {{}}", a[1]
        case "metropolis":
            return (10,), "place the metropolis on {}", a[0]
        case "demolish":
            return (11,), "demolish {}", ARTICLE[a[0].name]
        case "march":
            return (13, a[0], a[2]), f"move {{}} troops from {a[0]} to {a[2]}", a[1]
        case "retreat":
            return (15,), "retreat to {}", a[0]
        case "stay":
            return (14,), "stay in the battle", None
    return ((3,) if move.name == "apollo" else (12, move.name)), describe_move(move), None


def group_moves(moves: list[Fn], limit: int | None = 6, screened: bool = False) -> list[str]:
    """Legal moves grouped for a person, e.g. ``offer 6-9 GP to Zeus``; each group
    lists at most ``limit`` places (``None``: all of them). ``screened``: the moves
    of a player whose gold the reader does not know (``CycladesRules.screen``),
    listed as the rules permit them whatever that gold: an offering has a lower
    bound only (``offer 6 GP or more to Zeus``), since its upper one is the gold."""
    groups: dict[tuple, list] = defaultdict(list)
    lines = _fleet_groups([m for m in moves if m.name == "sail"]) + _round_groups([m for m in moves if m.name == "round"])
    for move in (m for m in moves if m.name not in ("sail", "round")):
        order, wording, item = _grouping(move)
        groups[(order, wording)].append(item)
    for (_, wording), items in sorted(groups.items(), key=lambda g: g[0][0]):
        if items[0] is None:
            lines.append(wording)
        elif isinstance(items[0], int) and screened and wording.startswith("offer "):
            lines.append(wording.format(min(items)).replace(" GP to ", " GP or more to ", 1))
        elif isinstance(items[0], int):
            lines.append(wording.format(_ranges(items)))
        else:
            lines.append(wording.format(_listing(items, limit)))
    return lines


def _fleet_groups(moves: list[Fn]) -> list[str]:
    """Fleet moves by start and destination: ``move 1-2 fleets from F5 to F7 (3 routes)``."""
    routes: dict[tuple, set] = defaultdict(set)
    counts: dict[tuple, set] = defaultdict(set)
    for move in moves:
        start, count, path = move.args
        spaces = route(path)
        if spaces:
            key = (str(start), str(spaces[-1][0]))
            routes[key].add(tuple(s for s, _ in spaces))
            counts[key].add(count)
    return [f"move {_ranges(list(counts[key]))} fleet{'s' if max(counts[key]) > 1 else ''} from {key[0]} to {key[1]}"
            f" ({len(routes[key])} route{'s' if len(routes[key]) > 1 else ''})" for key in sorted(routes)]


def _round_groups(moves: list[Fn]) -> list[str]:
    """A battle round's possible records: ``the dice: Ann 0-3, Bob 0-3``, the
    losses alone, and how many records give both."""
    faces: dict[str, set] = defaultdict(set)
    losses: list[str] = []
    both = 0
    for move in moves:
        sides = [s.args for s in move.args if isinstance(s, Fn) and s.name == "side" and len(s.args) == 3]
        written_faces = all(isinstance(face, int) for _, face, _ in sides)
        written_losses = all(isinstance(loss, int) for _, _, loss in sides)
        if written_faces and not written_losses:
            for who, face, _ in sides:
                faces[str(who)].add(face)
        elif written_losses and not any(isinstance(face, int) for _, face, _ in sides):
            lost = [f"{who} -{loss}" for who, _, loss in sides if loss]
            losses.append(", ".join(lost) or "none")
        elif written_faces:
            both += 1
    lines = [f"the dice: {', '.join(f'{who} {_ranges(list(v))}' for who, v in faces.items())}"] if faces else []
    if losses:
        lines.append(f"the losses alone: {'; '.join(sorted(losses))}")
    if both:
        lines.append(f"the dice with their losses ({both} records)")
    return lines
