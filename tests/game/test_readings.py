"""The rules readings of the three Cyclades translations (docs/translations.md):
the readings data, every variant's witness transcript checked under both of its
readings, and the fast path and speculation model under each reading.

A witness transcript (transcripts/cyclades/readings/X.txt) names its variant
(``# Witness: variant <id>``) and two readings (``# Readings: en, zh-003``);
``X.<reading>.report.txt`` and ``X.<reading>.exit`` hold what ``referee check
--rules <reading>`` prints and returns (tools/update_expected.py writes them).
"""

from __future__ import annotations

import contextlib
import functools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.replays import sylph_route

from referee.base.terms import Fn, fn
from referee.cli import main as referee_main
from referee.game.catalogue import load_catalogue
from referee.game.notation import read_transcript
from referee.game.readings import load_readings
from referee.judge.engine import Engine
from referee.judge.visitor import Referee

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
WITNESS_DIR = REPO / "transcripts" / "cyclades" / "readings"
READINGS = load_readings("cyclades")


def _header(path: Path) -> tuple[str, list[str]]:
    """(variant id, readings) of a witness: '# Witness: variant <id>', or '# Witness:
    translation defect <id>' for a reading judged no rule difference (docs/translations.md)."""
    text = path.read_text(encoding="utf-8")
    variant = re.search(r"^# Witness: (?:variant|translation defect) (\w+)", text, re.M)
    readings = re.search(r"^# Readings: (.+)$", text, re.M)
    assert variant and readings, f"{path.name}: no '# Witness: variant' or '# Readings:' line"
    return variant.group(1), [r.strip() for r in readings.group(1).split(",")]


def _defect(path: Path) -> bool:
    return bool(re.search(r"^# Witness: translation defect ", path.read_text(encoding="utf-8"), re.M))


WITNESSES = sorted(p for p in WITNESS_DIR.glob("*.txt") if not p.name.endswith(".report.txt"))
VARIANT_WITNESSES = [p for p in WITNESSES if not _defect(p)]
#: Readings of a single word judged translation defects (issue 18): once variants, now no rule.
DEFECT_WITNESSES = [p for p in WITNESSES if _defect(p)]
WITNESS_OF = {_header(p)[0]: p for p in VARIANT_WITNESSES}


@functools.lru_cache(maxsize=None)
def cli_check(path: Path, reading: str) -> tuple[str, int]:
    with contextlib.chdir(REPO):
        result = CliRunner().invoke(referee_main, ["check", "--rules", reading, path.relative_to(REPO).as_posix()])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.stdout, result.exit_code


# -- the readings data ---------------------------------------------------------------------

def test_the_readings_are_the_catalogue_readings():
    assert set(READINGS.names) == set(load_catalogue("cyclades").readings)


def test_each_variant_has_a_module_its_rules_and_a_witness():
    catalogue = load_catalogue("cyclades")
    used = {v for r in READINGS.readings.values() for v in r.variants}
    for vid, variant in READINGS.variants.items():
        assert vid in used, f"variant {vid} is in no reading"
        assert f"% --- Variant {vid} " in variant.module.read_text(encoding="utf-8")
        assert all(rule in catalogue for rule in variant.rules), variant.rules
        assert vid in WITNESS_OF, f"variant {vid} has no witness transcript in {WITNESS_DIR}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds are outside the repository (../shared/seeds)")
def test_each_variant_quotes_its_seed_exactly():
    for vid, variant in READINGS.variants.items():
        for source in variant.sources:
            text = (SEEDS / source.file).read_text(encoding="utf-8")
            assert source.zh in text, f"variant {vid}: the sentence is not in seed {source.seed}"
            reading = f"zh-{source.seed}"
            assert vid in READINGS.active(reading), f"variant {vid} cites seed {source.seed}, not in {reading}"


def test_referee_rules_lists_the_readings_with_provenance():
    result = CliRunner().invoke(referee_main, ["rules", "cyclades"])
    assert result.exit_code == 0
    for name, reading in READINGS.readings.items():
        assert f"\n{name}: " in result.stdout
    for vid, variant in READINGS.variants.items():
        assert f"variant {vid}:" in result.stdout
        assert " ".join(variant.sources[0].zh.split()) in result.stdout
    bad = CliRunner().invoke(referee_main, ["rules", "chess"])
    assert bad.exit_code == 2 and "unknown game 'chess'" in bad.stderr


def test_an_unknown_reading_is_a_clear_error():
    path = WITNESSES[0]
    result = CliRunner().invoke(referee_main, ["check", "--rules", "zh-999", str(path)])
    assert result.exit_code == 2 and "unknown rules reading 'zh-999'" in result.stderr


# -- the witnesses -----------------------------------------------------------------------------

@pytest.mark.parametrize("path", VARIANT_WITNESSES, ids=[p.stem for p in VARIANT_WITNESSES])
def test_witness_reports_match_and_the_readings_part(path):
    """Each variant's witness is judged differently under its two readings; each
    report is the expected one, and names the reading."""
    variant, readings = _header(path)
    assert len(readings) == 2 and variant not in READINGS.active(readings[0])
    assert variant in READINGS.active(readings[1])
    results = {}
    for reading in readings:
        text, code = cli_check(path, reading)
        stem = path.name[: -len(".txt")] + f".{reading}"
        assert text == path.with_name(stem + ".report.txt").read_text(encoding="utf-8")
        assert code == int(path.with_name(stem + ".exit").read_text(encoding="utf-8"))
        if code != 2:
            assert f"(rules: {reading})" in text
        results[reading] = (text.replace(f"rules: {reading}", "rules: R"), code)
    assert results[readings[0]] != results[readings[1]]
    outcome = [re.findall(r"; (\w+ wins? .*)\.$", results[r][0], re.M) for r in readings]
    assert any(results[r][1] != 0 for r in readings) or outcome[0] != outcome[1], \
        "one of the readings finds fault, or they name different winners"


def test_the_translation_defects_are_no_variants():
    """port_bonus_any_owner (000, 003), retreat_needs_several (003) and buildings_one_island (000) were
    judged translation defects (docs/translations.md): no reading has them, no module encodes them, and
    their notes stay in the catalogue and the findings."""
    defects = {_header(p)[0] for p in DEFECT_WITNESSES}
    assert defects == {"port_bonus_any_owner", "retreat_needs_several", "buildings_one_island"}
    catalogue = (REPO / "referee" / "games" / "cyclades" / "catalogue.toml").read_text(encoding="utf-8")
    findings = (REPO / "docs" / "translations.md").read_text(encoding="utf-8")
    for vid in defects:
        assert vid not in READINGS.variants
        assert not (REPO / "referee" / "games" / "cyclades" / "rules" / "variants" / f"{vid}.lp").exists()
        assert f"the variant {vid} until issue 18" in catalogue or f"was the variant {vid}" in catalogue, vid
        assert f"`{vid}`" in findings and "translation defect: ambiguous wording, no rule difference" in findings


@pytest.mark.parametrize("path", DEFECT_WITNESSES, ids=[p.stem for p in DEFECT_WITNESSES])
def test_defect_witness_reports_match_and_the_readings_agree(path):
    """A translation defect's witness: the move its reading once judged differently is judged alike under
    both readings now, each report the expected one."""
    _, readings = _header(path)
    assert len(readings) == 2
    results = {}
    for reading in readings:
        text, code = cli_check(path, reading)
        stem = path.name[: -len(".txt")] + f".{reading}"
        assert text == path.with_name(stem + ".report.txt").read_text(encoding="utf-8")
        assert code == int(path.with_name(stem + ".exit").read_text(encoding="utf-8"))
        assert f"(rules: {reading})" in text
        results[reading] = (text.replace(f"rules: {reading}", "rules: R"), code)
    assert results[readings[0]] == results[readings[1]]


@pytest.mark.slow
@pytest.mark.parametrize("path", WITNESSES, ids=[p.stem for p in WITNESSES])
def test_fast_path_and_speculation_agree_with_the_solver_under_each_reading(path):
    """Under each reading of a witness: the fast path gives the solver's
    verdicts and states, and the speculation model predicts the solver's next
    state of every legal move (the variants it must follow: the defence bonus,
    the order of retreats, the 2-player payment); and a move is legal exactly when
    it is among legal/2: on every move under the reading with the variant, on the
    last three (where the witness puts its variant to work) under the other. This
    is tests/judge/test_invariant.py's contract, which leaves the witnesses to this test."""
    variant, readings = _header(path)
    for reading in readings:
        try:
            fast_ref = Referee(read_transcript(path), rules=reading)
            fast = fast_ref.run()
            solver = Referee(read_transcript(path), rules=reading, fast_path=False).run()
        except Exception as error:  # a witness may end in a sequence error under one reading
            assert type(error).__name__ == "SequenceError", error
            continue
        assert [(s.number, s.role, s.move, s.violations, s.after) for s in fast.steps] == \
               [(s.number, s.role, s.move, s.violations, s.after) for s in solver.steps]
        for step in fast.steps:
            if step.legal:
                assert fast_ref.speed.speculate(step.before, step.role, step.move) == step.after, (
                    f"{reading}, move {step.number}: {step.move}")
        written = list(fast.written())
        checked = written if variant in READINGS.active(reading) else written[-3:]
        # listed in batches (Engine.legal_moves_many), the last as a listing alone too
        fast_ref.engine.legal_moves_many(fast_ref.rules.static, [s.before for s in checked])
        alone = Engine(fast_ref.engine.program_files)
        assert alone.legal_moves(fast_ref.rules.static, checked[-1].before) == \
            tuple(fast_ref.legal_moves(checked[-1].before)), (reading, checked[-1].number)
        for step in checked:
            legal = set(fast_ref.legal_moves(step.before))
            if not step.violations and sylph_route(step.move) and (step.role, step.move) not in legal:
                # rule sylph_move: one route listed to each space within reach (tests/judge/test_invariant.py)
                assert sylph_route(step.move) in {sylph_route(m) for r, m in legal if r == step.role}, (
                    reading, step.number)
                continue
            assert ((step.role, step.move) in legal) == (not step.violations), (reading, step.number)


# -- the 'position:' header (docs/notation.md, "A starting position") --------------------------

def test_a_position_line_adds_to_the_starting_position():
    from referee.game.notation import parse_transcript
    text = ("game: cyclades\nplayers: Ann red, Bob blue, Cy green\n"
            "position: port IS2; Ann 2 fleets C2; Ann 3 GP; metropolis IS1; Bob marker IS4; Cy 1 priest\n"
            "cycle 1\ncreatures: Pegasus\ngods: Poseidon, Ares / Zeus, Athena\n")
    referee = Referee(parse_transcript(text))
    start = referee.run(close=False).initial
    assert fn("count", Fn("building"), fn("", "IS2", Fn("port")), 1) in start
    assert fn("count", Fn("fleets"), fn("", "Ann", "C2"), 3) in start  # 1 from the seat, 2 added
    assert fn("count", Fn("gold"), "Ann", 8) in start  # 5 to start with, 3 added
    assert fn("metropolis", "IS1") in start and fn("marker", "IS4", "Bob") in start
    assert fn("count", Fn("priests"), "Cy", 1) in start


@pytest.mark.parametrize("item, message", [
    ("Ann 2 fleets IS2", "expected a sea space of the board after 'fleets'"),
    ("Dan 1 GP", "expected a building, 'metropolis' or a player"),
    ("castle IS2", "expected a building, 'metropolis' or a player"),
    ("port IS99", "expected 'port ISn' with an island of the board"),
    ("Ann 0 GP", "N from 1 to 99"),
])
def test_a_bad_position_item_is_a_clear_error(item, message):
    from referee.base.errors import NotationError
    from referee.game.notation import parse_transcript
    text = f"game: cyclades\nplayers: Ann red, Bob blue, Cy green\nposition: {item}\ncycle 1\n"
    with pytest.raises(NotationError) as error:
        Referee(parse_transcript(text, source="t.txt"))
    assert message in str(error.value) and "t.txt:3:" in str(error.value)
