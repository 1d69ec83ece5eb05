"""Cyclades moves, rule details and alternatives in words a player reads."""

from __future__ import annotations

from collections import defaultdict

from ...terms import Fn, Term

NAMES = {"fates": "the Fates"}
ARTICLE = {"university": "a university", "fortress": "a fortress", "port": "a port", "temple": "a temple",
           "priest": "a priest", "philosopher": "a philosopher", "troop": "a troop", "fleet": "a fleet"}


def name(term: Term) -> str:
    """A constant as a player writes it: ``zeus`` -> ``Zeus``."""
    if isinstance(term, Fn) and not term.args:
        return NAMES.get(term.name, term.name.replace("_", " ").capitalize() if term.name in GODS_AND_CARDS
                         else term.name.replace("_", " "))
    if isinstance(term, Fn) and term.name == "m":  # an offering marker
        return f"{term.args[0]}'s marker {term.args[1]}"
    return str(term)


GODS_AND_CARDS = {"zeus", "athena", "poseidon", "ares", "apollo", "sylph", "pegasus", "harpy", "griffon",
                  "giant", "siren", "cyclops", "chimera", "sphinx", "satyr", "dryad", "kraken", "minotaur",
                  "chiron", "medusa", "polyphemus"}

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
    return GAME_STEPS.get(move.name, str(move))


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


def group_moves(moves: list[Fn], limit: int | None = 6) -> list[str]:
    """Legal moves grouped for a person, e.g. ``offer 6-9 GP to Zeus``; each group
    lists at most ``limit`` places (``None``: all of them)."""
    groups: dict[str, list] = defaultdict(list)
    order: list[str] = []

    def put(key: str, item) -> None:
        if key not in groups:
            order.append(key)
        groups[key].append(item)

    for move in moves:
        a = move.args
        match move.name:
            case "offer":
                put(f"offer:{a[0].name}", a[1])
            case "recruit" if len(a) > 1:
                put(f"recruit:{a[0].name}", a[1])
            case "build":
                put(f"build:{a[0].name}", a[1])
            case "buy" | "replace" | "prosperity" | "metropolis" | "demolish":
                put(move.name, a[0])
            case "discard":
                put(f"discard:{a[0].name}", a[1])
            case "track":
                put(f"track:{a[0]}", a[1])
            case "god":
                put(f"god:{a[0]}:{a[2].name}", a[1])
            case _:
                put(describe_move(move), None)
    kinds = ["god", "track", "offer", "apollo", "take Apollo", "recruit", "build", "buy", "replace", "prosperity",
             "discard", "metropolis", "demolish"]
    gods = ["zeus", "athena", "poseidon", "ares"]
    order.sort(key=lambda k: (kinds.index(k.partition(":")[0]) if k.partition(":")[0] in kinds else len(kinds),
                              gods.index(k.partition(":")[2]) if k.partition(":")[2] in gods else 0))
    lines = []
    for key in order:
        items = groups[key]
        kind, _, what = key.partition(":")
        if kind == "offer":
            lines.append(f"offer {_ranges(items)} GP to {name(Fn(what))}")
        elif kind == "recruit":
            lines.append(f"recruit {ARTICLE[what]} on {_listing(items, limit)}")
        elif kind == "build":
            lines.append(f"build {ARTICLE[what]} on {_listing(items, limit)}")
        elif kind == "buy":
            lines.append(f"buy {_listing([name(i) for i in items], limit)}")
        elif kind == "replace":
            lines.append(f"replace {_listing([name(i) for i in items], limit)} (Zeus, 1 GP)")
        elif kind == "prosperity":
            lines.append(f"put Apollo's prosperity marker on {_listing(items, limit)}")
        elif kind == "metropolis":
            lines.append(f"place the metropolis on {_listing(items, limit)}")
        elif kind == "demolish":
            lines.append(f"demolish {_listing([ARTICLE[i.name] for i in items], limit)}")
        elif kind == "discard":
            lines.append(f"discard the {what} on {_listing(items, limit)}")
        elif kind == "track":
            lines.append(f"the {what}-GP slot shows {_listing([name(i) for i in items], limit)}")
        elif kind == "god":
            pos, face = what.split(":")
            lines.append(f"position {pos} shows {_listing([name(i) for i in items], limit)} face {face}")
        else:
            lines.append(key)
    return lines


def join_alternatives(lines: list[str]) -> str:
    """``a``, ``a or b``, ``a, b, or c``."""
    if len(lines) <= 2:
        return " or ".join(lines)
    return "; ".join(lines[:-1]) + "; or " + lines[-1]
