"""The typed fluents (referee.game.fluents): a term is read by the name of its
argument through one declaration, and no module of the referee reads a term's
arguments by position outside the typed layer and the solver's engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.base.terms import fn
from referee.game.fluents import (
    Control,
    Count,
    TermShapeError,
    counter,
    counter_amount,
    counter_index,
    counter_key,
    counter_name,
    fluent,
)
from referee.game.state import Draft

PACKAGE = Path(__file__).resolve().parents[2] / "referee"

#: Where a term's arguments may be read by position: the typed layer itself and
#: the solver's engine (which turns terms into clingo symbols and back).
POSITIONAL_READERS = {"game/fluents.py", "games/cyclades/fluents.py", "games/luna/fluents.py", "judge/engine.py"}

Offer = fluent("offer", "marker", "god", "amount")


def _positional_readers() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if re.search(r"\.args\[", path.read_text(encoding="utf-8")):
            found.add(path.relative_to(PACKAGE).as_posix())
    return found


def test_no_module_reads_a_term_by_position_outside_the_typed_layer_and_the_engine():
    readers = _positional_readers() - POSITIONAL_READERS
    assert not readers, f"read these terms through a declaration (referee.game.fluents): {sorted(readers)}"


def test_a_view_reads_a_term_by_the_names_of_its_arguments():
    term = fn("offer", fn("m", "Ann", 1), fn("zeus"), 3)
    offer = Offer.read(term)
    assert (offer.marker, offer.god, offer.amount) == (fn("m", "Ann", 1), fn("zeus"), 3)
    assert offer.term() == term and Offer.make(fn("m", "Ann", 1), fn("zeus"), 3) == term
    assert offer._replace(amount=4).term() == fn("offer", fn("m", "Ann", 1), fn("zeus"), 4)
    assert Offer.shape() == "offer(marker,god,amount)"


@pytest.mark.parametrize("term", [fn("offer", fn("zeus"), 3), fn("bid", "Ann", fn("zeus"), 3), "offer", 3])
def test_a_term_of_another_name_or_arity_is_refused_with_what_was_expected(term):
    with pytest.raises(TermShapeError, match=r"is not offer\(marker,god,amount\)"):
        Offer.read(term)
    assert Offer.match(term) is None


def test_building_a_term_counts_its_arguments():
    with pytest.raises(TermShapeError, match=r"offer\(marker,god,amount\) takes 3 argument\(s\), got 2"):
        Offer.make(fn("zeus"), 3)


@pytest.mark.parametrize("fields", [("player", "player"), ("make",), ("term",), ("_hidden",), ("two words",)])
def test_a_declaration_refuses_fields_a_view_could_not_name(fields):
    with pytest.raises(TermShapeError):
        fluent("bad", *fields)


def test_the_views_of_a_state_or_a_draft_and_one_of_another_arity_refused():
    state = frozenset({fn("offer", "m1", fn("zeus"), 3), fn("offer", "m2", fn("ares"), 1), fn("control", "Ann")})
    assert sorted(o.amount for o in Offer.of(state)) == [1, 3]
    assert sorted(o.amount for o in Offer.of(Draft(state))) == [1, 3]
    assert Control.one(state).role == "Ann" and Offer.one(frozenset()) is None
    with pytest.raises(TermShapeError):
        Offer.of(state | {fn("offer", "m3")})


def test_find_and_lookup_read_a_fluent_by_its_leading_fields():
    Score = fluent("score", "player", "points")
    state = frozenset({fn("score", "Ann", 4), fn("score", "Bob", 2)})
    assert Score.find(state, "Bob").points == 2 and Score.find(state, "Cy") is None
    assert Score.lookup(state, "Ann") == 4 and Score.lookup(state, "Cy", default=0) == 0
    with pytest.raises(TermShapeError, match="looked up by its first 1 field"):
        Score.lookup(state)


def test_a_counter_reads_its_keys_by_name():
    Troops, Gold = counter("troops", "player", "island"), counter("gold", "player")
    d = Draft([fn("count", fn("troops"), Troops.key("Ann", "IS1"), 2), fn("count", fn("gold"), "Ann", 5)])
    assert {(k.player, k.island): n for k, n in Troops.counts(d).items()} == {("Ann", "IS1"): 2}
    assert Troops.counts(d.freeze()) == Troops.counts(d) and Gold.counts(d) == {"Ann": 5}
    assert d.count("troops", Troops.key("Ann", "IS1")) == 2
    assert Count.read(fn("count", fn("gold"), "Ann", 5)).amount == 5
    with pytest.raises(TermShapeError, match=r"keyed by \(player, island\)"):
        Troops.key("Ann")


def test_the_drafts_counter_accessors_read_count_by_name():
    term = fn("count", fn("troops"), fn("", "Ann", "IS1"), 2)
    view = Count.read(term)
    assert counter_name(term) == view.counter and counter_key(term) == view.key
    assert counter_amount(term) == view.amount and counter_index(term) == (view.counter, view.key)
