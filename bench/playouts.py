"""Random playouts at scale: complete games of every player count played by
choosing among the referee's listed legal moves (seeded), each written as a
record and read back on the fast path and by the solver alone.

    python bench/playouts.py --games 25 --seed 1 --jobs 2          # 25 games of each count, both games
    python bench/playouts.py --game cyclades --players 5 --seed 17 --games 1 --save out/   # one game again

A failing game prints its seed; the same seed plays the same game. The generator
and the reading back are tests/helpers/playouts.py's (the one copy, which the
tests in tests/games/*/ run on short games); this is its command line.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers.playouts import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
