"""The most specific rule, first (docs/report.md, "The order of breaches").

For every rule id that the rule programs' violations name, a shipped
``illegal-*`` transcript, a readings witness or a test shows it as the first
breach reported for its own mistake; no shipped report puts a generic breach
(``not_in_control``, ``move_out_of_phase``, Luna's ``game_step``) before a
specific one, and no illegal transcript's move is explained by a generic breach
alone. The audit itself is tools/rule_audit.py (``python tools/rule_audit.py``
prints which transcript or test shows each rule first).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=None)
def _tool():
    spec = importlib.util.spec_from_file_location("rule_audit", REPO / "tools" / "rule_audit.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_audit"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@functools.lru_cache(maxsize=None)
def _audit(game: str):
    return _tool().audit(game)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["cyclades", "luna"])
def test_every_rule_id_is_shown_first_for_its_own_mistake(game):
    audit = _audit(game)
    assert len(audit.ids) > 30
    assert audit.missing == [], f"rule ids no transcript or test shows as the first breach: {audit.missing}"


@pytest.mark.parametrize("game", ["cyclades", "luna"])
def test_no_shipped_report_puts_a_generic_breach_first(game):
    audit = _audit(game)
    assert audit.generic, "the catalogue marks its catch-all rules generic"
    assert audit.misordered == []
    assert audit.generic_first == [], "illegal moves explained only by a catch-all rule"


def test_the_audit_reads_the_first_breach_of_a_report_line():
    tool = _tool()
    line = ("transcripts/cyclades/x.txt:17:5: cycle 1, Cy: '2 on Zeus': offering_outbid_first: Ann was outbid on "
            "Athena, so Ann must offer again before Cy bids; not_in_control: it is Ann's decision now, not Cy's")
    assert tool.first_breaches(line, {"offering_outbid_first", "not_in_control"}) == \
        [(17, "offering_outbid_first", ["offering_outbid_first", "not_in_control"])]
    assert tool.shows_first('assert g.problems == [("x", ("fleet_move_range",))]', "fleet_move_range")
    assert tool.shows_first('assert v.first == "meditate_last"', "meditate_last")
    assert not tool.shows_first('assert "meditate_last" in v.rules', "meditate_last")
