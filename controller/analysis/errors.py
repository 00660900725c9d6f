"""The analysis service's error family."""

from __future__ import annotations

from sheshbesh.errors import SheshbeshError


class AnalysisError(SheshbeshError):
    """Root of every error the analysis service raises on purpose."""


class AnalysisNotInstalledError(AnalysisError, ImportError):
    """The analysis engine (the ``sheshbesh[analysis]`` extra, ``bgsage``) is not installed."""


class AnalysisInputError(AnalysisError, ValueError):
    """A match context, board or decision handed to the analysis is malformed."""


class UnknownPlayError(AnalysisInputError):
    """The play a player made is not among the legal plays the engine knows for the roll."""
