"""Dataset capture: frames labelled by the positions the referee committed, saved for tests.

Each call to :meth:`DatasetWriter.save` writes ``<n>.png`` (the frame) and ``<n>.json`` (the
Observation the referee accepted as true for it), so a real board builds its own test set while
games are played, with no hand labelling; ``sheshbesh run --capture`` also puts the calibration it
used beside them as ``calibration.json``. :func:`load_dataset` reads such a folder back.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2

from sheshbesh.observation import Observation
from vision.errors import ImageError
from vision.images import Image, check_image, load_image


class DatasetWriter:
    """Saves labelled frames into ``folder`` (created if missing), numbering on from what is there."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        taken = [int(p.stem) for p in self.folder.glob("*.json") if p.stem.isdigit()]
        self.next_index = max(taken, default=-1) + 1

    def save(self, image: Image, label: Observation) -> Path:
        """Write one frame and its label; returns the image's path."""
        image = check_image(image)
        stem = f"{self.next_index:06d}"
        path = self.folder / f"{stem}.png"
        if not cv2.imwrite(str(path), image):
            raise ImageError(f"could not write {str(path)!r}")
        (self.folder / f"{stem}.json").write_text(label.to_json() + "\n", encoding="utf-8")
        self.next_index += 1
        return path


def load_dataset(folder: str | Path) -> Iterator[tuple[Path, Image, Observation]]:
    """Each saved frame with its label, in order; a malformed label raises ObservationError."""
    for label_path in sorted(Path(folder).glob("*.json")):
        if not label_path.stem.isdigit():  # the calibration beside the frames, not a label
            continue
        image_path = label_path.with_suffix(".png")
        label = Observation.from_json(label_path.read_text(encoding="utf-8"))
        yield image_path, load_image(image_path), label
