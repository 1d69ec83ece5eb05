"""The contract between the generic referee and a game: its rules side.

:class:`Game` is what the generic referee needs of every game, and no more:
its identity (``name``, ``period``) and the parts it supplies (``parts``);
its set-up from one transcript's header (``__init__``: the ``players`` and the
``static`` facts of the rule programs); whose decision it is (``control``)
and the bookkeeping step of the role ``game`` due now (``game_step``); the
period a state is in (``period_number``); the move a written line means
(``resolve``); and the end (``is_over``, ``winners``). The defaults fit a game
where players take turns and that is all: the players' facts, no numbered
periods, no bookkeeping, every move read as written.

Everything else is an optional part (:mod:`referee.game.parts`): words,
speed, tolerance, scenarios, screen, values, picture, service. A game
declares the parts it has in ``parts``; the generic modules ask for a part and
get the default when the game has none, so they never probe a game with
``hasattr``. Where a game's files are, and how games are found, is the
registry's (:mod:`referee.game.registry`); docs/adding-a-game.md walks through
adding one (the example game of the tests, Nim).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.base.errors import RefereeError
from referee.base.frozen_map import FrozenMap
from referee.base.terms import Fn, fn
from referee.game.fluents import Control, Phase, Winner
from referee.text.transcript import Play, Transcript


def one_fluent(state: frozenset, name: str) -> Fn | None:
    """The fluent named ``name`` in ``state`` (the first found), or None."""
    return next((f for f in state if f.name == name), None)


def phase(state: frozenset) -> str:
    """The phase of ``state`` (the fluent ``phase(P)`` shared by the games' rule
    programs), "" when there is none."""
    f = Phase.one(state)
    return f.name.name if f else ""


def title(cls: type[Game]) -> str:
    """A game's name for people: its name capitalised."""
    return cls.name.capitalize()


def lacks(cls: type[Game], capability: str) -> RefereeError:
    """The error for a capability the game ``cls`` does not have (yet)."""
    return RefereeError(f"{title(cls)} has no {capability} yet")


class Game:
    """One game, set up from one transcript's header: subclass it per game.

    A subclass sets ``name`` and overrides another member only when its rules
    need it (docs/adding-a-game.md); its other capabilities are parts.
    """

    #: The game's name, as written on a transcript's 'game:' line.
    name: ClassVar[str] = ""
    #: What a turn of play is called in reports ('round N'); "" (the default)
    #: for a game without numbered turns of play (the reports then name none).
    period: ClassVar[str] = ""
    #: The optional parts the game supplies: a part's kind (a class of
    #: referee.game.parts) to the game's subclass of it, or to its
    #: "package.module:Class" (imported when first asked for).
    parts: ClassVar[Mapping[type, type | str]] = FrozenMap()

    # -- set by __init__ ---------------------------------------------------------------------
    #: The players, in seat order.
    players: tuple[str, ...]
    #: The static facts the rule programs are given.
    static: tuple[Fn, ...]

    def __init__(self, transcript: Transcript, data_file: str | None = None, rules: str | None = None,
                 variants: tuple[str, ...] = ()):
        """The default set-up (referee.game.setup calls it): the players of the
        header, and the facts ``player(P)``, ``role(P)``, ``seat(P,N)`` (1 for
        the first of the 'players:' line), ``player_count(N)``, and
        ``variant_active(V)`` for each variant module ``variants`` of the
        reading ``rules``; no data file (``data_file`` is refused). A game with
        a data file or header lines of its own overrides this."""
        if data_file is not None:  # a game with data files overrides __init__
            raise lacks(type(self), "board files")  # its text: what users read
        self.players = transcript.header.player_names
        facts = [fn("player_count", len(self.players))]
        for seat, player in enumerate(self.players, start=1):
            facts += [fn("player", player), fn("role", player), fn("seat", player, seat)]
        facts += [fn("variant_active", Fn(v)) for v in variants]
        self.static = tuple(facts)

    # -- the state -----------------------------------------------------------------------
    def control(self, state: frozenset):
        """The role deciding in ``state`` (the fluent ``control(R)``), or None."""
        f = Control.one(state)
        return f.role if f else None

    def game_step(self, state: frozenset) -> Fn | None:
        """The bookkeeping move of the role ``game`` due now (None: none)."""
        return None

    def period_number(self, state: frozenset) -> int:
        """The number of the turn of play (``period``) in ``state``; 0: none."""
        return 0

    def resolve(self, state: frozenset, play: Play) -> Fn:
        """The move a written line means in ``state`` (as written by default)."""
        return play.move

    def is_over(self, state: frozenset) -> bool:
        """Whether the game is over (the phase ``over``)."""
        return phase(state) == "over"

    def winners(self, state: frozenset) -> list[str]:
        """The winners (the fluents ``winner(P)``), sorted."""
        return sorted(w.player for w in Winner.of(state))
