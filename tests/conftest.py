"""Shared test setup: tests run from the repository root."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch):
    """Reports name transcripts relative to the repository root."""
    monkeypatch.chdir(ROOT)
