"""Helpers for the Cyclades rulebook tests (tests/games/cyclades/test_rules_*.py).

Each test writes a short transcript in the notation of docs/notation.md, has the
referee check it and asserts what the rulebook says:

    g = play('''
        cycle 1
        creatures: Pegasus
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 3 on Zeus
        Bob: 3 on Zeus
    ''')
    assert g.problems == [("Bob: 3 on Zeus", ("offering_outbid",))]
    assert gold(g.after("Ann: 3 on Zeus"), "Ann") == 7

``play`` adds the header (players Ann, Bob, Cy, Dan, Eve in seat order A, B, C,
D, E, as many as asked for) and caches the result by transcript text, so tests
that share a transcript pay for it once.

Boards: the shipped board for the number of players unless the test names one.
A few situations cannot arise on the shipped starting placements in a short
transcript (a player with a single island, a player rich enough to build a
metropolis in a few cycles, a colour with all eight troops already on the
board); for those, ``board_file`` writes a board file that keeps a shipped map
and changes only who starts where (``based_on``, docs/boards.md).
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import shutil
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

from referee.ask.report import Report, Ruling
from referee.ask.session import Session
from referee.base.terms import Fn, fn
from referee.game.fluents import Count
from referee.game.notation import parse_transcript
from referee.games.cyclades.fluents import Buildings, Fleets, Metropolis, OfferingMarker, Troops
from referee.judge.values import Run, Step
from referee.text.transcript import Play

NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve")
COLOURS = ("red", "blue", "green", "yellow", "black")


# -- transcripts ----------------------------------------------------------------------
def transcript(body: str, players: int = 5, order: str | None = None, board: str | None = None,
               rules: str | None = None) -> str:
    """A whole transcript: the header for ``players`` players, then ``body``."""
    head = ["game: cyclades",
            "players: " + ", ".join(f"{n} {c}" for n, c in zip(NAMES[:players], COLOURS))]
    if order:
        head.append(f"order: {order}")
    if rules:
        head.append(f"rules: {rules}")
    if board:
        head.append(f"board: {board_file(board) if board in CUSTOM_BOARDS else board}")
    lines = [line.strip() for line in body.strip().splitlines()]
    return "\n".join(head + lines) + "\n"


@dataclass(frozen=True)
class Checked:
    """A transcript checked by the referee: the report and the run behind it."""

    text: str
    session: Session
    report: Report
    run: Run

    # -- problems -------------------------------------------------------------
    def source_line(self, number: int) -> str:
        return self.text.splitlines()[number - 1].split("#")[0].strip()

    def _where(self, verdict: Ruling) -> str:
        if verdict.number is None:  # a step the referee inserted (an unwritten end of turn)
            return f"({verdict.player}: {verdict.move})"
        return self.source_line(verdict.line)

    @property
    def problems(self) -> list[tuple[str, tuple[str, ...]]]:
        """(the line of the illegal move, the ids of the rules it breaks), in order.
        A step the referee inserted shows as ``(player: move in words)``."""
        return [(self._where(v), tuple(sorted(b.rule for b in v.breaches))) for v in self.report.problems]

    @property
    def first(self) -> list[tuple[str, str]]:
        """(the line of the illegal move, the rule the report names first), in order:
        the most specific breach (docs/report.md, "The order of breaches")."""
        return [(self._where(v), v.breaches[0].rule) for v in self.report.problems]

    # -- states -----------------------------------------------------------------
    def _steps_of(self, line: str, nth: int = 1) -> list[Step]:
        """The steps of the nth line reading ``line`` (comments and spaces aside)."""
        steps = [s for s in self.run.steps if s.play is not None
                 and s.play.line_text.split("#")[0].strip() == line.strip()]
        numbers = sorted({s.play.span.line for s in steps})
        assert len(numbers) >= nth, f"no move written on a line {line!r} (occurrence {nth})"
        return [s for s in steps if s.play.span.line == numbers[nth - 1]]

    def steps(self, line: str, nth: int = 1) -> list[Step]:
        """The steps of the moves written on ``line`` (its nth occurrence), in order."""
        return self._steps_of(line, nth)

    def before(self, line: str, nth: int = 1) -> frozenset:
        """The state in which the first move of ``line`` (its nth occurrence) was judged."""
        return self._steps_of(line, nth)[0].before

    def after(self, line: str, nth: int = 1) -> frozenset:
        """The state after the last move of ``line`` (its nth occurrence)."""
        return self._steps_of(line, nth)[-1].after

    @property
    def final(self) -> frozenset:
        """The state after the whole transcript, its last cycle closed."""
        return self.run.final

    def when(self, move_name: str, nth: int = 1) -> Step:
        """The nth step (written or inserted) whose move is ``move_name``
        (e.g. ``income``, ``pay_offerings``, ``end_cycle``)."""
        found = [s for s in self.run.steps if s.move.name == move_name]
        assert len(found) >= nth, f"only {len(found)} steps {move_name}"
        return found[nth - 1]

    def breaches(self, state: frozenset, role: str, move: Fn) -> list[tuple[str, str]]:
        """The breaches (rule id, message) of ``move`` made by ``role`` in ``state``, in the
        order a report gives them: for a move the notation's sequencing never lets
        through as written (the referee inserts the missing decisions before it)."""
        judgement = self.session.referee.engine.judge(self.session.referee.rules.static, state, role, move)
        return [(v.rule, self.session.breach(v).message)
                for v in self.session.catalogue.ordered(judgement.violations)]

    def explain(self, line: str) -> Ruling:
        """The referee's ruling, with alternatives, on the first move of ``line``."""
        number = self._steps_of(line)[0].number
        return self.session.explain(move=number, everything=True)


#: One solver engine per game set-up (the static facts: players, turn track, board),
#: shared by the transcripts with that header: an engine keeps the judgement of
#: every (state, move) it has solved, so transcripts that begin alike are judged
#: once.  A judgement only depends on the static facts, the state and the move.
_ENGINES: dict = {}


@functools.lru_cache(maxsize=None)
def check(text: str) -> Checked:
    session = Session(parse_transcript(text, "test.cyc"))
    session.referee.engine = _ENGINES.setdefault(session.referee.rules.static, session.referee.engine)
    report = session.check()
    return Checked(text, session, report, session.referee.run())


def check_rewritten(text: str, line: str, move: Fn) -> Checked:
    """Check ``text`` with the moves written on ``line`` replaced by ``move``: a move
    the notation cannot express (a troop without a place), as another program that
    builds transcripts could produce it."""
    parsed = parse_transcript(text, "test.cyc")
    events = tuple(dataclasses.replace(e, move=move) if isinstance(e, Play)
                   and e.line_text.split("#")[0].strip() == line else e for e in parsed.events)
    session = Session(dataclasses.replace(parsed, events=events))
    report = session.check()
    return Checked(text, session, report, session.referee.run())


def play(body: str, players: int = 5, order: str | None = None, board: str | None = None,
         rules: str | None = None) -> Checked:
    """Check ``body`` under a header for ``players`` players."""
    return check(transcript(body, players=players, order=order, board=board, rules=rules))


#: A first cycle for 5 players on the shipped 5p board: everyone on a different god,
#: Eve on Apollo.  Income 2 each (start 5 -> 7); after the offerings Ann has 4,
#: Bob 5, Cy 6, Dan 6, Eve 7 (and Apollo's 1 GP when her turn comes: 8).
#: Action order: Ann (Zeus), Bob (Athena), Cy (Ares), Dan (Poseidon), Eve (Apollo).
OPENING = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: 3 on Zeus
    Bob: 2 on Athena
    Cy: 1 on Ares
    Dan: 1 on Poseidon
    Eve: Apollo
"""


def opening(actions: str = "") -> str:
    """OPENING followed by action lines (dedented) and, unless they say what Eve
    does, Eve's Apollo turn: the first player on Apollo places the prosperity
    marker (rule apollo_prosperity_missing), here on her island IS3."""
    actions = textwrap.dedent(actions).strip()
    if "Eve/Apollo" not in actions:
        actions += "\nEve/Apollo: prosperity on IS3"
    return textwrap.dedent(OPENING) + actions + "\n"



#: A first cycle for 3 players on the shipped 3p board (its map is in the docstring of
#: tests/games/cyclades/test_rules_movement.py): Ann on Ares acts first with 5 GP, then
#: Bob on Poseidon (5 GP); Cy is on Apollo.
ARES_AND_POSEIDON = """
    cycle 1
    creatures: Pegasus
    gods: Ares, Poseidon / Zeus, Athena
    Ann: 2 on Ares
    Bob: 2 on Poseidon
    Cy: Apollo
"""


def ares_and_poseidon(*lines: str, board: str | None = None) -> Checked:
    """ARES_AND_POSEIDON followed by ``lines``, checked."""
    return play(ARES_AND_POSEIDON + "\n".join(lines), players=3, board=board)


def first_cycle(card: str, actions: str) -> str:
    """Cycle 1 for 5 players with ``card`` on the track, everyone on a different god
    for 1 GP (Ann Zeus, Bob Athena, Cy Ares, Dan Poseidon, Eve Apollo), then
    ``actions`` and Eve's Apollo turn."""
    return f"""
        cycle 1
        creatures: {card}
        gods: Zeus, Athena, Ares, Poseidon
        Ann: 1 on Zeus
        Bob: 1 on Athena
        Cy: 1 on Ares
        Dan: 1 on Poseidon
        Eve: Apollo
        {actions.strip()}
        Eve/Apollo: prosperity on IS3
    """

#: Three cycles in which every player goes to Apollo and nobody buys a creature.
#: Turn order: cycle 1 Ann..Eve (seat order); everyone acts on Apollo in the order
#: they arrived, so the last to finish (Eve) offers first in cycle 2: Eve, Dan, Cy,
#: Bob, Ann; and cycle 3 is Ann..Eve again. The first on Apollo places the marker.
ALL_APOLLO = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena, Ares, Poseidon
    Ann: Apollo
    Bob: Apollo
    Cy: Apollo
    Dan: Apollo
    Eve: Apollo
    Ann/Apollo: prosperity on IS2
    cycle 2
    creatures: Harpy, Pegasus
    gods: Athena, Zeus, Poseidon, Ares
    Eve: Apollo
    Dan: Apollo
    Cy: Apollo
    Bob: Apollo
    Ann: Apollo
    Eve/Apollo: prosperity on IS3
    cycle 3
    creatures: Sylph, Harpy, Pegasus
    gods: Ares, Poseidon, Zeus, Athena
"""


#: Board build3, three players; Ann and Bob build one kind of building a cycle,
#: two of them each time, Cy goes to Apollo (first there: his marker on IS4).
#: Gods (3 players): two face up, the face-down pair is used the next cycle.
#:   Ann: Zeus (temples IS7 IS7), Poseidon (ports IS5 IS5), Athena (universities IS7
#:        IS1), Ares (fortresses);
#:   Bob: Athena (universities IS8 IS8), Ares (fortresses IS2 IS2), Zeus (temples IS3
#:        IS3), Poseidon (ports).
#: Turn order: cycle 1 Ann, Bob, Cy; then the last to finish first: Cy, Bob, Ann in
#: cycles 2 and 3 (Ann's god lies above Bob's), Cy, Ann, Bob in cycle 4.
#: Gold (income 4 each): Ann and Bob 5+4-1-4 = 4, then 3, 2, and 1 GP at the end of
#: cycle 4 once they have paid their 1-GP offering and two buildings ({bob1} is
#: Bob's first offering: 1, or 2 to leave him 1 GP poorer); Cy 5+4+1 = 10, then
#: +5+1, +6+1, +7+1 = 31 GP.
BUILD3 = """
    cycle 1
    creatures: Pegasus
    gods: Zeus, Athena / Poseidon, Ares
    Ann: 1 on Zeus
    Bob: {bob1} on Athena
    Cy: Apollo
    Ann/Zeus: 2 temples on IS7
    Bob/Athena: 2 universities on IS8
    Cy/Apollo: prosperity on IS4
    cycle 2
    creatures: Harpy, Pegasus
    gods: Poseidon, Ares
    Cy: Apollo
    Bob: 1 on Ares
    Ann: 1 on Poseidon
    Ann/Poseidon: 2 ports on IS5
    Bob/Ares: 2 fortresses on IS2
    Cy/Apollo: prosperity on IS4
    cycle 3
    creatures: Sylph, Harpy, Pegasus
    gods: Zeus, Athena / Ares, Poseidon
    Cy: Apollo
    Bob: 1 on Zeus
    Ann: 1 on Athena
    Bob/Zeus: 2 temples on IS3
    Ann/Athena: university on IS7; university on IS1
    Cy/Apollo: prosperity on IS4
    cycle 4
    creatures: Griffon, Sylph, Harpy
    gods: Ares, Poseidon
    Cy: Apollo
    Ann: 1 on Ares
    Bob: 1 on Poseidon
"""
#: Ann's first metropolis (the first of the game): her fortress completes the four
#: kinds; she discards one of each (the university on IS1 of her two) and places
#: the metropolis on IS7 (IS7 keeps a temple and a university: 2 of its 4 spaces free).
ANN_FIRST_METROPOLIS = ("Ann/Ares: fortress on IS5; discard temple IS7; discard university IS1; "
                        "discard port IS5; discard fortress IS5; metropolis on IS7")
#: Her second: another fortress completes the four kinds again.
ANN_SECOND_METROPOLIS = ("Ann/Ares: fortress on IS5; discard temple IS7; discard university IS7; "
                         "discard port IS5; discard fortress IS5; metropolis on IS5")
#: Bob likewise with ports (his first metropolis on IS8, his second on IS3).
BOB_FIRST_METROPOLIS = ("Bob/Poseidon: port on IS8; discard university IS8; discard temple IS3; "
                        "discard fortress IS2; discard port IS8; metropolis on IS8")
BOB_SECOND_METROPOLIS = ("Bob/Poseidon: port on IS3; discard university IS8; discard temple IS3; "
                         "discard fortress IS2; discard port IS3; metropolis on IS3")


# -- reading a state --------------------------------------------------------------------
def count(state: frozenset, name: str, *key) -> int:
    """A counter of the state (0 when absent): ``count(s, 'troops', 'Ann', 'IS2')``."""
    k = key[0] if len(key) == 1 else Fn("", tuple(key))
    return next((c.amount for c in Count.of(state) if c.counter == Fn(name) and c.key == k), 0)


def gold(state: frozenset, player: str) -> int:
    return count(state, "gold", player)


def golds(state: frozenset, players: int = 5) -> dict[str, int]:
    return {p: gold(state, p) for p in NAMES[:players]}


def holds(state: frozenset, name: str, *args) -> bool:
    """Whether the fluent ``name(args)`` is true; constants may be given as strings
    prefixed with ':' (``holds(s, 'god_up', 1, ':zeus')``)."""
    return fn(name, *(_term(a) for a in args)) in state


def marker(player: str, k: int = 1) -> Fn:
    """A player's offering marker (the k-th: two each in the 2-player game)."""
    return fn("m", player, k)


def fluents(state: frozenset, name: str) -> list[tuple]:
    """The argument tuples of every fluent ``name``, sorted, constants as plain names."""
    return sorted(tuple(_plain(a) for a in f.args) for f in state if f.name == name)


def _term(a):
    if isinstance(a, str) and a.startswith(":"):
        return Fn(a[1:])
    if isinstance(a, tuple):
        return Fn("", tuple(_term(x) for x in a))
    return a


def _plain(a):
    if isinstance(a, Fn):
        if a.name == "":
            return tuple(_plain(x) for x in a.args)
        if a.name == "m":  # an offering marker m(Player, K)
            offering = OfferingMarker.read(a)
            return (offering.player, offering.number)
        return a.name if not a.args else (a.name, *(_plain(x) for x in a.args))
    return a


def track(state: frozenset) -> dict[int, str]:
    """The creature track: slot price -> creature."""
    return {slot: card for slot, card in fluents(state, "track")}


def turn_order(state: frozenset) -> list[str]:
    """The players' offering markers on the turn track, first to last."""
    return [m[0] for _, m in fluents(state, "order")]


def troops(state: frozenset, player: str) -> dict[str, int]:
    return {key.island: n for key, n in Troops.counts(state).items() if key.player == player}


def fleets(state: frozenset, player: str) -> dict[str, int]:
    return {key.sea: n for key, n in Fleets.counts(state).items() if key.player == player}


def buildings(state: frozenset, island: str) -> dict[str, int]:
    return {key.kind.name: n for key, n in Buildings.counts(state).items() if key.island == island}


def metropolises(state: frozenset) -> list[str]:
    return sorted(m.island for m in Metropolis.of(state))


# -- boards with their own starting placement -----------------------------------------------
#
# Each keeps a shipped map (based_on) and changes only the starting placement.
# Prosperity symbols of the maps (referee/games/cyclades/boards/*.toml):
#   5p islands: IS2 1, IS3 2, IS4 1, IS5 1, IS6 1, IS8 1, IS9 2, IS10 2, the others 0;
#      building slots: IS1 4, IS2 2, IS3 1, IS4 2, IS5 2, IS6 2, IS7 3, IS8 2, IS9 1,
#      IS10 1, IS11 4, IS12 3, IS13 3 (a metropolis takes 2, 1 on one-slot islands);
#      seas: A1, A6, F1, F11, K1, K6 one each.
#   3p islands: IS1 2 (1 slot), IS2 1 (2), IS3 1 (2), IS4 2 (1), IS5 0 (3), IS6 2 (1),
#      IS7 0 (4), IS8 0 (3); seas: A2, F1, F7, K2 one each.
CUSTOM_BOARDS = {
    # Ann (seat A) starts on one island only: Apollo's 4 GP.
    # Incomes: A: IS2 1 + C6 0 + K1 1 = 2; the others as on the shipped 5p board (2 each).
    "single5": """
        [board]
        name = "5 players, Ann on a single island"
        players = [5]
        based_on = "5p"
        [start.A]
        islands = ["IS2"]
        fleets = ["C6", "K1"]
        [start.B]
        islands = ["IS1", "IS9"]
        fleets = ["B3", "E7"]
        [start.C]
        islands = ["IS4", "IS13"]
        fleets = ["F5", "K6"]
        [start.D]
        islands = ["IS6", "IS7"]
        fleets = ["D8", "F1"]
        [start.E]
        islands = ["IS3", "IS11"]
        fleets = ["F3", "G9"]
    """,
    # Ann starts with 8 troops (8 islands) and 8 fleets: the whole supply on the board.
    # Incomes: A: IS1 0 + IS2 1 + IS3 2 + IS4 1 + IS5 1 + IS6 1 + IS7 0 + IS8 1 = 7,
    #   fleets A1 1 + A6 1 + F1 1 + F11 1 + K1 1 + K6 1 + B3 0 + C6 0 = 6: 13.
    #   B: IS9 2 = 2; C: IS10 2 = 2; D: IS11 0; E: IS12 0 + IS13 0.
    "full5": """
        [board]
        name = "5 players, Ann with all her troops and fleets on the board"
        players = [5]
        based_on = "5p"
        [start.A]
        islands = ["IS1", "IS2", "IS3", "IS4", "IS5", "IS6", "IS7", "IS8"]
        fleets = ["A1", "A6", "F1", "F11", "K1", "K6", "B3", "C6"]
        [start.B]
        islands = ["IS9"]
        fleets = ["E7"]
        [start.C]
        islands = ["IS10"]
        fleets = ["H6"]
        [start.D]
        islands = ["IS11"]
        fleets = ["G9"]
        [start.E]
        islands = ["IS12", "IS13"]
        fleets = ["J4"]
    """,
    # Three players, each with two prosperous fleets or islands and room to build:
    # the metropolis and end-of-game tests.
    # Incomes: A: IS1 2 + IS5 0 + IS7 0 + A2 1 + F1 1 = 4   (slots 1 + 3 + 4 = 8)
    #          B: IS2 1 + IS3 1 + IS8 0 + F7 1 + K2 1 = 4   (slots 2 + 2 + 3 = 7)
    #          C: IS4 2 + IS6 2 = 4                        (slots 1 + 1)
    # Ann on two one-slot islands and rich: her metropolis finds no room.
    # Incomes: A: IS3 2 + IS9 2 + A1 + A6 + F1 + F11 + K1 + K6 (1 each) = 10;
    #          B: IS1 0 + IS2 1 = 1; C: IS4 1 + IS13 0 = 1; D: IS6 1 + IS7 0 = 1; E: 0.
    "crowded5": """
        [board]
        name = "5 players, Ann on two one-slot islands"
        players = [5]
        based_on = "5p"
        [start.A]
        islands = ["IS3", "IS9"]
        fleets = ["A1", "A6", "F1", "F11", "K1", "K6"]
        [start.B]
        islands = ["IS1", "IS2"]
        fleets = ["B3"]
        [start.C]
        islands = ["IS4", "IS13"]
        fleets = ["F5"]
        [start.D]
        islands = ["IS6", "IS7"]
        fleets = ["D8"]
        [start.E]
        islands = ["IS11", "IS12"]
        fleets = ["G9"]
    """,
    # Two players on the 2-3-player map; Ann rich, with room for three metropolises.
    # Incomes: A: IS1 2 + IS4 2 + IS5 0 + IS6 2 + IS7 0 + A2 + F1 + F7 + K2 (1 each) = 10
    #             (slots IS1 1, IS4 1, IS5 3, IS6 1, IS7 4);
    #          B: IS2 1 + IS3 1 + IS8 0 + D4 0 = 2.
    "build2": """
        [board]
        name = "2 players, Ann with room for three metropolises"
        players = [2]
        based_on = "3p"
        [start.A]
        islands = ["IS1", "IS4", "IS5", "IS6", "IS7"]
        fleets = ["A2", "F1", "F7", "K2"]
        [start.B]
        islands = ["IS2", "IS3", "IS8"]
        fleets = ["D4"]
    """,
    # Two players; Ann on the single island IS1 (1 slot, 2 prosperity).
    # Incomes: A: IS1 2 + A2 1 + F1 1 = 4; B: IS2 1 + IS3 1 + IS8 0 + K2 1 = 3.
    "single2": """
        [board]
        name = "2 players, Ann on a single island"
        players = [2]
        based_on = "3p"
        [start.A]
        islands = ["IS1"]
        fleets = ["A2", "F1"]
        [start.B]
        islands = ["IS2", "IS3", "IS8"]
        fleets = ["K2"]
    """,
    # Four players; Ann earns just enough for two philosophers a cycle, Cy is rich.
    # Incomes: A: IS1 0 + IS7 0 + A1 + A4 + F1 + F9 (1 each) = 4   (slots IS1 4, IS7 3)
    #          B: IS2 1 + IS3 1 + D6 0 = 2
    #          C: IS4 2 + IS5 2 + IS8 2 + IS6 1 + K1 1 + K4 1 = 9
    #          D: IS9 0 + IS10 0 + I5 0 = 0
    "athena4": """
        [board]
        name = "4 players, Ann after philosophers"
        players = [4]
        based_on = "4p"
        [start.A]
        islands = ["IS1", "IS7"]
        fleets = ["A1", "A4", "F1", "F9"]
        [start.B]
        islands = ["IS2", "IS3"]
        fleets = ["D6"]
        [start.C]
        islands = ["IS4", "IS5", "IS6", "IS8"]
        fleets = ["K1", "K4"]
        [start.D]
        islands = ["IS9", "IS10"]
        fleets = ["I5"]
    """,
    "build3": """
        [board]
        name = "3 players with room to build"
        players = [3]
        based_on = "3p"
        [start.A]
        islands = ["IS1", "IS5", "IS7"]
        fleets = ["A2", "F1"]
        [start.B]
        islands = ["IS2", "IS3", "IS8"]
        fleets = ["F7", "K2"]
        [start.C]
        islands = ["IS4", "IS6"]
        fleets = ["F5"]
    """,
    # Movement and battles (test_rules_movement.py, test_rules_battle.py), on the 3p map:
    # Bob holds a single island, IS2 (last-island protection).
    "single3": """
        [board]
        name = "3 players, Bob on a single island"
        players = [3]
        based_on = "3p"
        [start.A]
        islands = ["IS1", "IS7"]
        fleets = ["C2", "G5"]
        [start.B]
        islands = ["IS2"]
        fleets = ["D4", "B3"]
        [start.C]
        islands = ["IS3", "IS8"]
        fleets = ["F4", "K2"]
    """,
    # Ann's fleets make a chain C2 - D3 - E4 from IS1 to IS4 (and IS3).
    "chain3": """
        [board]
        name = "3 players, Ann with a chain of fleets"
        players = [3]
        based_on = "3p"
        [start.A]
        islands = ["IS1", "IS7"]
        fleets = ["C2", "D3", "E4"]
        [start.B]
        islands = ["IS2", "IS5"]
        fleets = ["D4", "F1"]
        [start.C]
        islands = ["IS3", "IS8"]
        fleets = ["F4", "K2"]
    """,
    # Bob also holds IS4, linked to IS2 by his fleet on D4: somewhere to retreat to.
    "retreat3": """
        [board]
        name = "3 players, Bob on IS2, IS4 and IS5"
        players = [3]
        based_on = "3p"
        [start.A]
        islands = ["IS1", "IS7"]
        fleets = ["C2", "G5"]
        [start.B]
        islands = ["IS2", "IS4", "IS5"]
        fleets = ["D4", "F1"]
        [start.C]
        islands = ["IS3", "IS8"]
        fleets = ["F4", "K2"]
    """,
    # The figures (test_rules_figures.py), on the 5p map: Dan's fleet on F10 links his IS6
    # and IS11 (a retreat from IS11), Cy's on K6 his IS13 and Dan's IS11 (an attack).
    # Incomes: A: IS2 1 + K1 1 = 2; B: IS9 2 = 2; C: IS4 1 + K6 1 = 2; D: IS6 1 = 1;
    #          E: IS3 2 + F1 1 = 3.
    "figures5": """
        [board]
        name = "5 players, Dan's IS6 and IS11 linked"
        players = [5]
        based_on = "5p"
        [start.A]
        islands = ["IS2", "IS12"]
        fleets = ["C6", "K1"]
        [start.B]
        islands = ["IS1", "IS9"]
        fleets = ["B3", "E7"]
        [start.C]
        islands = ["IS4", "IS13"]
        fleets = ["F5", "K6"]
        [start.D]
        islands = ["IS6", "IS11"]
        fleets = ["D8", "F10"]
        [start.E]
        islands = ["IS3", "IS7"]
        fleets = ["F1", "F3"]
    """,
    # Eve's fleets E3 and E4 link her IS3 to IS4 (Cy's) on the 5p map.
    "marker5": """
        [board]
        name = "5 players, Eve with fleets between IS3 and IS4"
        players = [5]
        based_on = "5p"
        [start.A]
        islands = ["IS2", "IS12"]
        fleets = ["C6", "K1"]
        [start.B]
        islands = ["IS1", "IS9"]
        fleets = ["B3", "E7"]
        [start.C]
        islands = ["IS4", "IS13"]
        fleets = ["F5", "K6"]
        [start.D]
        islands = ["IS6", "IS7"]
        fleets = ["D8", "F1"]
        [start.E]
        islands = ["IS3", "IS11"]
        fleets = ["E3", "E4", "G9"]
    """,
}


@functools.lru_cache(maxsize=None)
def _boards_dir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="cyclades-test-boards-"))
    atexit.register(shutil.rmtree, path, True)
    return path


@functools.lru_cache(maxsize=None)
def board_file(name: str) -> str:
    """The path of the custom board ``name`` (written once per test session)."""
    path = _boards_dir() / f"{name}.toml"
    path.write_text(textwrap.dedent(CUSTOM_BOARDS[name]).strip() + "\n", encoding="utf-8")
    return str(path)
