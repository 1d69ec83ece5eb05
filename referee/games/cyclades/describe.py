"""Cyclades moves, rule details and alternatives in words a player reads."""

from __future__ import annotations

from collections import defaultdict

from referee.base.terms import Fn, Term
from referee.game.fluents import Count
from referee.games.cyclades.fastpath import SYLPH_RANGE, route
from referee.games.cyclades.figures import FIGURE_CARDS
from referee.games.cyclades.fluents import (
    BuildingTarget,
    Change,
    FleetTarget,
    FleetTargetFrom,
    March,
    MetropolisTarget,
    Offer,
    OfferingMarker,
    OfferMove,
    Sail,
    SylphSpent,
    TroopTarget,
    Use,
)

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
        marker = OfferingMarker.read(term)
        return f"{marker.player}'s marker {marker.number}"
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


#: What the Griffon, the Satyr and the Dryad take from a player (creatures.lp).
TAKEN = {"griffon": "half the GP of", "satyr": "a philosopher from", "dryad": "a priest from"}


def _use(card: Term, target: Term) -> str:
    """What a creature's use does, in words (creatures.lp)."""
    card = card.name if isinstance(card, Fn) else str(card)
    if card in FIGURE_CARDS and isinstance(target, Fn):
        return _figure_use(card, target)
    if (troop := TroopTarget.match(target)) is not None:
        return f"remove a troop from {troop.island}"
    if (building := BuildingTarget.match(target)) is not None:
        return f"destroy the {name(building.kind)} on {building.island}"
    if (metropolis := MetropolisTarget.match(target)) is not None:
        return f"destroy the metropolis on {metropolis.island}"
    if card == "cyclops" and (change := Change.match(target)) is not None:
        return (f"change the {name(change.old)} on {change.island} into "
                f"{ARTICLE.get(change.new.name, name(change.new))}")
    if card == "pegasus" and (march := March.match(target)) is not None:
        return f"fly {_units(march.count, 'troop')} from {march.start} to {march.to}"
    if card == "siren" and (fleet := FleetTarget.match(target) or FleetTargetFrom.match(target)) is not None:
        source = f" with a fleet from {fleet.source}" if isinstance(fleet, FleetTargetFrom) else " with a fleet from the reserve"
        return f"replace an enemy fleet on {fleet.sea}{source}"
    if card == "sylph" and Sail.match(target) is not None:
        return describe_move(target)  # a movement as with Poseidon
    if card == "chimera":
        return f"take {name(target)} from the discard pile and use it"
    if card == "sphinx":
        place = _unit_place(target)
        what = f"a {target.name}" + (f" on {place}" if place is not None else "")
        return f"sell {what} for 2 GP"
    return f"take {TAKEN.get(card, '')} {name(target)}".replace("  ", " ")


def _unit_place(target: Term) -> Term | None:
    """Where a troop or a fleet a creature takes is (``troop(I)``, ``fleet(S)``), or None."""
    if (troop := TroopTarget.match(target)) is not None:
        return troop.island
    if (fleet := FleetTarget.match(target)) is not None:
        return fleet.sea
    return None


def _figure_use(card: str, target: Fn) -> str:
    """A figure's use in words (figures.lp)."""
    a = target.args
    match target.name:
        case "island" if len(a) == 1:
            return f"put it on {a[0]}"
        case "sea" if len(a) == 1:
            return f"put it on {a[0]}, destroying the fleets there"
        case "step" if len(a) == 1:
            return f"move it on to {a[0]} (1 GP), destroying the fleets there"
        case "push" if len(a) == 3:
            return f"push {_units(a[1], 'fleet')} from {a[0]} to {a[2]}"
        case "sink" if len(a) == 1:
            return f"destroy the fleets on {a[0]}, which cannot be pushed"
    return str(target)


def _figure_grouping(card: str, target: Fn) -> tuple[tuple, str, object]:
    """Where a figure's use goes in a grouped listing: ``Kraken: any of 24 sea
    spaces: A1, A2, ...`` ({n} is the number of items)."""
    shown = name(Fn(card))
    a = target.args
    match target.name:
        case "island" if len(a) == 1:
            return (6, 7, card), f"{shown}: any of {{n}} islands: {{}}", a[0]
        case "sea" if len(a) == 1:
            return (6, 7, card), f"{shown}: any of {{n}} sea spaces: {{}}", a[0]
        case "step" if len(a) == 1:
            return (6, 8), f"{shown}: move on (1 GP) to any of {{}}", a[0]
        case "push" if len(a) == 3:
            return (6, 9, str(a[0]), str(a[2])), f"{shown}: push {{}} of the fleets on {a[0]} to {a[2]}", a[1]
        case "sink" if len(a) == 1:
            return (6, 10), f"{shown}: destroy the fleets on {{}}", a[0]
    return (6, 11, card), f"{shown}: {{}}", str(target)


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
    if move.name == "use" and len(a) == 2 and isinstance(a[0], Fn) and a[0].name in FIGURE_CARDS and isinstance(a[1], Fn):
        return _figure_grouping(a[0].name, a[1])
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


def group_moves(moves: list[Fn], limit: int | None = 6, state: frozenset | None = None,
                player: Term | None = None, screened: bool = False) -> list[str]:
    """Legal moves grouped for a person, e.g. ``offer 6-9 GP to Zeus``; each group
    lists at most ``limit`` places (``None``: all of them). With the position,
    a creature's uses are counted: ``Harpy: any of 7 enemy troops on 4 islands``.
    ``screened``: the moves of a player whose gold the reader does not know
    (``CycladesScreen.screen``), listed as the rules permit them whatever that gold:
    an offering has a lower bound only (``offer 6 GP or more to Zeus``), since its
    upper one is the gold."""
    groups: dict[tuple, list] = defaultdict(list)
    uses = [m for m in moves if (use := Use.match(m)) is not None and isinstance(use.card, Fn)
            and use.card.name not in FIGURE_CARDS]  # the figures' uses: _figure_grouping
    lines = (_fleet_groups([m for m in moves if m.name == "sail"])
             + _round_groups([m for m in moves if m.name == "round"])
             + _use_groups(uses, limit, state, player))
    offered_to: dict[tuple, Term] = {}
    for move in (m for m in moves if m.name not in ("sail", "round") and m not in uses):
        order, wording, item = _grouping(move)
        groups[(order, wording)].append(item)
        if (offer := OfferMove.match(move)) is not None:
            offered_to[(order, wording)] = offer.god
    for key, items in sorted(groups.items(), key=lambda g: g[0][0]):
        wording = key[1]
        if items[0] is None:
            lines.append(wording)
        elif (key in offered_to and screened
              and max(items) >= _screened_offer_ceiling(state, player, offered_to[key])):
            lines.append(wording.format(min(items)).replace(" GP to ", " GP or more to ", 1))
        elif isinstance(items[0], int):
            text = wording.format(_ranges(items))
            lines.append(text.replace(" troops ", " troop ", 1) if max(items) == 1 else text)  # move 1 troop
        else:
            lines.append(wording.replace("{n}", str(len(items))).format(_listing(items, limit)))
    return lines


def _screened_offer_ceiling(state: frozenset | None, player: Term | None, god: Term) -> int:
    """Where the offerings to ``god`` the screened position lets ``player`` pay
    reach at least (``CycladesScreen.screen``: the gold stands in for one the reader
    does not know): the gold plus the priests, less the player's offerings standing
    on other gods (rule offering_affordable, under every reading of the priests'
    reduction in the 2-player game). A listed range that reaches it is open-ended
    (``offer 4 GP or more``); one cut by a verdict (listed at the most gold the
    verdict on an offering leaves possible: ``Session._consistent``) stops far below
    it, and is listed as it is."""
    gold = _counted(state, "gold").get(player, 0)
    priests = _counted(state, "priests").get(player, 0)
    others = sum(offer.amount for offer in Offer.of(state or ())
                 if offer.god != god and (marker := OfferingMarker.match(offer.marker)) is not None
                 and marker.player == player and isinstance(offer.amount, int))
    return gold + priests - others


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
    # The listing is bounded on purpose (movement.lp): routes that neither turn back
    # nor pick up or leave fleets. Say so.
    return [f"move {_ranges(list(counts[key]))} fleet{'s' if max(counts[key]) > 1 else ''} from {key[0]} to {key[1]}"
            f" ({len(routes[key])} route{'s' if len(routes[key]) > 1 else ''}, besides those that turn back"
            f" or pick up or leave fleets)" for key in sorted(routes)]


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


def _counted(state: frozenset | None, name_: str) -> dict:
    """A counter of the position: key -> number (``count(Name,Key,N)`` fluents)."""
    found: dict = {}
    for count in Count.of(state or ()):
        if count.counter == Fn(name_):
            key = count.key
            found[tuple(key.args) if isinstance(key, Fn) and key.name == "" else key] = count.amount
    return found


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('s') else 's'}"


def _use_groups(moves: list[Fn], limit: int | None, state: frozenset | None, player: Term | None) -> list[str]:
    """The uses of a creature, one line per card (per start for movements):
    ``Harpy: any of 7 enemy troops on 4 islands (IS1, IS3, ...)``,
    ``Sylph: move 1-3 fleets from D4 to any of 12 spaces``."""
    by_card: dict[str, list] = defaultdict(list)
    for move in moves:
        use = Use.read(move)
        by_card[use.card.name].append(use.target)
    troops = _counted(state, "troops")
    lines = []
    for card in sorted(by_card):
        targets = by_card[card]
        shown = name(Fn(card))
        if card == "harpy":
            islands = sorted({str(TroopTarget.read(t).island) for t in targets})
            enemy = {i: sum(n for (p, j), n in troops.items() if j == i and p != player) for i in islands}
            own = {i: sum(n for (p, j), n in troops.items() if j == i and p == player) for i in islands}
            theirs = [i for i in islands if enemy[i]]
            mine = [i for i in islands if own[i]]
            parts = []
            if theirs:
                parts.append(f"any of {_plural(sum(enemy.values()), 'enemy troop')} on {_plural(len(theirs), 'island')}"
                             f" ({_listing(theirs, limit)})")
            if mine:
                parts.append(f"one of their own {_plural(sum(own.values()), 'troop')} on {_listing(mine, limit)}")
            lines.append(f"{shown}: " + ("; or ".join(parts) if parts else
                                         f"a troop on any of {_listing(islands, limit)}"))
        elif card == "giant":
            buildings = [BuildingTarget.read(t) for t in targets if t.name == "building"]
            items = [f"{name(b.kind)} on {b.island}" for b in buildings]
            islands = {str(b.island) for b in buildings}
            lines.append(f"{shown}: the {items[0]}" if len(items) == 1 else
                         f"{shown}: any of {_plural(len(items), 'building')} on {_plural(len(islands), 'island')}"
                         f" ({_listing(sorted(items), limit)})")
        elif card in ("griffon", "satyr", "dryad"):
            lines.append(f"{shown}: {TAKEN[card]} any of {_listing(sorted(str(t) for t in targets), limit)}")
        elif card == "sphinx":
            items = []
            for t in sorted(targets, key=str):
                place = _unit_place(t)
                if place is not None:
                    held = _counted(state, t.name + "s").get((player, place), 1)
                    items.append(f"{_plural(held, t.name)} on {place}")
                else:
                    held = _counted(state, t.name + "s").get(player, 1)
                    items.append(_plural(held, t.name))
            lines.append(f"{shown}: sell (2 GP each) any of {_listing(items, limit)}")
        elif card == "cyclops":
            changes = [Change.read(t) for t in targets]
            olds = sorted({f"{name(c.old)} on {c.island}" for c in changes})
            news = sorted({name(c.new) for c in changes})
            which = f"the {olds[0]}" if len(olds) == 1 else f"any of {_listing(olds, limit)}"
            lines.append(f"{shown}: change {which} into another type ({', '.join(news)})")
        elif card == "pegasus":
            starts: dict[str, tuple[set, set]] = defaultdict(lambda: (set(), set()))
            for march in map(March.read, targets):
                starts[str(march.start)][0].add(march.count)
                starts[str(march.start)][1].add(str(march.to))
            for start, (counts, ends) in sorted(starts.items()):
                lines.append(f"{shown}: fly {_ranges(list(counts))} troop{'s' if max(counts) > 1 else ''} from {start}"
                             f" to any of {_plural(len(ends), 'island')}")
        elif card == "sylph":
            starts = defaultdict(lambda: (set(), set()))
            for sail in map(Sail.read, targets):
                spaces = route(sail.path)
                if spaces:
                    starts[str(sail.start)][0].add(sail.count)
                    starts[str(sail.start)][1].add(str(spaces[-1][0]))
            # variant sylph_total_ten: the spaces already moved with this purchase
            spent = next((f.spaces for f in SylphSpent.of(state or ()) if f.player == player), 0)
            for start, (counts, ends) in sorted(starts.items()):
                lines.append(f"{shown}: move {_ranges(list(counts))} fleet{'s' if max(counts) > 1 else ''} from {start}"
                             f" to any of {_plural(len(ends), 'space')} (within {SYLPH_RANGE - spent}, by any route: one listed each)")
        elif card == "siren":
            fleets = [FleetTarget.match(t) or FleetTargetFrom.read(t) for t in targets]
            seas = sorted({str(f.sea) for f in fleets})
            sources = sorted({str(f.source) for f in fleets if isinstance(f, FleetTargetFrom)})
            source = f" (with a fleet from {_listing(sources, limit)}: the reserve is empty)" if sources else ""
            lines.append(f"{shown}: an enemy fleet on any of {_plural(len(seas), 'space')}"
                         f" ({_listing(seas, limit)}){source}")
        elif card == "chimera":
            lines.append(f"{shown}: take and use any card of the discard pile: "
                         f"{_listing(sorted(name(t) for t in targets), limit)}")
        else:  # a card whose uses have no wording of their own
            lines.append(f"{shown}: {_listing(sorted(str(t) for t in targets), limit)}")
    return lines
