"""Shared test helpers: where the shipped transcripts are."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = sorted((ROOT / "transcripts").rglob("*.txt"))
TRANSCRIPTS = [t for t in TRANSCRIPTS if t.name != "README.txt"]


def transcript_ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch):
    """Reports name transcripts relative to the repository root."""
    monkeypatch.chdir(ROOT)
