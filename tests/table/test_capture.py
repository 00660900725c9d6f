"""Dataset capture: each committed play saves its frame, labelled with the position the referee holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from controller.record.matfile import read_mat
from controller.record.store import Record
from controller.referee import MatchSettings, NewMatch
from controller.referee.variants import sheshbesh_counts
from controller.rules.sheshbesh import SheshBeshGame
from controller.sim.director import FAST_TIMING, direct_match
from controller.table.capture import DatasetCapture
from controller.table.runner import Runner
from controller.table.table import Table
from sheshbesh.observation import Observation
from tests.table.table_testkit import perfect_reading
from vision.capture import load_dataset

MATCH = Path(__file__).resolve().parents[2] / "controller" / "data" / "demo-3pt.mat"


class ShotReader:
    """Reads the current shot perfectly, whatever the frame shows."""

    def __init__(self) -> None:
        self.shot: Any = None

    def observe(self, image: Any, time: float) -> Observation:
        return perfect_reading(self.shot, time)


def test_each_committed_play_saves_a_labelled_frame(tmp_path: Path) -> None:
    match = read_mat(MATCH.read_text())
    record = Record(":memory:")
    clock = [0.0]
    runner = Runner.resume(record, clock=lambda: clock[0])
    capture = DatasetCapture(str(tmp_path / "set"))
    reader = ShotReader()
    table = Table(reader, runner, capture=capture)
    runner.feed(NewMatch(MatchSettings(players=match.players, length=3, match_id="m")))
    truths = []
    shots = list(direct_match(match, FAST_TIMING))[:80]
    for number, shot in enumerate(shots):
        reader.shot = shot
        frame = np.full((24, 32, 3), number, np.uint8)  # tells which shot a saved frame came from
        plays_before = sum(e.type == "play" for e in record.events("m"))
        for _ in range(max(1, round(shot.seconds * 10))):
            clock[0] += 0.1
            table.frame(frame, clock[0])
        if sum(e.type == "play" for e in record.events("m")) > plays_before:
            truths.append((number, perfect_reading(shot, 0.0)))
    saved = list(load_dataset(tmp_path / "set"))
    assert capture.saved == len(truths) == sum(e.type == "play" for e in record.events("m"))
    assert len(saved) >= 5
    for (_, image, label), (number, truth) in zip(saved, truths, strict=True):
        assert int(image[0, 0, 0]) == number
        for name, count in truth.locations.items():
            assert (label.count(name, "white"), label.count(name, "black")) == (
                count.white,
                count.black,
            )
        assert label.dice == ()
        assert label.cube is not None and truth.cube is not None
        assert (label.cube.value, label.cube.place) == (truth.cube.value, truth.cube.place)


def test_a_shesh_besh_frame_is_labelled_as_the_camera_sees_it(tmp_path: Path) -> None:
    # a Shesh Besh stack standing on a point looks like one checker: the label says so, where
    # the position the referee holds counts every checker of the stack
    runner = Runner.resume(Record(":memory:"), clock=lambda: 0.0)
    settings = MatchSettings(players=("A", "B"), length=3, variant="sheshbesh", match_id="s")
    runner.feed(NewMatch(settings))
    referee = runner.referee
    seen = referee.visible_counts()
    assert seen == sheshbesh_counts(SheshBeshGame.initial(0))
    capture = DatasetCapture(str(tmp_path / "set"))
    capture(np.zeros((24, 32, 3), np.uint8), [], referee.snapshot(), seen)
    ((_path, _image, label),) = list(load_dataset(tmp_path / "set"))
    assert label.count("p6", "white") == 1 and label.count("p19", "black") == 1
    for name, (white, black) in seen.items():
        assert (label.count(name, "white"), label.count(name, "black")) == (white, black), name
