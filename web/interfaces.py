"""What the panel needs from the rest of the program, as small protocols.

The panel never imports the referee, the record or vision: the application passes objects that fit
these protocols to :func:`web.create_app` (tests pass the fakes of :mod:`web.fakes`).

* :class:`PanelHub` (concrete, owned by the app) — the referee side publishes full state snapshots
  to it (see :mod:`web.state` for their shape); anything with a ``publish(state) -> int`` method fits
  :class:`StatePublisher`.
* :class:`Controls` — the admin actions the panel asks of the referee.
* :class:`MatchStore` — the recorded matches and their ``.mat`` exports; a store may also fit
  :class:`AnalysisStore` (the saved analysis reports): the panel asks only stores that do.

A ``Controls`` or ``MatchStore`` method refuses by raising ``ValueError`` (or any
:class:`sheshbesh.errors.SheshbeshError`) whose message is plain words for the person at the
table; the panel shows that message.
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict, runtime_checkable

from sheshbesh.match import MatchSettings
from web.hub import Listener, PanelEvent, PanelHub
from web.state import State

__all__ = [
    "AnalysisStore",
    "Controls",
    "Listener",
    "MatchSettings",
    "MatchStore",
    "MatchSummary",
    "PanelEvent",
    "PanelHub",
    "StatePublisher",
]


class MatchSummary(TypedDict):
    """One recorded match as the matches page lists it."""

    id: str
    players: list[str]
    length: int
    score: list[int]
    started: str  # ISO 8601 time
    finished: str | None  # ISO 8601 time, None while it goes on
    games: list[dict[str, Any]]  # [{"game", "winner", "points", "score"}, ...]


@runtime_checkable
class StatePublisher(Protocol):
    """Where the referee side sends each new full state snapshot."""

    def publish(self, state: State) -> int: ...


@runtime_checkable
class Controls(Protocol):
    """Admin actions the panel asks of the referee."""

    def new_match(self, settings: MatchSettings) -> None:
        """End any match in progress and start a new one with ``settings``."""

    def resign(self, player: int, points: int) -> None:
        """``player`` (0 White, 1 Black) resigns a single (1), gammon (2) or backgammon (3)."""

    def undo(self) -> None:
        """Take back the last recorded action."""

    def set_corners(self, corners: list[tuple[float, float]]) -> None:
        """Calibrate from the board's four corners in frame pixels (top-left, top-right,
        bottom-right, bottom-left)."""

    def latest_frame(self) -> bytes | None:
        """The camera's latest frame as JPEG, or None when there is no camera."""

    def calibration_overlay(self) -> bytes | None:
        """The latest frame with the calibrated regions drawn on it (JPEG), or None."""


@runtime_checkable
class MatchStore(Protocol):
    """The record of matches, as the panel reads it."""

    def list_matches(self, offset: int = 0, limit: int | None = None) -> list[MatchSummary]:
        """Recorded matches, newest first: ``limit`` of them (None: all) after the first
        ``offset``. A store reads only the page asked for."""

    def match_count(self) -> int:
        """How many matches are recorded."""

    def match(self, match_id: str) -> MatchSummary | None:
        """One match, or None when no match has that id."""

    def export_mat(self, match_id: str) -> str:
        """The match in GNU Backgammon's .mat text form; raises ``KeyError`` for an unknown id."""


@runtime_checkable
class AnalysisStore(Protocol):
    """Optional for a :class:`MatchStore`: the saved analysis reports (the panel tolerates stores
    without it and then says that analysis is not available)."""

    def analysis(self, match_id: str) -> dict[str, Any] | None:
        """The latest analysis of a match, or None: ``{"game": last game covered or None,
        "level", "time" (ISO 8601), "policy" ("teaching" | "tournament" | "condone"),
        "report": {"players", "engine", "totals": [{...}, {...}], "costliest": [{"player",
        "kind", "loss", "skill", "game", "move", "position_id", "match_id", "text",
        "drawing"?}, ...], ...}}`` (``controller.analysis.report.to_dict``)."""
