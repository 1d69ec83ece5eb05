"""Fuzz the notation and the whole referee at scale: broken inputs must end in
a report or in a typed error, never in a traceback or a hang.

    python bench/fuzz.py --count 10000 --seed 1 --jobs 2
    python bench/fuzz.py --only 4711 --seed 1      # rerun one input here, show it

The generators, the outcomes and the options are tests/helpers/fuzz.py's (the
one copy, which tests/text/test_fuzz.py drives with hypothesis); this is its
command line.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers.fuzz import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
