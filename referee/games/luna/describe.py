"""Luna moves and alternatives in words (docs/luna.md)."""

from __future__ import annotations

from collections import defaultdict

from referee.base.terms import Fn, Term, fn
from referee.games.luna.fluents import (
    Banish,
    BookMove,
    Council,
    Enter,
    Favour,
    Herbs,
    Novices,
    NovicesMove,
    Occupy,
    Recruit,
    Sailboat,
    Shrine,
    ShrineMove,
    Travel,
    Waves,
)

JETTY = fn("jetty")


def name(term: Term) -> str:
    if isinstance(term, Fn):
        if term.name == "jetty":
            return "the jetty"
        if term.args:
            return describe_move(term)
        return term.name.replace("_", " ")
    return str(term)


def describe_role(role: Term) -> str:
    if isinstance(role, Fn):
        return "the game" if role.name == "game" else role.name
    return str(role)


def _island(i: Term, data=None) -> str:
    if i == JETTY:
        return "the jetty"
    if data is not None and isinstance(i, int) and 1 <= i <= 7:
        return f"island {i} ({data.islands[i - 1]})"
    return f"island {i}"


def _novices(n: int) -> str:
    return f"{n} novice{'s' if n != 1 else ''}"


def _with(s: int, word: str) -> str:
    return f" with a {word}" if s == 1 else ""


def describe_move(move: Fn, data=None) -> str:
    a = move.args
    n = move.name
    if n == "favour":
        return f"take a favour on {_island(a[0], data)}{_with(a[1], 'substitute novice')}"
    if n == "recruit":
        return f"recruit on {_island(a[0], data)}{_with(a[1], 'substitute novice')}"
    if n == "shrine":
        return f"shrine on {_island(a[0], data)}{_with(a[1], 'substitute novice')}"
    if n == "novices":
        return f"a pair of novices on {_island(a[0], data)}"
    if n == "herbs":
        return f"herbs: reactivate {_novices(a[1])} on {_island(a[0], data)}"
    if n == "travel":
        return f"travel: {_novices(a[2])} from {_island(a[0])} to {_island(a[1])}"
    if n == "waves":
        status = "" if a[1] == Fn("active") or a[0] == JETTY else f" {a[1].name}"
        return f"waves: {_novices(a[3])}{status} from {_island(a[0])} to {_island(a[2])}"
    if n == "done":
        return "end the travel (the turn passes)"
    if n == "sailboat":
        return f"sailboat: {_novices(a[2])} from {_island(a[0])} to {_island(a[1])}"
    if n == "occupy":
        return (f"occupy temple tile {a[1]} with novices of {_island(a[0])}{_with(a[2], 'bribe')}"
                f"{_with(a[3], 'substitute novice')}")
    if n == "enter":
        return f"enter the temple with tile {a[0]}{_with(a[1], 'bribe')}"
    if n == "book":
        return f"move the book of tile {a[0]} under the novice of tile {a[1]}"
    if n == "council":
        return f"advance {a[1]} seat{'s' if a[1] != 1 else ''} on the council with novices of {_island(a[0])}" \
               f"{_with(a[2], 'substitute novice')}"
    if n == "banish":
        return f"banish the Apostate {a[0]} island{'s' if a[0] != 1 else ''} on{_with(a[1], 'substitute novice')}"
    if n == "meditate":
        return "meditate (flip a time marker)"
    if n == "prep_favours":
        return "hand out the favours of the islands without the players' pieces"
    if n == "score_round":
        return "score the round (priestess, Apostate, temple)"
    if n == "next_round":
        return "prepare the next round"
    if n == "final_scoring":
        return "final scoring (shrines, favours, council)"
    return str(move)


def _range(values: list[int]) -> str:
    values = sorted(set(values))
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(map(str, values))


def _cut(items: list[str], limit: int | None) -> str:
    if limit is not None and len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)


class _Position:
    """What a player has, read from the state (for 'with 2 of your 3 active novices')."""

    def __init__(self, state: frozenset | None, player):
        self.active: dict = defaultdict(int)
        self.shrines: set = set()
        for f in state or ():
            novices = Novices.match(f)
            if novices is not None and novices.player == player and novices.status == Fn("active"):
                self.active[novices.place] = novices.amount
            if (shrine := Shrine.match(f)) is not None and shrine.player == player:
                self.shrines.add(shrine.island)
        self.known = state is not None

    def using(self, island, needed: int) -> str:
        if not self.known:
            return f"with {_novices(needed)}"
        return f"with {needed} of your {self.active.get(island, 0)} active novices"


def group_moves(moves: list[Fn], limit: int | None, data=None, state: frozenset | None = None,
                player=None) -> list[str]:
    """The moves grouped for a person, one line per kind of action."""
    by: dict[str, list[Fn]] = defaultdict(list)
    for m in moves:
        by[m.name].append(m)
    pos = _Position(state, player)
    out: list[str] = []

    def need(island) -> int:
        return 1 if island in pos.shrines else 2

    options: dict = defaultdict(set)
    for m in map(Favour.read, by.get("favour", [])):
        options[m.island].add(m.substitute)
    for i, subs in sorted(options.items()):
        base = need(i)
        words = f"take a favour on {_island(i, data)} "
        if 0 in subs:
            words += pos.using(i, base)
        elif base == 1:  # the substitute alone (rule substitute)
            words += "with a substitute novice alone"
        else:
            words += f"with a substitute novice and {pos.using(i, base - 1)[5:]}"
        if 0 in subs and 1 in subs:
            words += " (or a substitute novice alone)" if base == 1 else f" (or a substitute novice and {base - 1})"
        out.append(words)
    recruit: dict = defaultdict(set)
    for m in map(Recruit.read, by.get("recruit", [])):
        recruit[m.substitute].add(m.island)
    for s_, islands in sorted(recruit.items()):
        out.append(f"recruit on island {_cut([str(i) for i in sorted(islands)], limit)} "
                   f"(2 novices{', one of them a substitute novice' if s_ else ''})")
    for m in sorted(map(ShrineMove.read, by.get("shrine", [])), key=lambda m: (m.substitute, m.island)):
        i, s = m.island, m.substitute
        out.append(f"build a shrine on {_island(i, data)}{_with(s, 'substitute novice')}")
    if by.get("novices"):
        islands = [str(NovicesMove.read(m).island) for m in sorted(by["novices"])]
        out.append("a pair of novices on island " + _cut(islands, limit))
    herbs = defaultdict(list)
    for m in map(Herbs.read, by.get("herbs", [])):
        herbs[m.island].append(m.amount)
    if herbs:
        out.append("herbs: reactivate " + _cut([f"{_range(c)} on island {i}" for i, c in sorted(herbs.items())], limit))
    for kind in ("travel", "waves"):
        sources = defaultdict(set)
        for m in by.get(kind, []):
            if kind == "travel":
                travel = Travel.read(m)
                f, s, c = travel.origin, "active", travel.amount
            else:
                waves = Waves.read(m)
                f, s, c = waves.origin, waves.status.name, waves.amount
            sources[(f, s)].add(c)
        if sources:
            parts = [f"up to {max(c)}{'' if s == 'active' or f == JETTY else ' ' + s} from {_island(f)}"
                     for (f, s), c in sorted(sources.items(), key=lambda kv: str(kv[0]))]
            what = "active novices" if kind == "travel" else "novices (waves favour)"
            out.append(f"{kind}: {what}, {_cut(parts, limit)}, to other islands (more groups may follow)")
    sail = defaultdict(set)
    for m in map(Sailboat.read, by.get("sailboat", [])):
        sail[m.origin].add(m.amount)
    if sail:
        out.append("sailboat: " + _cut([f"{_range(c)} from {_island(f)}" for f, c in sorted(sail.items(), key=str)],
                                       limit) + " to another island")
    for bribe in (0, 1):
        tiles = sorted((m.tile, m.island) for m in map(Occupy.read, by.get("occupy", [])) if m.bribe == bribe)
        if tiles:
            out.append(f"occupy temple tile{'s' if len(tiles) > 1 else ''} "
                       + _cut([f"{t} from island {i}" for t, i in tiles], limit) + _with(bribe, "bribe"))
    for bribe in (0, 1):
        tiles = sorted(m.tile for m in map(Enter.read, by.get("enter", [])) if m.bribe == bribe)
        if tiles:
            out.append("enter the temple with tile " + _cut([str(t) for t in tiles], limit) + _with(bribe, "bribe"))
    if by.get("book"):
        books = map(BookMove.read, sorted(by["book"]))
        out.append("book: " + _cut([f"{m.source} -> {m.target}" for m in books], limit))
    council = defaultdict(set)
    for m in map(Council.read, by.get("council", [])):
        council[(m.island, m.substitute)].add(m.seats)
    for (i, s), seats in sorted(council.items()):
        out.append(f"council: advance {_range(list(seats))} seats with novices of island {i}"
                   f"{_with(s, 'substitute novice')}")
    for s in (0, 1):
        steps = [m.steps for m in map(Banish.read, by.get("banish", [])) if m.substitute == s]
        if steps:
            out.append(f"banish the Apostate {_range(steps)} islands on{_with(s, 'substitute novice')}")
    if by.get("done"):
        out.append("end the travel (the turn passes)")
    if by.get("meditate"):
        out.append("meditate")
    for m in moves:
        if m.name in ("prep_favours", "score_round", "next_round", "final_scoring"):
            out.append(describe_move(m))
    return out
