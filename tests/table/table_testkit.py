"""Shared by the table tests: what a flawless camera reports of the director's shots."""

from __future__ import annotations

from typing import Any

from controller.sim.director import Shot
from sheshbesh.locations import LOCATIONS
from sheshbesh.observation import CubeReading, DieReading, LocationCount, Observation


def perfect_reading(shot: Shot, time: float) -> Observation:
    """What a flawless camera reports of ``shot``."""
    if shot.hand:
        return Observation(locations={}, state="occluded", time=time)
    white, black = shot.table.white, shot.table.black
    counts = {name: [0, 0] for name in LOCATIONS}
    for index in range(24):
        counts[f"p{index + 1}"][0] += white[index]
        counts[f"p{24 - index}"][1] += black[index]
    counts["bar-white"][0], counts["bar-black"][1] = white[24], black[24]
    counts["off-white"][0], counts["off-black"][1] = 15 - sum(white), 15 - sum(black)
    return Observation(
        locations={name: LocationCount(w, b) for name, (w, b) in counts.items()},
        dice=tuple(DieReading(pips, half=half) for pips, half in shot.table.dice),
        cube=CubeReading(shot.table.cube_value, shot.table.cube_place),
        time=time,
    )


class ScriptedReader:
    """A board reader whose 'image' is the shot itself."""

    def observe(self, image: Any, time: float) -> Observation:
        assert isinstance(image, Shot)
        return perfect_reading(image, time)


def act_out(table: Any, runner: Any, shots: Any, clock: list[float], fps: float = 10.0) -> None:
    """Feed each shot to ``table`` for as many frames as it lasts; resignations as the panel would."""
    from controller.referee import ButtonPressed

    for shot in shots:
        for _ in range(max(1, round(shot.seconds * fps))):
            clock[0] += 1.0 / fps
            table.frame(shot, clock[0])
        if shot.resign is not None:
            runner.resign(*shot.resign)
            runner.feed(ButtonPressed("accept"))
