"""A referee judging a record under a reading given as (name, variants): the
variants may be any of a game's readings' modules, shipped or a test's. The
search, its witnesses and the translation report replay records with it."""

from __future__ import annotations

from referee.game.parts import part
from referee.game.parts.scenarios import Scenarios
from referee.game.readings import Readings, load_readings, rule_files
from referee.judge.engine import Engine
from referee.judge.visitor import Referee


def referee_under(transcript, reading: tuple, readings: Readings):
    """A referee judging under ``reading`` = (name, variants), the variants
    among ``readings`` (which may hold variants that are not shipped, e.g. a
    test's)."""
    game = transcript.header.game
    files = rule_files(game)
    files += tuple(m for m in readings.modules() if m not in files)
    name, variants = reading
    base = name if name in load_readings(game).readings else "en"
    referee = Referee(transcript, rules=base, engine=Engine(files))
    part(referee.rules, Scenarios).use_variants(variants)
    return referee
