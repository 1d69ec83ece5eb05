"""Cyclades's tolerance (docs/notation.md, "What the referee fills in"): the
ends of turns and the 'stay' of a battle nobody writes, the god tiles and
creatures a line leaves out, a cycle's lines written under the wrong heading,
and a battle round or a track slot in the one form the rules judge."""

from __future__ import annotations

from referee.base.terms import Fn, Term
from referee.game.contract import one_fluent, phase
from referee.game.parts.tolerance import Tolerance
from referee.text.transcript import Play, Transcript

from . import fastpath
from .fluents import (
    Act,
    Acting,
    Battle,
    BattleRound,
    BattleTurn,
    DiscardMove,
    GodDown,
    GodTile,
    GodUp,
    OfferingMarker,
    Reveal,
    Side,
    Track,
)


def acting(state: frozenset) -> tuple[Fn, Fn] | None:
    """The acting marker and its god, in the action phase."""
    now = Acting.one(state)
    if now is None or phase(state) != "actions":
        return None
    marker = now.marker
    god = next((act.god for act in Act.of(state) if act.marker == marker), None)
    return None if god is None else (marker, god)


class CycladesTolerance(Tolerance):
    """What the Cyclades notation leaves implicit, filled in for one game."""

    def __init__(self, game=None):
        super().__init__(game)
        #: (line, god tile) the referee took for a 'gods:' line that leaves it out
        self.taken: set[tuple[int, Fn]] = set()

    def header_assumptions(self, transcript: Transcript) -> list[tuple[int | None, int, int, str]]:
        """Without an 'order:' line, the first cycle's turn order is the players
        line's (each player twice with 2 players): said at the players line, with
        the first offering, whose order it decides."""
        header = transcript.header
        players_line = header.spans.get("players")
        if header.order is not None or players_line is None:
            return []
        names = list(header.player_names) * (2 if len(header.player_names) == 2 else 1)
        first_offering = next((number for number, play in enumerate(transcript.plays, start=1)
                               if play.role != "chance" and play.group is None), None)
        text = (f"the turn order of cycle 1 is the players line's, {', '.join(names)}: "
                "the record has no 'order:' line")
        return [(first_offering, players_line.line, players_line.column, text)]

    def has_pending(self, state: frozenset) -> bool:
        return one_fluent(state, "pending") is not None

    def end_of_turn(self, state: frozenset):
        """The acting player's end of turn, when it is theirs to make."""
        now = acting(state)
        if now is None:
            return None
        player = OfferingMarker.read(now[0]).player
        if self.game.control(state) != player or one_fluent(state, "battle"):
            return None
        return player, Fn("pass")

    def turn_gap(self, state: frozenset, play: Play):
        """A move to insert before ``play`` that the notation leaves unwritten: in a
        battle, a player who does not retreat need not write 'stay'; otherwise an
        end of turn, when the line names a player (and god) whose turn comes later.
        (The deciding player's own move is judged as written: anything but a
        retreat or 'stay' breaks rule battle_at_once.)"""
        turn = BattleTurn.one(state)
        if turn is not None:
            decider = turn.decider
            if isinstance(decider, str) and play.role != decider:
                return decider, Fn("stay")
            return None
        now = acting(state)
        if now is None or play.role == "chance":
            return None
        marker, god = now
        if OfferingMarker.read(marker).player == play.role and (play.group is None or play.group == god.name):
            return None
        acts = Act.of(state)
        current = next(act.rank for act in acts if act.marker == marker)
        later = [act for act in acts if act.rank > current and OfferingMarker.read(act.marker).player == play.role
                 and (play.group is None or act.god.name == play.group)]
        return self.end_of_turn(state) if later else None

    #: How many lines ahead the deciding player's own battle decision is looked for.
    BATTLE_DECISION_AHEAD = 3

    def decided_later(self, state: frozenset, play: Play, implied: tuple[Term, Fn],
                      coming: list[tuple[int, Play]]) -> int | None:
        """In a battle, the attacker's decision written before the defender's (who
        decides first, rule battle_retreat): when the defender's own 'stay' or
        retreat follows in the next lines, before the next round or turn, that
        line comes first; the attacker's is judged where it is written."""
        decider, move = implied
        if move != Fn("stay") or one_fluent(state, "battle_turn") is None:
            return None
        for index, event in coming[:self.BATTLE_DECISION_AHEAD]:
            if event.role == "chance" or event.group is not None:
                return None
            if event.role == decider:
                return index
        return None

    def begins_period(self, state: frozenset, play: Play) -> bool:
        """Whether ``play`` is a line only a new cycle holds, written while the
        actions still go on: the creature track or the god tiles (the card of a
        Zeus replacement excepted) when the writer forgot the 'cycle N' heading."""
        if play.role != "chance" or play.move.name not in ("track", "god"):
            return False
        if play.move.name == "track" and Track.read(play.move).slot == 0:
            return False
        return phase(state) == "actions"

    def forced_together(self, moves: list[Fn]) -> list[Fn] | None:
        """Legal moves that are one decision with one answer, whatever their order:
        the discards of a metropolis from buildings (rule metropolis_buildings) when
        each type has a single building to give up, e.g. four buildings, one of each
        type, on one island. None when the player has a choice to make."""
        if not moves or any(m.name != "discard" for m in moves):
            return None
        types = [DiscardMove.read(m).kind for m in moves]
        return sorted(moves, key=str) if len(set(types)) == len(types) else None

    def opens_period(self, play: Play) -> bool:
        """Whether ``play`` may be the first line of a cycle: a god's action never
        is (the track, the gods and the offerings come first), so a 'cycle N'
        heading followed by one was written before the actions ended."""
        return play.group is None

    def left_out(self, state: frozenset, move: Fn, line: list[Fn] = ()) -> Fn | None:
        """The chance outcome a written one skips (docs/notation.md, "What the
        referee fills in"): a creature that slid along the track when the next
        line is the 'gods:' line, and the god tile that can only come first (last
        cycle's face-down god, with 4 or 2 players) when the 'gods:' line starts
        with another god."""
        forced = fastpath.forced_chance(state, self.game.setup.facts)
        if forced is None or move.name not in ("track", "god"):
            return None
        if forced.name != move.name:  # a creature that slid along the track, the 'gods:' line written next
            return forced
        shown = {f.god for f in GodUp.of(state)} | {f.god for f in GodDown.of(state)}
        if move.name != "god" or len(self.game.players) not in (2, 4) or len(shown) >= 3:
            return None
        god = GodTile.read(forced).god
        if any(m.name == "god" and GodTile.read(m).god == god for m in line):
            return None  # a tile written elsewhere on the line (rule gods_track_forced) is judged as written
        return forced

    def skipped(self, line: int, move: Fn) -> None:
        """The referee took ``move`` (a god tile) for a line that leaves it out:
        the tiles written on that line lie one space further down."""
        self.taken.add((line, move))

    def resolve(self, state: frozenset, play: Play) -> Fn:
        """The written move with what the notation leaves implicit filled in: the
        slot a replacement card goes to (``replace Harpy -> Kraken``); a god tile
        one space further down for each tile of its line left out (``left_out``)."""
        move = self.resolve_move(state, play.move)
        skipped = sum(1 for line, _ in self.taken if line == play.span.line)
        if move.name == "god" and play.role == "chance" and skipped:
            tile = GodTile.read(move)
            move = tile._replace(position=tile.position + skipped).term()
        return move

    def resolve_move(self, state: frozenset, move: Fn) -> Fn:
        if move.name == "round":
            return self._canonical_round(state, move)
        if move.name == "track" and Track.read(move).slot == 0:
            slots = [f.slot for f in Reveal.of(state)]
            if slots:
                return Track.make(max(slots), Track.read(move).card)
        return move

    def _canonical_round(self, state: frozenset, move: Fn) -> Fn:
        """A battle round in one form, whatever order and sides were written:
        ``round(side(Attacker,F,L), side(Defender,F,L))``; when some loss is
        written, a side written without one lost none (rule battle_round). A
        round that names anyone else stays as written (and is illegal)."""
        battle = Battle.one(state)
        sides = {}
        for term in move.args:
            side = Side.match(term)
            if side is None or side.player in sides:
                return move
            sides[side.player] = (side.face, side.loss)
        if battle is None or not set(sides) <= {battle.attacker, battle.defender}:
            return move
        unwritten = Fn("u")
        any_loss = any(loss != unwritten for _, loss in sides.values())
        canonical = []
        for player in (battle.attacker, battle.defender):
            face, loss = sides.get(player, (unwritten, unwritten))
            canonical.append(Side.make(player, face, 0 if any_loss and loss == unwritten else loss))
        return BattleRound.make(*canonical)
