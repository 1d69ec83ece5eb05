"""The contract between the generic referee and a game.

:class:`Game` is what the generic referee needs from a game: the static facts
of one game, and the game-specific reading of the state (whose turn, which
bookkeeping step, how to show a move). A game must give its ``name`` and say
its moves in words (``describe_move``); everything else has a default here
that fits a game where players take turns and that is all (the players'
facts, no numbered cycles, no bookkeeping, no chance, no fast path, no
speculation, no starting position, nothing hidden, no notes, no warnings, no
board picture, no search scenarios), so the generic modules never probe a game
with ``hasattr``. Where a game's files are, and how games are found, is the
registry's (:mod:`referee.game.registry`); docs/adding-a-game.md walks through
adding one (the example game of the tests, Nim).
"""

from __future__ import annotations

from typing import ClassVar

from referee.base.errors import RefereeError
from referee.base.terms import Fn, Term, fn
from referee.text.transcript import Play, Transcript


class StateReading:
    """The base of :class:`Game`: what every game reads off a state the same way,
    the fluents ``control(R)``, ``phase(P)``, ``winner(P)`` shared by the games'
    rule programs."""

    @staticmethod
    def _one(state: frozenset, name: str) -> Fn | None:
        return next((f for f in state if f.name == name), None)

    def control(self, state: frozenset):
        f = self._one(state, "control")
        return f.args[0] if f else None

    def phase(self, state: frozenset) -> str:
        f = self._one(state, "phase")
        return f.args[0].name if f else ""

    def is_over(self, state: frozenset) -> bool:
        return self.phase(state) == "over"

    def winners(self, state: frozenset) -> list[str]:
        return sorted(f.args[0] for f in state if f.name == "winner")


class Game(StateReading):
    """One game, set up from one transcript's header: subclass it per game.

    A subclass sets ``name`` and implements ``describe_move``; it overrides
    another member only when the game has the capability (docs/adding-a-game.md).
    """

    #: The game's name, as written on a transcript's 'game:' line.
    name: ClassVar[str] = ""
    #: What a turn of play is called in reports ('cycle N', 'round N'); "" for a
    #: game without numbered turns of play (the reports then name none).
    period: ClassVar[str] = "cycle"
    #: The board picture (referee.picture.Picture), or None: 'X has no board picture yet'.
    #: ``Imported("package.draw:PICTURE")`` gives it without importing the drawing code
    #: into every process that only judges.
    picture: ClassVar[object | None] = None
    #: The values a 'board:' header line may give that name no file (the service
    #: refuses any other: a transcript sent to it cannot name a file of the server).
    builtin_boards: ClassVar[frozenset[str]] = frozenset()
    #: A short transcript a service worker judges as it starts, so that the game's
    #: grammar, catalogue and programs are loaded before the first request ("" for none).
    warm_up: ClassVar[str] = ""

    # -- set by __init__ ---------------------------------------------------------------------
    static: tuple[Fn, ...]
    players: tuple[str, ...]

    def __init__(self, transcript: Transcript, board_file: str | None = None, rules: str | None = None,
                 variants: tuple[str, ...] = ()):
        """The default set-up (referee.game.setup calls it): the players of the
        header, and the static facts (``static_facts``) under the reading
        ``rules`` whose variant modules are ``variants``; no board file
        (``--board`` is refused). A game with a board or data file overrides
        this, one with header lines of its own ``static_facts``."""
        if board_file is not None:  # --board: a game with boards overrides __init__
            raise self.lacks("board files")
        self.players = transcript.header.player_names
        self.reading = rules or transcript.header.rules
        self.variants = variants
        self.static = self.static_facts(transcript)

    def static_facts(self, transcript: Transcript) -> tuple[Fn, ...]:
        """The facts the default ``__init__`` gives the rule programs:
        ``player(P)``, ``role(P)``, ``seat(P,N)`` (1 for the first of the
        'players:' line), ``player_count(N)``, and ``variant_active(V)`` for each
        variant module of the reading in use."""
        facts = [fn("player_count", len(self.players))]
        for seat, player in enumerate(self.players, start=1):
            facts += [fn("player", player), fn("role", player), fn("seat", player, seat)]
        facts += [fn("variant_active", Fn(v)) for v in self.variants]
        return tuple(facts)

    # -- the game's names ---------------------------------------------------------------------
    @classmethod
    def title(cls) -> str:
        """The game's name for people: its name capitalised."""
        return cls.name.capitalize()

    @classmethod
    def lacks(cls, capability: str) -> RefereeError:
        """The error for a capability the game does not have (yet)."""
        return RefereeError(f"{cls.title()} has no {capability} yet")

    # -- the state -----------------------------------------------------------------------
    # The defaults fit a game where players take turns and that is all: no
    # numbered cycles, no bookkeeping steps of the game role, no chance, no
    # decision left pending, no turn the notation leaves unwritten, and every
    # move read exactly as written. A game with more overrides them.
    def cycle(self, state: frozenset) -> int:
        """The number of the turn of play (``period``) in ``state``; 0: none."""
        return 0

    def has_pending(self, state: frozenset) -> bool:
        """Whether a decision with one possible answer may be left unwritten."""
        return False

    def game_step(self, state: frozenset) -> Fn | None:
        """The bookkeeping move of the role ``game`` due now (None: none)."""
        return None

    def forced_chance(self, state: frozenset) -> Fn | None:
        """The chance outcome that can only be one thing now, found in Python (None: ask no one)."""
        return None

    def fast_path_applies(self, state: frozenset, role: Term, move: Fn) -> bool:
        """Whether ``fast_apply`` computes this step (False: the solver does)."""
        return False

    def fast_apply(self, state: frozenset, role: Term, move: Fn) -> frozenset:
        raise NotImplementedError("fast_apply is only called where fast_path_applies")

    def end_of_turn(self, state: frozenset) -> tuple[Term, Fn] | None:
        """The move that ends a turn nobody wrote the end of (None: turns end by themselves)."""
        return None

    def turn_gap(self, state: frozenset, play: Play) -> tuple[Term, Fn] | None:
        """The end of a turn that ``play`` implies (None: nothing is implied)."""
        return None

    def resolve(self, state: frozenset, play: Play) -> Fn:
        """The move a written line means in ``state`` (as written by default)."""
        return play.move

    def resolve_move(self, state: frozenset, move: Fn) -> Fn:
        return move

    def missing_chance(self, state: frozenset) -> str:
        """Why a player's line cannot come yet: chance has to show something first."""
        return "a chance outcome must be written before this move"

    # -- words for people ------------------------------------------------------------------
    def describe_move(self, move: Fn) -> str:
        """A move in the player's words: every game says its own."""
        raise NotImplementedError

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:
        """Who won; for a ``viewpoint``, without what is hidden from it."""
        winners = self.winners(state)
        if not winners:
            return "the game is not over"
        return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"

    def role_text(self, role: Term) -> str:
        """A role in words: a player's name as written (the default)."""
        return str(role)

    def term_text(self, term: Term) -> str:
        """A term of a violation's details in words (a report message's {0}, {1}...)."""
        return str(term)

    def group_moves(self, moves: list[Fn], limit: int | None, state: frozenset | None = None, player=None,
                    screened: bool = False) -> list[str]:
        """The moves in words, grouped (at most ``limit`` per group); ``state`` and
        ``player`` are the position and the role deciding; ``screened``: the moves
        of a player whose hidden figures the reader does not know. By default a
        group per kind of move (its name): 'take 1 from heap 1, take 2 from heap 1'."""
        groups: dict[str, list[str]] = {}
        for move in sorted(moves, key=str):
            groups.setdefault(move.name, []).append(self.describe_move(move))
        out = []
        for words in groups.values():
            shown = words if limit is None else words[:limit]
            more = f" and {len(words) - len(shown)} more" if len(shown) < len(words) else ""
            out.append(", ".join(shown) + more)
        return out

    # -- optional: defaults ------------------------------------------------------------------
    def starting_position(self, state: frozenset) -> frozenset:
        """The initial state with what the header adds to it (none by default)."""
        return state

    def screen(self, state: frozenset, viewpoint: str) -> frozenset | None:
        """The state as ``viewpoint`` knows it while another player decides; None
        when nothing is hidden (the default)."""
        return None

    def notes(self, state: frozenset, move: Fn) -> tuple[str, ...]:
        """What the referee worked out about a move (none by default)."""
        return ()

    def warnings(self, move: Fn) -> tuple[str, ...]:
        """Why a move's verdict may not be the whole story (none by default)."""
        return ()

    # the tolerant reading of a record (docs/notation.md): none of it by default
    def begins_period(self, state: frozenset, play: Play) -> bool:
        """Whether ``play`` is a line only a new period holds, written while the
        current one goes on (its heading forgotten): never, by default."""
        return False

    def opens_period(self, play: Play) -> bool:
        """Whether ``play`` may be the first line of a period (else a heading
        before it was written too early): any line, by default."""
        return True

    def forced_together(self, moves: list[Fn]) -> list[Fn] | None:
        """Legal moves that are one decision with one answer whatever their order
        (taken together for the player); None, by default."""
        return None

    def left_out(self, state: frozenset, move: Fn, line: list[Fn] = ()) -> Fn | None:
        """A chance outcome the line leaves out that can only be one thing, before
        the written ``move``; None, by default."""
        return None

    def skipped(self, line: int, move: Fn) -> None:
        """Note that ``move`` of source line ``line`` was filled in (the line's
        next pieces move on); nothing to note, by default."""

    def unverified_values(self, run) -> tuple[str, ...] | None:
        """The printed values the game's data file marks unverified that the rules
        read in this run, in words; None for a game without such values (the default)."""
        return None

    # speed only: guesses of the coming moves and states (see docs/architecture.md)
    def predict(self, state: frozenset, plays: list) -> list[tuple[Term, Fn]]:
        return []

    def speculate(self, state: frozenset, role: Term, move: Fn) -> frozenset | None:
        return None

    # referee compare's search (referee/compare/search.py)
    @classmethod
    def search_scenarios(cls) -> tuple:
        """The search's scenarios (none by default: the search says so)."""
        return ()

    def use_variants(self, variants: tuple[str, ...]) -> None:
        """Judge with exactly these variant modules switched on."""
        self.static = tuple(f for f in self.static if f.name != "variant_active") + tuple(
            fn("variant_active", Fn(v)) for v in variants)

    def position_item(self, item: str) -> tuple:
        """A 'position:' item read against this game (the search's free parts)."""
        raise self.lacks("'position:' line")


