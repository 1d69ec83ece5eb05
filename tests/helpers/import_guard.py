"""No solver work at import time: a test module that checks a game while it is
imported turns a failing rule into a collection error, and makes every run pay
for it, even a run of one other test. tests/conftest.py imports each test module
inside ``no_solving``; ``referee.ask.session.Session`` (checking a transcript)
and clingo's grounding and solving raise ``SolvingAtImport`` there."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import clingo
import pytest

from referee.ask.session import Session


class SolvingAtImport(BaseException):
    """A test module checked a game or ran the solver while it was imported (a
    BaseException, so that no handler of the referee takes it for a solver error)."""


@contextlib.contextmanager
def no_solving(where: str) -> Iterator[None]:
    """Within: a transcript checked or a program grounded or solved raises
    SolvingAtImport naming ``where``."""

    def refuse(*args, **kwargs):
        raise SolvingAtImport(f"{where} does solver work at import time: make it lazy "
                              "(a fixture, or a functools.cache'd function called by the tests)")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(clingo.Control, "ground", refuse)
        patch.setattr(clingo.Control, "solve", refuse)
        patch.setattr(Session, "__init__", refuse)
        yield
