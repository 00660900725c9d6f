"""The table that takes each frame: frames in, settled observations to the referee, events out.

:class:`Table` joins a board reader (``vision``, through :mod:`controller.table.reader`) and the
runner (:class:`controller.table.runner.Runner`: the referee, the record first, then the lights and
the panel). ``sheshbesh run`` and ``sheshbesh demo`` both drive a :class:`Table`, opened by
:class:`controller.table.assembly.LiveTable`; they differ only in where frames come from (a camera,
or the synthetic renderer acting out a recorded match).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from controller.events import Event
from controller.referee import ObservationSeen, Tick
from controller.table.runner import Runner
from sheshbesh.observation import Observation

Image = npt.NDArray[np.uint8]
log = logging.getLogger("sheshbesh")


class BoardReader(Protocol):
    """Vision as the table sees it: one frame and its time in, an Observation out.

    The observation's ``state`` says whether the board is ``settled`` (trust it), ``moving`` or
    ``occluded`` (a hand over the board): only settled observations reach the referee.
    """

    def observe(self, image: Image, time: float) -> Observation: ...


def same_reading(a: Observation, b: Observation) -> bool:
    """Whether two observations show the same board, dice and cube (times and confidences aside)."""

    def cube(o: Observation) -> tuple[int, str] | None:
        return None if o.cube is None else (o.cube.value, o.cube.place)

    if cube(a) != cube(b):
        return False
    if [(d.pips, d.cocked, d.half) for d in a.dice] != [(d.pips, d.cocked, d.half) for d in b.dice]:
        return False
    names = set(a.locations) | set(b.locations)
    return all(
        (a.count(n, "white"), a.count(n, "black")) == (b.count(n, "white"), b.count(n, "black"))
        for n in names
    )


#: saves a frame on which a play was committed (``run --capture``): the frame, the events, the
#: referee's snapshot and the checkers as the camera should see them
Capture = Callable[[Image, list[Event], Mapping[str, Any], Mapping[str, tuple[int, int]]], None]


@dataclass
class TableStatus:
    """What the table knows of its own health, for the panel's status line."""

    frames: int = 0
    observations: int = 0
    camera: str = "none"
    last_error: str = ""
    latest_frame: Image | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: whether the camera shows the calibrated board: False from a frame read as not showing it
    #: (the light out, the lens covered, the camera knocked) until one is read settled again
    board_seen: bool = True


class Table:
    """Frames → settled observations → referee (record first) → lights and panel.

    ``on_event`` is called for every recorded event (the demo prints progress from it).
    """

    def __init__(
        self,
        reader: BoardReader,
        runner: Runner,
        on_event: Callable[[Event], None] | None = None,
        capture: Capture | None = None,
    ) -> None:
        self.reader = reader
        self.runner = runner
        self.on_event = on_event
        self.capture = capture
        self.status = TableStatus()
        self._last: Observation | None = None
        self._lock = threading.Lock()

    def frame(self, image: Image, time: float) -> list[Event]:
        """Process one camera frame taken at ``time`` (seconds); returns the events it recorded."""
        with self._lock:
            self.status.frames += 1
            self.status.latest_frame = image
            observation = self.reader.observe(image, time)
            if "unseen" in observation.extra:
                self.status.board_seen = False
            elif observation.state == "settled":
                self.status.board_seen = True
            events = list(self.runner.feed(Tick(time)))
            if observation.state == "settled" and (
                self._last is None or not same_reading(observation, self._last)
            ):
                self._last = observation
                self.status.observations += 1
                events += self.runner.feed(ObservationSeen(observation))
        if self.on_event is not None:
            for event in events:
                self.on_event(event)
        if self.capture is not None and any(event.type == "play" for event in events):
            referee = self.runner.referee
            self.capture(image, events, referee.snapshot(), referee.visible_counts())
        return events


def progress_line(snapshot: Mapping[str, Any]) -> str:
    """One progress line for the terminal from the panel snapshot."""
    match = snapshot.get("match") or {}
    players = match.get("players") or ["White", "Black"]
    score = match.get("score") or [0, 0]
    last = snapshot.get("last_play") or {}
    play = f" — {players[last['player']]} {last.get('play', '')}" if last else ""
    return f"game {match.get('game', 0)}: {players[0]} {score[0]}, {players[1]} {score[1]}{play}"
