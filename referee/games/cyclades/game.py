"""Cyclades: how a transcript's header becomes the static facts, and where the
rule programs live. Game-specific glue for the generic referee."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.base.errors import BoardError, FileError, NotationError, Position
from referee.base.terms import Fn, fn
from referee.base.words import counted, did_you_mean
from referee.game.contract import Game
from referee.game.registry import Imported
from referee.game.state import Draft, tup
from referee.text.transcript import Header, Play, Transcript

from . import describe, fastpath
from .board import BUILTIN_PLAYER_COUNTS, Board, board_facts, builtin_board, load_board

SEAT_LETTERS = "ABCDE"
#: The gold a player behind the screen is taken to hold when another player asks
#: (``CycladesRules.screen``): more than any one offering, recruit, purchase or
#: movement costs in a real game, so that every move the rules permit is listed.
SCREENED_GOLD = 99


@dataclass(frozen=True)
class Setup:
    """Everything fixed for one game: the board and the static facts."""

    board: Board
    static: tuple[Fn, ...]
    players: tuple[str, ...]
    facts: fastpath.Facts


def _position(transcript: Transcript, key: str) -> Position:
    span = transcript.header.spans.get(key) or next(iter(transcript.header.spans.values()))
    return Position(transcript.source, span.line, span.column)


def setup(transcript: Transcript, board_file: str | None = None, rules: str | None = None,
          variants: tuple[str, ...] = ()) -> Setup:
    """The static facts of a game: players, turn track, board, reading."""
    header: Header = transcript.header
    players = tuple(p.name for p in header.players)
    if not 2 <= len(players) <= 5:
        raise NotationError(f"Cyclades is played by 2 to 5 players, the header names {len(players)}",
                            _position(transcript, "players"))
    board_ref = board_file or header.board
    if board_ref and board_ref not in CycladesRules.builtin_boards:
        path = Path(board_ref)
        if not board_file:
            if path.suffix != ".toml":  # a transcript may not make the referee read (and quote) any file
                raise BoardError(f"a board is a .toml file (docs/boards.md), not '{board_ref}'",
                                 _position(transcript, "board"))
            if not path.is_absolute():  # a header's path is relative to the transcript
                path = Path(transcript.source).parent / path
        try:
            board = load_board(path)
        except (BoardError, FileError) as error:
            if board_file:  # from the command line: the error names the file already
                raise
            raise type(error)(error.message, _position(transcript, "board"), error.context) from None
    else:
        board = builtin_board(int(board_ref[0]) if board_ref else len(players))
    if len(players) not in board.player_counts:
        raise NotationError(f"the board '{board.name}' is for {', '.join(map(str, board.player_counts))} "
                            f"players, the header names {len(players)}", _position(transcript, "board"))
    each = 2 if len(players) == 2 else 1
    order = header.order or (players * each)
    for p in players:
        if order.count(p) != each:
            raise NotationError(
                f"the turn order must name every player {'twice' if each == 2 else 'once'} "
                f"({'two offering markers each in the 2-player game' if each == 2 else 'one marker each'}); "
                f"{p} appears {order.count(p)} times", _position(transcript, "order" if header.order else "players"))
    static: list[Fn] = [fn("player", p) for p in players]
    static.append(fn("player_count", len(players)))
    static.append(fn("variant", rules or header.rules))
    static += [fn("variant_active", Fn(v)) for v in variants]
    seen: dict[str, int] = {}
    for pos, p in enumerate(order, start=1):
        seen[p] = seen.get(p, 0) + 1
        static.append(fn("start_order", pos, fn("m", p, seen[p])))
    for p, (islands, fleets) in starting_placement(transcript, board, players).items():
        static += [fn("start_island", p, i) for i in islands]
        static += [fn("start_fleet", p, s) for s in fleets]
    static += board_facts(board)
    return Setup(board, tuple(static), players, fastpath.Facts(static))


def starting_placement(transcript: Transcript, board: Board, players: tuple[str, ...]) -> dict:
    """Each player's starting islands and fleets: the board's seat, or what the
    transcript's ``start:`` line states, checked against rule setup_placement:
    as many islands and fleets as a seat of the board has, islands and sea spaces
    of the board, each fleet next to one of the player's islands, no island or
    sea space shared."""
    placement = {p: (board.seat(letter).islands, board.seat(letter).fleets)
                 for letter, p in zip(SEAT_LETTERS, players)}
    for line in transcript.header.start:
        where = Position(transcript.source, line.span.line, line.span.column)
        islands = tuple(x for x in line.places if x in {i.id for i in board.islands})
        fleets = tuple(x for x in line.places if x in {s.id for s in board.seas})
        unknown = [x for x in line.places if x not in islands and x not in fleets]
        seat = placement[line.player]

        def illegal(why: str) -> NotationError:
            return NotationError(f"{line.player}'s starting placement is not legal (rule setup_placement): {why}",
                                 where)

        if unknown:
            raise illegal(f"{unknown[0]} is neither an island nor a sea space of the board '{board.name}'")
        if len(set(islands)) != len(islands) or len(set(fleets)) != len(fleets):
            raise illegal("a place is named twice")
        if (len(islands), len(fleets)) != (len(seat[0]), len(seat[1])):
            raise illegal(f"a player starts with {counted(len(seat[0]), 'island')} and "
                          f"{counted(len(seat[1]), 'fleet')} on this board, the line names "
                          f"{counted(len(islands), 'island')} and {counted(len(fleets), 'sea space')}")
        for sea in fleets:
            if not board.sea_islands(sea) & set(islands):
                raise illegal(f"the fleet on {sea} is next to none of {line.player}'s islands")
        placement[line.player] = (islands, fleets)
    for line in reversed(transcript.header.start):  # a clash is reported on the later line
        others = [p for p in players if p != line.player]
        for p in others:
            shared = sorted(set(placement[line.player][0] + placement[line.player][1])
                            & set(placement[p][0] + placement[p][1]))
            if shared:
                raise NotationError(f"{line.player}'s starting placement is not legal (rule setup_placement): "
                                    f"{shared[0]} is also {p}'s; players start on different islands and sea spaces",
                                    Position(transcript.source, line.span.line, line.span.column))
    return placement


def check_places(transcript: Transcript, board: Board, players: tuple[str, ...]) -> None:
    """Every island and sea id a move names is one of the board's: an id the
    board does not have cannot be read (a NotationError at the id, with the
    board's nearest ids). A place of the wrong kind (a temple on a sea) is the
    rules' business, judged as written."""
    places = {i.id for i in board.islands} | {s.id for s in board.seas}
    for play in transcript.plays:
        for written in _places_of(play.move, players):
            if written in places:
                continue
            line = play.line_text
            at = line.upper().find(written, play.span.column - 1)
            column = at + 1 if at >= 0 else play.span.column
            context = f"{line}\n{' ' * (column - 1)}^" if line else ""
            kind = "island" if written.upper().startswith("IS") else "island or sea space"
            meant = did_you_mean(written, sorted(places))
            if not meant and kind == "island":
                islands = sorted((i.id for i in board.islands), key=lambda x: (len(x), x))
                meant = f" (its islands are {', '.join(islands)})"
            raise NotationError(f"{written} is no {kind} of the board '{board.name}'{meant}",
                                Position(transcript.source, play.span.line, column), context)


def _places_of(term, players: tuple[str, ...]):
    """The island and sea ids in a move term (its strings that name no player)."""
    if isinstance(term, str):
        if term not in players:
            yield term
    elif isinstance(term, Fn):
        for arg in term.args:
            yield from _places_of(arg, players)


#: The things a 'position:' item may add (docs/notation.md, "A starting position").
_POSITION_UNITS = {"gp": "gold", "priest": "priests", "priests": "priests", "philosopher": "philosophers",
                   "philosophers": "philosophers", "troop": "troops", "troops": "troops", "fleet": "fleets",
                   "fleets": "fleets"}


def position_changes(transcript: Transcript, board: Board, players: tuple[str, ...]) -> list[tuple]:
    """The items of a ``position:`` header line, checked: each ('change', name,
    key, delta) or ('add', name, args). Items are added to the starting position."""
    text = transcript.header.options.get("position")
    if not text:
        return []
    span = transcript.header.spans.get("position")
    where = Position(transcript.source, span.line, span.column) if span else None
    return [position_item(part.strip(), board, players, where) for part in text.split(";")]


def position_item(item: str, board: Board, players: tuple[str, ...], where: Position | None = None) -> tuple:
    """One item of a ``position:`` line (docs/notation.md, 'A starting position'),
    checked against the board and the players: ('change', name, key, delta) or
    ('add', name, args)."""
    islands = {i.id for i in board.islands}
    seas = {s.id for s in board.seas}
    names = {p.casefold(): p for p in players}
    words = item.split()

    def bad(why: str) -> NotationError:
        return NotationError(f"position item '{item}': {why} (docs/notation.md, 'A starting position')", where)

    if not words:
        raise bad("empty item")
    head = words[0].casefold()
    if head in fastpath.BUILDINGS or head == "metropolis":
        if len(words) != 2 or words[1] not in islands:
            raise bad(f"expected '{head} ISn' with an island of the board '{board.name}'")
        return (("add", "metropolis", (words[1],)) if head == "metropolis"
                else ("change", "building", tup(words[1], Fn(head)), 1))
    if head not in names:
        raise bad(f"expected a building, 'metropolis' or a player ({', '.join(players)})")
    player, rest = names[head], words[1:]
    if rest and rest[0].casefold() == "marker":
        if len(rest) != 2 or rest[1] not in islands:
            raise bad("expected 'PLAYER marker ISn'")
        return ("add", "marker", (rest[1], player))
    count = 1
    if rest and rest[0].isdigit():
        count, rest = int(rest[0]), rest[1:]
    if not rest or rest[0].casefold() not in _POSITION_UNITS or not 1 <= count <= 99:
        raise bad("expected 'PLAYER N GP', 'PLAYER N priests', 'PLAYER N philosophers', "
                  "'PLAYER N troops ISn', 'PLAYER N fleets Sn' or 'PLAYER marker ISn' (N from 1 to 99)")
    name = _POSITION_UNITS[rest[0].casefold()]
    if name in ("troops", "fleets"):
        places = islands if name == "troops" else seas
        if len(rest) != 2 or rest[1] not in places:
            raise bad(f"expected {'an island' if name == 'troops' else 'a sea space'} of the board after '{rest[0]}'")
        return ("change", name, tup(player, rest[1]), count)
    if len(rest) != 1:
        raise bad(f"nothing follows '{rest[0]}'")
    return ("change", name, player, count)


class CycladesRules(Game):
    """The Cyclades rules for one game, set up from a transcript's header."""

    name = "cyclades"
    warm_up = "game: cyclades\nplayers: Ann red, Bob blue\n\ncycle 1\ncreatures: Harpy\n"
    picture = Imported("referee.games.cyclades.draw:PICTURE")  # referee board, Session.picture
    builtin_boards = frozenset(f"{n}p" for n in BUILTIN_PLAYER_COUNTS)  # what a board: line names, not a file

    def __init__(self, transcript: Transcript, board_file: str | None = None, rules: str | None = None,
                 variants: tuple[str, ...] = ()):
        self.setup = setup(transcript, board_file=board_file, rules=rules, variants=variants)
        self.static = self.setup.static
        self.players = self.setup.players
        self.board = self.setup.board
        self.reading = rules or transcript.header.rules
        self.position = position_changes(transcript, self.board, self.players)
        check_places(transcript, self.board, self.players)
        self._left_out: set[tuple[int, Fn]] = set()  # (line, god tile) the referee took for a 'gods:' line

    @classmethod
    def search_scenarios(cls) -> tuple:
        """The scenarios of referee compare's search (scenarios.py)."""
        from .scenarios import SCENARIOS
        return SCENARIOS

    def use_variants(self, variants: tuple[str, ...]) -> None:
        """Judge with exactly these variant modules switched on (the search's readings)."""
        super().use_variants(variants)
        self.setup.facts.variants = frozenset(variants)

    def position_item(self, item: str) -> tuple:
        """A 'position:' item read against this game's board and players."""
        return position_item(item, self.board, self.players)

    def starting_position(self, state: frozenset) -> frozenset:
        """The initial state with a 'position:' line's items added."""
        if not self.position:
            return state
        d = Draft(state)
        for change in self.position:
            if change[0] == "change":
                d.change(change[1], change[2], change[3])
            else:
                d.add(change[1], *change[2])
        return d.freeze()

    # -- reading the state ----------------------------------------------------------
    def cycle(self, state: frozenset) -> int:
        f = self._one(state, "cycle")
        return int(f.args[0]) if f else 0

    def has_pending(self, state: frozenset) -> bool:
        return self._one(state, "pending") is not None


    # -- the fast path ------------------------------------------------------------------
    def game_step(self, state: frozenset) -> Fn | None:
        return fastpath.game_step(state)

    def forced_chance(self, state: frozenset) -> Fn | None:
        return fastpath.forced_chance(state, self.setup.facts)

    def fast_path_applies(self, state: frozenset, role, move: Fn) -> bool:
        if role == Fn("game"):
            return move == self.game_step(state)
        return role == Fn("chance") and move == self.forced_chance(state)

    def fast_apply(self, state: frozenset, role, move: Fn) -> frozenset:
        return fastpath.apply(state, self.setup.facts, role, move)

    def speculate(self, state: frozenset, role, move: Fn) -> frozenset | None:
        return fastpath.speculate(state, self.setup.facts, role, move)

    # -- turns ----------------------------------------------------------------------------
    def _acting(self, state: frozenset) -> tuple[Fn, Fn] | None:
        """The acting marker and its god, in the action phase."""
        acting = self._one(state, "acting")
        if acting is None or self.phase(state) != "actions":
            return None
        marker = acting.args[0]
        god = next(f.args[2] for f in state if f.name == "act" and f.args[1] == marker)
        return marker, god

    def end_of_turn(self, state: frozenset):
        """The acting player's end of turn, when it is theirs to make."""
        acting = self._acting(state)
        if acting is None or self.control(state) != acting[0].args[0] or self._one(state, "battle"):
            return None
        return acting[0].args[0], Fn("pass")

    def turn_gap(self, state: frozenset, play: Play):
        """A move to insert before ``play`` that the notation leaves unwritten: in a
        battle, a player who does not retreat need not write 'stay'; otherwise an
        end of turn, when the line names a player (and god) whose turn comes later.
        (The deciding player's own move is judged as written: anything but a
        retreat or 'stay' breaks rule battle_at_once.)"""
        turn = self._one(state, "battle_turn")
        if turn is not None:
            decider = turn.args[0]
            if isinstance(decider, str) and play.role != decider:
                return decider, Fn("stay")
            return None
        acting = self._acting(state)
        if acting is None or play.role == "chance":
            return None
        marker, god = acting
        if marker.args[0] == play.role and (play.god is None or play.god == god.name):
            return None
        current = next(f.args[0] for f in state if f.name == "act" and f.args[1] == marker)
        later = [f for f in state if f.name == "act" and f.args[0] > current
                 and f.args[1].args[0] == play.role and (play.god is None or f.args[2].name == play.god)]
        return self.end_of_turn(state) if later else None

    def begins_period(self, state: frozenset, play: Play) -> bool:
        """Whether ``play`` is a line only a new cycle holds, written while the
        actions still go on: the creature track or the god tiles (the card of a
        Zeus replacement excepted) when the writer forgot the 'cycle N' heading."""
        if play.role != "chance" or play.move.name not in ("track", "god"):
            return False
        if play.move.name == "track" and play.move.args[0] == 0:
            return False
        return self.phase(state) == "actions"

    def forced_together(self, moves: list[Fn]) -> list[Fn] | None:
        """Legal moves that are one decision with one answer, whatever their order:
        the discards of a metropolis from buildings (rule metropolis_buildings) when
        each type has a single building to give up, e.g. four buildings, one of each
        type, on one island. None when the player has a choice to make."""
        if not moves or any(m.name != "discard" for m in moves):
            return None
        types = [m.args[0] for m in moves]
        return sorted(moves, key=str) if len(set(types)) == len(types) else None

    def opens_period(self, play: Play) -> bool:
        """Whether ``play`` may be the first line of a cycle: a god's action never
        is (the track, the gods and the offerings come first), so a 'cycle N'
        heading followed by one was written before the actions ended."""
        return play.god is None

    def resolve(self, state: frozenset, play: Play) -> Fn:
        """The written move with what the notation leaves implicit filled in: the
        slot a replacement card goes to (``replace Harpy -> Kraken``); a god tile
        one space further down for each tile of its line left out (``left_out``)."""
        move = self.resolve_move(state, play.move)
        skipped = sum(1 for line, _ in self._left_out if line == play.span.line)
        if move.name == "god" and play.role == "chance" and skipped:
            move = fn("god", move.args[0] + skipped, *move.args[1:])
        return move

    def left_out(self, state: frozenset, move: Fn, line: list[Fn] = ()) -> Fn | None:
        """The chance outcome a written one skips (docs/notation.md, "What the
        referee fills in"): a creature that slid along the track when the next
        line is the 'gods:' line, and the god tile that can only come first (last
        cycle's face-down god, with 4 or 2 players) when the 'gods:' line starts
        with another god."""
        forced = fastpath.forced_chance(state, self.setup.facts)
        if forced is None or move.name not in ("track", "god"):
            return None
        if forced.name != move.name:  # a creature that slid along the track, the 'gods:' line written next
            return forced
        shown = {f.args[1] for f in state if f.name in ("god_up", "god_down")}
        if (move.name != "god" or len(self.players) not in (2, 4) or len(shown) >= 3
                or any(m.name == "god" and m.args[1] == forced.args[1] for m in line)):
            return None  # a tile written elsewhere on the line (rule gods_track_forced) is judged as written
        return forced

    def skipped(self, line: int, move: Fn) -> None:
        """The referee took ``move`` (a god tile) for a line that leaves it out:
        the tiles written on that line lie one space further down."""
        self._left_out.add((line, move))

    def resolve_move(self, state: frozenset, move: Fn) -> Fn:
        if move.name == "round":
            return self._canonical_round(state, move)
        if move.name == "track" and move.args[0] == 0:
            slots = [f.args[0] for f in state if f.name == "reveal"]
            if slots:
                return Fn("track", (max(slots), move.args[1]))
        return move

    def _canonical_round(self, state: frozenset, move: Fn) -> Fn:
        """A battle round in one form, whatever order and sides were written:
        ``round(side(Attacker,F,L), side(Defender,F,L))``; when some loss is
        written, a side written without one lost none (rule battle_round). A
        round that names anyone else stays as written (and is illegal)."""
        battle = self._one(state, "battle")
        sides = {}
        for side in move.args:
            if not (isinstance(side, Fn) and side.name == "side" and len(side.args) == 3) or side.args[0] in sides:
                return move
            sides[side.args[0]] = side.args[1:]
        if battle is None or not set(sides) <= {battle.args[2], battle.args[3]}:
            return move
        unwritten = Fn("u")
        any_loss = any(loss != unwritten for _, loss in sides.values())
        canonical = []
        for player in battle.args[2:]:
            face, loss = sides.get(player, (unwritten, unwritten))
            canonical.append(fn("side", player, face, 0 if any_loss and loss == unwritten else loss))
        return fn("round", *canonical)

    def missing_chance(self, state: frozenset) -> str:
        battle = self._one(state, "battle")
        if battle is not None:
            kind, place, attacker, defender = battle.args
            return (f"the battle {'on' if kind == Fn('land') else 'at'} {place} goes on, but its next round is "
                    f"not written: write the dice ('battle: {attacker} 2, {defender} 1') or the losses "
                    f"('battle: {defender} -1')")
        phase = self.phase(state)
        if phase == "reveal_track":
            slots = sorted((f.args[0] for f in state if f.name == "reveal"), reverse=True)
            return (f"the creature track is not written: a 'creatures:' line must list the cards on the "
                    f"{', '.join(f'{s}-GP' for s in slots)} slot{'s' if len(slots) > 1 else ''} first")
        if phase == "reveal_gods":
            return "the god tiles are not written: a 'gods:' line must say which gods are face up this cycle"
        return "the card that replaced a creature is not written: write 'replace X -> Y'"

    def describe_outcome(self, state: frozenset, viewpoint: str | None = None) -> str:
        """Who won, with their metropolises and gold (the tie-break); for a
        ``viewpoint``, a winner's gold only when the viewpoint is the sole winner
        (rule setup_gold: gold is behind the screen)."""
        winners = self.winners(state)
        if not winners:
            return "the game is not over"
        d = Draft(state)
        held = fastpath.metropolises(d, self.setup.facts, winners[0])
        text = (f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {held} metropolis"
                f"{'es' if held != 1 else ''}")
        if viewpoint is None or winners == [viewpoint]:
            return f"{text} and {d.count('gold', winners[0])} GP"
        return text

    def screen(self, state: frozenset, viewpoint: str) -> frozenset:
        """Rule setup_gold: each player keeps their gold behind a screen. The state
        as ``viewpoint`` knows it: every other player holds ``SCREENED_GOLD``, so
        the moves listed for them are those the rules permit whatever their gold,
        and nothing listed depends on it (see ``describe.group_moves(screened=True)``)."""
        d = Draft(state)
        for player in self.players:
            if player != viewpoint:
                d.change("gold", player, SCREENED_GOLD - d.count("gold", player))
        return d.freeze()

    # -- guessing what comes next (only for speed: see Engine.prefetch) -------------------
    def predict(self, state: frozenset, plays: list) -> list:
        """The moves the referee will most likely judge from ``state`` on, given the
        events still to come (the first is the move about to be judged): the
        written moves with the bookkeeping steps and ends of turn the notation
        leaves implicit between them. A wrong guess only costs time."""
        moves: list = []
        acting = self._acting(state)
        previous = (acting[0].args[0], acting[1].name) if acting else None
        in_actions = self.phase(state) == "actions"
        after_chance = False

        def between(*steps) -> None:  # what happens before a move: nothing before the first
            if moves:
                moves.extend(steps)

        for event in plays:
            if not isinstance(event, Play):  # a cycle heading
                if in_actions and previous:
                    between((previous[0], Fn("pass")))
                between((Fn("game"), Fn("end_cycle")), (Fn("game"), Fn("refresh_track")))
                in_actions, previous, after_chance = False, None, False
                continue
            move = event.move
            if event.role == "chance":
                moves.append((Fn("chance"), move))
                after_chance = True
                continue
            if event.god is None and not in_actions:
                if after_chance:
                    between((Fn("game"), Fn("income")))
                moves.append((event.role, move))
                after_chance = False
                continue
            if not in_actions:
                between((Fn("game"), Fn("pay_offerings")))
                in_actions, previous = True, (event.role, event.god) if not moves else None
            turn = (event.role, event.god)
            if previous and previous != turn:
                between((previous[0], Fn("pass")))
            if previous != turn and event.god == "apollo":
                between((Fn("game"), Fn("apollo_income")))
            moves.append((event.role, move))
            previous = None if move.name == "pass" else turn
        return moves

    # -- words for people ---------------------------------------------------------------------
    def describe_move(self, move: Fn) -> str:
        return describe.describe_move(move)

    def role_text(self, role) -> str:
        return describe.describe_role(role)

    def term_text(self, term) -> str:
        return describe.name(term)

    def group_moves(self, moves: list, limit: int | None, state: frozenset | None = None, player=None,
                    screened: bool = False) -> list[str]:
        return describe.group_moves(moves, limit, state, player, screened=screened)

    def notes(self, state: frozenset, move: Fn) -> tuple[str, ...]:
        """For a battle round written without both dice: the rolls that explain it."""
        rolls = fastpath.battle_rolls(state, self.setup.facts, move)  # [] unless a round of a battle
        if not rolls or (len(move.args) == 2 and all(side.args[1] != Fn("u") for side in move.args)):
            return ()
        battle = self._one(state, "battle")
        attacker, defender = battle.args[2], battle.args[3]
        shown = [f"{attacker} {a}, {defender} {b}" for a, b in rolls]
        more = f" and {len(shown) - 6} more" if len(shown) > 6 else ""
        return (f"explained by the roll{'s' if len(shown) > 1 else ''} {'; '.join(shown[:6])}{more}",)

    def warnings(self, move: Fn) -> tuple[str, ...]:
        """Nothing to warn of: every move of the base game, each creature's effect
        included, is judged by the rules."""
        return ()
