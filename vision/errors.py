"""The vision package's error family, rooted in :class:`sheshbesh.errors.SheshbeshError`."""

from __future__ import annotations

from sheshbesh.errors import SheshbeshError


class VisionError(SheshbeshError):
    """Root of every error the vision package raises on purpose."""


class ImageError(VisionError, ValueError):
    """An image is missing, unreadable or of the wrong shape or type; the message names it."""


class BoardNotFoundError(VisionError, LookupError):
    """The board could not be located in a frame: ``board could not be located: <reason>``."""


class CalibrationError(VisionError, ValueError):
    """A calibration is malformed or does not fit the frame; the message names the field."""


class FrameSourceError(VisionError, OSError):
    """A camera, video or folder of frames could not be opened or stopped delivering frames."""
