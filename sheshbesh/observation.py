"""What vision reports of one settled frame, and how it travels as JSON.

``vision`` builds these; ``controller.referee`` consumes them. The JSON form is the contract of
``sheshbesh read``::

    {"frame": 12, "time": 3.5, "state": "settled",
     "locations": {"p1": {"white": 2, "black": 0, "white_confidence": 0.99, "black_confidence": 0.99}, ...},
     "dice": [{"pips": 3, "confidence": 0.98, "box": [x, y, w, h], "cocked": false}, ...],
     "cube": {"value": 2, "place": "white", "confidence": 0.97}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from sheshbesh.errors import SheshbeshError
from sheshbesh.locations import CUBE_PLACES, LOCATIONS

FrameState = Literal["settled", "moving", "occluded"]
FRAME_STATES: tuple[FrameState, ...] = ("settled", "moving", "occluded")


class ObservationError(SheshbeshError, ValueError):
    """An observation (or its JSON) is malformed; the message names the field."""


@dataclass(frozen=True, slots=True)
class LocationCount:
    """Checkers of each colour seen at one location, each count with a confidence in 0..1."""

    white: int = 0
    black: int = 0
    white_confidence: float = 1.0
    black_confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die: its pips (1..6), a confidence, where it lies (pixels: x, y, w, h), cocked or flat.

    ``half`` is the half of the board it rests in, seen from White's seat: ``"right"`` (White rolls
    there), ``"left"`` (Black's), or ``""`` when unknown (no board in the image).
    """

    pips: int
    confidence: float = 1.0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    cocked: bool = False
    half: str = ""


@dataclass(frozen=True, slots=True)
class CubeReading:
    """The doubling cube: the face showing (2..64; 64 in the middle means a stake of 1) and where."""

    value: int
    place: str
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class Observation:
    """One frame's reading. ``locations`` holds every name in :data:`sheshbesh.locations.LOCATIONS`."""

    locations: Mapping[str, LocationCount]
    dice: tuple[DieReading, ...] = ()
    cube: CubeReading | None = None
    state: FrameState = "settled"
    frame: int = 0
    time: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def count(self, location: str, colour: str) -> int:
        entry = self.locations.get(location, LocationCount())
        return entry.white if colour == "white" else entry.black

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.frame,
            "time": self.time,
            "state": self.state,
            "locations": {
                name: {
                    "white": c.white,
                    "black": c.black,
                    "white_confidence": round(c.white_confidence, 4),
                    "black_confidence": round(c.black_confidence, 4),
                }
                for name, c in self.locations.items()
            },
            "dice": [
                {
                    "pips": d.pips,
                    "confidence": round(d.confidence, 4),
                    "box": list(d.box),
                    "cocked": d.cocked,
                    "half": d.half,
                }
                for d in self.dice
            ],
            "cube": None
            if self.cube is None
            else {
                "value": self.cube.value,
                "place": self.cube.place,
                "confidence": round(self.cube.confidence, 4),
            },
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Observation:
        """Parse the JSON form; raises :class:`ObservationError` naming the bad field."""
        try:
            state = data.get("state", "settled")
            if state not in FRAME_STATES:
                raise ObservationError(f"observation state {state!r} is not one of {FRAME_STATES}")
            raw_locations = data.get("locations", {})
            locations: dict[str, LocationCount] = {}
            for name, entry in raw_locations.items():
                if name not in LOCATIONS:
                    raise ObservationError(f"observation names unknown location {name!r}")
                white, black = int(entry.get("white", 0)), int(entry.get("black", 0))
                if white < 0 or black < 0:
                    raise ObservationError(f"negative checker count at {name!r}: {entry!r}")
                locations[name] = LocationCount(
                    white,
                    black,
                    float(entry.get("white_confidence", 1.0)),
                    float(entry.get("black_confidence", 1.0)),
                )
            dice = []
            for die in data.get("dice", []) or []:
                pips = int(die["pips"])
                if not 1 <= pips <= 6:
                    raise ObservationError(f"die with {pips} pips in observation")
                box = tuple(int(v) for v in die.get("box", (0, 0, 0, 0)))
                if str(die.get("half", "")) not in ("", "left", "right"):
                    raise ObservationError(f"die half {die.get('half')!r} is not left or right")
                if len(box) != 4:
                    raise ObservationError(f"die box {box!r} is not [x, y, w, h]")
                dice.append(
                    DieReading(
                        pips,
                        float(die.get("confidence", 1.0)),
                        (box[0], box[1], box[2], box[3]),
                        bool(die.get("cocked", False)),
                        str(die.get("half", "")),
                    )
                )
            cube_data = data.get("cube")
            cube = None
            if cube_data is not None:
                value, place = int(cube_data["value"]), str(cube_data["place"])
                if value not in (2, 4, 8, 16, 32, 64):
                    raise ObservationError(f"cube face {value} is not a power of two from 2 to 64")
                if place not in CUBE_PLACES:
                    raise ObservationError(f"cube place {place!r} is not one of {CUBE_PLACES}")
                cube = CubeReading(value, place, float(cube_data.get("confidence", 1.0)))
            return cls(
                locations=locations,
                dice=tuple(dice),
                cube=cube,
                state=state,
                frame=int(data.get("frame", 0)),
                time=float(data.get("time", 0.0)),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ObservationError(f"malformed observation: {error!r} in {data!r:.200}") from error

    @classmethod
    def from_json(cls, text: str) -> Observation:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ObservationError(f"observation is not JSON ({error}): {text[:80]!r}") from error
        if not isinstance(data, dict):
            raise ObservationError(f"observation JSON is not an object: {text[:80]!r}")
        return cls.from_dict(data)
