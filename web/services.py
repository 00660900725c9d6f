"""What one panel app holds: the hub, the referee's controls, the match store and the PIN guard."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from flask import current_app

from web.hub import PanelHub
from web.interfaces import Controls, MatchSettings, MatchStore, MatchSummary
from web.security import PinGuard

EXTENSION = "sheshbesh_panel"


@dataclass(slots=True)
class PanelServices:
    hub: PanelHub
    controls: Controls
    store: MatchStore
    pin_guard: PinGuard


def services() -> PanelServices:
    """The services of the app handling the current request."""
    return cast(PanelServices, current_app.extensions[EXTENSION])


class NoControls:
    """Controls when no referee is connected: every action is refused in plain words."""

    _REFUSAL = "no referee is connected to this panel"

    def new_match(self, settings: MatchSettings) -> None:
        raise ValueError(self._REFUSAL)

    def resign(self, player: int, points: int) -> None:
        raise ValueError(self._REFUSAL)

    def undo(self) -> None:
        raise ValueError(self._REFUSAL)

    def set_corners(self, corners: list[tuple[float, float]]) -> None:
        raise ValueError(self._REFUSAL)

    def latest_frame(self) -> bytes | None:
        return None

    def calibration_overlay(self) -> bytes | None:
        return None


class EmptyMatchStore:
    """A store with no matches (a panel started without a record)."""

    def list_matches(self, offset: int = 0, limit: int | None = None) -> list[MatchSummary]:
        return []

    def match_count(self) -> int:
        return 0

    def match(self, match_id: str) -> MatchSummary | None:
        return None

    def export_mat(self, match_id: str) -> str:
        raise KeyError(match_id)
