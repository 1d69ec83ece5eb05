"""Luna's readings (referee/games/luna/readings.toml, docs/luna.md): the default
rules (seed 002 as the referee reads it, the substitute novice may replace the
only novice of an action, as the publisher's forum answer says; readings en,
zh-002 and luna-publisher-faq) and seed 002 read literally (reading
zh-002-literal, variant substitute_needs_a_novice: the substitute is one of
several novices).

In the 2-player introductory layout Ann has her shrine on 1, pairs on 2-5 and
holds waves and substitute; Bob his shrine on 3, pairs on 4-7; the Apostate
stands on 5, the council discs on seat 0.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.luna import round_one

from referee.base.terms import fn
from referee.cli import main as referee_main
from referee.game.catalogue import load_catalogue
from referee.game.notation import read_transcript
from referee.game.readings import load_readings
from referee.judge.visitor import Referee

REPO = Path(__file__).resolve().parents[3]
SEED = REPO.parent / "shared" / "seeds" / "002_e8ed60f3a9b41215.txt"
WITNESS = REPO / "transcripts" / "luna" / "readings" / "substitute-alone.txt"
READINGS = load_readings("luna")
LITERAL = "rules: zh-002-literal"


# -- the readings data ----------------------------------------------------------------------

def test_the_readings_are_the_default_the_publishers_answer_and_the_literal_seed():
    assert READINGS.names == ("en", "zh-002", "luna-publisher-faq", "zh-002-literal")
    assert READINGS.active("en") == READINGS.active("zh-002") == READINGS.active("luna-publisher-faq") == ()
    assert "the default rules follow" in READINGS.reading("luna-publisher-faq").title
    assert READINGS.active("zh-002-literal") == ("substitute_needs_a_novice",)
    variant = READINGS.variants["substitute_needs_a_novice"]
    assert "% --- Variant substitute_needs_a_novice " in variant.module.read_text(encoding="utf-8")
    catalogue = load_catalogue("luna")
    assert all(rule in catalogue for rule in variant.rules)
    assert "hall9000.de" in variant.default and "你只需要使用1个学徒" in variant.default
    if SEED.is_file():  # the seed sentences it reads, copied exactly
        seed = SEED.read_text(encoding="utf-8")
        assert variant.sources[0].zh in seed and "你只需要使用1个学徒" in seed


def test_referee_rules_luna_lists_the_literal_reading_with_provenance():
    result = CliRunner().invoke(referee_main, ["rules", "luna"])
    assert result.exit_code == 0, result.output
    assert "\nluna-publisher-faq: " in result.stdout and "\nzh-002-literal: " in result.stdout
    assert "variant substitute_needs_a_novice:" in result.stdout
    assert "seed 002 (002_e8ed60f3a9b41215.txt): 使用一个学徒特权块，替代你另一个动作中使用的一个学徒。" in result.stdout


def test_an_unknown_luna_reading_is_a_clear_error(tmp_path):
    game = tmp_path / "g.txt"
    game.write_text("game: luna\nplayers: Ann red, Bob blue\nrules: luna-house\nround 1\nAnn: meditate\n",
                    encoding="utf-8")
    result = CliRunner().invoke(referee_main, ["check", str(game)])
    assert result.exit_code == 2
    assert "unknown rules reading 'luna-house'" in result.output and "luna-publisher-faq" in result.output


# -- the witness --------------------------------------------------------------------------------

@pytest.mark.parametrize("reading, code", [("en", 0), ("luna-publisher-faq", 0), ("zh-002-literal", 1)])
def test_the_witness_parts_the_readings(reading, code):
    """The witness of substitute_needs_a_novice: Ann takes island 1's favour (her shrine's) with the
    substitute alone; `referee check --rules R` prints the expected report of each reading."""
    with contextlib.chdir(REPO):
        result = CliRunner().invoke(referee_main, ["check", "--rules", reading, WITNESS.relative_to(REPO).as_posix()])
    stem = WITNESS.name[: -len(".txt")] + f".{reading}"
    assert result.stdout == WITNESS.with_name(stem + ".report.txt").read_text(encoding="utf-8")
    assert result.exit_code == code == int(WITNESS.with_name(stem + ".exit").read_text(encoding="utf-8"))
    assert f"(rules: {reading})" in result.stdout
    assert ("substitute_needs_a_novice" in result.stdout) == (reading == "zh-002-literal")


def test_the_witness_fast_path_and_speculation_agree_with_the_solver_under_each_reading():
    for reading in ("en", "luna-publisher-faq", "zh-002-literal"):
        fast = Referee(read_transcript(WITNESS), rules=reading)
        run = fast.run()
        solver = Referee(read_transcript(WITNESS), rules=reading, fast_path=False).run()
        assert [(s.move, s.violations, s.after) for s in run.steps] == \
               [(s.move, s.violations, s.after) for s in solver.steps]
        for step in run.written():
            assert fast.speed.speculate(step.before, step.role, step.move) == step.after
            assert ((step.role, step.move) in set(fast.legal_moves(step.before))) == step.legal


# -- the rule and its variant -------------------------------------------------------------------

def test_substitute_needs_a_novice_literal_reading_the_substitute_is_not_alone():
    """Variant substitute_needs_a_novice (zh-002-literal), rule substitute_needs_a_novice: a favour with a
    shrine (one novice), one council seat or one island of the Apostate is not done by the substitute alone."""
    assert round_one(LITERAL).judge("Ann: favour on 1 with substitute").rules == {"substitute_needs_a_novice"}
    assert round_one(LITERAL).judge("Ann: council 1 from 2 with substitute").rules == {"substitute_needs_a_novice"}
    assert round_one(LITERAL).judge("Ann: banish 1 with substitute").rules == {"substitute_needs_a_novice"}
    assert round_one(LITERAL).judge("Ann: recruit on 2 with substitute").rules == set()


def test_the_publishers_answer_is_the_default():
    """Reading luna-publisher-faq names the default rules: the substitute alone is legal in both."""
    for pos in (round_one(), round_one("rules: luna-publisher-faq")):
        assert pos.judge("Ann: favour on 1 with substitute").rules == set()
        assert pos.judge("Ann: council 1 from 2 with substitute").rules == set()
        assert pos.judge("Ann: banish 1 with substitute").rules == set()


def test_substitute_alone_takes_the_favour_of_a_shrines_island():
    """Rule substitute (the default), rule favour_take: with her shrine on island 1 and no
    active novice there, the substitute alone takes island 1's favour and goes back to island 7."""
    assert round_one().novices("Ann", 1, "active") == 0
    after = round_one().after("Ann: favour on 1 with substitute")
    assert after.holds("Ann") == {"waves", "shrine"}
    assert after.pool(1) == round_one().pool(1) - 1 and after.pool(7) == round_one().pool(7) + 1
    assert after.novices("Ann", 1, "inactive") == 0
    # without a shrine the favour takes two novices: the substitute and one of hers
    no_novice = round_one().set_novices("Ann", 2, "active", 0)
    assert no_novice.judge("Ann: favour on 2 with substitute").rules == {"island_novices"}


def test_substitute_alone_moves_the_apostate_one_island_with_no_novice_there():
    """Rule substitute (the default), rule banish: the substitute alone moves the Apostate one island, also
    when the player has no novice on his island (Ann's are on 5, so Bob, after giving him one)."""
    apostate = round_one().figure("apostate")
    after = round_one().after("Ann: banish 1 with substitute")
    assert after.figure("apostate") == apostate % 7 + 1 and after.novices("Ann", apostate, "active") == 2
    bob = round_one().after("Ann: meditate").changed([fn("holds", "Bob", fn("substitute"))])
    bob = bob.set_novices("Bob", apostate, "active", 0)
    assert bob.after("Bob: banish 1 with substitute").figure("apostate") == apostate % 7 + 1
    assert bob.judge("Bob: banish 2 with substitute").rules == {"island_novices"}


def test_substitute_alone_one_council_seat_from_any_island():
    """Rule substitute (the default), rule council: the substitute alone advances the disc one seat."""
    after = round_one().after("Ann: council 1 from 7 with substitute")
    assert after.discs()["Ann"][0] == 1 and "substitute" not in after.holds("Ann")
    assert round_one().judge("Ann: council 2 from 7 with substitute").rules == {"island_novices"}


def test_substitute_alone_is_offered_among_the_legal_moves():
    """The moves the default allows are among legal/2 (the alternatives a report offers); not under
    the literal reading."""
    from helpers.luna import transcript

    from referee.game.notation import parse_transcript
    referee = Referee(parse_transcript(transcript("round 1"), "t.luna"))
    state = referee.run(close=False).final
    legal = {m for _, m in referee.legal_moves(state)}
    assert {fn("favour", 1, 1), fn("banish", 1, 1), fn("council", 7, 1, 1)} <= legal
    groups = referee.words.group_moves([m for _, m in referee.legal_moves(state)], None, state=state, player="Ann")
    assert "take a favour on island 1 (shrine) with a substitute novice alone" in groups
    literal = Referee(parse_transcript(transcript("round 1", header=LITERAL), "t.luna"))
    state = literal.run(close=False).final
    assert not {fn("favour", 1, 1), fn("banish", 1, 1), fn("council", 7, 1, 1)} & {m for _, m in literal.legal_moves(state)}


def test_substitute_alone_keeps_the_seeds_two_exceptions_and_the_priestess_scoring():
    """By default (as in the publisher's answer) the substitute still takes no temple tile (substitute_not_for_tile)
    nor another substitute favour (substitute_not_for_substitute), and the Priestess scoring counts
    novices and shrines only: holding the favour changes nothing there (rule score_priestess)."""
    assert round_one().judge("Ann: occupy 5 from 5 with substitute").rules == {"substitute_not_for_tile"}
    pos = round_one().set_novices("Ann", 7, "active", 2)
    assert "substitute_not_for_substitute" in pos.judge("Ann: favour on 7 with substitute").rules
    ended = round_one().after("Ann: meditate", "Bob: meditate", "Ann: meditate")
    without = ended.changed(remove=[fn("holds", "Ann", fn("substitute"))])
    assert ended.game_step().score("Ann") == without.game_step().score("Ann")
