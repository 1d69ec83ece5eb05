"""``referee compare``: do two readings agree? (docs/translations.md)

The solver's search finds, within its default bounds, a witness for every
variant in which two readings differ, and each witness transcript parts the
readings when the referee checks it; two readings that differ in wording only
come out as agreeing; ``--transcripts`` replays transcripts under both readings
and lists the moves where they part.
"""

from __future__ import annotations

import fcntl
import functools
import io
import json
import os
import pickle
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.base.terms import Fn, fn
from referee.cli import main as referee_main
from referee.compare.search import compare_search
from referee.compare.transcripts import compare_transcripts
from referee.compare.witnesses import flipped, parts, play, up_to
from referee.game.readings import Reading, Readings, Variant, load_readings

REPO = Path(__file__).resolve().parents[2]
READINGS = load_readings("cyclades")
WITNESSES = REPO / "transcripts" / "cyclades" / "readings"


@pytest.fixture(scope="session")
def searched(tmp_path_factory):
    """``compare_search`` for a pair of readings (3-13 s), made once per test run:
    under pytest-xdist the first worker to ask keeps the result in the run's
    shared temporary folder and the others read it back (its terms rebuilt with
    ``fn``, so that no process's string hashes travel); alone, once per process."""
    shared = tmp_path_factory.getbasetemp().parent if os.environ.get("PYTEST_XDIST_WORKER") else None

    @functools.lru_cache(maxsize=None)
    def search(a: str, b: str):
        if shared is None:
            return compare_search("cyclades", a, b)
        with open(shared / f"search-{a}-{b}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker making this search: wait for it
            kept = shared / f"search-{a}-{b}.pickle"
            if kept.exists():
                return pickle.loads(kept.read_bytes())
            result = compare_search("cyclades", a, b)
            out = io.BytesIO()
            pickler = pickle.Pickler(out)
            pickler.dispatch_table = {Fn: lambda term: (fn, (term.name, *term.args))}
            pickler.dump(result)
            kept.write_bytes(out.getvalue())
            return result

    return search


@pytest.mark.slow
@pytest.mark.parametrize("other", ["zh-000", "zh-001", "zh-003"])
def test_the_search_finds_attributes_and_witnesses_every_variant_of_a_translation(other, searched):
    """The three walks of one search (3-13 s each: one test, so that no other
    test process searches the same pair again)."""
    result = searched("en", other)
    _the_search_finds_every_variant(result, other)
    for d in result.disagreements:
        a = play(d.transcript, _pair(result)[0], READINGS, _closes(d))
        b = play(d.transcript, _pair(result)[1], READINGS, _closes(d))
        _the_witness_is_attributed_to_the_variant_whose_removal_makes_it_vanish(result, d, a)
        _the_witness_s_set_up_is_legal_under_both(result, d, a, b)
    labels = [d.variants for d in result.disagreements]  # witnesses are not repeated
    assert len(labels) == len(set(labels))
    assert len({d.transcript for d in result.disagreements}) == len(labels)


def _the_search_finds_every_variant(result, other):
    """Each variant of the translation's reading is shown by a witness found
    within the default bounds, and replaying the witness transcript with the
    referee parts the two readings."""
    assert not result.agree
    assert set(result.differing) == set(READINGS.active(other))
    found = {v for d in result.disagreements for v in d.variants if d.reproduced}
    assert found == set(READINGS.active(other))
    for d in result.disagreements:
        # the move found is the transcript's last line, or a step the referee makes after it, or a
        # following line judged where it is written, before the line that comes first under one reading
        assert (d.transcript.splitlines()[-1] == d.move or d.move.startswith("(end the cycle")
                or (d.move in d.follow and d.move in d.transcript.splitlines()[:-1]))
        assert d.verdict_a != d.verdict_b or d.what == "outcome"  # a different winner (rule end_of_game)
    assert result.searched["variants without a scenario"] == []


def _pair(result):
    return (result.reading_a, result.variants_a), (result.reading_b, result.variants_b)


def _closes(d) -> bool:
    return d.move.startswith("(end the cycle")


def _the_witness_is_attributed_to_the_variant_whose_removal_makes_it_vanish(result, d, a):
    """Issue 18 §3: replaying a witness under the compared pair parts them
    (``a``: under the first); with its variant switched back in the
    translation's reading, the two agree."""
    for v in d.variants:
        assert v in result.differing
        without = play(d.transcript, flipped(_pair(result)[1], v), READINGS, _closes(d))
        assert parts(a, without, _closes(d)) in ("", "effect"), (v, d.transcript)


def _the_witness_s_set_up_is_legal_under_both(result, d, a, b):
    """One witness per variant; every move before the last is legal under both
    readings; the last written move's verdict differs (or, at the end of the
    game, the winner); what differs is said in words, naming both readings. A
    witness may show it at a line before its last one (a line written before the
    one that comes first under one reading, judged where it is written)."""
    shown = len(d.outcome_a.verdicts)
    shown_earlier = len(a.verdicts) > shown
    a, b = up_to(a, shown), up_to(b, shown)
    assert parts(a, b, _closes(d)) in ("verdict", "outcome"), d.transcript
    for o in (d.outcome_a, d.outcome_b):  # as settled; re-checked independently below
        assert o.setup_legal, d.transcript
    assert a.setup_legal and b.setup_legal, d.transcript
    if _closes(d):  # rule end_of_game: who wins, stated when the cycle ends
        assert a.outcome != b.outcome
    else:
        assert d.transcript.splitlines()[-1] == d.move or (shown_earlier and d.move in d.transcript.splitlines())
        assert a.last() != b.last() or a.error != b.error
    assert f"under {result.reading_a}" in d.said and f"under {result.reading_b}" in d.said


def test_the_retreat_order_and_the_harpy_are_shown_by_a_following_move(searched):
    """loser_decides_first (seed 001) changes who decides first after a round, and
    harpy_replaces_troop (seed 000) who holds the island: the round and the Harpy
    are legal under both readings, and a following move shows the difference."""
    harpy = next(d for d in searched("en", "zh-000").disagreements if d.variants == ("harpy_replaces_troop",))
    assert harpy.follow and harpy.found_move.startswith("Ann/Ares: buy Harpy: troop IS")
    island = harpy.found_move.rsplit(" ", 1)[-1]
    assert harpy.move == f"Ann/Ares: troop on {island}"  # rule recruit_troop_place: on an island she holds
    assert harpy.verdict_a == ("recruit_troop_place",) and harpy.verdict_b == ()
    order = next(d for d in searched("en", "zh-001").disagreements if d.variants == ("loser_decides_first",))
    assert order.follow and order.found_move.startswith("battle:")
    # rule battle_retreat: after the round Ann (the attacker) lost, en has Bob (the defender) decide first;
    # under zh-001 Ann decides first, so Bob's line, written before hers, is out of turn where it is written
    # (then taken after hers): the witness shows it at Bob's line, the one that comes before Ann's
    assert order.move.startswith("Bob: ") and order.transcript.splitlines()[-1].startswith("Ann: ")
    assert order.verdict_a == () and "not_in_control" in order.verdict_b


def test_the_marker_island_witness_is_not_labelled_as_the_retreat_order(searched):
    """A retreat to an island held only by a territory marker parts en and zh-001
    through territory_marker_income_only, not loser_decides_first."""
    result = searched("en", "zh-001")
    for d in result.disagreements:
        if d.variants == ("loser_decides_first",):
            without = play(d.transcript, flipped(_pair(result)[1], "territory_marker_income_only"), READINGS)
            a = play(d.transcript, _pair(result)[0], READINGS)
            assert a.verdicts != without.verdicts  # the order alone still parts them
    marker = [d for d in result.disagreements if "territory_marker_income_only" in d.variants]
    assert len(marker) == 1


def test_a_witness_transcript_is_reproduced_by_referee_check(tmp_path, searched):
    """The witness of Apollo's optional marker (seed 000): `referee check --rules`
    gives both verdicts."""
    result = searched("en", "zh-000")
    witness = next(d for d in result.disagreements if d.variants == ("apollo_marker_optional",))
    path = tmp_path / "witness.txt"
    path.write_text(witness.transcript, encoding="utf-8")
    en = CliRunner().invoke(referee_main, ["check", "--rules", "en", str(path)])
    zh = CliRunner().invoke(referee_main, ["check", "--rules", "zh-000", str(path)])
    assert en.exit_code == 1 and "apollo_prosperity_missing" in en.stdout
    assert zh.exit_code == 0 and "every move is legal" in zh.stdout


@pytest.mark.slow
def test_readings_that_differ_in_wording_only_agree():
    """A reading whose variant modules say rule apollo_prosperity_island in other
    words (the default switched off, the same condition written anew) agrees
    with 'en' everywhere the search looks."""
    reworded = Variant("apollo_island_reworded", "the same rule reworded", ("apollo_prosperity_island",), False,
                       "an island the player controls", "an island with their troops or marker", (),
                       REPO / "tests" / "data" / "readings" / "apollo_island_reworded.lp")
    readings = Readings("cyclades",
                        {"en": Reading("en", "", ()),
                         "en-reworded": Reading("en-reworded", "", ("apollo_marker_any_island", "apollo_island_reworded"))},
                        {**READINGS.variants, "apollo_island_reworded": reworded})
    calls = []
    result = compare_search("cyclades", "en", "en-reworded", readings=readings,
                            progress=lambda *args: calls.append(args))
    assert result.searched["scenarios"] == ["apollo-turn"]
    # the progress line's figures: searches done of all, differences found, seconds left at most
    assert calls and calls[-1][:3] == (calls[-1][1], calls[-1][1], 0) and calls[-1][3] == 0
    assert result.agree and result.disagreements == []
    # ...while the variant alone, without the rewording, is found at once
    readings.readings["zh-any"] = Reading("zh-any", "", ("apollo_marker_any_island",))
    assert not compare_search("cyclades", "en", "zh-any", readings=readings).agree


def test_compare_transcripts_lists_the_moves_where_the_readings_part():
    paths = [WITNESSES / "priests-off-total-2p.txt", WITNESSES / "apollo-marker-optional.txt"]
    result = compare_transcripts("cyclades", "en", "zh-003", paths)
    by_path = {Path(t.path).name: t for t in result.transcripts}
    priests = by_path["priests-off-total-2p.txt"]
    assert [(p.number, p.what, p.verdict_a, p.verdict_b) for p in priests.parts] == \
           [(27, "verdict", (), ("offering_affordable",))]
    assert by_path["apollo-marker-optional.txt"].agree  # zh-003 requires the marker too
    data = json.loads(json.dumps(result.to_json()))
    assert data["mode"] == "transcripts" and data["agree"] is False


def test_compare_command_line(tmp_path):
    only = str(WITNESSES / "apollo-marker-optional.txt")
    out = CliRunner().invoke(referee_main, ["compare", "cyclades", "--rules", "en", "--rules", "zh-000",
                                            "--transcripts", "--only", only])
    assert out.exit_code == 1 and "verdicts part (en: illegal (apollo_prosperity_missing); zh-000: legal)" in out.stdout
    bad = CliRunner().invoke(referee_main, ["compare", "cyclades", "--rules", "en"])
    assert bad.exit_code == 2 and "give two readings" in bad.stderr
    bad = CliRunner().invoke(referee_main, ["compare", "cyclades", "--rules", "en", "--rules", "zh-9"])
    assert bad.exit_code == 2 and "unknown rules reading 'zh-9'" in bad.stderr


# -- the translation report (issue 18 §3) ------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


def test_the_text_output_is_grouped_by_topic_in_plain_words(searched):
    """No snake_case ids, 'free facts' or 'rule blocks' before the 'id:' trailers;
    each difference under its topic, with the sentences that cause it."""
    from referee.compare.report import to_text

    text = to_text(searched("en", "zh-001"))
    main = "\n".join(line for line in text.splitlines() if not line.strip().startswith("id:"))
    assert "free facts" not in main and "rule block" not in main
    assert not re.findall(r"\b[a-z]+_[a-z0-9_]+\b", main)  # no snake_case id outside the trailers
    for topic in ("Battles", "Creatures", "Movement"):
        assert f"\n{topic}\n" in text
    assert "此时败方若有撤退路径可选择撤退" in text  # seed 001's sentence of loser_decides_first
    assert text.count("  id: ") == len(READINGS.active("zh-001"))


def test_report_option_writes_a_new_file_only(tmp_path):
    """--report refuses an existing file or an unknown kind before searching."""
    existing = tmp_path / "r.html"
    existing.write_text("mine", encoding="utf-8")
    out = CliRunner().invoke(referee_main, ["compare", "cyclades", "--rules", "en", "--rules", "zh-001",
                                            "--report", str(existing)])
    assert out.exit_code == 2 and "exists already" in out.stderr
    assert existing.read_text(encoding="utf-8") == "mine"
    out = CliRunner().invoke(referee_main, ["compare", "cyclades", "--rules", "en", "--rules", "zh-001",
                                            "--report", str(tmp_path / "r.pdf")])
    assert out.exit_code == 2 and ".html or .htm or .md" in out.stderr


def test_the_markdown_report_has_every_witness(searched):
    from referee.compare.report import to_markdown

    result = searched("en", "zh-003")
    text = to_markdown(result)
    assert text.count("<svg") == len(result.disagreements)
    assert "每位玩家必须能够支付他所选择两位神明的全部成本" in text  # seed 003's sentence of priests_off_total_2p
    assert "## Offerings" in text


def test_the_html_report_renders_in_chromium(tmp_path, searched):
    """The HTML report in headless Chromium: it renders, every witness has its
    board picture, the Chinese sentences are there."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install Debian's chromium (.ci/run does)")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    from referee.compare.report import to_html

    result = searched("en", "zh-001")
    path = tmp_path / "report.html"
    path.write_text(to_html(result), encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.goto(path.as_uri())
            sections = page.locator("section.witness")
            assert sections.count() == len(result.disagreements) == len(READINGS.active("zh-001"))
            for i in range(sections.count()):
                svg = sections.nth(i).locator("figure.position svg")
                assert svg.count() == 1
                box = svg.bounding_box()
                assert box and box["width"] > 100 and box["height"] > 100  # drawn, not empty
            body = page.locator("body").inner_text()
            assert "此时败方若有撤退路径可选择撤退" in body
            assert "The English rule" in body
        finally:
            browser.close()


def test_the_shipped_example_is_current(tmp_path, searched):
    """docs/examples/compare-en-zh-001.html is what tools/compare_example.py
    writes from today's search (regenerated into a temporary folder here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("compare_example", REPO / "tools" / "compare_example.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    fresh = tmp_path / "compare-en-zh-001.html"
    fresh.write_text(tool.render(searched(*tool.PAIR[1:])), encoding="utf-8")
    assert tool.EXAMPLE.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8"), \
        "docs/examples/compare-en-zh-001.html is not current: run python tools/compare_example.py"
