"""What goes into the referee (inputs) and what comes out of it (effects).

The referee is a pure state machine: ``Referee.handle(input) -> list[Effect]``. Inputs are what the
board, the buttons, the clock and the panel's admin page report; effects are what a runner carries
out, in order: :class:`Record` first (append and commit to the event log), then lights, panel and
speech.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from controller.events import Event
from controller.lights.scene import DARK, Scene
from controller.referee.clock import ClockSettings, PauseClock
from controller.referee.errors import RefereeInputError
from sheshbesh.observation import Observation

VARIANTS: Final[tuple[str, ...]] = ("backgammon", "sheshbesh")
POLICIES: Final[tuple[str, ...]] = ("teaching", "tournament", "condone")
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


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is played. ``length`` 0 is a money session.

    Raises :class:`RefereeInputError` naming the bad setting.

    >>> MatchSettings(("Alice", "Bob"), length=5).crawford
    True
    """

    players: tuple[str, str] = ("White", "Black")
    length: int = 7
    crawford: bool = True
    jacoby: bool | None = None
    beavers: bool = False
    variant: str = "backgammon"
    policy: str = "tournament"
    hints: bool = True
    match_id: str | None = None
    #: the match clock (None: no clock, the default; nothing about a clock is then recorded)
    clock: ClockSettings | None = None

    def __post_init__(self) -> None:
        if len(self.players) != 2 or not all(isinstance(p, str) and p for p in self.players):
            raise RefereeInputError(f"players must be two names, not {self.players!r}")
        if not isinstance(self.length, int) or self.length < 0:
            raise RefereeInputError(f"match length must be 0 (money) or more, not {self.length!r}")
        if self.variant not in VARIANTS:
            raise RefereeInputError(f"variant {self.variant!r} is not one of {VARIANTS}")
        if self.policy not in POLICIES:
            raise RefereeInputError(f"policy {self.policy!r} is not one of {POLICIES}")
        if self.beavers and self.length:
            raise RefereeInputError("beavers are for money sessions (length 0), not match play")

    @property
    def uses_jacoby(self) -> bool:
        """Jacoby applies: on by default in money play, never in match play."""
        if self.length:
            return False
        return True if self.jacoby is None else self.jacoby

    def to_data(self, match_id: str) -> dict[str, Any]:
        """The ``match_started`` event data."""
        data: dict[str, Any] = {
            "id": match_id,
            "players": list(self.players),
            "length": self.length,
            "crawford": self.crawford,
            "jacoby": self.uses_jacoby,
            "beavers": self.beavers,
            "variant": self.variant,
            "policy": self.policy,
            "hints": self.hints,
        }
        if self.clock is not None:
            data["clock"] = self.clock.to_data()
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchSettings:
        """Read the ``match_started`` event data back."""
        players = data.get("players", ["White", "Black"])
        try:
            return cls(
                players=(str(players[0]), str(players[1])),
                length=int(data.get("length", 0)),
                crawford=bool(data.get("crawford", True)),
                jacoby=bool(data.get("jacoby", False)),
                beavers=bool(data.get("beavers", False)),
                variant=str(data.get("variant", "backgammon")),
                policy=str(data.get("policy", "tournament")),
                hints=bool(data.get("hints", True)),
                match_id=data.get("id"),
                clock=None if data.get("clock") is None else ClockSettings.from_data(data["clock"]),
            )
        except (IndexError, TypeError, ValueError) as error:
            raise RefereeInputError(
                f"malformed match_started data {dict(data)!r}: {error}"
            ) from error


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
class Undo:
    """Admin: take back to the position recorded by event ``to`` (a sequence number) of this game."""

    to: int


Input = ObservationSeen | ButtonPressed | Tick | NewMatch | Resign | Undo | PauseClock


# -- effects -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
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


Effect = Record | ShowLights | PanelState | Say
