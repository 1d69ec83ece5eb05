"""Cyclades fast path: the bookkeeping steps and forced chance outcomes in Python.

Each function mirrors a rule block of ``rules/*.lp`` for a decision point that
has exactly one answer; ``tests/test_fast_path.py`` replays every shipped
transcript with and without this module and compares the states move by move.
"""

from __future__ import annotations

from ...state import Draft, tup
from ...terms import Fn, Term, fn

GODS = ("zeus", "athena", "poseidon", "ares")


class Facts:
    """The static facts of one game, indexed for the fast path."""

    def __init__(self, static: list[Fn]):
        by: dict[str, list[tuple[Term, ...]]] = {}
        for f in static:
            by.setdefault(f.name, []).append(f.args)
        self.players = [a[0] for a in by.get("player", [])]
        self.player_count = by["player_count"][0][0]
        self.island_prosperity = {a[0]: a[1] for a in by.get("island_prosperity", [])}
        self.sea_prosperity = {a[0]: a[1] for a in by.get("sea_prosperity", [])}
        self.owner = {a[1]: a[1].args[0] for a in by.get("start_order", [])}  # marker -> player
        self.markers = len(by.get("start_order", []))
        target = 3 if self.player_count == 2 else 2
        self.metropolis_target = target


# -- views of a state (mirroring state.lp) -----------------------------------------
def controlled(d: Draft, player: Term) -> set[Term]:
    """Rule island_control: islands with the player's troops or territory marker."""
    held = {key.args[1] for key, n in d.counts("troops").items() if key.args[0] == player and n > 0}
    held |= {f.args[0] for f in d.having("marker") if f.args[1] == player}
    return held


def income_of(d: Draft, facts: Facts, player: Term) -> int:
    """Rule income."""
    markers = d.counts("prosperity")
    total = sum(facts.island_prosperity.get(i, 0) + markers.get(i, 0) for i in controlled(d, player))
    seas = {key.args[1] for key, n in d.counts("fleets").items() if key.args[0] == player}
    return total + sum(facts.sea_prosperity.get(s, 0) for s in seas)


def metropolises(d: Draft, player: Term) -> int:
    held = controlled(d, player)
    return sum(1 for f in d.having("metropolis") if f.args[0] in held)


def phase(d: Draft) -> str:
    f = d.one("phase")
    return f.args[0].name if f else ""


def set_phase(d: Draft, name: str) -> None:
    d.drop_all("phase")
    d.add("phase", Fn(name))


# -- control (mirroring control.lp) -------------------------------------------------
def to_place(d: Draft) -> Term | None:
    outbid = d.one("outbid")
    if outbid:
        return outbid.args[0]
    placed = {f.args[0] for f in d.having("offer")}
    waiting = sorted((f.args[0], f.args[1]) for f in d.having("order") if f.args[1] not in placed)
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
        if d.one("reveal"):
            role = Fn("chance")
        elif d.one("apollo_due"):
            role = Fn("game")
        else:
            acting = d.one("acting")
            role = facts.owner[acting.args[0]] if acting else None
    if role is not None:
        d.add("control", role)


# -- bookkeeping steps of the game role -----------------------------------------------
def refresh_track(d: Draft, facts: Facts) -> None:
    """Rule creature_track_refresh."""
    cycle = d.one("cycle").args[0]
    track = {f.args[0]: f for f in d.having("track")}
    if 2 in track:
        d.discard(track[2])
        d.add("discard", track[2].args[1])
    for slot in (3, 4):
        if slot in track:
            d.discard(track[slot])
            d.add("track", slot - 1, track[slot].args[1])
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
    offers = [f for f in d.having("offer")]
    up = {f.args[1]: f.args[0] for f in d.having("god_up")}
    ranks = []
    for f in offers:
        marker, god, amount = f.args
        player = facts.owner[marker]
        if god.name == "apollo":
            ranks.append((10 + amount, marker, god))
            continue
        d.change("gold", player, -max(1, amount - d.count("priests", player)))
        if god in up:
            ranks.append((up[god], marker, god))
    for rank, marker, god in ranks:
        d.add("act", rank, marker, god)
    if ranks:
        rank, marker, god = min(ranks, key=lambda r: r[0])
        d.add("acting", marker)
        if god.name == "apollo":
            d.add("apollo_due", marker)
    set_phase(d, "actions")


def apollo_income(d: Draft, facts: Facts) -> None:
    """Rule apollo_income."""
    for due in d.drop_all("apollo_due"):
        player = facts.owner[due.args[0]]
        d.change("gold", player, 4 if len(controlled(d, player)) == 1 else 1)


def end_cycle(d: Draft, facts: Facts) -> None:
    """Rules next_turn_order, gods_track (waiting gods) and end_of_game."""
    finished = d.drop_all("finished")
    d.drop_all("order")
    for f in finished:
        d.add("order", facts.markers - f.args[1] + 1, f.args[0])
    for name in ("offer", "act", "apollo_marker_placed", "god_up"):
        d.drop_all(name)
    for key, n in d.counts("temples_used").items():
        d.change("temples_used", key, -n)
    for f in d.drop_all("god_down"):
        d.add("waiting_god", *f.args)
    cycle = d.drop_all("cycle")[0].args[0]
    d.add("cycle", cycle + 1)
    held = {p: metropolises(d, p) for p in facts.players}
    if any(n >= facts.metropolis_target for n in held.values()):
        best = max(held.values())
        contenders = [p for p in facts.players if held[p] == best]
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
    if d.one("control") != fn("control", Fn("game")):
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
    if d.one("control") != fn("control", Fn("chance")):
        return None
    reveals = [f.args[0] for f in d.having("reveal")]
    if reveals:
        slot = max(reveals)
        kept = [f for f in d.having("track") if f.args[0] == slot]
        if kept:
            return fn("track", slot, kept[0].args[1])
        drawable = [f.args[0] for f in d.having("deck")] or [f.args[0] for f in d.having("discard")]
        return fn("track", slot, drawable[0]) if len(drawable) == 1 else None
    if phase(d) != "reveal_gods":
        return None
    shown = {f.args[1] for f in d.having("god_up")} | {f.args[1] for f in d.having("god_down")}
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
    waiting = {f.args[0]: f.args[1] for f in d.having("waiting_god")}
    if facts.player_count in (2, 4) and pos == 1:
        return waiting.get(4)
    if _pair_cycle(d, facts):
        return waiting.get(pos + 2)
    return None


def reveal(d: Draft, facts: Facts, move: Fn) -> None:
    """Apply a chance outcome (legal ones only: the fast path is for forced outcomes)."""
    if move.name == "track":
        slot, card = move.args
        d.discard(fn("reveal", slot))
        if not any(f.args[0] == slot for f in d.having("track")):
            if d.one("deck") is None:  # rule creature_deck_reshuffle
                for f in d.drop_all("discard"):
                    if f.args[0] != card:
                        d.add("deck", f.args[0])
            d.add("track", slot, card)
            d.discard(fn("deck", card))
        if not d.one("reveal") and phase(d) == "reveal_track":
            set_phase(d, "reveal_gods")
        return
    pos, god, face = move.args
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
