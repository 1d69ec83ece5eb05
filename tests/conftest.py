"""Shared test setup: tests run from the repository root."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch):
    """Reports name transcripts relative to the repository root; the judgement
    cache on disk is off (the tests never depend on a user's cache: the ones
    about the cache give it a file of their own)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("REFEREE_CACHE", "off")
