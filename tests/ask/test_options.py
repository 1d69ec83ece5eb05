"""The one options value of a check (referee/ask/options.py): what crosses a
process boundary comes back the same, and what is not an option is refused."""

from __future__ import annotations

import json

import pytest

from referee.ask.options import CheckOptions


def test_options_cross_a_process_boundary_as_json_unchanged():
    options = CheckOptions(rules="zh-003", data_file="board.toml", fast_path=False, strict=True, time_limit=2.5,
                           viewpoint="Ann")
    assert CheckOptions.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert CheckOptions.from_json(None) == CheckOptions() == CheckOptions.from_json({})
    # the archive report's header keeps every option by name, in this order
    assert list(CheckOptions().to_json()) == ["rules", "board", "fast_path", "strict", "time_limit", "viewpoint"]


def test_a_name_that_is_no_option_is_refused():
    with pytest.raises(ValueError, match="not options of a check: colour"):
        CheckOptions.from_json({"rules": "en", "colour": "red"})


def test_but_changes_some_and_keeps_the_rest():
    options = CheckOptions(rules="en", viewpoint="Ann")
    assert options.but(viewpoint=None) == CheckOptions(rules="en")
    assert options.viewpoint == "Ann"  # frozen: the original is unchanged
