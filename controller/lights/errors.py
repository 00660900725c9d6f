"""The errors of the lights and buttons package."""

from __future__ import annotations

from sheshbesh.errors import SheshbeshError


class LightsError(SheshbeshError):
    """Root of the errors raised by ``controller.lights``."""


class SceneError(LightsError, ValueError):
    """A scene names an unknown location, light or flag, or a player that is not 0 or 1."""


class PinMapError(LightsError, ValueError):
    """The pin map file is missing, unreadable or inconsistent; the message names file and key."""


class LightsConfigError(LightsError, ValueError):
    """The lights or buttons configuration asks for an unknown kind or lacks a setting."""


class ButtonError(LightsError, ValueError):
    """A button name that the build does not have."""


class LinkError(LightsError, ConnectionError):
    """The serial link to the LED controller failed."""


class LinkTimeout(LinkError, TimeoutError):
    """The LED controller did not answer in time."""


class VersionMismatchError(LinkError):
    """The LED controller speaks another protocol version; flash matching firmware."""
