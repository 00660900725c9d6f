"""Faults on a live table: the camera dies and comes back, the LED board fails, the process dies.

Each run plays a whole real match through the table (readings made perfect, see ``table_testkit``)
and must end with the same game results, plays and score as an undisturbed run.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from controller.lights import FakeLights
from controller.record.matfile import MatchFile, read_mat
from controller.record.store import Record
from controller.referee import ButtonPressed, MatchSettings, NewMatch
from controller.sim.demo import results_of
from controller.sim.director import FAST_TIMING, Shot, direct_match
from controller.table.runner import Runner
from controller.table.table import Table
from tests.table.table_testkit import ScriptedReader

MATCH = Path(__file__).resolve().parents[2] / "controller" / "data" / "demo-3pt.mat"


class FlakyLights(FakeLights):
    """An LED board whose link is down (every show raises) while ``down`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.failures = 0

    def show(self, scene: Any) -> None:
        if self.down:
            self.failures += 1
            raise ConnectionError("LED controller unplugged")
        super().show(scene)


def _settings(match: MatchFile) -> MatchSettings:
    return MatchSettings(players=match.players, length=match.length, match_id="m", hints=True)


def _plays(record: Record) -> list[tuple[Any, ...]]:
    return [
        (e.data["player"], e.data["play"], e.data["position_id"])
        for e in record.events("m")
        if e.type == "play"
    ]


def _open(path: Path, clock: list[float], lights: FakeLights) -> tuple[Record, Runner, Table]:
    record = Record(path)
    runner = Runner.resume(record, clock=lambda: clock[0], lights=[lights])
    return record, runner, Table(ScriptedReader(), runner)


def _run(
    path: Path,
    *,
    dead_camera: set[int] = frozenset(),  # type: ignore[assignment]
    restarts: set[int] = frozenset(),  # type: ignore[assignment]
    lights_down: set[int] = frozenset(),  # type: ignore[assignment]
) -> tuple[dict[str, Any], list[tuple[Any, ...]], FlakyLights]:
    match = read_mat(MATCH.read_text())
    clock = [0.0]
    lights = FlakyLights()
    record, runner, table = _open(path, clock, lights)
    runner.feed(NewMatch(_settings(match)))
    shots: list[Shot] = list(direct_match(match, FAST_TIMING))
    for index, shot in enumerate(shots):
        lights.down = index in lights_down
        if index in restarts:  # the process dies here and is started again on the same record
            record.close()
            record, runner, table = _open(path, clock, lights)
        for _ in range(max(1, round(shot.seconds * 10))):
            clock[0] += 0.1
            if index not in dead_camera:
                table.frame(shot, clock[0])  # type: ignore[arg-type]
        if shot.resign is not None:
            runner.resign(*shot.resign)
            runner.feed(ButtonPressed("accept"))
    result = results_of(record.events("m"))
    plays = _plays(record)
    record.close()
    return result, plays, lights


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[Any]]:
    result, plays, _ = _run(tmp_path_factory.mktemp("clean") / "record.sqlite")
    assert result["score"] == [6, 1]
    return result, plays


def _checker_moves(match: MatchFile) -> list[int]:
    """Indices of shots in which a checker has just been moved (mid-turn, dice still down)."""
    shots = list(direct_match(match, FAST_TIMING))
    return [
        i
        for i, shot in enumerate(shots)
        if "plays" in shot.caption and shot.hand and i + 3 < len(shots)
    ]


def test_camera_dies_mid_turn_and_comes_back(
    tmp_path: Path, undisturbed: tuple[dict[str, Any], list[Any]]
) -> None:
    match = read_mat(MATCH.read_text())
    moves = _checker_moves(match)
    rng = random.Random(5)
    dead = set()
    for start in rng.sample(moves, 6):  # the camera misses a checker being moved, six times
        dead.update({start, start + 1})
    result, plays, _ = _run(tmp_path / "record.sqlite", dead_camera=dead)
    assert (result, plays) == undisturbed


def test_led_link_drops_and_comes_back(
    tmp_path: Path, undisturbed: tuple[dict[str, Any], list[Any]]
) -> None:
    result, plays, lights = _run(tmp_path / "record.sqlite", lights_down=set(range(40, 120)))
    assert lights.failures > 0, "the LED board was down while the referee lit it"
    assert (result, plays) == undisturbed
    assert lights.is_connected


def test_process_killed_and_restarted_at_random_points(
    tmp_path: Path, undisturbed: tuple[dict[str, Any], list[Any]]
) -> None:
    match = read_mat(MATCH.read_text())
    count = len(list(direct_match(match, FAST_TIMING)))
    restarts = set(random.Random(11).sample(range(1, count), 25))
    result, plays, _ = _run(tmp_path / "record.sqlite", restarts=restarts)
    assert (result, plays) == undisturbed
