"""Dataset capture: labelled frames saved and read back."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sheshbesh.locations import LOCATIONS
from sheshbesh.observation import DieReading, LocationCount, Observation
from vision.capture import DatasetWriter, load_dataset


def test_saved_frames_come_back_with_their_labels(tmp_path: Path) -> None:
    label = Observation(
        locations={name: LocationCount(1 if name == "p6" else 0, 0) for name in LOCATIONS},
        dice=(DieReading(3),),
        frame=4,
    )
    writer = DatasetWriter(tmp_path)
    image = np.full((32, 48, 3), 77, np.uint8)
    first = writer.save(image, label)
    second = writer.save(image, label)
    assert (first.name, second.name) == ("000000.png", "000001.png")
    assert DatasetWriter(tmp_path).next_index == 2  # numbering goes on after a restart
    loaded = list(load_dataset(tmp_path))
    assert len(loaded) == 2
    path, pixels, read_label = loaded[0]
    assert path == first and np.array_equal(pixels, image)
    assert read_label.count("p6", "white") == 1 and read_label.dice[0].pips == 3
