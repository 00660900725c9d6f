"""Thresholds of the reader, in one place; a JSON file may override any of them.

>>> ReaderConfig.from_dict({"rim_fraction": 0.7}).rim_fraction
0.7
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from vision.errors import CalibrationError


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """Every threshold the board reader uses.

    ``rim_fraction``: share of rays from a slot's centre that must look like a checker's for a
    checker to be seen there; ``ray_match``: the normalised correlation a ray needs with the learned
    checker profile; ``shape_weight``: how much that shape cue adds to the colour cue;
    ``mixed_penalty``: taken from the score of a second-layer checker unlike the row under it;
    ``colour_separation``: how far (Lab) the empty board must be from both checker colours for the
    colour cue to count in full (nearer, it counts in proportion and the shape decides);
    ``plain_face``: the spread of grey levels over a checker's face above which it is not plain (a
    die's pips), and ``die_face_penalty`` what that takes from the slot's score where no
    second-layer checker could lie over the face; ``cocked_squash``: a lone pip whose short/long axis ratio is below
    this is on a cocked die; ``cocked_elongation``: for several pips, their mean elongation times
    the agreement of their long axes above which the die is cocked; ``still_seconds``: how long the board must be still to be settled;
    ``motion_level`` and ``motion_fraction``: a pixel whose grey level changes by more than the
    first between frames has moved, and more than the second share of moved pixels is movement;
    ``occlusion_level``: how far (Lab) a pixel of the band around the board must be from the
    calibration frame to count as covered;
    ``occlusion_fraction``: share of the band around the board that must change to be occluded.

    Dice: ``die_change`` is how far (Lab) from the empty board a pixel must be to be part of
    something new; ``checker_clearance`` how far round a seen checker (in its radii) nothing is
    taken for a die; ``die_fill`` the gap (in die sides) closed between a die's pips, outline and
    shadow; ``die_core`` the width (in die sides) of the disc that must fit inside a die, which a
    checker's rim or the gap between checkers does not hold, and ``die_widest`` the widest that
    may (a broad shadow or a hand holds more); ``die_candidates`` how many places
    are read at most; ``pip_on_face`` the share of a ring round a pip that must be die (its colour
    or other pips); ``cocked_squash_grid`` how far (log of the ratio) the spread of 4 to 6 pips
    may be from a flat face's before the die is cocked; ``cocked_aspect`` the short over long
    side of a cleanly seen face below which the die is cocked.
    """

    rim_fraction: float = 0.6
    ray_match: float = 0.8
    shape_weight: float = 0.7
    mixed_penalty: float = 0.6
    colour_separation: float = 50.0
    plain_face: float = 40.0
    die_face_penalty: float = 1.0
    die_change: float = 16.0
    die_core: float = 0.8
    die_widest: float = 1.5
    die_fill: float = 0.5
    die_candidates: int = 8
    checker_clearance: float = 1.25
    die_body_distance: float = 28.0
    pip_contrast: float = 45.0
    pip_on_face: float = 0.7
    light_die: float = 150.0
    most_dice: int = 2
    cube_body_distance: float = 22.0
    cube_presence: float = 0.35
    cocked_squash: float = 0.86
    cocked_elongation: float = 0.06
    cocked_squash_grid: float = 0.15
    cocked_aspect: float = 0.85
    still_seconds: float = 0.6
    motion_level: float = 30.0
    motion_fraction: float = 0.002
    occlusion_fraction: float = 0.015
    occlusion_level: float = 25.0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReaderConfig:
        """Build from a mapping; raises :class:`CalibrationError` on unknown keys or non-numbers."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise CalibrationError(
                f"unknown reader settings {sorted(unknown)}; known: {sorted(known)}"
            )
        try:
            types = {f.name: f.type for f in fields(cls)}
            values: dict[str, Any] = {
                k: int(v) if types[k] in ("int", int) else float(v) for k, v in data.items()
            }
            return cls(**values)
        except (TypeError, ValueError) as error:
            raise CalibrationError(f"reader setting is not a number: {error}") from error

    @classmethod
    def load(cls, path: str | Path) -> ReaderConfig:
        try:
            return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as error:
            raise CalibrationError(
                f"reader settings {str(path)!r} cannot be read: {error}"
            ) from error

    def to_dict(self) -> dict[str, float]:
        return asdict(self)
