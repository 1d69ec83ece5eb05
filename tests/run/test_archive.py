"""`referee check PATH...` on archives (docs/archives.md): records found in
folders, one line (or one JSON line) per record in the records' order, the
summary and the worst exit code; worker processes under a per-record time
bound; the archive report that an interrupted run resumes without losing or
overwriting anything; the same reports from a Dask cluster of two workers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.run.archive import SUMMARY_WIDTH, default_jobs, summary_text
from referee.run.records import find_records
from referee.run.verdicts import record_line
from referee.run.worker import RECORD_TIME_LIMIT

ROOT = Path(__file__).resolve().parents[2]
LUNA = ROOT / "transcripts" / "luna"
ILLEGAL = "illegal-out-of-turn.txt"  # 1 move, breaks setup_start_player and not_in_control
LEGAL = "disputed-occupy-tile.txt"  # 3 moves, legal, one disputed move
LONG = "game-4p.txt"  # 175 moves, legal: a record that takes a while


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def archive(tmp_path, monkeypatch):
    """A folder of records as a user keeps them: transcripts in sub-folders, an
    expected report beside one, a README, a broken record, a hidden folder."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "games"
    (root / "2024").mkdir(parents=True)
    (root / ".git").mkdir()
    shutil.copy(LUNA / ILLEGAL, root / "a-illegal.txt")
    shutil.copy(LUNA / (ILLEGAL[:-4] + ".report.txt"), root / "a-illegal.report.txt")
    (root / "a-illegal.en.report.txt").write_text("a reading's expected report\n", encoding="utf-8")
    shutil.copy(LUNA / LEGAL, root / "2024" / "b-legal.txt")
    (root / "2024" / "c-broken.txt").write_text("game: luna\nplayers: Ann\n", encoding="utf-8")
    (root / "README.txt").write_text("Our club's games, 2024.\n", encoding="utf-8")
    shutil.copy(LUNA / ILLEGAL, root / ".git" / "hidden.txt")
    return Path("games")


def lines_of(output: str) -> list[str]:
    return output.splitlines()


def test_records_are_the_transcripts_of_the_folders(archive):
    found = find_records([str(archive)])
    assert found.records == ["games/2024/b-legal.txt", "games/2024/c-broken.txt", "games/a-illegal.txt"]
    why = dict(found.skipped)
    assert why["games/a-illegal.report.txt"] == "an expected report"
    assert why["games/a-illegal.en.report.txt"] == "an expected report"
    assert why["games/README.txt"].startswith("not a transcript")
    assert not any(".git" in name for name in found.records + list(why))
    # a file named on the command line is a record whatever it holds; each record once
    found = find_records(["games/README.txt", "games", "games/2024/b-legal.txt"])
    assert found.records[0] == "games/README.txt"
    assert found.records.count("games/2024/b-legal.txt") == 1
    # the archive report is never a record, not even when named as one
    assert "games/a-illegal.txt" not in find_records(["games"], exclude=Path("games/a-illegal.txt")).records


def test_one_line_per_record_in_order_then_the_summary_and_the_worst_exit_code(archive):
    result = run("check", str(archive), "--jobs", "2")
    out = lines_of(result.output)
    assert out[0] == ("games/2024/b-legal.txt: legal (3 moves, rules: en); 1 disputed move explained")
    assert out[1].startswith("games/2024/c-broken.txt:2:")
    assert ": unreadable: error[notation]:" in out[1]
    # each illegal move under its most specific rule, the one its report names first (docs/report.md)
    assert out[2] == ("games/a-illegal.txt: ILLEGAL: 1 illegal move (setup_start_player), the first on line 10: "
                      "'recruit on 4' (1 move, rules: en)")
    assert out[3].startswith("checked 3 records, 4 moves, in ") and out[3].endswith(" with 2 jobs")
    assert out[4] == "  1 legal, 1 with illegal moves, 1 unreadable"
    assert out[5] == "  1 illegal move by rule: setup_start_player 1"
    assert out[6] == "  skipped .txt files: 2 expected reports, 1 not transcript (games/README.txt)"
    assert result.exit_code == 2  # the worst: a record that cannot be read
    # without the unreadable record, the worst is an illegal move
    assert run("check", "games/a-illegal.txt", "games/2024/b-legal.txt", "--jobs", "1").exit_code == 1
    assert run("check", "games/2024/b-legal.txt", "games/2024", "--jobs", "1").exit_code == 2


def test_a_single_file_keeps_its_report(monkeypatch):
    """One file is checked as before: the shipped expected report, byte for byte."""
    name = f"transcripts/luna/{ILLEGAL}"
    result = run("check", name)
    assert result.output == (LUNA / (ILLEGAL[:-4] + ".report.txt")).read_text(encoding="utf-8")
    assert result.exit_code == 1


def test_json_lines_one_report_per_record_then_the_summary(archive):
    result = run("check", str(archive), "--json", "--jobs", "2")
    entries = [json.loads(line) for line in result.output.splitlines()]
    assert [e.get("file") for e in entries[:3]] == [
        "games/2024/b-legal.txt", "games/2024/c-broken.txt", "games/a-illegal.txt"]
    legal, broken, illegal, summary = entries
    # a record's report is the one `referee check FILE --json` gives, with its hash and exit code
    alone = json.loads(run("check", "games/a-illegal.txt", "--json").output)
    assert {k: v for k, v in illegal.items() if k not in ("sha256", "exit", "seconds")} == alone
    assert illegal["exit"] == 1 and legal["exit"] == 0 and broken["exit"] == 2
    assert len(illegal["sha256"]) == 64
    assert broken["error"]["code"] == "notation" and broken["error"]["line"] == 2
    s = summary["summary"]
    assert (s["records"], s["moves"], s["legal"], s["illegal"], s["unreadable"]) == (3, 4, 1, 1, 1)
    assert s["illegal_moves_by_rule"] == {"setup_start_player": 1} and s["exit"] == 2
    assert [b["rule"] for b in illegal["problems"][0]["breaches"]] == ["setup_start_player", "not_in_control"]
    assert s["skipped"] == {"expected_reports": 2, "not_transcripts": ["games/README.txt"]}


def test_a_missing_path_is_an_unreadable_record(archive):
    result = run("check", "games/2024/b-legal.txt", "games/nowhere.txt", "--jobs", "1")
    assert "games/nowhere.txt: unreadable: error[file]: cannot read the transcript games/nowhere.txt" \
        in result.output
    assert result.exit_code == 2


def test_a_folder_without_transcripts_is_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("nothing\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code == 2
    assert "no transcripts found in . (1 .txt files that are not records skipped)" in result.stderr


#: Worker processes whose records named *-stuck.txt never end (a grounding that
#: does not stop) and whose records named *-crash.txt kill them (a crash in the solver).
UNLUCKY_WORKER = """if True:
    import os, time
    import referee.run.worker as archive
    from referee.run.bounded import serve
    check = archive.check_record
    def unlucky(name, data, options):
        if name.endswith("-stuck.txt"):
            time.sleep(3600)
        if name.endswith("-crash.txt"):
            os.kill(os.getpid(), 9)
        return check(name, data, options)
    archive.check_record = unlucky
    serve()
"""


@pytest.mark.slow
def test_a_stuck_or_crashing_record_holds_up_nothing(tmp_path, monkeypatch):
    """Past the per-record bound the record's worker is killed and replaced; a
    worker that dies is replaced too: the records after them, on the same single
    job, are judged."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("referee.run.bounded.CHILD", UNLUCKY_WORKER)
    for name, source in (("1-stuck.txt", LEGAL), ("2.txt", ILLEGAL), ("3-crash.txt", LEGAL), ("4.txt", LEGAL)):
        shutil.copy(LUNA / source, tmp_path / name)
    started = time.monotonic()
    result = run("check", ".", "--jobs", "1", "--record-time-limit", "8", "--json")
    assert time.monotonic() - started < 90
    stuck, second, crash, fourth, summary = [json.loads(line) for line in result.output.splitlines()]
    assert stuck["file"] == "./1-stuck.txt" and stuck["error"]["code"] == "record-time-limit"
    assert stuck["error"]["message"] == ("not judged: the record took longer than the bound of 8 s "
                                         "(--record-time-limit)")
    assert crash["error"]["code"] == "worker" and "killed by signal 9" in crash["error"]["message"]
    assert second["exit"] == 1 and fourth["exit"] == 0
    s = summary["summary"]
    assert (s["legal"], s["illegal"], s["not_judged"], s["failed"], s["exit"]) == (1, 1, 1, 1, 2)
    assert result.exit_code == 2
    assert record_line(stuck) == ("./1-stuck.txt: not judged: error[record-time-limit]: not judged: the record "
                                  "took longer than the bound of 8 s (--record-time-limit)")


def test_a_worker_grown_past_its_memory_bound_is_replaced(archive, monkeypatch):
    """A worker that has grown past its bound ends after answering, and the next
    record gets a fresh one: here the bound is 1 byte, so every record does."""
    from referee.run.bounded import BoundedWorker

    monkeypatch.setattr("referee.run.worker.WORKER_MEMORY", 1)
    monkeypatch.setattr("referee.run.worker.WORKER_GROWTH", 0)
    starts = []
    start = BoundedWorker.start
    monkeypatch.setattr(BoundedWorker, "start", lambda self: (starts.append(1), start(self))[1])
    result = run("check", str(archive), "--jobs", "1", "--json")
    entries = [json.loads(line) for line in result.output.splitlines()]
    assert [e["exit"] for e in entries[:3]] == [0, 2, 1]
    assert entries[1]["error"]["code"] == "notation"  # the broken record, not a worker's end
    assert len(starts) == 3


def test_the_archive_report_resumes_by_content(archive):
    report = Path("report.jsonl")
    first = run("check", str(archive), "-o", str(report), "--jobs", "2")
    assert first.exit_code == 2
    assert first.stdout.startswith("checked 3 records")  # the reports went to the file
    entries = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert entries[0]["referee_archive"] == 1 and entries[0]["options"]["strict"] is False
    assert sorted(e["file"] for e in entries[1:4]) == [
        "games/2024/b-legal.txt", "games/2024/c-broken.txt", "games/a-illegal.txt"]
    assert "summary" in entries[4]
    # a record changed, one added: only those two are checked again
    Path("games/2024/c-broken.txt").write_text((LUNA / LEGAL).read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copy(LUNA / ILLEGAL, "games/2024/d-new.txt")
    again = run("check", str(archive), "-o", str(report), "--json")
    summary = json.loads(again.output)["summary"]
    assert (summary["records"], summary["already_reported"], summary["legal"], summary["illegal"]) == (4, 2, 2, 2)
    assert summary["exit"] == 1
    lines = report.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 + 4  # appended: the run's line, two reports, the summary
    assert sorted(json.loads(line)["file"] for line in lines[6:8]) == ["games/2024/c-broken.txt",
                                                                        "games/2024/d-new.txt"]


def test_the_archive_report_is_its_owners_only_and_names_the_unreadable_records_on_screen(archive):
    result = run("check", str(archive), "-o", "report.jsonl", "--jobs", "1")
    assert result.exit_code == 2
    assert stat.S_IMODE(os.stat("report.jsonl").st_mode) == 0o600  # as a single record's -o file
    assert result.stdout.startswith("checked 3 records")
    assert result.stderr.startswith("games/2024/c-broken.txt:2:") and ": unreadable: error[" in result.stderr
    assert "games/a-illegal.txt" not in result.stderr  # in the report only: it was checked
    assert run("check", "games/a-illegal.txt", "-o", "one.txt").exit_code == 1
    assert stat.S_IMODE(os.stat("one.txt").st_mode) == 0o600


def test_the_count_by_rule_goes_on_as_many_lines_as_it_takes():
    by_rule = {f"a_rather_long_rule_id_{number}": 40 - number for number in range(40)}
    summary = {"summary": {"records": 40, "moves": 900, "seconds": 3.0, "workers": "2 jobs", "already_reported": 0,
                           "report": None, "legal": 0, "illegal": 40, "unreadable": 0, "not_judged": 0, "failed": 0,
                           "illegal_moves": sum(by_rule.values()), "illegal_moves_by_rule": by_rule,
                           "skipped": {"expected_reports": 0, "not_transcripts": []}}}
    lines = summary_text(summary).splitlines()
    counts = lines[2:]
    assert counts[0].startswith(f"  {sum(by_rule.values())} illegal moves by rule: a_rather_long_rule_id_0 40,")
    assert all(line.startswith("    a_rather_long_rule_id_") for line in counts[1:])
    assert all(len(line) <= SUMMARY_WIDTH for line in lines)
    assert ", ".join(line.strip() for line in counts).endswith("a_rather_long_rule_id_39 1")
    assert " ".join(counts).count("a_rather_long_rule_id_") == 40


def test_an_interrupted_line_is_cut_and_the_record_checked_again(archive):
    report = Path("report.jsonl")
    run("check", str(archive), "-o", str(report))
    whole = report.read_text(encoding="utf-8")
    torn = whole + '{"file": "games/a-illegal.txt", "sha256": "'  # a run killed while writing a line
    report.write_text(torn, encoding="utf-8")
    again = run("check", str(archive), "-o", str(report), "--json")
    assert json.loads(again.output)["summary"]["already_reported"] == 3
    text = report.read_text(encoding="utf-8")
    assert text.startswith(whole) and '"sha256": "\n' not in text
    assert all(json.loads(line) for line in text.splitlines())


def test_the_report_never_overwrites_what_is_not_its_own(archive):
    notes = Path("notes.jsonl")
    notes.write_text("my own notes, no newline at the end", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(archive), "-o", str(notes)])
    assert result.exit_code == 2
    assert "exists already and is not an archive report of the referee" in result.stderr
    assert notes.read_text(encoding="utf-8") == "my own notes, no newline at the end"
    # nor a transcript of the archive itself
    transcript = Path("games/a-illegal.txt").read_bytes()
    result = CliRunner().invoke(main, ["check", str(archive), "-o", "games/a-illegal.txt"])
    assert result.exit_code == 2 and "is not an archive report" in result.stderr
    assert Path("games/a-illegal.txt").read_bytes() == transcript
    # a report of other options is not mixed with this check's
    run("check", str(archive), "-o", "r.jsonl")
    before = Path("r.jsonl").read_bytes()
    result = CliRunner().invoke(main, ["check", str(archive), "-o", "r.jsonl", "--strict"])
    assert result.exit_code == 2 and "other options (strict)" in result.stderr
    assert Path("r.jsonl").read_bytes() == before
    # a single record keeps the promise of today: -o writes only a new file
    result = CliRunner().invoke(main, ["check", "games/a-illegal.txt", "-o", "r.jsonl"])
    assert result.exit_code == 2 and "exists already" in result.stderr
    assert Path("r.jsonl").read_bytes() == before


def test_interrupted_then_resumed_loses_nothing(tmp_path):
    """Ctrl-C (SIGINT to the command) ends the run with 130 and the reports done
    kept; the same command again checks only the rest."""
    folder = tmp_path / "games"
    folder.mkdir()
    for number in range(6):
        shutil.copy(LUNA / (LONG if number % 2 else ILLEGAL), folder / f"{number}.txt")
    report = tmp_path / "report.jsonl"
    command = [sys.executable, "-m", "referee", "check", str(folder), "-o", str(report), "--jobs", "1"]
    # as from a terminal: a test run started in the background (a shell's '&' without job
    # control) ignores Ctrl-C, and a child inherits that; the command must see it here
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not report.exists() or report.read_text().count("\n") < 2):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted after" in err and "the run again resumes there" in err
    kept = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:]]
    assert kept and all("file" in e for e in kept) and len(kept) < 6
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 1
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    reports = [e for e in lines if "file" in e]
    assert sorted({e["file"] for e in reports}) == sorted(str(folder / f"{n}.txt") for n in range(6))
    assert len(reports) == 6  # none checked twice
    assert lines[-1]["summary"]["already_reported"] == len(kept)
    assert lines[-1]["summary"]["records"] == 6


def test_progress_on_a_terminal_only(archive, tmp_path):
    piped = CliRunner().invoke(main, ["check", str(archive), "--jobs", "1"])
    assert "records/s" not in piped.stderr and "\r" not in piped.output
    import pty

    primary, secondary = pty.openpty()
    result = subprocess.run([sys.executable, "-m", "referee", "check", str(archive), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=secondary, timeout=120, cwd=os.getcwd())
    os.close(secondary)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(primary)
    assert b"checking" in seen and b"3/3" in seen
    assert b"records/s" in seen
    assert result.stdout.decode().startswith("games/2024/b-legal.txt: legal")


def test_options_documented():
    help_text = run("check", "--help").output
    assert f"(default {RECORD_TIME_LIMIT:g} s)" in help_text
    assert default_jobs() >= 1
    both = CliRunner().invoke(main, ["check", "transcripts", "--jobs", "2", "--cluster", "tcp://127.0.0.1:1"])
    assert both.exit_code == 2 and "give --jobs N or --cluster ADDRESS, not both" in both.stderr


@pytest.mark.slow
def test_a_cluster_of_two_workers_gives_the_same_reports(archive):
    """`--cluster` on a local Dask cluster (two worker processes): the same
    reports, in the same order, as `--jobs`."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_cluster = run("check", str(archive), "--json", "--cluster", cluster.scheduler_address)
    here = run("check", str(archive), "--json", "--jobs", "2")

    def reports(output):
        return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in output.splitlines()[:-1]]

    assert reports(on_cluster.output) == reports(here.output)
    assert on_cluster.exit_code == here.exit_code == 2
    assert json.loads(on_cluster.output.splitlines()[-1])["summary"]["workers"].startswith("the cluster at tcp://")


def test_an_unreachable_cluster_is_a_clear_error(archive, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("referee.run.cluster.CONNECT_TIMEOUT", 2)
    result = CliRunner().invoke(main, ["check", str(archive), "--cluster", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in result.stderr
