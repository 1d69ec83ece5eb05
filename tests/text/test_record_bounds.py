"""A record past the bounds is refused while it is read, the bound named
(issue 30): a 100 MB file in well under a second and without reading it into
memory, a text of a million lines before it is parsed (it used to take the
parser minutes and gigabytes), a record of more lines than a game has at the
line past the bound."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.base.errors import NotationError
from referee.game.notation import parse_transcript, read_transcript
from referee.text.parser import MAX_RECORD_BYTES, MAX_RECORD_LINES

ROOT = Path(__file__).resolve().parents[2]
HEAD = "game: cyclades\nplayers: Ann red, Bob blue\n\ncycle 1\n"
#: `referee ARGS...` in this process, printing its own peak memory last.
MEASURED = """import resource, runpy, sys
sys.argv = ["referee", *sys.argv[1:]]
try:
    runpy.run_module("referee", run_name="__main__")
except SystemExit as end:
    code = end.code
use = resource.getrusage(resource.RUSAGE_SELF)
# the peak of this program's own memory (ru_maxrss would count the parent's at the fork)
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
sys.stderr.write(f"\\ncpu-s {use.ru_utime + use.ru_stime} peak-rss-kb {peak}")
sys.exit(code)
"""


def test_a_100_mb_file_is_refused_in_a_moment_and_never_read_whole(tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.write(HEAD.encode())
        f.truncate(100 * 1024 * 1024)  # 100 MB (sparse: nothing for the test to write)
    done = subprocess.run([sys.executable, "-c", MEASURED, "check", str(huge)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    cpu, peak_kb = done.stderr.rsplit("cpu-s ", 1)[1].split(" peak-rss-kb ")
    seconds, peak_mb = float(cpu), int(peak_kb) / 1024  # CPU time: what a loaded machine does not change
    assert done.returncode == 2, done.stderr
    assert f"at most {MAX_RECORD_BYTES:,} bytes" in done.stdout + done.stderr
    assert "104,857,600 bytes" in done.stdout + done.stderr
    assert seconds < 2 and peak_mb < 100, (seconds, peak_mb)  # a new process: its start is most of it


def test_a_text_of_a_million_short_lines_is_refused_before_it_is_parsed():
    text = HEAD + "Ann: 1 on Zeus\n" * 1_400_000  # 21 MB, as a service or a library might be handed it
    start = time.monotonic()
    with pytest.raises(NotationError, match=f"at most {MAX_RECORD_BYTES:,} bytes"):
        parse_transcript(text, "long.txt")
    assert time.monotonic() - start < 1


def test_a_record_of_more_lines_than_a_game_has_is_refused_at_the_line_past_the_bound(tmp_path):
    record = tmp_path / "comments.txt"
    record.write_text(HEAD + "#\n" * MAX_RECORD_LINES, encoding="utf-8")  # 20 KB: within the bytes bound
    with pytest.raises(NotationError, match=f"more than {MAX_RECORD_LINES:,} lines") as refused:
        read_transcript(record)
    assert refused.value.position.line == MAX_RECORD_LINES + 1


def test_an_archive_names_a_record_past_the_bound_and_judges_the_others(tmp_path):
    (tmp_path / "a-huge.txt").write_bytes(HEAD.encode() + b"#" * (MAX_RECORD_BYTES + 1) + b"\n")
    (tmp_path / "b-game.txt").write_text((ROOT / "transcripts" / "cyclades" / "illegal-outbid-too-low.txt")
                                         .read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "check", str(tmp_path), "--jobs", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any("a-huge.txt" in l and f"at most {MAX_RECORD_BYTES:,} bytes" in l for l in lines), done.stdout
    assert any("b-game.txt" in l and "illegal" in l for l in lines), done.stdout
