"""Benchmark: how long the referee takes, per move and per question, beside python-chess.

By default prints, in one run and side by side:

- the referee's cost per move on game-5p (reading the transcript and judging
  every move, in this process, judgement cache off): with the fast path, and
  with the solver deciding every step;
- python-chess's cost per move reading and validating random games (PGN text
  read with ``chess.pgn``, every move parsed and checked against the legal
  moves), and the ratio of the two (python-chess is the optional ``bench``
  extra: ``pip install -e '.[bench]'``);
- ``referee explain`` of game-5p's last move in a new process: with the
  judgement cache off (it judges the game up to that move), and after a
  ``referee check`` of the game (it reads the run and the judgements from the
  cache); then, right after a check, a move in the middle of the game (its
  alternatives listed by the solver), an illegal move of a record (its
  alternatives listed by the check), and ``referee moves`` of game-5p (where
  the record stops, also listed by the check); wall time, and the process's
  CPU time (on a shared machine the wall time waits for other processes);
- the archive figures of --archive, taken once: every shipped transcript in one
  ``referee check transcripts/`` with --jobs 1, --jobs 2 and on a local Dask
  cluster of two worker processes, with their peak memory against one check
  (``--no-archive`` leaves them out).

Each figure is the best of --repeat runs (default 3). The per-transcript table
(for every shipped transcript, or the files given, with --table) gives the
total check time with the fast path and with the solver only, their ratio, the
median and 95th-percentile time per move on each path (a move judged in a batch
costs nothing; the batch's solver call counts for the move that started it),
the number of solver calls on each path, and the time `explain` takes for the
transcript's last move in a new session and in one that has already checked it.

    python bench/bench.py                 # the summary above
    python bench/bench.py --table [FILE...] --repeat 5
    python bench/bench.py --movement [FILE...]   # judging fleet and troop moves (5p game)
    python bench/bench.py --game luna --table    # Luna's transcripts (its complete 4-player game among them)
    python bench/bench.py --compare       # `referee compare` (the solver's search) per pair of readings
    python bench/bench.py --archive [--per-file] [FOLDER]   # `referee check transcripts/` (or FOLDER): --jobs 1,
                                                   # --jobs 2, a local two-worker Dask cluster (and one process per file)
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["REFEREE_CACHE"] = "off"  # measured in this process: every judgement is made (new processes: explain_fresh)
GAME_5P = ROOT / "transcripts" / "cyclades" / "game-5p.txt"

from referee.ask.session import Session  # noqa: E402
from referee.game.notation import read_transcript  # noqa: E402
from referee.judge.visitor import Referee  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(path: Path, fast_path: bool, repeat: int) -> tuple[float, list[float], int]:
    transcript = read_transcript(path)
    best, per_move, calls = float("inf"), [], 0
    for _ in range(repeat):
        referee = Referee(transcript, fast_path=fast_path, cache=False)
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
        session = Session(transcript, cache=False)
        session.explain(move=last)
        cold = min(cold, time.perf_counter() - start)
        session = Session(transcript, cache=False)
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
    parser.add_argument("--archive", action="store_true",
                        help="only the archive throughput: every shipped transcript in one `referee check`, "
                             "with --jobs 1, --jobs 2 and a local two-worker cluster, side by side")
    parser.add_argument("--per-file", action="store_true",
                        help="with --archive: also one `referee check FILE` process per transcript (minutes)")
    parser.add_argument("--no-archive", action="store_true",
                        help="the summary without the archive figures (which take a minute or two)")
    parser.add_argument("--table", action="store_true",
                        help="the per-transcript table (every shipped transcript, or the files given)")
    parser.add_argument("--chess-games", type=int, default=200, help="random games for python-chess (default 200)")
    args = parser.parse_args()
    if args.archive:
        measure_archive(args.repeat, args.per_file, str(args.files[0]) if args.files else "transcripts")
        return
    if args.compare:
        measure_compare(args.repeat)
        return
    if args.movement:
        for path in args.files or [ROOT / "transcripts/cyclades/battles-5p.txt"]:
            measure_movement(path)
        return
    if not (args.table or args.files or args.game):
        summary(args.repeat, args.chess_games)
        if not args.no_archive:
            measure_archive(1, False)  # in the same run, side by side (--archive alone: --repeat runs of it)
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


def _clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    """(wall, CPU) seconds since ``start``: on a shared machine the wall time also
    waits for other processes, the CPU time is this process's own."""
    now = _clocks()
    return now[0] - start[0], now[1] - start[1]


def per_move(path: Path, fast_path: bool, repeat: int) -> tuple[tuple[float, float], int]:
    """Reading ``path`` and judging every move, in this process: best (wall, CPU)
    seconds, and the number of written moves."""
    best, moves = (float("inf"), float("inf")), 0
    for _ in range(repeat):
        start = _clocks()
        transcript = read_transcript(path)
        Referee(transcript, fast_path=fast_path, cache=False).run()
        best = min(best, _since(start), key=lambda x: x[1])
        moves = len(transcript.plays)
    return best, moves


def chess_per_move(games: int, repeat: int, seed: int = 16) -> tuple[tuple[float, float], int] | None:
    """python-chess reading and validating ``games`` random games (PGN text, each
    move parsed from its SAN and checked against the legal moves): best (wall,
    CPU) seconds per move, and the number of moves. None without python-chess."""
    try:
        import io

        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(seed)
    texts, moves = [], 0
    for _ in range(games):  # random legal games of up to 120 plies
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(120):
            legal = list(board.legal_moves)
            if not legal or board.is_game_over():
                break
            move = rng.choice(legal)
            node = node.add_variation(move)
            board.push(move)
            moves += 1
        texts.append(str(game))
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        start = _clocks()
        for text in texts:
            game = chess.pgn.read_game(io.StringIO(text))  # parses every SAN move against the position
            board = game.board()
            for move in game.mainline_moves():
                if move not in board.legal_moves:
                    raise AssertionError("an illegal move in a random game")
                board.push(move)
        best = min(best, _since(start), key=lambda x: x[1])
    return (best[0] / moves, best[1] / moves), moves


#: A record with an illegal move before its last (what a table asks about), and that move.
ILLEGAL_RECORD = ROOT / "transcripts" / "cyclades" / "hurried-retreat-before-round.txt"
ILLEGAL_MOVE = 76


def explain_fresh(repeat: int) -> dict[str, tuple[float, float]]:
    """`referee explain` in a new process: game-5p's last move with the judgement
    cache off, and after a `referee check` (a cache of its own, in a temporary
    folder); then, each time right after a check (a new cache each time: an
    explain keeps the alternatives it lists), a move in the middle of game-5p
    (legal: its alternatives are listed by the solver), an illegal move,
    whose alternatives the check lists, and `referee moves` of game-5p (where
    the record stops: listed by the check too). Best (wall seconds, CPU
    seconds) of ``repeat`` each. Compiled bytecode is allowed, as in an
    installed package."""
    last = len(read_transcript(GAME_5P).plays)
    cases = {"cold (no cache)": (GAME_5P, last, False), "after a check": (GAME_5P, last, True),
             f"move {last // 2}, after a check": (GAME_5P, last // 2, True),
             "an illegal move, after a check": (ILLEGAL_RECORD, ILLEGAL_MOVE, True),
             "`moves`, after a check": (GAME_5P, None, True)}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    found = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, (path, move, checked) in cases.items():
            question = ["explain", str(path), "--move", str(move)] if move is not None else ["moves", str(path)]
            command = [sys.executable, "-m", "referee", *question]
            best = (float("inf"), float("inf"))
            for attempt in range(repeat + 1):  # the first compiles the bytecode: not counted
                cache = str(Path(folder) / f"judgements-{len(found)}-{attempt}.sqlite")
                run_env = dict(env, REFEREE_CACHE=cache if checked else "off")
                if checked:
                    subprocess.run([sys.executable, "-m", "referee", "check", str(path)], env=run_env, cwd=ROOT,
                                   capture_output=True, check=False)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run(command, env=run_env, cwd=ROOT, capture_output=True)
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if done.returncode not in (0, 1):
                    raise RuntimeError(done.stderr.decode())
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                if attempt:
                    best = min(best, (wall, cpu), key=lambda x: x[1])
            found[label] = best
    return found


def summary(repeat: int, chess_games: int) -> None:
    """The figures of the module's text, wall and CPU (the run with the least CPU of ``repeat``)."""
    fast, moves = per_move(GAME_5P, True, repeat)
    slow, _ = per_move(GAME_5P, False, repeat)
    print(f"referee, game-5p ({moves} moves, read and judged in this process)   wall / CPU")
    for label, (wall, cpu) in (("fast path", fast), ("solver only", slow)):
        print(f"  {label:12} {wall:7.3f} s / {cpu:6.3f} s   {1e6 * wall / moves:7.0f} / {1e6 * cpu / moves:6.0f} us per move")
    chess_cost = chess_per_move(chess_games, repeat)
    if chess_cost is None:
        print("python-chess: not installed (pip install -e '.[bench]')")
    else:
        (wall, cpu), count = chess_cost
        print(f"python-chess, {chess_games} random games ({count} moves, read from PGN and validated)")
        print(f"  {1e6 * wall:7.1f} / {1e6 * cpu:6.1f} us per move (wall / CPU)")
        print(f"  the referee per move, in CPU: {fast[1] / moves / cpu:5.0f}x python-chess with the fast path, "
              f"{slow[1] / moves / cpu:5.0f}x with the solver only")
    print(f"referee explain in a new process: game-5p's last move; then its move in the middle, an illegal "
          f"move of {ILLEGAL_RECORD.name}, and `referee moves` of game-5p, each right after a check")
    for label, (wall, cpu) in explain_fresh(repeat).items():
        print(f"  {label:31} {1000 * wall:7.0f} ms wall  {1000 * cpu:6.0f} ms CPU")


def measure_compare(repeat: int) -> None:
    """The solver's search of `referee compare` for every pair of Cyclades readings
    (default bounds), best of ``repeat``: seconds, scenarios, disagreements found."""
    import itertools

    from referee.compare.search import compare_search
    from referee.game.readings import load_readings

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
    from referee.ask.session import Session
    from referee.judge.engine import Engine

    transcript = read_transcript(path)
    session = Session(transcript)
    run = session.referee.run()
    rules = session.referee.rules
    states, after_moves = [], []
    for step in run.steps:
        if step.play and step.play.group in ("poseidon", "ares") and step.before not in states:
            states.append(step.before)
        if step.play and step.move.name in ("sail", "march") and step.after not in after_moves:
            after_moves.append(step.after)
    states = states[:positions]
    judge: dict[str, list[float]] = {"sail": [], "march": []}
    listing: list[float] = []
    for state in after_moves[:positions] or states:  # the alternatives after a movement
        session.referee.engine = Engine(session.referee.engine.program_files)
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


def _tree_peak(command: list[str]) -> tuple[float, int, int, int, float, int]:
    """Run ``command`` (cwd: the repository); wall seconds, exit code, the peak,
    sampled every 20 ms, of the summed RSS of the process and its children and of
    the largest single process among them (bytes), the CPU seconds (user +
    system) of the process and the children it waited for (its workers), and the
    peak of the summed PSS (shared pages, such as clingo's library, split between
    the processes that map them)."""
    import subprocess

    import psutil

    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    root = psutil.Process(process.pid)
    total = single = proportional = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        try:
            sizes, shares = [], []
            for p in [root] + root.children(recursive=True):
                try:
                    full = p.memory_full_info()
                    sizes.append(full.rss)
                    shares.append(full.pss)
                except psutil.Error:
                    pass
            total, single = max(total, sum(sizes)), max(single, max(sizes, default=0))
            proportional = max(proportional, sum(shares))
        except psutil.Error:
            pass
        time.sleep(0.02)
    process.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - start, process.returncode, total, single, usage.ru_utime + usage.ru_stime,
            proportional)


def measure_archive(repeat: int, per_file: bool, folder: str = "transcripts") -> None:
    """Issue 16's archive figures, in one run: every shipped transcript checked by
    one `referee check transcripts/` with --jobs 1, --jobs 2 and on a local Dask
    cluster of two worker processes (the cluster started before, as a running one
    is), taken in turn ``repeat`` times (the median: the machine is shared); the
    peak memory of the process tree against one check of game-5p; and with
    ``per_file`` one `referee check FILE` process per transcript, as before archives.
    ``folder``: another folder of the repository instead (transcripts/luna: a quick run)."""
    import shutil

    from distributed import LocalCluster

    from referee.run.records import find_records

    referee = [shutil.which("referee") or "referee"]
    records = find_records([str(ROOT / folder)]).records
    one = _tree_peak(referee + ["check", "transcripts/cyclades/game-5p.txt"])
    runs: dict[str, list] = {"--jobs 1": [], "--jobs 2": [], "cluster (2 workers)": []}
    # silence_logs: a worker's heartbeat that meets the scheduler already closed at the
    # end logs a traceback (a shutdown race in distributed), which is not a result
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster:
        commands = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
                    "cluster (2 workers)": ["--cluster", cluster.scheduler_address]}
        for _ in range(repeat):
            for label, extra in commands.items():
                runs[label].append(_tree_peak(referee + ["check", folder] + extra))
    base = statistics.median(r[0] for r in runs["--jobs 1"])
    print(f"archive: {len(records)} transcripts of {folder}/; median of {repeat} runs taken in turn; "
          f"one check of game-5p: {one[0]:.2f} s, {one[4]:.2f} s CPU, peak RSS {one[2] / 2**20:.0f} MB "
          f"(PSS {one[5] / 2**20:.0f} MB)")
    print(f"{'command':28} {'wall s':>7} {'records/s':>9} {'vs --jobs 1':>11} {'CPU s':>6} {'peak RSS sum MB':>15} "
          f"{'x one check':>11} {'PSS sum MB':>10} {'largest MB':>10}")
    rows = list(runs.items())
    if per_file:
        start = time.perf_counter()
        peak = cpu = shared = 0
        for name in records:
            figures = _tree_peak(referee + ["check", os.path.relpath(name, ROOT)])
            peak, cpu, shared = max(peak, figures[2]), cpu + figures[4], max(shared, figures[5])
        rows.insert(0, ("one process per file", [(time.perf_counter() - start, 0, peak, peak, cpu, shared)]))
    for label, values in rows:
        seconds = statistics.median(v[0] for v in values)
        total = max(v[2] for v in values)
        single = max(v[3] for v in values)
        cpu = statistics.median(v[4] for v in values)
        shared = max(v[5] for v in values)
        note = " (the workers' CPU and memory are the cluster's, not counted)" if label.startswith("cluster") else ""
        print(f"{label:28} {seconds:7.1f} {len(records) / seconds:9.2f} {base / seconds:10.2f}x {cpu:6.1f} "
              f"{total / 2**20:15.0f} {total / one[2]:10.2f}x {shared / 2**20:10.0f} {single / 2**20:10.0f}{note}")


if __name__ == "__main__":
    main()
