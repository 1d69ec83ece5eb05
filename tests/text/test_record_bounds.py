"""A record past the bounds is refused while it is read, the bound named
(issue 30): a 100 MB file in well under a second and without reading it into
memory, a text of a million lines before it is parsed (it used to take the
parser minutes and gigabytes), a record of more lines than a game has at the
line past the bound, a record of more moves than the referee judges at the line
of the first move past the bound."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from collections import Counter

import pytest

from referee.base.errors import NotationError, RefereeError, SequenceError
from referee.game.notation import notation, parse_transcript, read_transcript
from referee.text import parser
from referee.text.parser import MAX_RECORD_BYTES, MAX_RECORD_LINES, MAX_RECORD_MOVES

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


def test_a_record_of_more_moves_than_the_referee_judges_is_refused_while_it_is_read():
    """50,000 moves in 5,000 lines, within the bounds on bytes and lines: refused at
    the line of move 2,001, before the lines after it are parsed (it took 11 s of
    parsing and 250 MB before the count)."""
    line = "Ann/Ares: " + "; ".join(["troop IS2 -> IS5"] * 10) + "\n"
    text = HEAD + line * 5_000
    assert len(text.encode()) <= MAX_RECORD_BYTES
    start = time.process_time()
    with pytest.raises(SequenceError, match=f"more than {MAX_RECORD_MOVES:,} moves by line 205") as refused:
        parse_transcript(text, "many.txt")
    assert time.process_time() - start < 2
    assert refused.value.position.line == HEAD.count("\n") + MAX_RECORD_MOVES // 10 + 1


def _records() -> list[Path]:
    return [p for p in sorted((ROOT / "transcripts").rglob("*.txt")) + sorted((ROOT / "tests").rglob("transcripts/*.txt"))
            if not p.name.endswith(".report.txt")]


def test_a_line_is_never_counted_more_moves_than_it_holds():
    """The moves counted while reading (each reader's ``moves_in``) are at most the
    moves read, in every shipped record of every game: a record the referee
    judges is never refused by the count."""
    counted = 0
    for path in _records():
        text = path.read_text(encoding="utf-8")
        try:
            transcript = parse_transcript(text, str(path))
        except RefereeError:  # the records shipped to be refused
            continue
        src = parser._Source(str(path), parser._normalise(text))
        reader = notation(transcript.header.game).reader
        lines = parser._parse_within_bound(notation(transcript.header.game), src).children
        by_line = Counter(play.span.line for play in transcript.plays)
        for line in lines:
            assert reader.moves_in(line) <= by_line[line.span.line], (path, line.span.line)
        counted += 1
    assert counted > 100


def test_a_long_record_is_read_in_pieces_as_it_is_read_whole(monkeypatch):
    """The lines are parsed a few at a time: the record read, and a syntax error's
    line and column, are the same as when the whole text is one piece."""
    text = (ROOT / "transcripts" / "cyclades" / "game-5p.txt").read_text(encoding="utf-8")
    whole = parse_transcript(text, "game-5p.txt")
    broken = text.replace("Dan: Apollo", "Dan: Apollo Apollo", 1)
    with pytest.raises(NotationError) as whole_error:
        parse_transcript(broken, "game-5p.txt")
    monkeypatch.setattr(parser, "PARSED_LINES", 7)
    assert parse_transcript(text, "game-5p.txt") == whole
    with pytest.raises(NotationError) as pieces_error:
        parse_transcript(broken, "game-5p.txt")
    assert str(pieces_error.value) == str(whole_error.value)
    assert pieces_error.value.position.line > 7
