"""A rules referee for board games: transcripts in, verdicts and explanations out."""

__version__ = "0.1.0"
