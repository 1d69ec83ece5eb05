"""Cyclades: the creatures with a figure (Kraken, Minotaur, Chiron, Medusa,
Polyphemus) in Python — the speculation model of ``rules/figures.lp`` (a guess
of the next state, checked against the solver by tests/judge/test_invariant.py) and
where the figures stand, for words and drawings.

Works on a ``Draft`` of the state and the game's ``fastpath.Facts``.
"""

from __future__ import annotations

from referee.base.terms import Fn, Term, fn
from referee.game.state import Draft, tup
from referee.games.cyclades.fluents import Battle, Figure, Fleets, Island, KrakenStep, Push, Sea, Sink, Track, Use

#: The figures that go on an island (rule figure_place); the Kraken goes to sea.
ISLAND_FIGURES = ("minotaur", "chiron", "medusa", "polyphemus")
FIGURE_CARDS = ("kraken",) + ISLAND_FIGURES
#: Figures whose use goes on after the placement: the Kraken's steps, the Polyphemus's pushes.
MULTI_USE = ("kraken", "polyphemus")


def standing(state) -> dict[str, tuple[Term, Term, int]]:
    """Where each figure stands: creature -> (place, who put it there, cycle)."""
    return {f.card.name: (f.place, f.player, f.cycle) for f in Figure.of(state)}


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
    use = Use.match(move)
    placing = (use is not None and use.card == card and placed not in d.facts
               and _island_use(move) and Island.read(use.target).name in facts.islands)
    if card.name in ISLAND_FIGURES and placed not in d.facts and not placing:
        discard_held(d, card)
    d.discard(placed)


def _island_use(move: Fn) -> bool:
    use = Use.match(move)
    return use is not None and Island.match(use.target) is not None


def discard_held(d: Draft, card: Fn) -> None:
    """The card goes to the discard pile if its buyer holds it (not in the deck,
    the discard pile or on the track: e.g. shuffled back after the Chimera used it)."""
    if fn("deck", card) not in d.facts and fn("discard", card) not in d.facts and not any(
            f.card == card for f in Track.of(d)):
        d.add("discard", card)


# -- the uses ---------------------------------------------------------------------------------
def use(d: Draft, facts, player: Term, card: str, target: Term, cycle: int) -> bool:
    """A figure card's use, applied as played. False when no guess is made."""
    if not isinstance(target, Fn):
        return False
    placed = fn("placed", player, Fn(card)) in d.facts
    has_effect = fn("effect", player, Fn(card)) in d.facts
    island, sea, step = Island.match(target), Sea.match(target), KrakenStep.match(target)
    if island is not None and card in ISLAND_FIGURES:
        if island.name in facts.islands and not placed:
            _place(d, player, card, island.name, cycle, has_effect)
        return True
    if card == "kraken" and sea is not None:
        if sea.name in facts.seas and not placed:
            _place(d, player, card, sea.name, cycle, has_effect)
            _destroy_fleets(d, sea.name)
        return True
    if card == "kraken" and step is not None:
        at = standing(d.facts).get("kraken")
        to = step.sea
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
        space = (Push.match(target) or Sink.read(target)).space
        owners = {key.player: n for key, n in Fleets.counts(d).items() if key.sea == space and n > 0}
        if space not in next_to or not owners:
            return True
        if target.name == "sink":
            for owner, n in owners.items():
                d.change("fleets", tup(owner, space), -n)
            return True
        push = Push.read(target)
        count, to = push.count, push.to
        owner, held = next(iter(owners.items()))
        if isinstance(count, int) and 1 <= count <= held and to in facts.sea_adjacent.get(space, set()):
            d.change("fleets", tup(owner, space), -count)
            d.change("fleets", tup(owner, to), count)
        return True
    return True


def _place(d: Draft, player: Term, card: str, place: Term, cycle: int, has_effect: bool) -> None:
    """Rules figure_place, kraken_place, figure_collision."""
    for f in [f for f in Figure.of(d) if f.card == Fn(card)]:
        d.discard(f.term())
    if card in MULTI_USE and has_effect:
        d.add("placed", player, Fn(card))
    others = [f for f in Figure.of(d) if f.place == place and card in ISLAND_FIGURES]
    if others:
        for f in others:
            d.discard(f.term())
            discard_held(d, f.card)
        discard_held(d, Fn(card))
        return
    d.add("figure", Fn(card), place, player, cycle)


def _destroy_fleets(d: Draft, space: Term) -> None:
    for key, n in Fleets.counts(d).items():
        if key.sea == space and n > 0:
            d.change("fleets", key.term(), -n)


# -- rule figure_duration ------------------------------------------------------------------------
def starts_acting(d: Draft, player: Term, cycle: int) -> None:
    """The player's actions begin: their island figures of an earlier cycle leave
    the board and their cards go to the discard pile."""
    for f in Figure.of(d):
        if f.card.name in ISLAND_FIGURES and f.player == player and f.cycle < cycle:
            d.discard(f.term())
            discard_held(d, f.card)


# -- the Minotaur in a battle (rules minotaur_defends, minotaur_no_retreat; variant
# minotaur_may_retreat in fastpath._battle_decision) -----------------------------------------------
def minotaur_defends(d: Draft, battle: Battle) -> bool:
    where = standing(d.facts).get("minotaur")
    return battle.kind == Fn("land") and where is not None and where[0] == battle.place


def minotaur_lost(d: Draft) -> None:
    """The defender lost a round with no troops left: the Minotaur goes."""
    for f in [f for f in Figure.of(d) if f.card == Fn("minotaur")]:
        d.discard(f.term())
    discard_held(d, Fn("minotaur"))
