"""The options of a check, as one value: the command line builds it from its
flags, an archive sends it to every record's worker and keeps it in its report
(referee/run/archive_report.py), the service builds it for each question and
sends it to a worker (referee/service/jobs.py), and the session
(referee/ask/session.py) is made with it. It crosses a process boundary as
JSON (``to_json``, ``from_json``).

The visitor below (referee/judge/visitor.py) takes the same settings as plain
arguments: the judge layer knows nothing of who asks."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True)
class CheckOptions:
    """How a record is read and judged, and whose view the answers keep to.

    ``rules``: the rules reading (None: the transcript's ``rules:`` line, else
    English); ``data_file``: a data file (``--board``) instead of the
    transcript's or the built-in one; ``fast_path``: bookkeeping and forced steps decided in
    Python (False: every step by the solver); ``strict``: stop at the first
    illegal move; ``time_limit``: the bound on one solver call in seconds (None:
    the engine's default); ``viewpoint``: the player the answers are given to
    (None: everything is stated)."""

    rules: str | None = None
    data_file: str | None = None
    fast_path: bool = True
    strict: bool = False
    time_limit: float | None = None
    viewpoint: str | None = None

    #: The JSON names of the fields that JSON names otherwise: an archive report
    #: written before keeps its options as "board" (--board), and is resumed.
    _JSON_NAMES = {"data_file": "board"}

    def to_json(self) -> dict:
        """The options as JSON values, every field named (an archive report's ``options``)."""
        return {self._JSON_NAMES.get(name, name): value for name, value in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict | None) -> CheckOptions:
        """The options ``to_json`` gave; a field left out has its default.
        A name that is no option is refused (a ValueError): options written by
        another version of the referee are not silently half-read."""
        fields_of = {json: name for name, json in cls._JSON_NAMES.items()}
        data = {fields_of.get(key, key): value for key, value in (data or {}).items()}
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"not options of a check: {', '.join(unknown)}")
        return cls(**data)

    def but(self, **changes) -> CheckOptions:
        """These options with some changed."""
        return replace(self, **changes)
