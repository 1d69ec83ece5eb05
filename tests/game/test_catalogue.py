"""The rule catalogue (referee/game/catalogue.py, referee/games/cyclades/catalogue.toml,
docs/rules.md).

Every rule id that the rule programs use is documented; every message only uses
the details its violation carries; every translation excerpt is found in its seed
file (skipped when the sibling folder ``shared/seeds`` is not there); the loader
reports malformed catalogues with a line.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib.util
import re
from functools import lru_cache
from pathlib import Path

import pytest

import referee.game.catalogue as catalogue_module
from referee.base.errors import DataError, ReadingError
from referee.base.terms import Fn
from referee.game.catalogue import Catalogue, RuleEntry, load_catalogue, parse_catalogue

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
PROGRAMS = (sorted((REPO / "referee" / "games" / "cyclades" / "rules").glob("*.lp")) + [REPO / "referee" / "game" / "rules.lp"]
            + sorted((REPO / "referee" / "games" / "cyclades" / "rules" / "variants").glob("*.lp")))

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seed translations are not present at {SEEDS}")

_ID = r"[a-z][a-z0-9_]*"
_VIOLATION_RE = re.compile(rf"\bviolation\(\s*({_ID})\s*,")
# A block comment: "% Rule recruit_supply: ..." or "% --- Rule build ----".
_BLOCK_RE = re.compile(rf"%[\s\-]*Rule ({_ID})(?=\s*(?::|-|$))", re.MULTILINE)
# A reference in a comment: "(rule offering_order)", "(rules two_player_markers, end_of_game)".
_REFERENCE_RE = re.compile(r"\(rules? ([a-z0-9_, ]+)\)")


# ---------------------------------------------------------------------------
# What the rule programs use
# ---------------------------------------------------------------------------


def _code(text: str) -> str:
    """The program text without comments (%* ... *% and % ... to the end of line)."""
    text = re.sub(r"%\*.*?\*%", " ", text, flags=re.DOTALL)
    return re.sub(r"%[^\n]*", "", text)


def _arguments(text: str, start: int) -> list[str]:
    """The top-level, comma-separated arguments of the term whose '(' is at start."""
    depth, args, current = 0, [], []
    for ch in text[start:]:
        if ch == "(":
            depth += 1
            if depth == 1:
                continue
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append("".join(current).strip())
                return args
        elif ch == "," and depth == 1:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    raise AssertionError(f"unbalanced parentheses after: {text[start:start + 60]!r}")


def _tuple_size(term: str) -> int:
    """How many items a tuple term such as (), (G,), (X,Y) has; 1 for a non-tuple."""
    if not term.startswith("("):
        return 1
    return len([a for a in _arguments(term, 0) if a])


@lru_cache(maxsize=None)
def program_ids() -> tuple[dict[str, int], frozenset[str]]:
    """(violation id -> the fewest details any of its atoms carries, every other
    rule id named in a block comment or a '(rule id)' reference)."""
    arity: dict[str, int] = {}
    cited: set[str] = set()
    for path in PROGRAMS:
        text = path.read_text(encoding="utf-8")
        code = _code(text)
        for m in _VIOLATION_RE.finditer(code):
            args = _arguments(code, code.index("(", m.start()))
            size = _tuple_size(args[3]) if len(args) == 4 else 0
            arity[m.group(1)] = min(size, arity.get(m.group(1), size))
        # Ids in comments, and violation atoms quoted in comments too.
        cited.update(_VIOLATION_RE.findall(text))
        cited.update(_BLOCK_RE.findall(text))
        for m in _REFERENCE_RE.finditer(text):
            cited.update(part.strip() for part in m.group(1).split(",") if re.fullmatch(_ID, part.strip()))
    return arity, frozenset(cited - set(arity))


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue("cyclades")


def _normal(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------------
# Every id is documented
# ---------------------------------------------------------------------------


def test_the_programs_use_rule_ids():
    violations, others = program_ids()
    assert "not_in_control" in violations and "offering_outbid" in violations
    assert "income" in others


def test_every_violation_id_is_catalogued(catalogue):
    violations, _ = program_ids()
    missing = sorted(set(violations) - set(catalogue.ids))
    assert not missing, f"violation ids without a [rule.<id>] entry in the catalogue: {missing}"


def test_every_rule_block_id_is_catalogued(catalogue):
    _, others = program_ids()
    missing = sorted(others - set(catalogue.ids))
    assert not missing, f"rule ids cited in the programs' comments without a catalogue entry: {missing}"


def test_every_entry_has_title_and_english(catalogue):
    for rule_id in catalogue.ids:
        entry = catalogue.rule(rule_id)
        assert entry.title.strip(), rule_id
        assert entry.en.strip(), rule_id


def test_every_violation_id_has_a_message(catalogue):
    violations, _ = program_ids()
    lacking = sorted(i for i in violations if i in catalogue and not catalogue.rule(i).message.strip())
    assert not lacking, f"violation ids without a message template: {lacking}"


def test_messages_only_use_the_details_the_violation_carries(catalogue):
    violations, _ = program_ids()
    for rule_id in catalogue.ids:
        entry = catalogue.rule(rule_id)
        size = violations.get(rule_id, 0)
        allowed = {"player"} | {str(i) for i in range(size)}
        extra = entry.placeholders() - allowed
        assert not extra, f"{rule_id}: message {entry.message!r} uses {sorted(extra)}, the violation carries {size} detail(s)"


def test_messages_use_every_detail(catalogue):
    """A detail the program computes for the report should be shown."""
    violations, _ = program_ids()
    for rule_id, size in violations.items():
        if rule_id in catalogue:
            used = catalogue.rule(rule_id).placeholders()
            unused = [i for i in range(size) if str(i) not in used]
            assert not unused, f"{rule_id}: message does not show detail(s) {unused}"


def test_every_rule_is_stated_by_a_translation_or_explained(catalogue):
    for rule_id in catalogue.ids:
        entry = catalogue.rule(rule_id)
        if not any(s.strip() for s in entry.translations.values()):
            assert entry.note.strip(), f"{rule_id}: no translation states it and no note says why"


def test_the_three_translations_are_described(catalogue):
    assert set(catalogue.translations) == {"zh-000", "zh-001", "zh-003"}
    assert catalogue.translations["zh-000"].script == "traditional"
    assert catalogue.translations["zh-001"].script == "simplified"
    assert catalogue.translations["zh-003"].script == "simplified"
    for reading, t in catalogue.translations.items():
        assert t.file.startswith(t.seed + "_"), reading
        assert reading.endswith(t.seed)


# ---------------------------------------------------------------------------
# The excerpts are the seeds' own words
# ---------------------------------------------------------------------------


@needs_seeds
def test_every_excerpt_occurs_in_its_seed(catalogue):
    seeds = {r: _normal((SEEDS / t.file).read_text(encoding="utf-8")) for r, t in catalogue.translations.items()}
    wrong = []
    for rule_id in catalogue.ids:
        for reading, sentence in catalogue.rule(rule_id).translations.items():
            if sentence.strip() and _normal(sentence) not in seeds[reading]:
                wrong.append(f"{rule_id} {reading}: {sentence!r}")
    assert not wrong, "excerpts not found in their seed file:\n" + "\n".join(wrong)


@needs_seeds
def test_the_seed_files_exist(catalogue):
    for t in catalogue.translations.values():
        assert (SEEDS / t.file).is_file(), t.file


# ---------------------------------------------------------------------------
# The API
# ---------------------------------------------------------------------------


def test_sentence_by_reading(catalogue):
    entry = catalogue.rule("apollo_prosperity_island")
    assert entry.sentence("en") == entry.en
    assert entry.sentence("zh-001") == entry.translations["zh-001"]
    assert "任何一座岛屿" in entry.sentence("zh-001")
    assert catalogue.rule("not_in_control").sentence("zh-003") == ""
    with pytest.raises(ReadingError, match="zh-999"):
        entry.sentence("zh-999")


def test_format_fills_the_template(catalogue):
    assert catalogue.rule("offering_outbid").format("Ann", (5,)) == "Ann must offer more than the standing 5 GP"
    assert catalogue.rule("offering_outbid").format("Ann", [5]) == "Ann must offer more than the standing 5 GP"

    class God:
        def __str__(self) -> str:
            return "Zeus"

    assert "Zeus" in catalogue.rule("offering_outbid_moves").format("Bob", (God(),))
    assert catalogue.rule("not_in_control").format("Cy", ("Bob",)) == "it is Bob's decision now, not Cy's"


def test_a_screened_message_leaves_out_the_hidden_figures(catalogue):
    """Rule build_affordable: "A player cannot build without the GP to pay for it." To
    whoever may see the gold the message states it; to the others it says the same
    without it (docs/rules.md, `screened`)."""
    entry = catalogue.rule("build_affordable")
    assert entry.format("Ann", (2, 1)) == "Ann has 1 GP and cannot pay the 2 GP for a building"
    assert entry.format("Ann", (2, 1), screened=True) == "Ann cannot pay the 2 GP for a building"
    without = catalogue.rule("offering_outbid")
    assert without.format("Ann", (5,), screened=True) == without.format("Ann", (5,))
    with pytest.raises(DataError, match="screened of rule x: bad placeholder"):
        parse_catalogue('[rule.x]\ntitle = "X"\nen = "An X."\nmessage = "{player}"\nscreened = "{gold}"\n')
    with pytest.raises(DataError, match="screened message but no message"):
        parse_catalogue('[rule.x]\ntitle = "X"\nen = "An X."\nscreened = "{player}"\n')


def test_format_never_fails_a_report():
    entry = RuleEntry("x", "X", "An X.", {}, message="{player} {0} {1} {{literal}}")
    assert entry.format("Ann", (1,)) == "Ann 1 ? {literal}"
    assert RuleEntry("y", "Why", "A y.").format("Ann", ()) == "Ann breaks rule y: Why"


def test_unknown_id_is_a_data_error(catalogue):
    with pytest.raises(DataError, match="no_such_rule"):
        catalogue.rule("no_such_rule")
    assert "no_such_rule" not in catalogue
    assert catalogue.get("no_such_rule") is None


def test_entries_are_frozen(catalogue):
    entry = catalogue.rule("income")
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.en = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        entry.translations["zh-000"] = "changed"  # type: ignore[index]
    assert hash(entry) == hash(catalogue.rule("income"))


def test_ids_in_file_order(catalogue):
    assert catalogue.ids[0] == "not_in_control"
    assert len(catalogue.ids) == len(set(catalogue.ids)) == len(catalogue)


def test_unknown_game_is_a_data_error():
    with pytest.raises(DataError, match="chess"):
        load_catalogue("chess")
    with pytest.raises(DataError):
        load_catalogue("../etc")


def test_module_examples():
    result = doctest.testmod(catalogue_module)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------------------
# Malformed catalogues
# ---------------------------------------------------------------------------

GOOD = """\
[translations.zh-001]
seed = "001"
file = "001_x.txt"
script = "simplified"
kind = "a forum post"

[rule.offering_outbid]
title = "Outbidding"
en = "Offer more."
zh-001 = "多"
message = "{player} must offer more than {0} GP"
"""


def _error(text: str) -> DataError:
    with pytest.raises(DataError) as info:
        parse_catalogue(text, name="bad.toml")
    return info.value


def test_a_good_small_catalogue():
    cat = parse_catalogue(GOOD, name="good.toml", game="test")
    assert cat.ids == ("offering_outbid",)
    assert cat.rule("offering_outbid").sentence("zh-001") == "多"


def test_toml_syntax_error_has_the_line():
    err = _error(GOOD.replace('title = "Outbidding"', 'title = "Outbidding'))
    assert err.position is not None and err.position.file == "bad.toml" and err.position.line == 8
    assert "bad.toml:8:" in str(err)


def test_missing_english_has_the_line():
    err = _error(GOOD.replace('en = "Offer more."', 'en = ""'))
    assert err.position is not None and err.position.line == 9
    assert "en" in err.message


def test_unknown_key_has_the_line():
    err = _error(GOOD + 'colour = "red"\n')
    assert err.position is not None and err.position.line == 12
    assert "colour" in err.message


def test_missing_translation_key_is_an_error():
    err = _error(GOOD.replace('zh-001 = "多"\n', ""))
    assert err.position is not None and err.position.line == 7
    assert "zh-001" in err.message


def test_bad_placeholder_is_an_error():
    err = _error(GOOD.replace("{0} GP", "{amount} GP"))
    assert err.position is not None and err.position.line == 11
    assert "{amount}" in err.message


def test_rule_ids_are_snake_case():
    err = _error(GOOD.replace("[rule.offering_outbid]", '[rule."Offering-Outbid"]'))
    assert err.position is not None and err.position.line == 7


def test_bad_script_is_an_error():
    err = _error(GOOD.replace('"simplified"', '"latin"'))
    assert err.position is not None and err.position.line == 4


def test_no_rules_is_an_error():
    with pytest.raises(DataError, match="no \\[rule"):
        parse_catalogue(GOOD.split("[rule.")[0], name="bad.toml")


# ---------------------------------------------------------------------------
# docs/rules.md
# ---------------------------------------------------------------------------


def _rules_table_tool():
    spec = importlib.util.spec_from_file_location("rules_table", REPO / "tools" / "rules_table.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_table_is_up_to_date(catalogue):
    tool = _rules_table_tool()
    page = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert tool.replace_table(page, tool.render(catalogue)) == page, (
        "docs/rules.md is out of date: run python tools/rules_table.py --write"
    )
    for rule_id in catalogue.ids:
        assert f"`{rule_id}`" in page


# ---------------------------------------------------------------------------
# The order of breaches: generic rules last, special cases before their rule
# ---------------------------------------------------------------------------

def _v(rule: str):
    from referee.judge.values import Breach
    return Breach(rule, "Ann", Fn("pass"))


def test_ordered_puts_a_generic_rule_after_the_specific_ones():
    """docs/report.md, "The order of breaches": a catch-all (generic = true) comes after
    every specific breach of the move, whatever the ids' alphabetical order."""
    cyclades = load_catalogue("cyclades")
    assert cyclades.rule("not_in_control").generic and cyclades.rule("move_out_of_phase").generic
    assert not cyclades.rule("offering_order").generic
    ordered = cyclades.ordered([_v("move_out_of_phase"), _v("not_in_control"), _v("gods_track_pair")])
    assert [v.rule for v in ordered] == ["gods_track_pair", "move_out_of_phase", "not_in_control"]
    # Alone, a generic breach is simply shown.
    assert cyclades.ordered([_v("not_in_control")])[0].rule == "not_in_control"


def test_ordered_puts_a_special_case_before_the_rule_it_is_within():
    cyclades = load_catalogue("cyclades")
    assert cyclades.rule("battle_retreat").within == "battle_no_battle"
    ordered = cyclades.ordered([_v("battle_no_battle"), _v("battle_retreat"), _v("not_in_control")])
    assert [v.rule for v in ordered] == ["battle_retreat", "battle_no_battle", "not_in_control"]
    luna = load_catalogue("luna")
    ordered = luna.ordered([_v("favour_one_each"), _v("substitute_not_for_substitute")])
    assert [v.rule for v in ordered] == ["substitute_not_for_substitute", "favour_one_each"]


def test_generic_must_be_true_or_false():
    err = _error(GOOD + 'generic = "yes"\n')
    assert err.position is not None and err.position.line == 12
    assert "generic" in err.message
    assert parse_catalogue(GOOD + "generic = true\n", name="good.toml").rule("offering_outbid").generic


def test_within_names_a_rule_of_the_catalogue():
    err = _error(GOOD + 'within = "offering_order"\n')
    assert err.position is not None and err.position.line == 12
    assert "offering_order" in err.message
    err = _error(GOOD + 'within = "offering_outbid"\n')
    assert "within itself" in err.message
