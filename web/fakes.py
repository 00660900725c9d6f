"""Stand-ins for the referee and the record, for tests, screenshots and ``python -m web``.

:class:`FakeControls` records every call and, given a hub, publishes what a referee would (a
fresh match after ``new_match``); :class:`MemoryMatchStore` holds matches and their .mat text.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from web.hub import PanelHub
from web.interfaces import MatchSettings, MatchSummary
from web.state import starting_state

EXAMPLE_MAT = """\
 7 point match

 Game 1
 Ada : 0                              Boris : 0
  1) 31: 8/5 6/5                      64: 24/18 13/9
  2) 52: 13/8 13/11                   Doubles => 2
  3)  Drops                           Wins 1 point

 Game 2
 Ada : 1                              Boris : 0
  1)                                  42: 8/4 6/4
  2) 63: 24/18 13/10                  Doubles => 2
  3)  Takes                           55: 8/3(2) 6/1(2)
  4) 21: 18/16 13/12                  Wins 2 points

"""


def example_matches() -> list[MatchSummary]:
    """Two recorded matches: one finished 7-point match and one money session in progress."""
    return [
        {
            "id": "m-20261130-01",
            "players": ["Ada", "Boris"],
            "length": 7,
            "score": [7, 4],
            "started": "2026-11-30T18:02:00+00:00",
            "finished": "2026-11-30T19:11:00+00:00",
            "games": [
                {"game": 1, "winner": 0, "points": 1, "score": [1, 0]},
                {"game": 2, "winner": 1, "points": 2, "score": [1, 2]},
                {"game": 3, "winner": 0, "points": 2, "score": [3, 2]},
                {"game": 4, "winner": 1, "points": 2, "score": [3, 4]},
                {"game": 5, "winner": 0, "points": 4, "score": [7, 4]},
            ],
        },
        {
            "id": "m-20261130-02",
            "players": ["Chaim", "Dalia"],
            "length": 0,
            "score": [1, 0],
            "started": "2026-11-30T19:30:00+00:00",
            "finished": None,
            "games": [{"game": 1, "winner": 0, "points": 1, "score": [1, 0]}],
        },
    ]


@dataclass
class FakeControls:
    """Records each call as ``(name, arguments)`` in :attr:`calls`; refuses when told to."""

    hub: PanelHub | None = None
    frame: bytes | None = None
    overlay: bytes | None = None
    refusal: str | None = None
    calls: list[tuple[str, Any]] = field(default_factory=list)

    def _record(self, name: str, arguments: Any) -> None:
        if self.refusal is not None:
            raise ValueError(self.refusal)
        self.calls.append((name, copy.deepcopy(arguments)))

    def new_match(self, settings: MatchSettings) -> None:
        self._record("new_match", settings)
        if self.hub is not None:
            state = starting_state(settings.players, settings.length)
            match = state["match"]
            match["variant"], match["policy"] = settings.variant, settings.policy
            match["hints"] = settings.hints
            state["match"]["id"] = f"fake-{len(self.calls)}"
            self.hub.publish(state)

    def resign(self, player: int, points: int) -> None:
        self._record("resign", {"player": player, "points": points})

    def undo(self) -> None:
        self._record("undo", None)

    def pause_clock(self, paused: bool) -> None:
        self._record("pause_clock", paused)

    def set_corners(self, corners: list[tuple[float, float]]) -> None:
        self._record("set_corners", corners)

    def latest_frame(self) -> bytes | None:
        return self.frame

    def calibration_overlay(self) -> bytes | None:
        return self.overlay


class MemoryMatchStore:
    """Matches held in memory, with their .mat text."""

    def __init__(
        self,
        matches: list[MatchSummary] | None = None,
        mat_texts: dict[str, str] | None = None,
    ) -> None:
        self._matches = example_matches() if matches is None else matches
        self._mat = {"m-20261130-01": EXAMPLE_MAT} if mat_texts is None else mat_texts

    def list_matches(self, offset: int = 0, limit: int | None = None) -> list[MatchSummary]:
        end = None if limit is None else offset + limit
        return copy.deepcopy(self._matches[offset:end])

    def match_count(self) -> int:
        return len(self._matches)

    def match(self, match_id: str) -> MatchSummary | None:
        for summary in self._matches:
            if summary["id"] == match_id:
                return copy.deepcopy(summary)
        return None

    def export_mat(self, match_id: str) -> str:
        if match_id not in self._mat:
            raise KeyError(match_id)
        return self._mat[match_id]


#: Where :func:`synthetic_frame` puts the board's corners (pixels of an 800 x 600 frame).
SYNTHETIC_CORNERS: tuple[tuple[int, int], ...] = ((90, 70), (710, 70), (710, 530), (90, 530))


def synthetic_frame(*, overlay: bool = False, width: int = 800, height: int = 600) -> bytes:
    """A JPEG of a drawn board seen from above (with the location regions outlined if
    ``overlay``), standing in for the camera on the calibration page. Needs OpenCV."""
    import cv2
    import numpy as np

    from sheshbesh.locations import LOCATIONS, BoardGeometry

    image = np.full((height, width, 3), (60, 60, 60), dtype=np.uint8)
    (left, top), _, (right, bottom), _ = SYNTHETIC_CORNERS
    board_w, board_h = right - left, bottom - top
    cv2.rectangle(image, (left, top), (right, bottom), (30, 58, 91), thickness=-1)
    geometry = BoardGeometry()
    field = geometry.field
    cv2.rectangle(
        image,
        (left + int(field.x * board_w), top + int(field.y * board_h)),
        (left + int((field.x + field.w) * board_w), top + int((field.y + field.h) * board_h)),
        (58, 93, 47),
        thickness=-1,
    )
    for name in LOCATIONS:
        region = geometry.region(name)
        x0, y0 = left + int(region.x * board_w), top + int(region.y * board_h)
        x1, y1 = x0 + int(region.w * board_w), y0 + int(region.h * board_h)
        if name.startswith("p"):
            apex_y = y0 if int(name[1:]) <= 12 else y1
            base_y = y1 if int(name[1:]) <= 12 else y0
            colour = (38, 53, 156) if int(name[1:]) % 2 else (166, 211, 232)
            triangle = np.array([[x0, base_y], [x1, base_y], [(x0 + x1) // 2, apex_y]], np.int32)
            cv2.fillPoly(image, [triangle], colour)
        if overlay:
            cv2.rectangle(image, (x0, y0), (x1, y1), (0, 220, 255), thickness=1)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise RuntimeError("OpenCV could not encode the synthetic frame")
    return bytes(encoded.tobytes())
