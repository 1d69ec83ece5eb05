"""The service's requests: one pydantic model per kind of request, strict
(no field it does not take, no type it would have to guess), its fields
described for the OpenAPI document (/openapi.json)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from referee.game.registry import default_game
from referee.service.errors import ServiceError

#: The largest revision number a request may name: far beyond any table's, and
#: within SQLite's integers (a larger one is refused 422, never a 500).
MAX_REVISION = 1_000_000_000


def _text(value: str | None) -> str | None:
    """JSON may carry lone surrogates (\\ud800), which are not text: refused here."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            before = value[:error.start]
            line, column = before.count("\n") + 1, error.start - (before.rfind("\n") + 1) + 1
            raise ValueError(f"not Unicode text: a lone surrogate at line {line}, column {column}") from None
    return value


class TranscriptRequest(BaseModel):
    """A question about a transcript."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    transcript: str = Field(description="The transcript's text (docs/notation.md).")
    name: str = Field("transcript.txt", max_length=200, description="The file name shown in answers.")
    rules: str | None = Field(None, max_length=40,
                              description="The rules reading (default: the transcript's 'rules:' line, else en).")
    viewpoint: str | None = Field(None, alias="as", max_length=200,
                                  description="Answer as this player sees the game (a name from the players "
                                              "line): another player's hidden figures (such as gold behind a screen) are "
                                              "never stated. Without it the referee sees everything.")
    tolerant: bool = Field(False, description="Set aside a line that cannot be read (listed in `unread` of a "
                                              "check) and answer about the others, instead of an error.")

    _unicode = field_validator("transcript", "name", "rules", "viewpoint")(lambda cls, value: _text(value))


class CheckRequest(TranscriptRequest):
    pass


class ExplainRequest(TranscriptRequest):
    move: int | None = Field(None, ge=1, le=1_000_000, description="The move's number (1 = the first move).")
    line: int | None = Field(None, ge=1, le=1_000_000, description="The first move on this line.")
    all: bool = Field(False, description="List every alternative, not a bounded summary.")


class MovesRequest(TranscriptRequest):
    after: int | None = Field(None, ge=0, le=1_000_000, description="After move N (default: the last move).")
    all: bool = Field(False, description="List every move, not a bounded summary.")


class BoardRequest(TranscriptRequest):
    after: int | None = Field(None, ge=0, le=1_000_000, description="After move N (default: the last move).")


class CompareRequest(BaseModel):
    """Two rules readings of a game, to search for positions they judge differently."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(default_game(), max_length=40, description="The game.")
    rules: list[Annotated[str, Field(max_length=40)]] = Field(
        min_length=2, max_length=2, description="The two readings, e.g. [\"en\", \"zh-003\"] (GET /api/readings).")
    max_size: int | None = Field(None, ge=1, le=12, description="At most this many free facts in a position "
                                                                 "(default 8, as referee compare --max-size).")
    seconds: float | None = Field(None, ge=0.5, le=60, description="Time bound per scenario searched (default 20 s).")


class TableCreate(BaseModel):
    """A new table: the transcript as it stands (its header at least)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    transcript: str = Field(description="The transcript so far: its header (game, players...) and any moves.")
    name: str = Field("table", min_length=1, max_length=100, description="The table's name, shown on its page.")
    rules: str | None = Field(None, max_length=40, description="The rules reading (default: the transcript's).")

    _unicode = field_validator("transcript", "name", "rules")(lambda cls, value: _text(value))


class TableLine(BaseModel):
    """A line added at the end of a table's transcript."""

    model_config = ConfigDict(extra="forbid", strict=True)

    line: str = Field(max_length=2000, description="One line of the transcript (docs/notation.md).")
    revision: int | None = Field(None, ge=0, le=MAX_REVISION, description="The revision the writer saw: the line is refused (409) "
                                                          "if the table has changed since. Without it, the line "
                                                          "is added after whatever came meanwhile.")

    _unicode = field_validator("line")(lambda cls, value: _text(value))


class TableCorrection(BaseModel):
    """The host's correction: the whole transcript as it should stand, or another reading."""

    model_config = ConfigDict(extra="forbid", strict=True)

    revision: int = Field(ge=0, le=MAX_REVISION, description="The revision corrected: refused (409) if the table has changed since.")
    transcript: str | None = Field(None, description="The whole text as it should now stand (default: unchanged).")
    rules: str | None = Field(None, max_length=40, description="The table's rules reading from now on "
                                                                "(given as null: the transcript's own).")

    _unicode = field_validator("transcript", "rules")(lambda cls, value: _text(value))


class TableWithdrawal(BaseModel):
    """The host withdraws a line from the players' view."""

    model_config = ConfigDict(extra="forbid", strict=True)

    revision: int = Field(ge=0, le=MAX_REVISION, description="The revision the line is withdrawn from: refused (409) "
                                                             "if the table has changed since.")
    line: int = Field(ge=1, le=1_000_000, description="The number of the line withdrawn, in that revision.")


class TableQuestion(BaseModel):
    """A question about a revision of a table (default: the current one)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    revision: int | None = Field(None, ge=0, le=MAX_REVISION, description="The revision asked about (default: the current one).")
    rules: str | None = Field(None, max_length=40, description="Another reading than the table's.")
    viewpoint: str | None = Field(None, alias="as", max_length=200,
                                  description="The host's link only: answer as this player. A player's link "
                                              "always answers as that player.")
    move: int | None = Field(None, ge=1, le=1_000_000)
    line: int | None = Field(None, ge=1, le=1_000_000)
    after: int | None = Field(None, ge=0, le=1_000_000)
    all: bool = False

    _unicode = field_validator("rules", "viewpoint")(lambda cls, value: _text(value))


def require_one_move(request: ExplainRequest | TableQuestion) -> None:
    """An explanation is of one move: refused (422) unless exactly one of 'move' and 'line' is given."""
    if (request.move is None) == (request.line is None):
        raise ServiceError(422, "request", "give exactly one of 'move' or 'line'")
