"""The notation of the figures' uses (docs/notation.md, Creatures): Kraken, Minotaur,
Chiron, Medusa and Polyphemus, read by their rules in referee/games/cyclades/grammar.lark."""

from __future__ import annotations

import pytest

from referee.base.errors import NotationError
from referee.base.terms import Fn, fn
from referee.game.notation import parse_transcript
from referee.text.transcript import Span

HEAD = "game: cyclades\nplayers: Ann red, Bob blue, Cy green\ncycle 1\n"


def uses(piece: str) -> list[tuple[Fn, str, Span]]:
    """The moves after the purchase written in ``Ann/Zeus: <piece>``, with text and span."""
    plays = list(parse_transcript(f"{HEAD}Ann/Zeus: {piece}\n", "t.cyc").plays)
    assert plays[0].move.name == "buy" and plays[0].text == piece.split(":")[0]
    return [(p.move, p.text, p.span) for p in plays[1:]]


def use(card: str, target: Fn) -> Fn:
    return fn("use", Fn(card), target)


@pytest.mark.parametrize("card", ["Minotaur", "Chiron", "Medusa"])
def test_an_island_figure_names_its_island(card):
    assert uses(f"buy {card}: IS4") == [(use(card.lower(), fn("island", "IS4")), "IS4", Span(4, 17 + len(card), 4, 20 + len(card)))]
    assert [m for m, _, _ in uses(f"buy {card}: on is4")] == [use(card.lower(), fn("island", "IS4"))]


def test_the_kraken_is_placed_then_moved_space_by_space():
    assert uses("buy Kraken: F6 -> F5 -> E4") == [
        (use("kraken", fn("sea", "F6")), "F6", Span(4, 23, 4, 25)),
        (use("kraken", fn("step", "F5")), "-> F5", Span(4, 26, 4, 31)),
        (use("kraken", fn("step", "E4")), "-> E4", Span(4, 32, 4, 37)),
    ]
    assert [m for m, _, _ in uses("buy Kraken: on F6")] == [use("kraken", fn("sea", "F6"))]


def test_the_polyphemus_island_then_each_push_and_sink():
    assert uses("buy Polyphemus: IS4, fleet F5 -> G5, 2 fleets E4 -> D4, sink F6") == [
        (use("polyphemus", fn("island", "IS4")), "IS4", Span(4, 27, 4, 30)),
        (use("polyphemus", fn("push", "F5", 1, "G5")), "fleet F5 -> G5", Span(4, 32, 4, 46)),
        (use("polyphemus", fn("push", "E4", 2, "D4")), "2 fleets E4 -> D4", Span(4, 48, 4, 65)),
        (use("polyphemus", fn("sink", "F6")), "sink F6", Span(4, 67, 4, 74)),
    ]


def test_a_figure_used_apart_from_its_purchase():
    plays = list(parse_transcript(f"{HEAD}Ann/Zeus: buy Medusa; use Medusa: IS4\n", "t.cyc").plays)
    assert [p.move for p in plays] == [fn("buy", Fn("medusa")), use("medusa", fn("island", "IS4"))]
    assert plays[1].text == "use Medusa: IS4"


@pytest.mark.parametrize(
    "piece, column, message",
    [
        ("buy Medusa: IS4 IS5", 27, "the Medusa's use is the island its figure goes on, as in 'buy Medusa: IS4'"),
        ("buy Chiron: Bob", 23, "expected an island id (such as IS4), found 'Bob'"),
        ("buy Kraken: F6 F5", 26, "expected '->' or the end of the use after 'F6', found 'F5'"),
        ("buy Kraken: -> F5", 23, "expected a sea id (such as F5), found '->'"),
        ("buy Polyphemus: IS4, troop F5 -> G5", 32, "the Polyphemus's use is written 'IS4, fleet F5 -> F6, sink F3'"),
        ("buy Polyphemus: IS4 fleet F5 -> G5", 31, "expected ',' or the end of the use after 'IS4', found 'fleet'"),
        ("buy Polyphemus: IS4, sink", 27, "the Polyphemus's use is written 'IS4, fleet F5 -> F6, sink F3'"),
    ],
)
def test_a_figure_use_in_the_wrong_form_is_an_error_at_its_word(piece, column, message):
    with pytest.raises(NotationError) as err:
        uses(piece)
    assert message in err.value.message
    assert (err.value.position.line, err.value.position.column) == (4, column)
