"""Cyclades: the creatures with a figure (Kraken, Minotaur, Chiron, Medusa,
Polyphemus) in Python — the speculation model of ``rules/figures.lp`` (a guess
of the next state, checked against the solver by tests/judge/test_invariant.py) and
where the figures stand, for words and drawings.

Works on a ``Draft`` of the state and the game's ``fastpath.Facts``.
"""

from __future__ import annotations

from referee.base.terms import Fn, Term, fn
from referee.game.state import Draft, tup

#: The figures that go on an island (rule figure_place); the Kraken goes to sea.
ISLAND_FIGURES = ("minotaur", "chiron", "medusa", "polyphemus")
FIGURE_CARDS = ("kraken",) + ISLAND_FIGURES
#: Figures whose use goes on after the placement: the Kraken's steps, the Polyphemus's pushes.
MULTI_USE = ("kraken", "polyphemus")


def standing(state) -> dict[str, tuple[Term, Term, int]]:
    """Where each figure stands: creature -> (place, who put it there, cycle)."""
    return {f.args[0].name: (f.args[1], f.args[2], f.args[3]) for f in state if f.name == "figure"}


def closed_seas(d: Draft, facts) -> set[Term]:
    """Rules kraken_closed, polyphemus_closed: the sea spaces no fleet may enter."""
    where = standing(d.facts)
    closed = {where["kraken"][0]} if "kraken" in where else set()
    if "polyphemus" in where and "polyphemus_seas_open" not in facts.variants:  # variant: they stay open
        closed |= facts.coasts.get(where["polyphemus"][0], set())
    return closed


# -- the effect of a purchase ending (rules creature_effect_at_once, figure_place) ----------
def effect_ends(d: Draft, facts, player: Term, card: Fn, move: Fn) -> None:
    """The player's chance to use ``card`` ends with ``move``: an island figure's
    card not placed goes to the discard pile; the placement flag goes."""
    placed = fn("placed", player, card)
    placing = (move.name == "use" and len(move.args) == 2 and move.args[0] == card and placed not in d.facts
               and _island_use(move) and move.args[1].args[0] in facts.islands)
    if card.name in ISLAND_FIGURES and placed not in d.facts and not placing:
        discard_held(d, card)
    d.discard(placed)


def _island_use(move: Fn) -> bool:
    target = move.args[1] if len(move.args) == 2 else None
    return isinstance(target, Fn) and target.name == "island" and len(target.args) == 1


def discard_held(d: Draft, card: Fn) -> None:
    """The card goes to the discard pile if its buyer holds it (not in the deck,
    the discard pile or on the track: e.g. shuffled back after the Chimera used it)."""
    if fn("deck", card) not in d.facts and fn("discard", card) not in d.facts and not any(
            f.args[1] == card for f in d.having("track")):
        d.add("discard", card)


# -- the uses ---------------------------------------------------------------------------------
def use(d: Draft, facts, player: Term, card: str, target: Term, cycle: int) -> bool:
    """A figure card's use, applied as played. False when no guess is made."""
    if not isinstance(target, Fn):
        return False
    placed = fn("placed", player, Fn(card)) in d.facts
    has_effect = fn("effect", player, Fn(card)) in d.facts
    if target.name == "island" and card in ISLAND_FIGURES and len(target.args) == 1:
        if target.args[0] in facts.islands and not placed:
            _place(d, player, card, target.args[0], cycle, has_effect)
        return True
    if card == "kraken" and target.name == "sea" and len(target.args) == 1:
        if target.args[0] in facts.seas and not placed:
            _place(d, player, card, target.args[0], cycle, has_effect)
            _destroy_fleets(d, target.args[0])
        return True
    if card == "kraken" and target.name == "step" and len(target.args) == 1:
        at = standing(d.facts).get("kraken")
        to = target.args[0]
        if placed and at is not None and to in facts.sea_adjacent.get(at[0], set()):
            d.change("gold", player, -1)
            d.discard(fn("figure", Fn("kraken"), *at))
            d.add("figure", Fn("kraken"), to, player, cycle)
            _destroy_fleets(d, to)
        return True
    if card == "polyphemus" and target.name in ("push", "sink"):
        at = standing(d.facts).get("polyphemus")
        if not placed or at is None:
            return True
        next_to = facts.coasts.get(at[0], set())
        space = target.args[0]
        owners = {key.args[0]: n for key, n in d.counts("fleets").items() if key.args[1] == space and n > 0}
        if space not in next_to or not owners:
            return True
        if target.name == "sink":
            for owner, n in owners.items():
                d.change("fleets", tup(owner, space), -n)
            return True
        _, count, to = target.args
        owner, held = next(iter(owners.items()))
        if isinstance(count, int) and 1 <= count <= held and to in facts.sea_adjacent.get(space, set()):
            d.change("fleets", tup(owner, space), -count)
            d.change("fleets", tup(owner, to), count)
        return True
    return True


def _place(d: Draft, player: Term, card: str, place: Term, cycle: int, has_effect: bool) -> None:
    """Rules figure_place, kraken_place, figure_collision."""
    for f in [f for f in d.having("figure") if f.args[0] == Fn(card)]:
        d.discard(f)
    if card in MULTI_USE and has_effect:
        d.add("placed", player, Fn(card))
    others = [f for f in d.having("figure") if f.args[1] == place and card in ISLAND_FIGURES]
    if others:
        for f in others:
            d.discard(f)
            discard_held(d, f.args[0])
        discard_held(d, Fn(card))
        return
    d.add("figure", Fn(card), place, player, cycle)


def _destroy_fleets(d: Draft, space: Term) -> None:
    for key, n in d.counts("fleets").items():
        if key.args[1] == space and n > 0:
            d.change("fleets", key, -n)


# -- rule figure_duration ------------------------------------------------------------------------
def starts_acting(d: Draft, player: Term, cycle: int) -> None:
    """The player's actions begin: their island figures of an earlier cycle leave
    the board and their cards go to the discard pile."""
    for f in list(d.having("figure")):
        card, _, owner, placed_in = f.args
        if card.name in ISLAND_FIGURES and owner == player and placed_in < cycle:
            d.discard(f)
            discard_held(d, card)


# -- the Minotaur in a battle (rules minotaur_defends, minotaur_no_retreat; variant
# minotaur_may_retreat in fastpath._battle_decision) -----------------------------------------------
def minotaur_defends(d: Draft, battle: Fn) -> bool:
    where = standing(d.facts).get("minotaur")
    return battle.args[0] == Fn("land") and where is not None and where[0] == battle.args[1]


def minotaur_lost(d: Draft) -> None:
    """The defender lost a round with no troops left: the Minotaur goes."""
    for f in [f for f in d.having("figure") if f.args[0] == Fn("minotaur")]:
        d.discard(f)
    discard_held(d, Fn("minotaur"))
