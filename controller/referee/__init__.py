"""The referee: a pure state machine that follows a match over a real board.

>>> from controller.referee import MatchSettings, NewMatch, Referee
>>> referee = Referee(clock=lambda: 0.0)
>>> _ = referee.handle(NewMatch(MatchSettings(("Alice", "Bob"), length=5)))
>>> referee.snapshot()["match"]["players"]
['Alice', 'Bob']
"""

from controller.referee.clock import ClockSettings, ClockSettingsError, PauseClock
from controller.referee.errors import RefereeError, RefereeInputError, ReplayError
from controller.referee.messages import (
    BUTTONS,
    POLICIES,
    VARIANTS,
    ButtonPressed,
    Effect,
    Input,
    MatchSettings,
    NewMatch,
    ObservationSeen,
    PanelState,
    RecordEvent,
    Resign,
    Say,
    ShowLights,
    TakeBack,
    Tick,
)
from controller.referee.reading import Board, Mismatch, read_board
from controller.referee.referee import Referee
from sheshbesh.match import MatchSettingsError

__all__ = [
    "BUTTONS",
    "POLICIES",
    "VARIANTS",
    "Board",
    "ButtonPressed",
    "ClockSettings",
    "ClockSettingsError",
    "Effect",
    "Input",
    "MatchSettings",
    "MatchSettingsError",
    "Mismatch",
    "NewMatch",
    "ObservationSeen",
    "PanelState",
    "PauseClock",
    "RecordEvent",
    "Referee",
    "RefereeError",
    "RefereeInputError",
    "ReplayError",
    "Resign",
    "Say",
    "ShowLights",
    "TakeBack",
    "Tick",
    "read_board",
]
