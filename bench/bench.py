"""Benchmark: how long checking the shipped transcripts takes, on each path.

Prints, for every transcript under transcripts/ (or the files given): the
total check time with the fast path and with the solver only, their ratio, the
median and 95th-percentile time per move on each path (a move judged in a
batch costs nothing; the batch's solver call counts for the move that started
it), the number of solver calls on each path, and the time `explain` takes for
the transcript's last move in a new session and in a session that has already
checked the transcript. Each figure is the best of --repeat runs (default 3),
measured in this process on one core.

    python bench/bench.py                 # every shipped transcript
    python bench/bench.py FILE... --repeat 5
    python bench/bench.py --movement [FILE...]   # judging fleet and troop moves (5p game)
    python bench/bench.py --game luna     # Luna's transcripts (its complete 4-player game among them)
    python bench/bench.py --compare       # `referee compare` (the solver's search) per pair of readings
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.api import Session  # noqa: E402
from referee.notation import read_transcript  # noqa: E402
from referee.referee import Referee  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(path: Path, fast_path: bool, repeat: int) -> tuple[float, list[float], int]:
    transcript = read_transcript(path)
    best, per_move, calls = float("inf"), [], 0
    for _ in range(repeat):
        referee = Referee(transcript, fast_path=fast_path)
        start = time.perf_counter()
        run = referee.run()
        total = time.perf_counter() - start
        if total < best:
            best, calls = total, referee.engine.calls
            per_move = [s.seconds for s in run.steps]
    return best, per_move, calls


def measure_explain(path: Path, repeat: int) -> tuple[float, float]:
    """`explain` of the last move: in a new session (what the command line does),
    and in a session that has already checked the transcript (a service, a page)."""
    transcript = read_transcript(path)
    last = len(transcript.plays)
    cold = warm = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        session = Session(transcript)
        session.explain(move=last)
        cold = min(cold, time.perf_counter() - start)
        session = Session(transcript)
        session.check()
        start = time.perf_counter()
        session.explain(move=last)
        warm = min(warm, time.perf_counter() - start)
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", help="only the shipped transcripts of this game (transcripts/<game>/)")
    parser.add_argument("--movement", action="store_true",
                        help="only the movement figures (judging fleet and troop moves, listing alternatives)")
    parser.add_argument("--compare", action="store_true",
                        help="only the time `referee compare cyclades --rules A --rules B` takes, per pair of readings")
    args = parser.parse_args()
    if args.compare:
        measure_compare(args.repeat)
        return
    if args.movement:
        for path in args.files or [ROOT / "transcripts/cyclades/battles-5p.txt"]:
            measure_movement(path)
        return
    folder = ROOT / "transcripts" / args.game if args.game else ROOT / "transcripts"
    files = args.files or sorted(p for p in folder.rglob("*.txt") if not p.name.endswith(".report.txt"))
    print(f"{'transcript':44} {'moves':>5} {'fast s':>7} {'solver s':>8} {'ratio':>6} "
          f"{'fast med/p95 ms':>16} {'solver med/p95 ms':>18} {'calls f/s':>10} {'explain new/warm ms':>20}")
    for path in files:
        moves = len(read_transcript(path).plays)
        fast, fast_moves, fast_calls = measure(path, True, args.repeat)
        slow, slow_moves, slow_calls = measure(path, False, args.repeat)
        cold, warm = measure_explain(path, args.repeat)
        name = str(path.relative_to(ROOT) if path.is_absolute() and ROOT in path.parents else path)
        print(f"{name[-44:]:44} {moves:5d} {fast:7.3f} {slow:8.3f} {slow / fast:6.2f} "
              f"{1000 * statistics.median(fast_moves):7.2f}/{1000 * percentile(fast_moves, 0.95):7.2f} "
              f"{1000 * statistics.median(slow_moves):8.2f}/{1000 * percentile(slow_moves, 0.95):8.2f} "
              f"{fast_calls:4d}/{slow_calls:<5d} {1000 * cold:10.1f}/{1000 * warm:9.1f}")


def measure_compare(repeat: int) -> None:
    """The solver's search of `referee compare` for every pair of Cyclades readings
    (default bounds), best of ``repeat``: seconds, scenarios, disagreements found."""
    import itertools

    from referee.readings import load_readings
    from referee.search import compare_search

    names = load_readings("cyclades").names
    print(f"{'readings':18} {'best s':>7} {'worst s':>8} {'scenarios':>9} {'found':>5} {'reproduced':>10}")
    for a, b in itertools.combinations(names, 2):
        times, result = [], None
        for _ in range(repeat):
            start = time.perf_counter()
            result = compare_search("cyclades", a, b)
            times.append(time.perf_counter() - start)
        found = len(result.disagreements)
        shown = sum(d.reproduced for d in result.disagreements)
        print(f"{a + ' / ' + b:18} {min(times):7.2f} {max(times):8.2f} {len(result.searched['scenarios']):9d} "
              f"{found:5d} {shown:10d}")


def measure_movement(path: Path, positions: int = 12, each: int = 4) -> None:
    """Issue 3's figures: the time to judge a fleet move and a troop move, and to
    list the grouped alternatives, in the action turns of Poseidon and Ares of a
    game (each position and move judged once, in a fresh engine: nothing cached)."""
    from referee.api import Session
    from referee.engine import Engine

    transcript = read_transcript(path)
    session = Session(transcript)
    run = session.referee.run()
    rules = session.referee.rules
    states, after_moves = [], []
    for step in run.steps:
        if step.play and step.play.god in ("poseidon", "ares") and step.before not in states:
            states.append(step.before)
        if step.play and step.move.name in ("sail", "march") and step.after not in after_moves:
            after_moves.append(step.after)
    states = states[:positions]
    judge: dict[str, list[float]] = {"sail": [], "march": []}
    listing: list[float] = []
    for state in after_moves[:positions] or states:  # the alternatives after a movement
        session.referee.engine = Engine(rules.program_files)
        start = time.perf_counter()
        session.alternatives(state)
        listing.append(time.perf_counter() - start)
    for state in states:
        moves = [m for _, m in Engine(rules.program_files).legal_moves(rules.static, state) if m.name in judge]
        engine = Engine(rules.program_files)
        for name in judge:
            for move in [m for m in moves if m.name == name][:each]:
                start = time.perf_counter()
                engine.judge(rules.static, state, rules.control(state), move)
                judge[name].append(time.perf_counter() - start)
    name = path.name
    for kind, label in (("sail", "fleet move"), ("march", "troop move")):
        times = judge[kind]
        if times:
            print(f"{name}: judge a {label}: median {1000 * statistics.median(times):.1f} ms, "
                  f"p95 {1000 * percentile(times, 0.95):.1f} ms ({len(times)} moves)")
    if listing:
        print(f"{name}: list the alternatives after a fleet or troop move: median "
              f"{1000 * statistics.median(listing):.1f} ms, p95 {1000 * percentile(listing, 0.95):.1f} ms "
              f"({len(listing)} positions)")


if __name__ == "__main__":
    main()
