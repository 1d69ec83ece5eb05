"""``referee compare``: do two readings agree? (docs/translations.md)

The solver's search finds, within its default bounds, a witness for every
variant in which two readings differ, and each witness transcript parts the
readings when the referee checks it; two readings that differ in wording only
come out as agreeing; ``--transcripts`` replays transcripts under both readings
and lists the moves where they part.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main as referee_main
from referee.compare import compare_transcripts
from referee.readings import Reading, Readings, Variant, load_readings
from referee.search import compare_search

REPO = Path(__file__).resolve().parents[1]
READINGS = load_readings("cyclades")
WITNESSES = REPO / "transcripts" / "cyclades" / "readings"


@functools.lru_cache(maxsize=None)
def searched(a: str, b: str):
    return compare_search("cyclades", a, b)


@pytest.mark.parametrize("other", ["zh-000", "zh-001", "zh-003"])
def test_the_search_finds_every_variant_of_a_translation(other):
    """Each variant of the translation's reading is shown by a witness found
    within the default bounds, and replaying the witness transcript with the
    referee parts the two readings."""
    result = searched("en", other)
    assert not result.agree
    assert set(result.differing) == set(READINGS.active(other))
    found = {v for d in result.disagreements for v in d.variants if d.reproduced}
    assert found == set(READINGS.active(other))
    for d in result.disagreements:
        # the move found is the transcript's last line, or a step the referee makes after it
        assert d.transcript.splitlines()[-1] == d.move or d.move.startswith("(end the cycle")
        assert d.verdict_a != d.verdict_b or d.what == "effect"
    assert result.searched["variants without a scenario"] == []


def test_a_witness_transcript_is_reproduced_by_referee_check(tmp_path):
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
    result = compare_search("cyclades", "en", "en-reworded", readings=readings)
    assert result.searched["scenarios"] == ["apollo-turn"]
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
