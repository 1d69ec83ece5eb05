"""Random playouts: complete games played by choosing, uniformly and seeded, among
the referee's own listed legal moves (chance included), written as records in
the notation and read back (README.md, "Robustness").

    game = cyclades_playout(players=3, seed=7, cycles=40)
    problems = read_back(game)          # [] when the record reads back all legal,
                                        # the same moves, on both paths alike

The solver lists the moves of the role in control (``Engine.legal_moves``);
bookkeeping steps of the role ``game`` are applied and not written, as a person
does not write them. Every chance outcome, slid creatures and forced god tiles
included, is written, so the record says everything that happened; reading it
back must give exactly the moves played, every one legal, and the run with the
fast path must equal the run of the solver alone, step for step.

A playout stops at the game's end, after ``cycles`` cycles (rounds), or before
the referee's bound on a record's moves. ``tests/games/*/test_playouts.py`` runs a
few short ones; ``bench/playouts.py`` runs hundreds.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from referee.ask.options import CheckOptions
from referee.ask.session import Session
from referee.base.errors import RefereeError
from referee.base.terms import Fn
from referee.game.contract import phase
from referee.game.notation import parse_transcript
from referee.game.parts import part
from referee.game.parts.scenarios import Scenarios
from referee.game.parts.speed import Speed
from referee.game.parts.words import Words
from referee.game.readings import rule_files
from referee.game.setup import game_rules
from referee.games.cyclades import writing
from referee.games.cyclades.fluents import Act, Acting, Deck, Track, Use
from referee.games.luna.writing import action as luna_action
from referee.judge.engine import Engine
from referee.judge.visitor import MAX_MOVES

NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve")
CYCLADES_COLOURS = ("red", "blue", "green", "yellow", "black")
LUNA_COLOURS = ("red", "blue", "green", "yellow")
GAME, CHANCE = Fn("game"), Fn("chance")
#: Room left under the referee's bound on a record's moves (a line holds several).
MOVE_MARGIN = 100


@dataclass
class Playout:
    """One game played: its record and what was played."""

    game: str
    players: int
    seed: int
    text: str = ""
    played: list[tuple] = field(default_factory=list)  # (role, move) of every written move, in order
    periods: int = 0
    over: bool = False
    seconds: float = 0.0
    kinds: Counter = field(default_factory=Counter)  # how many moves of each name were played
    stuck: str | None = None  # the role in control had no legal move (the game can go no further)
    rare: Counter = field(default_factory=Counter)  # positions a short game seldom meets, and how often

    @property
    def label(self) -> str:
        return f"{self.game} {self.players}p seed {self.seed}"

    def summary(self) -> str:
        end = "to its end" if self.over else f"stuck: {self.stuck}" if self.stuck else "stopped"
        rare = "".join(f"; {what}: {n}" for what, n in sorted(self.rare.items()))
        bought = f"; creatures bought {self.kinds['buy']}, used {self.kinds['use']}" if self.game == "cyclades" else ""
        return (f"{self.label}: {len(self.played)} moves, {self.periods} "
                f"{'cycles' if self.game == 'cyclades' else 'rounds'}, {end}, {self.seconds:.1f} s{bought}{rare}")


class _Table:
    """The rules and the solver of one playout, from its header."""

    def __init__(self, header: str, by_kind: bool = False):
        self.by_kind = by_kind
        self.rules = game_rules(parse_transcript(header, "<playout>"))
        self.engine = Engine(rule_files(self.rules.name), store=None)
        self.state = part(self.rules, Scenarios).starting_position(self.engine.init(self.rules.static))

    stuck: str | None = None

    def choices(self, rng: random.Random) -> tuple[object, Fn] | None:
        """Apply the bookkeeping due, then choose among the moves of the role in control
        (None at the end, or when that role has no legal move: ``stuck`` says so)."""
        while (step := self.rules.game_step(self.state)) is not None:
            self.state = self._apply(GAME, step)
        role = self.rules.control(self.state)
        if role is None or self.rules.is_over(self.state):
            return None
        moves = sorted((m for r, m in self.engine.legal_moves(self.rules.static, self.state) if r == role), key=str)
        if not moves:
            self.stuck = (f"{part(self.rules, Words).role_text(role)} has no legal move in {self.rules.period} "
                          f"{self.rules.period_number(self.state)} ({phase(self.state)} phase)")
            return None
        if self.by_kind:  # first the kind of move, then one of that kind
            kind = rng.choice(sorted({m.name for m in moves}))
            moves = [m for m in moves if m.name == kind]
        return role, rng.choice(moves)

    def _apply(self, role, move: Fn) -> frozenset:
        speed = part(self.rules, Speed)
        if speed.fast_path_applies(self.state, role, move):
            return speed.fast_apply(self.state, role, move)
        judgement = self.engine.judge(self.rules.static, self.state, role, move)
        assert not judgement.violations, (role, move, judgement.violations)
        return judgement.next_state

    def play(self, role, move: Fn) -> None:
        self.state = self._apply(role, move)


# -- Cyclades -------------------------------------------------------------------------
def _cyclades_header(players: int, rng: random.Random) -> str:
    names = list(NAMES[:players])
    seats = ", ".join(f"{n} {c}" for n, c in zip(names, CYCLADES_COLOURS))
    rng.shuffle(names)
    order = names + names[::-1] if players == 2 else names  # two markers each with 2 players
    return f"game: cyclades\nplayers: {seats}\norder: {', '.join(order)}\n"


def _acting_god(state: frozenset) -> Fn | None:
    acting = Acting.one(state)
    if acting is None:
        return None
    return next((act.god for act in Act.of(state) if act.marker == acting.marker), None)


class _CycladesRecord:
    """The record's lines as the moves come: a line stays open while the moves
    that follow belong on it (a god's actions, the cards of the track)."""

    def __init__(self, header: str):
        self.lines = [header.rstrip("\n"), ""]
        self.heading = 0
        self.open: tuple | None = None  # ("creatures"|"gods"|"actions", key)
        self.parts: list[str] = []
        self.use_of: list[str] = []  # the cards whose uses the last 'buy' piece holds

    def close(self) -> None:
        if self.open is None:
            return
        kind, key = self.open
        if kind == "creatures":
            self.lines.append("creatures: " + ", ".join(self.parts))
        elif kind == "gods":
            self.lines.append(writing.gods_line(self.parts))
        else:
            self.lines.append(f"{key[0]}/{writing.card(key[1])}: " + "; ".join(self.parts))
        self.open, self.parts, self.use_of = None, [], []

    def _line(self, kind: str, key, cycle: int) -> None:
        if self.open != (kind, key) or cycle != self.heading:
            self.close()
            if cycle != self.heading:
                self.lines.append(f"cycle {cycle}")
                self.heading = cycle
            self.open = (kind, key)

    def _single(self, line: str, cycle: int) -> None:
        """A line of its own: an offering, a battle decision, a battle round."""
        self.close()
        if cycle != self.heading:
            self.lines.append(f"cycle {cycle}")
            self.heading = cycle
        self.lines.append(line)

    def add(self, state: frozenset, cycle: int, role, move: Fn) -> bool:
        """Write ``move``, played in ``state``; False when the notation has no form for it."""
        now = phase(state)
        if role == CHANCE:
            if move.name == "track" and now == "actions":  # the card drawn for a Zeus replacement
                if not (self.parts and self.parts[-1].endswith("->")):
                    return False
                self.parts[-1] += " " + writing.replaced(move)
            elif move.name == "track":
                self._line("creatures", None, cycle)
                self.parts.append(writing.track_card(move))
            elif move.name == "god":
                self._line("gods", None, cycle)
                self.parts.append(writing.god_tile(move))
            elif move.name == "round" and (line := writing.battle_line(move)) is not None:
                self._single(line, cycle)
            else:
                return False
            return True
        if move.name == "use":
            use = Use.read(move)
            target, used = use.target, use.card.name
            text = writing.creature_use(target, used not in self.use_of, used)
            if text is None or not self.parts or not self.parts[-1].startswith("buy "):
                return False
            self.parts[-1] += text
            self.use_of.append(used)
            return True
        if (text := writing.offering(move)) is not None:
            self._single(f"{role}: {text}", cycle)
            return True
        god = _acting_god(state)
        if god is None or (text := writing.piece(move)) is None:
            return False
        self._line("actions", (role, god), cycle)
        self.parts.append(text)
        self.use_of = []
        if move.name == "pass":
            self.close()
        return True

    def text(self) -> str:
        self.close()
        return "\n".join(self.lines) + "\n"


def cyclades_playout(players: int, seed: int, cycles: int = 40, max_moves: int = MAX_MOVES - MOVE_MARGIN) -> Playout:
    """A Cyclades game of ``players`` played at random from ``seed``, for at most ``cycles`` cycles."""
    started = time.perf_counter()
    rng = random.Random(f"cyclades {players} {seed}")
    header = _cyclades_header(players, rng)
    table = _Table(header)
    record = _CycladesRecord(header)
    game = Playout("cyclades", players, seed)
    while len(game.played) < max_moves:
        chosen = table.choices(rng)
        cycle = table.rules.period_number(table.state)
        if chosen is None or cycle > cycles:
            break
        role, move = chosen
        if role == CHANCE and move.name == "track":
            deck = len(Deck.of(table.state))
            if deck == 1 and phase(table.state) == "reveal_track":
                game.rare["the deck's last card drawn at a refresh"] += 1
            elif deck == 0 and Track.read(move).card not in {t.card for t in Track.of(table.state)}:
                game.rare["a reshuffle of the discard pile"] += 1
        assert record.add(table.state, cycle, role, move), f"{game.label}: no notation for {role}: {move}"
        table.play(role, move)
        game.played.append((role, move))
        game.kinds[move.name] += 1
    game.over = table.rules.is_over(table.state)
    game.stuck = table.stuck
    game.periods = table.rules.period_number(table.state)
    game.text = record.text()
    game.seconds = time.perf_counter() - started
    return game


# -- Luna ---------------------------------------------------------------------------------
def luna_playout(players: int, seed: int, rounds: int = 40, layout: str = "normal",
                 max_moves: int = MAX_MOVES - MOVE_MARGIN) -> Playout:
    """A Luna game played at random; its travels written as one line, group by group.
    The choice is uniform over the kinds of move listed, then over the moves of
    the kind drawn: uniform over the moves themselves, a travel would go on for a
    hundred groups (its end, ``done``, is one move among a hundred), and a game
    would meet the bound on a record's moves in its first rounds. ``done`` is not
    written (the next line ends the travel) and is not among ``played``."""
    started = time.perf_counter()
    rng = random.Random(f"luna {players} {seed}")
    seats = ", ".join(f"{n} {c}" for n, c in zip(NAMES[:players], LUNA_COLOURS))
    header = f"game: luna\nplayers: {seats}\nlayout: {layout}\n"
    table = _Table(header, by_kind=True)
    lines = [header.rstrip("\n"), ""] + (["preparation"] if layout == "normal" else [])
    game = Playout("luna", players, seed)
    heading, travelling = 0, None
    while len(game.played) < max_moves:
        chosen = table.choices(rng)
        period = table.rules.period_number(table.state)
        if chosen is None or period > rounds:
            break
        role, move = chosen
        if period != heading and period > 0:
            lines.append(f"round {period}")
            heading, travelling = period, None
        if move.name == "done":  # not written: the next line ends the travel
            game.kinds["done"] += 1
            table.play(role, move)
            travelling = None
            continue
        if move.name == travelling:  # the travel goes on: its next group on the same line
            lines[-1] += ", " + luna_action(move).split(" ", 1)[1]
        else:
            lines.append(f"{role}: {luna_action(move)}")
        travelling = move.name if move.name in ("travel", "waves") else None
        table.play(role, move)
        game.played.append((role, move))
        game.kinds[move.name] += 1
    game.over = table.rules.is_over(table.state)
    game.stuck = table.stuck
    game.periods = table.rules.period_number(table.state)
    game.text = "\n".join(lines) + "\n"
    game.seconds = time.perf_counter() - started
    return game


# -- reading back -----------------------------------------------------------------------------
def _steps(session: Session) -> list:
    return list(session.referee.run().steps)


def read_back(game: Playout) -> list[str]:
    """What is wrong with the record read back: a move not legal, a move read
    otherwise than it was played, the fast path and the solver alone disagreeing.
    Each problem names the playout (game, players, seed) so that it can be replayed."""
    problems = [f"{game.label}: the game stops: {game.stuck}"] if game.stuck else []
    runs = {}
    for fast_path in (True, False):
        path = "fast path" if fast_path else "solver alone"
        try:
            session = Session(parse_transcript(game.text, f"<{game.label}>"), CheckOptions(fast_path=fast_path), cache=False)
            report = session.check()
        except RefereeError as error:
            return [f"{game.label} ({path}): the record is refused: {error}"]
        for verdict in report.problems:
            rules = ", ".join(b.rule for b in verdict.breaches)
            problems.append(f"{game.label} ({path}): line {verdict.line}: '{verdict.text}' judged {rules or 'illegal'}")
        runs[fast_path] = _steps(session)
    written = [(s.role, s.move) for s in runs[True] if s.number is not None]
    played = [(role if role != CHANCE else Fn("chance"), move) for role, move in game.played]
    if written != played:
        at = next((i for i, (a, b) in enumerate(zip(written, played)) if a != b), min(len(written), len(played)))
        problems.append(f"{game.label}: move {at + 1} is read as {written[at] if at < len(written) else 'nothing'}, "
                        f"played as {played[at] if at < len(played) else 'nothing'}")
    fast = [(s.role, s.move, s.violations, s.after) for s in runs[True]]
    solver = [(s.role, s.move, s.violations, s.after) for s in runs[False]]
    if fast != solver:
        at = next((i for i, (a, b) in enumerate(zip(fast, solver)) if a != b), min(len(fast), len(solver)))
        problems.append(f"{game.label}: the fast path and the solver alone part at step {at + 1}: "
                        f"{fast[at][:2] if at < len(fast) else 'nothing'} against "
                        f"{solver[at][:2] if at < len(solver) else 'nothing'}")
    return problems


# -- the command line (bench/playouts.py) ---------------------------------------------------
PLAYER_COUNTS = {"cyclades": (2, 3, 4, 5), "luna": (2, 3, 4)}


def one_game(job: tuple) -> tuple[Playout, list[str]]:
    """Play and read back one game: ``(game, players, seed, periods)``."""
    name, players, seed, periods = job
    if name == "cyclades":
        game = cyclades_playout(players, seed, cycles=periods)
    else:
        game = luna_playout(players, seed, rounds=periods, layout="normal" if seed % 2 else "intro")
    started = time.perf_counter()
    problems = read_back(game)
    game.seconds += time.perf_counter() - started
    return game, problems


def main(argv: list[str] | None = None) -> int:
    import argparse
    import multiprocessing
    from pathlib import Path

    parser = argparse.ArgumentParser(description="Random playouts: complete games at random, read back on both paths.")
    parser.add_argument("--game", choices=("cyclades", "luna", "both"), default="both")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: every count of the game)")
    parser.add_argument("--games", type=int, default=1, help="games of each player count")
    parser.add_argument("--seed", type=int, default=1, help="the first seed; game k of a count has seed SEED+k")
    parser.add_argument("--cycles", type=int, default=40, help="stop after this many cycles (rounds) at most")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, each in a process of its own")
    parser.add_argument("--save", type=Path, help="write every record to this folder (a failing one's problems beside it)")
    args = parser.parse_args(argv)
    names = ("cyclades", "luna") if args.game == "both" else (args.game,)
    # game k of every game and count before game k + 1: a run stopped early has played every count
    jobs = [(name, n, args.seed + k, args.cycles) for k in range(args.games) for name in names
            for n in (args.players or PLAYER_COUNTS[name]) if n in PLAYER_COUNTS[name]]
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    failed, moves, periods, kinds = [], 0, 0, Counter()
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _Here() as pool:
        for game, problems in pool.imap_unordered(one_game, jobs):
            moves += len(game.played)
            periods += game.periods
            kinds.update(game.kinds)
            print(("FAIL " if problems else "ok   ") + game.summary(), flush=True)
            for problem in problems[:5]:
                print("     " + problem.replace("\n", "\n     "), flush=True)
            if problems:
                failed.append(game)
            if args.save:
                stem = args.save / f"{game.game}-{game.players}p-seed{game.seed}"
                stem.with_suffix(".txt").write_text(game.text, encoding="utf-8")
                if problems:
                    stem.with_suffix(".problems").write_text("\n".join(problems) + "\n", encoding="utf-8")
    bought = f" ({kinds['buy']} creatures bought, {kinds['use']} uses)" if "cyclades" in names else ""
    print(f"{len(jobs)} games, {moves} moves{bought}, {periods} cycles/rounds in {time.perf_counter() - started:.0f} s; "
          f"{len(failed)} failed" + (": " + ", ".join(g.label for g in failed) if failed else ""))
    return 1 if failed else 0


class _Here:
    """A pool of one: the games played in this process, in order."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def imap_unordered(function, jobs):
        return map(function, jobs)
