"""Tall stacks from the renderer through vision to the referee's reading of the board.

Real games pile 11 to 15 checkers on a point (a prime that collapses, a bear-in against a closed
board), on the bar or in a tray. The demo's camera (:class:`controller.sim.stage.Stage`) draws
them in layers; vision counts them, less sure where checkers hide each other; the referee's reading
(:func:`controller.referee.reading.read_board`) turns the counts into both sides' checkers, using
the fifteen a side to settle a count vision was unsure of.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from controller.record.matfile import read_mat
from controller.referee.reading import Board, Mismatch, read_board
from controller.sim.director import Shot, StillTable, direct_match
from controller.sim.stage import Stage, calibrated_reader
from sheshbesh.observation import LocationCount, Observation
from tests.shared_data import MATCHES_DIR
from vision.calibration import Calibration
from vision.reader import read_marker_board as read_frame

TALL_MATCHES = Path(__file__).resolve().parents[1] / "data" / "tall-stacks"


def side(**points: int) -> tuple[int, ...]:
    """25 counts in GNU Backgammon's order from ``p6=15``-style keywords (``bar`` for the bar)."""
    counts = [0] * 25
    for name, count in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = count
    return tuple(counts)


@pytest.fixture(scope="module")
def camera() -> tuple[Stage, Calibration]:
    """The demo's own camera (seed 7) and its calibration on the starting position."""
    stage = Stage(seed=7)
    calibration = calibrated_reader(stage).calibration
    assert isinstance(calibration, Calibration)  # the demo's camera is calibrated by its markers
    return stage, calibration


def seen(camera: tuple[Stage, Calibration], table: StillTable) -> Observation:
    stage, calibration = camera
    shot = Shot(table, 1.0, False, "a still board", 1)
    return read_frame(next(stage.frames(shot, 1)), calibration)


GENERATED: list[tuple[str, Sequence[int], Sequence[int]]] = [
    ("15 on each six-point", side(p6=15), side(p6=15)),
    ("15 on each ace-point, facing", side(p1=15), side(p1=15)),
    ("15 on the bar against 15 on a point", side(bar=15), side(p2=15)),
    ("15 borne off, 15 on the bar", side(), side(bar=15)),
    ("15 off against 11 and 4", side(), side(p5=11, p4=4)),
    ("12 and 3 against 13 and 2 on the bar", side(p8=12, p7=3), side(p13=13, bar=2)),
    ("14 and 1 against 11 on the bar-point", side(p3=14, p22=1), side(p7=11, p6=4)),
]


@pytest.mark.parametrize(
    ("white", "black"), [g[1:] for g in GENERATED], ids=[g[0] for g in GENERATED]
)
def test_generated_tall_stacks_go_through_render_read_and_referee(
    camera: tuple[Stage, Calibration], white: Sequence[int], black: Sequence[int]
) -> None:
    truth = Board(tuple(white), tuple(black))
    observation = seen(camera, StillTable(truth.white, truth.black))
    assert read_board(observation) == truth
    # where checkers lie on others, vision says it is unsure
    for name, (white_count, black_count) in truth.counts().items():
        if name.startswith(("p", "bar")) and max(white_count, black_count) >= 10:
            entry = observation.locations[name]
            assert max(entry.white_confidence, entry.black_confidence) < 0.9, name


def tallest_shot(path: Path) -> Shot:
    """The still moment of the match at ``path`` with the most checkers at one point or bar."""
    match = read_mat(path.read_text())
    return max(
        (shot for shot in direct_match(match) if not shot.hand),
        key=lambda shot: max(shot.table.white + shot.table.black),
    )


MATCH_FILES = sorted(MATCHES_DIR.glob("*.mat")) + sorted(TALL_MATCHES.glob("*.mat"))


@pytest.mark.parametrize("path", MATCH_FILES, ids=lambda p: p.name)
def test_the_tallest_stack_of_each_match_goes_through_render_read_and_referee(
    camera: tuple[Stage, Calibration], path: Path
) -> None:
    shot = tallest_shot(path)
    table = shot.table
    truth = Board(table.white, table.black)
    stage, calibration = camera
    observation = read_frame(next(stage.frames(shot, 1)), calibration)
    assert read_board(observation) == truth, shot.caption


def test_the_generated_matches_pile_more_than_ten() -> None:
    tallest = {
        path.name: max(tallest_shot(path).table.white + tallest_shot(path).table.black)
        for path in TALL_MATCHES.glob("*.mat")
    }
    assert len(tallest) >= 3 and min(tallest.values()) >= 11 and max(tallest.values()) == 15


def test_a_miscounted_layered_stack_is_settled_by_the_fifteen_a_side(
    camera: tuple[Stage, Calibration],
) -> None:
    white, black = side(p6=13, p5=2), side(p8=15)
    truth = Board(white, black)
    observation = seen(camera, StillTable(white, black))
    assert read_board(observation) == truth
    # one checker of the layered stack missed, as vision might: its count was unsure, so the
    # referee puts it back (White must have fifteen) ...
    entry = observation.locations["p6"]
    assert entry.white_confidence < 0.9
    missed = dict(observation.locations)
    missed["p6"] = dataclasses.replace(entry, white=entry.white - 1)
    assert read_board(dataclasses.replace(observation, locations=missed)) == truth
    # ... where a count vision was sure of stays as it was seen: a board mismatch
    sure = dict(missed)
    sure["p6"] = LocationCount(entry.white - 1, 0, 1.0, 1.0)
    sure = {name: LocationCount(c.white, c.black, 1.0, 1.0) for name, c in sure.items()}
    assert isinstance(read_board(dataclasses.replace(observation, locations=sure)), Mismatch)
