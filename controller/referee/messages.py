"""What goes into the referee (inputs) and what comes out of it (effects).

The referee is a pure state machine: ``Referee.handle(input) -> list[Effect]``. Inputs are what the
board, the buttons, the clock and the panel's admin page report; effects are what a runner carries
out, in order: :class:`RecordEvent` first (append and commit to the event log), then lights, panel
and speech.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from controller.events import Event
from controller.lights.scene import DARK, Scene
from controller.referee.clock import PauseClock
from controller.referee.errors import RefereeInputError
from sheshbesh.match import POLICIES, VARIANTS, MatchSettings
from sheshbesh.observation import Observation

__all__ = [
    "BUTTONS",
    "POLICIES",
    "VARIANTS",
    "ButtonPressed",
    "Effect",
    "Input",
    "MatchSettings",
    "NewMatch",
    "ObservationSeen",
    "PanelState",
    "RecordEvent",
    "Resign",
    "Say",
    "ShowLights",
    "TakeBack",
    "Tick",
]
BUTTONS: Final[tuple[str, ...]] = (
    "done",
    "double",
    "take",
    "pass",
    "undo",
    "resign",
    "accept",
    "reject",
    "clock",
    "pause",
)


# -- inputs ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ObservationSeen:
    """Vision's reading of one frame."""

    observation: Observation


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A button on the board (or its twin on the panel); ``NAME-hold`` is a long press of NAME."""

    name: str

    def __post_init__(self) -> None:
        if self.name.removesuffix("-hold") not in BUTTONS:
            raise RefereeInputError(f"unknown button {self.name!r}; buttons are {BUTTONS}")


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock moved on (the runner sends one now and then, and once on resuming)."""

    now: float


@dataclass(frozen=True, slots=True)
class NewMatch:
    """Admin: start a new match with these settings."""

    settings: MatchSettings


@dataclass(frozen=True, slots=True)
class Resign:
    """Admin or panel: ``player`` offers to resign a single game (1), gammon (2) or backgammon (3)."""

    player: int
    points: int = 1

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise RefereeInputError(f"player must be 0 (White) or 1 (Black), not {self.player!r}")
        if self.points not in (1, 2, 3):
            raise RefereeInputError(
                f"resign points must be 1, 2 or 3 (times the cube), not {self.points!r}"
            )


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Admin: take back to the position recorded by event ``to`` (a sequence number) of this game."""

    to: int


Input = ObservationSeen | ButtonPressed | Tick | NewMatch | Resign | TakeBack | PauseClock


# -- effects -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordEvent:
    """Append ``event`` to the log and commit, before acting on anything that follows."""

    event: Event


@dataclass(frozen=True, slots=True)
class ShowLights:
    """Light the board as ``scene`` says."""

    scene: Scene = DARK


@dataclass(frozen=True, slots=True)
class PanelState:
    """The panel's whole picture (see ``Referee.snapshot``)."""

    snapshot: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Say:
    """A sentence for the players (panel message line, or speech)."""

    text: str


Effect = RecordEvent | ShowLights | PanelState | Say
