"""``sheshbesh run --capture DIR``: a real board builds its own labelled test set while games are played."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.events import Event
from controller.table.table import Image
from sheshbesh.observation import CubeReading, LocationCount, Observation


def committed_observation(
    snapshot: Mapping[str, Any],
    time: float = 0.0,
    seen: Mapping[str, tuple[int, int]] | None = None,
) -> Observation:
    """What the referee holds true now (checkers, cube; no dice), as an Observation: a label.

    ``seen``: the checkers as the camera should see them (:meth:`Referee.visible_counts`: a Shesh
    Besh stack standing on a point is one checker); without it, the position's counts.
    """
    position = seen if seen is not None else snapshot.get("position") or {}
    locations = {
        name: LocationCount(int(counts[0]), int(counts[1])) for name, counts in position.items()
    }
    cube_state = snapshot.get("cube") or {}
    value = int(cube_state.get("value", 1))
    owner = cube_state.get("owner")
    place = "middle" if owner is None else ("white", "black")[int(owner)]
    cube = CubeReading(64 if value == 1 else value, place)
    return Observation(locations=locations, cube=cube, time=time)


class DatasetCapture:
    """Saves each frame on which a play was committed, labelled with the committed position.

    A real board builds its own test set while games are played, with no hand labelling
    (``sheshbesh run --capture DIR``; read back with :func:`vision.capture.load_dataset`).
    """

    def __init__(self, folder: str) -> None:
        from vision.capture import DatasetWriter

        self.writer = DatasetWriter(folder)
        self.saved = 0

    def __call__(
        self,
        image: Image,
        events: list[Event],
        snapshot: Mapping[str, Any],
        seen: Mapping[str, tuple[int, int]] | None = None,
    ) -> None:
        self.writer.save(image, committed_observation(snapshot, seen=seen))
        self.saved += 1
