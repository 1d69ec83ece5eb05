"""Luna moves written back in the notation of docs/luna.md: the inverse of
reading.py, so that a listed move can be entered as a line and read again as
the same move (``Ann: favour on 3``, ``Bob: occupy 14 from 7 with bribe``)."""

from __future__ import annotations

from referee.base.terms import Fn, Term
from referee.game.parts.words import no_line_for

from .fluents import (
    Banish,
    BookMove,
    Council,
    Enter,
    Favour,
    Herbs,
    NovicesMove,
    Occupy,
    Recruit,
    Sailboat,
    ShrineMove,
    Travel,
    Waves,
)


def _place(place: Term) -> str:
    return "jetty" if place == Fn("jetty") else str(place)


def _using(substitute: Term = 0, bribe: Term = 0) -> str:
    if substitute and bribe:
        raise no_line_for("an action with both a substitute novice and a bribe")
    return " with substitute" if substitute else " with bribe" if bribe else ""


def _hop(amount: Term, origin: Term, target: Term, status: str = "") -> str:
    return f"{amount}{status} from {_place(origin)} to {_place(target)}"


def action(move: Fn) -> str:
    """What follows ``Name:`` for ``move``; a RefereeError for a move without a line."""
    for declaration, verb in ((Favour, "favour"), (Recruit, "recruit"), (ShrineMove, "shrine")):
        if (view := declaration.match(move)) is not None:
            return f"{verb} on {view.island}{_using(view.substitute)}"
    if (novices := NovicesMove.match(move)) is not None:
        return f"novices on {novices.island}"
    if (herbs := Herbs.match(move)) is not None:
        return f"herbs {herbs.amount} on {herbs.island}"
    if (travel := Travel.match(move)) is not None:
        return "travel " + _hop(travel.amount, travel.origin, travel.target)
    if (waves := Waves.match(move)) is not None:
        return "waves " + _hop(waves.amount, waves.origin, waves.target, f" {waves.status}")
    if (sailboat := Sailboat.match(move)) is not None:
        return "sailboat " + _hop(sailboat.amount, sailboat.origin, sailboat.target)
    if (occupy := Occupy.match(move)) is not None:
        return f"occupy {occupy.tile} from {occupy.island}{_using(occupy.substitute, occupy.bribe)}"
    if (enter := Enter.match(move)) is not None:
        return f"enter {enter.tile}{_using(bribe=enter.bribe)}"
    if (book := BookMove.match(move)) is not None:
        return f"book {book.source} -> {book.target}"
    if (council := Council.match(move)) is not None:
        return f"council {council.seats} from {council.island}{_using(council.substitute)}"
    if (banish := Banish.match(move)) is not None:
        return f"banish {banish.steps}{_using(banish.substitute)}"
    if move == Fn("meditate"):
        return "meditate"
    if move == Fn("done"):
        raise no_line_for("the end of a travel or of the waves (the next line ends it)")
    raise no_line_for(str(move))
