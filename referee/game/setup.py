"""Setting a game up from a record's header: the game its 'game:' line names,
under the reading its 'rules:' line (or the caller) names, with the data file it
names. The one place that joins the registry (which class), the readings
(which variant modules) and the game's own set-up (its static facts)."""

from __future__ import annotations

from referee.base.errors import NotationError, Position
from referee.game.contract import Game
from referee.game.readings import load_readings
from referee.game.registry import UnknownGameError, game_class
from referee.text.transcript import Transcript


def game_rules(transcript: Transcript, rules: str | None = None, data_file: str | None = None) -> Game:
    """The rules of the game the transcript's header names."""
    try:
        cls = game_class(transcript.header.game)
    except UnknownGameError as error:
        span = transcript.header.spans.get("game")
        raise NotationError(error.message, Position(transcript.source, span.line, span.column) if span else None) from None
    reading = rules or transcript.header.rules
    return cls(transcript, data_file=data_file, rules=rules, variants=load_readings(cls.name).active(reading))
